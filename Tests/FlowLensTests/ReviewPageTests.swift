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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "scripts/check-review-page.py", page] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
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
        #expect(page.contains("38 errors, 9 warnings, 2 notes"))
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

    @Test("every finding drawn on a diagram is a button whose target id is on the page, once")
    func targetsExist() throws {
        let report = FlowLens.check(["samples"], workingDirectory: packageRoot)
        let page = ReviewPage().render(report)
        let targets = page.matches(of: /data-target="([^"]*)"/).map { String($0.output.1) }
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
        #expect(first.contains("script-src 'sha256-\(SHA256.base64Digest(ReviewPage.script))'"))
        #expect(first.contains("<script>\(ReviewPage.script)</script>"))
        #expect(first.contains("<style>\(ReviewPage.style)</style>"))
        #expect(first.contains("default-src 'none'"))
    }

    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256() {
        func hex(_ text: String) -> String { SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("the data table lists who sets and reads each key, with its types")
    func dataKeys() throws {
        let graph = FlowLensTestSupport.load("""
            version: 1
            flows:
              - name: Sign in
                data: {email: String}
                steps:
                  - {id: check, reads: {email: String}, writes: {token: Token}, next: done}
                  - {id: done, reads: {token: Token, missing: Int}, kind: end}
            """)
        let flow = try #require(graph.flows.first)
        let rows = ReviewPage.dataKeys(of: flow)
        #expect(rows.map(\.key) == ["email", "token", "missing"])
        #expect(rows[0].setBy == ["the start"] && rows[0].readBy == ["check"] && rows[0].types == ["String"])
        #expect(rows[1].setBy == ["check"] && rows[1].readBy == ["done"] && rows[1].types == ["Token"])
        #expect(rows[2].setBy.isEmpty && rows[2].readBy == ["done"])
    }
}
