@testable import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The HTML review page (`flowlens export --format html`): its structure as text, and its behaviour
/// in a real headless Chromium (scripts/check-review-page.py).
@Suite("Review page")
struct ReviewPageTests {
    /// Runs scripts/check-review-page.py on `page`; exit 2 means chromium or Playwright is missing.
    func checkInChromium(_ page: String, arguments: [String] = []) throws -> Run {
        try run("/usr/bin/env", ["python3", "scripts/check-review-page.py", page] + arguments)
    }

    /// Where tests leave files for people to look at (screenshots).
    static let testOutput = packageRoot + "/.build/test-output"

    @Test("export --format html writes one page for the run, and report.json, with the same exit status as check")
    func writesOnePage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["export", "samples", "--output", directory, "--format", "html"])
        // samples/ has files FlowLens cannot read (invalid-input), so the status is 2, as for check.
        #expect(run.status == 2, "\(run.stderr)")
        #expect(!run.stderr.contains("Signal"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["index.html", "report.json"])
        let page = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        let report = try flowlens(["check", "samples", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let flows = json["flows"] as? [Any]
        #expect(page.components(separatedBy: "<section class=\"flow ").count - 1 == flows?.count)
        // The page's summary counts what check reports.
        let severities = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["severity"] as? String }
        let counts = ["error", "warning", "note"].map { word in (severities.filter { $0 == word }.count, word) }
        #expect(counts[0].0 > 0 && counts[1].0 > 0 && counts[2].0 > 0)
        #expect(page.contains(counts.map { "\($0.0) \($0.1)s" }.joined(separator: ", ")), "\(counts)")
    }

    @Test("output/review/index.html is what 'flowlens export samples --output output/review --format html' writes")
    func committedPageIsFresh() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try flowlens(["export", "samples", "--output", directory, "--format", "html"])
        let mismatch = Picture.mismatch(FileManager.default.contents(atPath: packageRoot + "/output/review/index.html"),
                                        FileManager.default.contents(atPath: directory + "/index.html"), name: "index.html")
        #expect(mismatch == nil, "output/review/index.html is stale: run scripts/setup.sh and commit output/\n\(mismatch ?? "")")
    }

    @Test("the samples' page loads in Chromium without console errors or requests, and every finding highlights its element", .needs(.chromium))
    func samplesInChromium() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try flowlens(["export", "samples", "--output", directory, "--format", "html"])
        try FileManager.default.createDirectory(atPath: Self.testOutput, withIntermediateDirectories: true)
        let screenshot = Self.testOutput + "/review-page.png"
        try? FileManager.default.removeItem(atPath: screenshot)
        let run = try checkInChromium(directory + "/index.html", arguments: ["--screenshot", screenshot, "--flow", "Checkout"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try #require(FileManager.default.contents(atPath: screenshot), "no screenshot at \(screenshot)")
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        Attachment.record(image, named: "review-page.png")
    }

    /// Writes `report`'s page to `.build/test-output/NAME/index.html` and checks it in Chromium, leaving
    /// the screenshots `NAME.png` (the section of `flow`) and `NAME-index.png` (the page's first window)
    /// beside the folder for people to look at.
    func checkWithScreenshots(_ report: Report, name: String, flow: String) throws {
        let folder = Self.testOutput + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ReviewPage().render(report).write(toFile: folder + "/index.html", atomically: true, encoding: .utf8)
        let screenshot = Self.testOutput + "/\(name).png", index = Self.testOutput + "/\(name)-index.png"
        for file in [screenshot, index] { try? FileManager.default.removeItem(atPath: file) }
        let run = try checkInChromium(folder + "/index.html", arguments: ["--screenshot", screenshot, "--flow", flow, "--index-screenshot", index])
        #expect(run.status == 0, "\(name): \(run.stderr)")
        for file in [screenshot, index] {
            let image = try #require(FileManager.default.contents(atPath: file), "no screenshot at \(file)")
            #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            Attachment.record(image, named: (file as NSString).lastPathComponent)
        }
    }

    @Test("in Chromium, with screenshots: a small flow, a generated 1000-step flow and a FlowKit machine with a composite state", .needs(.chromium))
    func screenshots() throws {
        let small = FlowLens.check(["samples/declarative/broken/missing-data-key.flow.yaml"], workingDirectory: packageRoot)
        try checkWithScreenshots(small, name: "review-small", flow: "Delivery")
        let large = FlowLens.analyze(FlowGraph(flows: [LargeFlow.make(steps: 1000)]))
        #expect(large.graph.flows[0].steps.count >= 1000)
        try checkWithScreenshots(large, name: "review-large", flow: "Large order pipeline")
        let machine = FlowLens.check(["samples/flowkit/LoginFlow.puml", "samples/flowkit/LoginFlowController.swift"], workingDirectory: packageRoot)
        #expect(machine.graph.flows.contains { $0.parent != nil }, "Login Flow has a composite state")
        try checkWithScreenshots(machine, name: "review-flowkit", flow: "Login Flow")
    }

    @Test("a page of 100 flows, some with problems, works in Chromium; screenshots of its index and a flow", .needs(.chromium))
    func hundredFlows() throws {
        // One to nine segments: from four on a flow has a missing key (an error), from eight an unused one too.
        let flows = (0..<100).map { n -> Flow in
            var flow = LargeFlow.make(steps: LargeFlow.segmentSize * (1 + n % 9), errorEvery: 1 + n % 3)
            flow.id = "pipeline-\(n)"
            flow.name = ["Order pipeline", "Returns desk", "Stock count", "Courier hand-over"][n % 4] + " \(n + 1)"
            return flow
        }
        let report = FlowLens.analyze(FlowGraph(flows: flows))
        let statuses = Set(flows.map { FlowStatus(of: $0, findings: report.findings, flows: flows).cssClass })
        #expect(statuses == ["status-clean", "status-error"] && !report.warnings.isEmpty, "\(statuses)")
        try checkWithScreenshots(report, name: "review-100-flows", flow: "Courier hand-over 96")
    }

    /// Names and descriptions that would be markup or script if the page did not escape them.
    static let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(2)>",
        "</svg><svg onload=alert(3)>",
        "javascript:alert(4)",
        "' onmouseover='alert(5)",
        "<a href=\"https://example.com\">x</a>",
    ]

    /// The review page of a flow named with `hostile` texts, exported into `directory`; its path.
    func hostilePage(in directory: String) throws -> String {
        let hostile = Self.hostile
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        try """
            version: 1
            flows:
              - name: \(quoted(hostile[0]))
                description: \(quoted(hostile[5]))
                data: {\(quoted(hostile[3])): String}
                steps:
                  - id: a
                    name: \(quoted(hostile[1]))
                    reads: {\(quoted(hostile[4])): Int}
                    next: b
                  - id: b
                    name: \(quoted(hostile[2]))
                    kind: end
            """.write(toFile: directory + "/evil.flow.yaml", atomically: true, encoding: .utf8)
        let out = directory + "/out"
        let run = try flowlens(["export", directory + "/evil.flow.yaml", "--output", out, "--format", "html"])
        #expect(run.status == 1, "\(run.stderr)")
        return out + "/index.html"
    }

    @Test("user text cannot inject markup or script: hostile names are shown as text on the page")
    func hostileText() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = try String(contentsOfFile: try hostilePage(in: directory), encoding: .utf8)
        for text in Self.hostile where text.contains("<") { #expect(!page.contains(text), "unescaped: \(text)") }
        #expect(page.components(separatedBy: "<script").count == 2, "only the page's own script")
    }

    @Test("user text cannot inject markup or script: hostile names are shown as text in Chromium", .needs(.chromium))
    func hostileTextInChromium() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chromium = try checkInChromium(try hostilePage(in: directory), arguments: Self.hostile.flatMap { ["--hostile", $0] })
        #expect(chromium.status == 0, "\(chromium.stderr)")
    }

    @Test("every finding, path and missing-key button targets ids that are on the page, once")
    func targetsExist() throws {
        let report = FlowLens.check(["samples"], workingDirectory: packageRoot)
        let page = ReviewPage().render(report)
        let targets = page.matches(of: /data-target="([^"]*)"/).flatMap { $0.output.1.split(separator: " ").map(String.init) }
        #expect(targets.count > 30)
        for target in Set(targets) {
            #expect(page.components(separatedBy: " id=\"\(target)\"").count == 2, "\(target)")
        }
        // Edges are found by their Graphviz title: a FlowKit transition finding and a declarative one.
        #expect(targets.contains { $0.contains("-edge") })
        // Graphviz's tooltips (generated node names) and XML prolog are gone.
        #expect(!page.contains("<title>s"))
        #expect(!page.contains("<?xml"))
    }

    @Test("the page is deterministic, and its CSP hashes are those of its script and style")
    func deterministicAndCSP() throws {
        let report = FlowLens.check(["samples/declarative", "samples/flowkit"], workingDirectory: packageRoot)
        let first = ReviewPage().render(report)
        #expect(first == ReviewPage().render(report))
        #expect(first.contains("script-src 'sha256-\(Data(SHA256.digest(ReviewPage.script)).base64EncodedString())'"))
        // The digest itself: FIPS 180-4's "abc" vector, as bytes.
        #expect(SHA256.digest("abc").map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(first.contains("<script>\(ReviewPage.script)</script>"))
        #expect(first.contains("<style>\(ReviewPage.style)</style>"))
        #expect(first.contains("default-src 'none'"))
    }

    @Test("the data table lists who sets and reads each key, its types, and where it is missing; paths are sentences")
    func dataAndPaths() throws {
        let graph = FlowLensTestSupport.load("""
            version: 1
            flows:
              - name: Sign in
                data: {email: String, mode: String}
                steps:
                  - id: choose
                    name: Choose mode
                    kind: branch
                    reads: {mode: String}
                    next:
                      - {to: guest, when: {key: mode, equals: guest}}
                      - {to: check}
                  - {id: guest, name: Guest name, next: done}
                  - {id: check, name: Check email, reads: {email: String}, writes: {token: Token}, next: done}
                  - {id: done, name: Welcome, reads: {token: Token}, kind: end}
            """)
        let report = FlowLens.analyze(graph)
        let page = ReviewPage().render(report)
        let data = try #require(page.range(of: "<details class=\"data\"").map { String(page[$0.lowerBound...]) })
        #expect(data.contains("<th scope=\"row\"><code>email</code></th><td>the start</td><td>Check email</td><td><code>String</code></td>"))
        #expect(data.contains("<th scope=\"row\"><code>token</code></th><td>Check email</td><td>Welcome</td><td><code>Token</code></td>"))
        // token is missing on the guest path: a button that shows that path (its steps and edges).
        let missing = try #require(data.firstMatch(of: /<button type="button" class="path missing" data-target="([^"]*)">missing when Welcome reads it, on path (\d+)</))
        #expect(missing.output.2 == "1", "the guest path is listed first")
        let ids = missing.output.1.split(separator: " ").map(String.init)
        #expect(ids.contains("f0-step-1") && ids.contains("f0-step-3") && !ids.contains("f0-step-2"), "\(ids)")
        #expect(ids.contains { $0.hasPrefix("f0-edge") })
        for id in ids { #expect(page.contains(" id=\"\(id)\""), "\(id)") }
        // Paths as sentences, the step names in bold and the condition's key and value in italics.
        #expect(page.contains("If <em>mode</em> is <em>guest</em>: <strong>Guest name</strong>"), "\(page)")
        #expect(page.contains("<summary><h3>Paths from start to end</h3> <span class=\"muted\">(2)</span></summary>"))
    }

    @Test("one status everywhere: a finding inside a sub-machine or an invalid-input of the flow counts in its header and index, a note is not 'no problems', a warning row is not red")
    func oneStatus() throws {
        let (camera, capture) = cameraWithCaptureMachine()
        let gallery = Flow(id: "Gallery", kind: .declarative,
                           steps: [Step(id: "open", name: "Open album", writes: [DataAccess(key: "albumID")]), Step(id: "done", kind: .end)],
                           transitions: [Transition(from: "open", to: "done")])
        let notes = Flow(id: "Notes", kind: .declarative, steps: [Step(id: "only")])
        let broken = Flow(id: "Broken", kind: .declarative, steps: [Step(id: "a")])
        let findings = [
            Finding(rule: "stuck-step", severity: .error, message: "Focus never leaves.", location: nil, flow: "Capture", step: "Focus"),
            Finding(rule: "unused-data-key", severity: .warning, message: "albumID is never read.", location: nil, flow: "Gallery", step: "open", key: "albumID"),
            Finding(rule: "unanalyzable-flow", severity: .note, message: "Partly read.", location: nil, flow: "Notes"),
            Finding(rule: "invalid-input", severity: .error, message: "Bad line.", location: SourceLocation(file: "broken.flow.yaml", line: 4), flow: "Broken"),
        ]
        let report = Report(graph: FlowGraph(flows: [camera, capture, gallery, notes, broken]), findings: findings)
        let page = ReviewPage().render(report)
        func section(_ n: Int) throws -> String {
            let start = try #require(page.range(of: "<section class=\"flow "))
            let sections = page[start.lowerBound...].components(separatedBy: "<section class=\"flow ").dropFirst()
            return String(Array(sections)[n])
        }
        let cameraSection = try section(0)
        #expect(cameraSection.hasPrefix("status-error"))
        #expect(cameraSection.contains("<span class=\"badge error\">✖ 1 error</span>") && !cameraSection.contains("no problems"))
        #expect(cameraSection.contains("Focus never leaves."))
        let index = try #require(page.range(of: "<table class=\"index\">").map { String(page[$0.lowerBound...]) })
        let rows = index.components(separatedBy: "<tr class=\"").dropFirst().prefix(5).map { String($0.prefix(while: { $0 != "\"" })) }
        #expect(rows == ["status-error", "status-error", "status-warning", "status-note", "status-error"], "\(rows)")
        #expect(try section(3).contains("<span class=\"badge note\">◆ 1 note</span>"))
        #expect(try section(4).contains("Bad line.") && section(4).hasPrefix("status-error"))
        let galleryData = try section(2)
        #expect(galleryData.contains("<tr class=\"has-problems worst-warning\">"))
        #expect(galleryData.contains("<span class=\"sev-warning\">▲ set but never read: albumID</span>"))
        #expect(!galleryData.contains("worst-error") && !galleryData.contains("✖"))
    }

    @Test("each diagram has zoom buttons and is focusable; the search box matches flows by name, step and key")
    func zoomAndSearch() throws {
        let flow = Flow(id: "pay", name: "Pay <Invoice>", kind: .declarative,
                        steps: [Step(id: "a", name: "Check Credit", reads: [DataAccess(key: "cardToken")]), Step(id: "b", kind: .end)],
                        transitions: [Transition(from: "a", to: "b")])
        let page = ReviewPage().render(Report(graph: FlowGraph(flows: [flow]), findings: []))
        #expect(page.contains("data-search=\"pay &lt;invoice&gt;\ncheck credit\nb\ncardtoken\""))
        #expect(page.components(separatedBy: "data-search=").count == 3)  // the index row and the section
        for zoom in ["in", "out", "fit"] { #expect(page.contains("<button type=\"button\" data-zoom=\"\(zoom)\"")) }
        #expect(page.contains("<figure class=\"diagram\" tabindex=\"0\""))
        #expect(page.contains("<input type=\"search\" id=\"search\""))
    }

    @Test("bidirectional and zero-width controls in names and messages are shown visibly on the page")
    func hiddenCharacters() throws {
        let flow = Flow(id: "refund", name: "Refund \u{202E}gnp.exe\u{202C}", kind: .declarative, steps: [Step(id: "a", name: "Pay\u{200B}out\u{2066}")])
        let finding = Finding(rule: "dead-end", severity: .warning, message: "Step \u{FEFF}a stops.", location: nil, flow: "refund", step: "a")
        let page = ReviewPage().render(Report(graph: FlowGraph(flows: [flow]), findings: [finding]))
        #expect(!page.unicodeScalars.contains { [0x202E, 0x202C, 0x200B, 0x2066, 0xFEFF].contains($0.value) })
        #expect(page.contains("Refund &lt;U+202E&gt;gnp.exe&lt;U+202C&gt;"))
        #expect(page.contains("Step &lt;U+FEFF&gt;a stops."))
        #expect(page.contains("Pay&lt;U+200B&gt;out&lt;U+2066&gt;"))  // in the diagram's SVG
    }

    @Test("a large flow (the large-flow layout: xlabels, concentrated edges): every button's targets are on the page")
    func largeFlow() throws {
        let report = FlowLens.analyze(FlowGraph(flows: [LargeFlow.make(steps: 200)]))
        #expect(report.graph.flows[0].steps.count > DOTBuilder.largeFlowSteps)
        let page = ReviewPage().render(report)
        let targets = page.matches(of: /data-target="([^"]*)"/).flatMap { $0.output.1.split(separator: " ").map(String.init) }
        #expect(targets.count > 50)
        for target in Set(targets) {
            #expect(page.components(separatedBy: " id=\"\(target)\"").count == 2, "\(target)")
        }
    }
}
