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
        let flows = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])["flows"] as? [Any]
        #expect(page.components(separatedBy: "<section class=\"flow ").count - 1 == flows?.count)
        #expect(page.contains("39 errors, 10 warnings, 2 notes"))
    }

    @Test("output/review/index.html is what 'flowlens export samples --output output/review --format html' writes")
    func committedPageIsFresh() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try flowlens(["export", "samples", "--output", directory, "--format", "html"])
        let committed = FileManager.default.contents(atPath: packageRoot + "/output/review/index.html")
        #expect(committed == FileManager.default.contents(atPath: directory + "/index.html"),
                "output/review/index.html is stale: run scripts/setup.sh and commit output/")
    }

    @Test("the samples' page loads in Chromium without console errors or requests, and every finding highlights its element")
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

    @Test("user text cannot inject markup or script: hostile names are shown as text, in the page and in Chromium")
    func hostileText() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hostile = [
            "<script>alert(1)</script>",
            "\"><img src=x onerror=alert(2)>",
            "</svg><svg onload=alert(3)>",
            "javascript:alert(4)",
            "' onmouseover='alert(5)",
            "<a href=\"https://example.com\">x</a>",
        ]
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
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        for text in hostile where text.contains("<") { #expect(!page.contains(text), "unescaped: \(text)") }
        #expect(page.components(separatedBy: "<script").count == 2, "only the page's own script")
        let chromium = try checkInChromium(out + "/index.html", arguments: hostile.flatMap { ["--hostile", $0] })
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
