import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// `flowlens trace` end to end (issue 19).
@Suite("flowlens trace")
struct TraceCommandTests {
    /// One Flow-iOS summary of operation lines (`Name] WillStart` …) and its outcome.
    func summary(_ lines: [String], success: Bool) -> String {
        (["====== Flow Summary ======"] + lines.map { "10:02:11 [\($0)" } + ["Flow isSuccess: \(success)", "======    Ending    ======"])
            .joined(separator: "\n")
    }

    @Test("flowlens trace: records told from flows by their content, the summary printed, bad lines reported with exit 2")
    func command() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = summary(["MakeThumbnailOp] WillStart", "MakeThumbnailOp] DidFinish: successfully",
                                       "UploadSingleImageOp 3F2A] WillStart", "UploadSingleImageOp 3F2A] DidFinish: successfully",
                                       "SaveAlbumOp] WillStart", "SaveAlbumOp] DidFinish: successfully"], success: true)
        try ("app launched\n" + log + "\n").write(toFile: folder + "/device.log", atomically: true, encoding: .utf8)
        let traced = try flowlens(["trace", folder + "/device.log", packageRoot + "/samples/flow-ios"], in: folder)
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout.hasPrefix("AlbumViewController.uploadAlbum — 1 run ("), "\(traced.stdout)")
        #expect(traced.stdout.contains("  ended: 1 success\n  paths taken:\n    1 run (100%): MakeThumbnailOp → UploadSingleImageOp → SaveAlbumOp\n  never reached: none\n"))

        try ("{\"flow\": \"x\", \"run\": 1, \"step\": \"s\", \"event\": \"start\"}\n{broken\n").write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        let bad = try flowlens(["trace", "events.jsonl", packageRoot + "/samples/flow-ios"], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stdout.contains("unmatched") == false && bad.stdout.contains("runs matched to no flow:\n  events.jsonl:1: it names flow 'x'"))
        #expect(bad.stderr.contains("events.jsonl:2:1: error: not a JSON object: line skipped [invalid-input]"), "\(bad.stderr)")

        // A mistyped flow path is invalid input, as for check, not a silent replay on no flows.
        let typo = try flowlens(["trace", folder + "/device.log", "Sourcse"], in: folder)
        #expect(typo.status == 2 && typo.stderr.contains("Sourcse"), "\(typo.stderr)")
        let none = try flowlens(["trace", packageRoot + "/samples/flow-ios"], in: folder)
        #expect(none.status != 0 && none.stderr.contains("Give at least one file of run records"))
    }

    @Test("flowlens trace prints the conformance findings after the summary, in every format, and --strict fails on them")
    func conformance() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            version: 1
            flows:
              - name: Export
                id: export
                data: {format: String}
                steps:
                  - {id: prepare, next: [{to: zip, when: {key: format, equals: zip}}, {to: pdf, when: {key: format, equals: pdf}}]}
                  - {id: zip, next: done}
                  - {id: pdf, next: done}
                  - {id: done, kind: end}
            """.write(toFile: folder + "/export.flow.yaml", atomically: true, encoding: .utf8)
        try """
            {"flow": "export", "run": "1", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "1", "event": "stop", "reason": "no-case-matched"}
            {"flow": "export", "run": "2", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "2", "step": "archive", "event": "start"}
            """.write(toFile: folder + "/runs.jsonl", atomically: true, encoding: .utf8)
        let text = try flowlens(["trace", "runs.jsonl", "export.flow.yaml"], in: folder)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasSuffix("""

            export.flow.yaml:3:5: warning: 1 run started step 'archive', which flow 'export' does not have [run-off-graph]
            export.flow.yaml:8:9: note: none of the 2 recorded runs reached zip [never-reached]
            export.flow.yaml:9:9: note: none of the 2 recorded runs reached pdf [never-reached]

            """), "\(text.stdout)")
        #expect(text.stdout.contains("  ended: 1 no end recorded · 1 no case matched\n"))
        let sarif = try flowlens(["trace", "runs.jsonl", "export.flow.yaml", "--format", "sarif"], in: folder)
        let results = try #require(((try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["run-off-graph", "never-reached", "never-reached"])
        #expect(try flowlens(["trace", "runs.jsonl", "export.flow.yaml", "--strict"], in: folder).status == 1)
    }

    @Test("flowlens trace reads OpenTelemetry spans with the attributes the configuration names, and the flow names it maps, in any format")
    func otlpWithConfiguredAttributes() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "version: 1\ntrace: {flowAttribute: shop.flow, stepAttribute: shop.stage, flows: {web-checkout: Checkout}}\n"
            .write(toFile: folder + "/.flowlens.yml", atomically: true, encoding: .utf8)
        try """
            version: 1
            flows:
              - name: Checkout
                id: checkout
                steps:
                  - {id: cart, next: pay}
                  - {id: pay, next: done}
                  - {id: done, kind: end}
            """.write(toFile: folder + "/checkout.flow.yaml", atomically: true, encoding: .utf8)
        func span(_ id: String, _ attributes: [(String, String)], start: Int, end: Int, parent: String? = nil) -> String {
            let list = attributes.map { #"{"key": "\#($0.0)", "value": {"stringValue": "\#($0.1)"}}"# }.joined(separator: ", ")
            return #"{"traceId": "t1", "spanId": "\#(id)", \#(parent.map { #""parentSpanId": "\#($0)", "# } ?? "")"name": "\#(id)", "startTimeUnixNano": "\#(start)", "endTimeUnixNano": "\#(end)", "attributes": [\#(list)], "status": {}}"#
        }
        let spans = [span("root", [("shop.flow", "web-checkout")], start: 0, end: 100),
                     span("s1", [("shop.stage", "cart")], start: 1, end: 10, parent: "root"),
                     span("s2", [("shop.stage", "pay")], start: 11, end: 90, parent: "root")]
        try #"{"resourceSpans": [{"scopeSpans": [{"spans": [\#(spans.joined(separator: ", "))]}]}]}"#
            .write(toFile: folder + "/traces.json", atomically: true, encoding: .utf8)
        let traced = try flowlens(["trace", "traces.json", "checkout.flow.yaml"], in: folder)
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stdout.contains("checkout — 1 run (checkout.flow.yaml:3)\n  ended: 1 success\n  paths taken:\n    1 run (100%): cart → pay\n"), "\(traced.stdout)")
        // The same name in JSON-lines events; a name the configuration does not map is said, unmatched.
        try """
            {"flow": "web-checkout", "run": 1, "step": "cart", "event": "start"}
            {"flow": "app-checkout", "run": 2, "step": "cart", "event": "start"}
            """.write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        let events = try flowlens(["trace", "events.jsonl", "checkout.flow.yaml"], in: folder)
        #expect(events.stdout.hasPrefix("checkout — 1 run (checkout.flow.yaml:3)\n"), "\(events.stdout)")
        #expect(events.stdout.contains("runs matched to no flow:\n  events.jsonl:2: it names flow 'app-checkout', which no flow read has as its id or name\n"), "\(events.stdout)")
        // Mapped to a flow that is not read: said, with the name the run used.
        try "version: 1\ntrace: {flows: {web-checkout: Checkout-v2}}\n".write(toFile: folder + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let stale = try flowlens(["trace", "events.jsonl", "checkout.flow.yaml"], in: folder)
        #expect(stale.stdout.contains("events.jsonl:1: it names flow 'Checkout-v2' (for 'web-checkout', as the configuration's trace.flows says), which no flow read has as its id or name"), "\(stale.stdout)")
    }

    @Test("output/traced is what scripts/setup.sh's traced export of the shop's recorded runs writes (run scripts/setup.sh when this fails)")
    func tracedOutputIsFresh() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["export", "samples/declarative/checkout.flow.yaml", "samples/declarative/onboarding.flow.yml",
                                "--trace", "samples/runs/shop-events.jsonl", "--output", directory])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("drew 359 recorded runs on 3 flows"), "\(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".svg") }.sorted()
        #expect(written == ["Charge-card.svg", "Checkout.svg", "Onboarding.svg"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/output/traced").sorted() == written)
        for name in written {
            let mismatch = Picture.mismatch(FileManager.default.contents(atPath: packageRoot + "/output/traced/" + name),
                                            FileManager.default.contents(atPath: directory + "/" + name), name: name)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
        // The picture shows the runs: counts on the ways taken, the failures at their steps.
        let svg = try String(contentsOfFile: directory + "/Checkout.svg", encoding: .utf8)
        #expect(svg.contains("180 recorded runs") && svg.contains("155 runs") && svg.contains("10 runs failed: an error"))
    }
}
