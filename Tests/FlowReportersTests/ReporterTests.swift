import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowReporters
import FlowRules
import Foundation
import Testing

private func showcaseReport() -> Report {
    let graph = load(showcaseYAML, file: "Fixtures/showcase.flow.yaml")
    return Report(graph: FlowGraph(flows: graph.flows, files: ["Fixtures/showcase.flow.yaml"], loadFindings: graph.loadFindings),
                  findings: Analyzer().analyze(graph))
}

@Suite("Reporters")
struct ReporterTests {
    @Test("text output matches the golden file")
    func text() {
        let report = showcaseReport()
        let output = TextReporter().report(report) + TextReporter().summary(report)
        if let mismatch = goldenMismatch(output, name: "showcase.txt") { Issue.record(Comment(rawValue: mismatch)) }
    }

    @Test("JSON output matches the golden file")
    func json() {
        if let mismatch = goldenMismatch(JSONReporter().report(showcaseReport()), name: "showcase.json") {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test("JSON output is valid JSON with the documented shape")
    func jsonShape() throws {
        let data = Data(JSONReporter().report(showcaseReport()).utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 1)
        let tool = try #require(root["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "flowlens")
        #expect(tool["version"] as? String == FlowLensTool.version)
        let flows = try #require(root["flows"] as? [[String: Any]])
        for key in ["id", "name", "kind", "location", "steps", "transitions"] { #expect(flows[0][key] != nil, "flow.\(key)") }
        let step = try #require((flows[0]["steps"] as? [[String: Any]])?.first)
        for key in ["id", "name", "kind", "location", "reads", "writes"] { #expect(step[key] != nil, "step.\(key)") }
        let read = try #require((step["reads"] as? [[String: Any]])?.first)
        for key in ["key", "type", "optional", "location"] { #expect(read[key] != nil, "read.\(key)") }
        let transition = try #require((flows[0]["transitions"] as? [[String: Any]])?.first)
        for key in ["from", "to", "label", "location"] { #expect(transition[key] != nil, "transition.\(key)") }
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings {
            for key in ["rule", "severity", "message", "flow", "step", "key", "location"] { #expect(finding[key] != nil, "finding.\(key)") }
            #expect(["error", "warning", "note"].contains(finding["severity"] as? String ?? ""))
            let location = try #require(finding["location"] as? [String: Any])
            #expect(Set(location.keys) == ["file", "line", "column"])
        }
        let summary = try #require(root["summary"] as? [String: Int])
        #expect(summary["files"] == 1 && summary["flows"] == 2)
        #expect(summary["errors"] == findings.filter { $0["severity"] as? String == "error" }.count)
        #expect(summary["warnings"] == findings.filter { $0["severity"] as? String == "warning" }.count)
    }

    @Test("every rule of the declarative format fires on the showcase")
    func showcaseCoversRules() {
        let rules = Set(showcaseReport().findings.map(\.rule))
        // invalid-input needs a broken file; stuck-step a flow of its own; the suppression rules a
        // comment; invalid-configuration a .flowlens.yml; the others need another library's sources
        // (their examples and samples cover them), the conformance rules recorded runs.
        let notDeclarative: Set = ["invalid-input", "unmatched-case", "nested-case", "unknown-operation", "stuck-step",
                                   "busy-retry", "unanalyzable-flow", "content-never-set", "ui-access-in-task",
                                   "unused-suppression", "suppression-without-reason", "invalid-configuration",
                                   "reserved-name", "machine-name", "crossing-transition", "missing-handler", "unimplemented-transition",
                                   // The conformance rules need recorded runs (`flowlens trace`).
                                   "run-off-graph", "failure-not-predicted", "no-case-matched", "never-reached"]
        #expect(rules == Set(RuleRegistry.descriptions.map(\.id)).subtracting(notDeclarative))
    }

    @Test("JSON strings escape quotes, backslashes and control characters")
    func escaping() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1}\u{2028}").serialized() == "\"a\\\"b\\\\c\\nd\\u0001\\u2028\"\n")
    }

    @Test("the rule catalogue lists every rule with its severity")
    func catalogue() {
        let table = RuleCatalog.table(RuleRegistry.descriptions)
        for rule in RuleRegistry.descriptions { #expect(table.contains("\(rule.id)  ") && table.contains(rule.summary)) }
        let explained = RuleCatalog.explain(UnusedDataKeyRule.description)
        #expect(explained.hasPrefix("unused-data-key (warning)"))
        #expect(explained.contains("Triggers on:") && explained.contains("Does not trigger on:"))
    }
}
