import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// One representation of a configuration (issue 13): the YAML reader, `Codable` and the YAML writer
/// all go through `Configuration.read` and `Configuration.document`, so they agree on every setting.
@Suite("Configuration: one reader, one writer")
struct ConfigurationDocumentTests {
    /// A configuration with every kind of setting, and text that needs quoting.
    func rich() -> Configuration {
        var configuration = Configuration()
        configuration.rules = [("dead-end", .severity(.warning)), ("unused-data-key", .off), ("type-mismatch", .on)]
        configuration.include = ["Flows/**", "Odd \"name\"/**"]
        configuration.exclude = ["**/Generated/**", "back\\slash/*"]
        configuration.overrides = [.init(paths: ["Legacy/**", "Old/*.swift"], rules: [("type-mismatch", .severity(.note)), ("dead-end", .off)])]
        configuration.plantUMLDefines = [("PLATFORM", "ios"), ("QUOTE", "say \"hi\"")]
        configuration.format = "sarif"
        configuration.color = "never"
        configuration.strict = true
        configuration.maxWarnings = 3
        configuration.limits.nesting = 40
        configuration.limits.findingsPerKey = 5
        return configuration
    }

    func same(_ a: Configuration, _ b: Configuration) {
        #expect(a.rules.map(\.0) == b.rules.map(\.0) && a.rules.map(\.1) == b.rules.map(\.1))
        #expect(a.include == b.include && a.exclude == b.exclude && a.overrides == b.overrides)
        #expect(a.plantUMLDefines.map(\.0) == b.plantUMLDefines.map(\.0) && a.plantUMLDefines.map(\.1) == b.plantUMLDefines.map(\.1))
        #expect(a.format == b.format && a.color == b.color && a.strict == b.strict && a.maxWarnings == b.maxWarnings)
        #expect(a.limits == b.limits)
    }

    @Test("what the YAML writer prints, the YAML reader reads back as the same settings, without a problem")
    func yamlRoundTrip() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/written.yml"
        try rich().document().yaml().write(toFile: path, atomically: true, encoding: .utf8)
        let (read, findings) = FlowLens.configuration(for: folder, file: path, workingDirectory: folder)
        #expect(findings.isEmpty, "\(findings)")
        var expected = rich()
        expected.exclude = ConfigurationLoader.defaultExcludes + expected.exclude  // a file's excludes add to the defaults
        same(read, expected)
    }

    @Test("JSON decodes through the same reader: the same settings, and the reader's message for a problem")
    func jsonThroughTheReader() throws {
        let decoded = try JSONDecoder().decode(Configuration.self, from: JSONEncoder().encode(rich()))
        var expected = rich()
        expected.rules.sort { $0.0 < $1.0 }  // a JSON object keeps no order
        expected.plantUMLDefines.sort { $0.0 < $1.0 }
        for i in expected.overrides.indices { expected.overrides[i].rules.sort { $0.0 < $1.0 } }
        same(decoded, expected)
        for (json, message) in [
            (#"{"limits": {"nesting": 0}}"#, "'nesting' in 'limits' must be a positive integer"),
            (#"{"output": {"strict": "yes"}}"#, "'strict' in 'output' is true or false"),
            (#"{"overrides": [{"rules": {}}]}"#, "an override needs 'paths'"),
            (#"{"rule": {}}"#, "unknown key 'rule' in the configuration; did you mean 'rules'?"),
        ] {
            do {
                _ = try JSONDecoder().decode(Configuration.self, from: Data(json.utf8))
                Issue.record("\(json) was accepted")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.debugDescription == message)
            }
        }
    }

    @Test("an output setting of the wrong type is a warning at its value, not silently dropped")
    func outputTypes() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/.flowlens.yml"
        try "version: 1\noutput:\n  strict: \"yes\"\n  maxWarnings: -2\n  format: json\n".write(toFile: path, atomically: true, encoding: .utf8)
        let (read, findings) = FlowLens.configuration(for: folder, workingDirectory: folder)
        #expect(findings.map { "\($0.location!.line):\($0.location!.column) \($0.message)" } == [
            "3:11 'strict' in 'output' is true or false",
            "4:16 'maxWarnings' in 'output' must be a whole number, 0 or more",
        ])
        #expect(read.strict == nil && read.maxWarnings == nil && read.format == "json")
    }

    @Test("trace: the span attributes flowlens trace reads, each a nested file's own to replace, bad values warned")
    func traceSettings() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Payments", withIntermediateDirectories: true)
        try "version: 1\ntrace: {flowAttribute: app.flow, stepAttribute: app.step, stepsFromSpanNames: true, flows: {checkout-v2: checkout, refund: refunds}}\n"
            .write(toFile: folder + "/.flowlens.yml", atomically: true, encoding: .utf8)
        try "version: 1\ntrace:\n  stepAttribute: payments.stage\n  keyAttribute: 3\n  spanName: x\n  flows:\n    refund: Payments.Refund\n    card: [a]\n"
            .write(toFile: folder + "/Payments/.flowlens.yml", atomically: true, encoding: .utf8)
        let (outer, none) = FlowLens.configuration(for: folder, workingDirectory: folder)
        #expect(none.isEmpty)
        #expect(outer.spans.flowAttribute == "app.flow" && outer.spans.stepAttribute == "app.step" && outer.spans.stepsFromSpanNames)
        #expect(outer.spans.reasonAttribute == "flow.failure.reason")
        let (inner, problems) = FlowLens.configuration(for: folder + "/Payments", workingDirectory: folder)
        #expect(inner.spans.flowAttribute == "app.flow" && inner.spans.stepAttribute == "payments.stage" && inner.spans.stepsFromSpanNames)
        #expect(inner.spans.keyAttribute == "flow.key")
        // The flow names: a nested file's entries replace the same names, the others stay.
        #expect(outer.spans.flows == ["checkout-v2": "checkout", "refund": "refunds"])
        #expect(inner.spans.flows == ["checkout-v2": "checkout", "refund": "Payments.Refund"])
        #expect(problems.map { "\($0.location!.line) \($0.message)" } == [
            "4 'keyAttribute' in 'trace' is the name of a span attribute",
            "5 unknown key 'spanName' in 'trace' of Payments/.flowlens.yml (expected flowAttribute, stepAttribute, reasonAttribute, keyAttribute, instanceAttribute, stepsFromSpanNames, flows)",
            "8 an entry of 'flows' in 'trace' maps a flow name to a flow id or name",
        ])
        // What dump-config writes reads back as the same mapping.
        let path = folder + "/written.yml"
        try inner.document().yaml().write(toFile: path, atomically: true, encoding: .utf8)
        #expect(FlowLens.configuration(for: folder, file: path, workingDirectory: folder).0.spans == inner.spans)
    }
}
