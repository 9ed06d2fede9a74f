import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

@Suite("--quiet and standard input, as the help describes them", .serialized)
struct QuietAndStandardInputCLITests {
    @Test("--quiet prints no cache statistics")
    func quietCache() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/checkout.flow.yaml", toPath: root + "/checkout.flow.yaml")
        let loud = try flowlens(["check", ".", "--cache-path", "cache.json"], in: root)
        #expect(loud.status == 0)
        #expect(loud.stderr.contains("cache: reused"), "\(loud.stderr)")
        for _ in 0..<2 {  // a cold and a warm cache
            let quiet = try flowlens(["check", ".", "--cache-path", "cache.json", "--quiet"], in: root)
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        }
    }

    @Test("export --trace --quiet prints no notes about runs matched to no flow")
    func quietTrace() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/checkout.flow.yaml", toPath: root + "/checkout.flow.yaml")
        let runs = (1...12).map { #"{"flow": "nothing-like-it", "run": "r-\#($0)", "step": "a", "event": "start"}"# }.joined(separator: "\n") + "\n"
        try runs.write(toFile: root + "/runs.jsonl", atomically: true, encoding: .utf8)
        let loud = try flowlens(["export", "checkout.flow.yaml", "--trace", "runs.jsonl", "--output", "out", "--format", "dot"], in: root)
        #expect(loud.status == 0, "\(loud.stderr)")
        #expect(loud.stderr.contains("run matched to no flow"), "\(loud.stderr)")
        #expect(loud.stderr.contains("2 more runs matched to no flow"), "\(loud.stderr)")
        let quiet = try flowlens(["export", "checkout.flow.yaml", "--trace", "runs.jsonl", "--output", "out", "--format", "dot", "--quiet"], in: root)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test("check - reads a flow from standard input, without --stdin-path")
    func dash() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clean = try String(contentsOfFile: packageRoot + "/samples/declarative/checkout.flow.yaml", encoding: .utf8)
        let passed = try flowlens(["check", "-"], in: root, standardInput: clean)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let broken = try String(contentsOfFile: packageRoot + "/samples/declarative/broken/dead-end.flow.yaml", encoding: .utf8)
        let failed = try flowlens(["check", "-"], in: root, standardInput: broken)
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("<stdin>.flow.yaml:") && failed.stdout.contains("[dead-end]"), "\(failed.stdout)")
        let json = try flowlens(["check", "-", "--format", "json"], in: root, standardInput: #"{"version": 1, "flows": [{"name": "A", "steps": [{"id": "a", "next": "b"}]}]}"#)
        #expect(json.status == 1)
        #expect(json.stdout.contains("unknown-step"), "\(json.stdout)")
        let plantUML = try String(contentsOfFile: packageRoot + "/samples/flowkit/broken/DeadEnd.puml", encoding: .utf8)
        let machine = try flowlens(["check", "-"], in: root, standardInput: plantUML)
        #expect(machine.status == 1)
        #expect(machine.stdout.contains("<stdin>.puml:14:"), "\(machine.stdout)")
    }
}
