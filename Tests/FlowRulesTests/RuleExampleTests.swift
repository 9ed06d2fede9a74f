import FlowLoaders
import FlowLensTestSupport
import FlowLoaders
import FlowModel
import Foundation
import FlowRules
import FlowTrace
import Testing

/// One example of a rule's documentation, run as a test.
struct RuleExample: CustomTestStringConvertible, Sendable {
    let rule: RuleDescription
    let text: String
    let triggers: Bool
    let number: Int

    var testDescription: String { "\(rule.id) \(triggers ? "triggering" : "non-triggering") #\(number + 1)" }

    /// The lines marked `# finding` (YAML), `// finding` (Swift) or `' finding` (PlantUML), as
    /// "file:line" (1-based, in the example's own file): the finding must be on one of them.
    var markedLines: [String] {
        rule.files(of: text).flatMap { file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { line in ["# finding", "// finding", "' finding"].contains { line.element.contains($0) } }
                .map { "\(file.name):\($0.offset + 1)" }
        }
    }

    static let all: [RuleExample] = RuleRegistry.descriptions.flatMap { rule in
        rule.triggeringExamples.enumerated().map { RuleExample(rule: rule, text: $0.element, triggers: true, number: $0.offset) }
            + rule.nonTriggeringExamples.enumerated().map { RuleExample(rule: rule, text: $0.element, triggers: false, number: $0.offset) }
    }
}

@Suite("Rule documentation examples")
struct RuleExampleTests {
    @Test("every rule has at least one triggering and one non-triggering example")
    func everyRuleHasExamples() {
        for rule in RuleRegistry.descriptions {
            #expect(!rule.triggeringExamples.isEmpty, "\(rule.id)")
            #expect(!rule.nonTriggeringExamples.isEmpty, "\(rule.id)")
        }
    }

    @Test("rule ids are unique, stable kebab-case")
    func ids() {
        let ids = RuleRegistry.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        // The core rules, then each dialect's own (Flow-iOS, FlowState, Syrup, Elevate, FlowKit).
        #expect(ids == ["invalid-input", "unreachable-step", "dead-end", "unknown-step", "duplicate-step",
                        "missing-data-key", "type-mismatch", "unused-data-key", "unmatched-case",
                        "unknown-operation", "stuck-step", "unanalyzable-flow",
                        "unused-suppression", "suppression-without-reason", "invalid-configuration",
                        "nested-case", "content-never-set", "busy-retry", "ui-access-in-task", "reserved-name",
                        "machine-name", "crossing-transition", "missing-handler", "unimplemented-transition",
                        // Then the conformance rules of recorded runs (`flowlens trace`).
                        "run-off-graph", "failure-not-predicted", "no-case-matched", "never-reached"])
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)") }
    }

    @Test("severities are the documented ones")
    func severities() {
        for rule in RuleRegistry.descriptions {
            let warnings = ["unused-data-key", "unmatched-case", "nested-case", "unknown-operation", "ui-access-in-task", "busy-retry",
                            "unused-suppression", "suppression-without-reason", "invalid-configuration",
                            "unimplemented-transition", "run-off-graph", "failure-not-predicted", "no-case-matched"]
            let notes = ["unanalyzable-flow", "content-never-set", "never-reached"]
            let expected: Severity = notes.contains(rule.id) ? .note : warnings.contains(rule.id) ? .warning : .error
            #expect(rule.severity == expected, "\(rule.id)")
        }
    }

    @Test(arguments: RuleExample.all)
    func example(_ example: RuleExample) throws {
        let all = try findings(for: example)
        let mine = all.filter { $0.rule == example.rule.id }
        if example.triggers {
            #expect(!mine.isEmpty, "expected a \(example.rule.id) finding, got \(all.map(\.message))")
            for finding in mine { #expect(finding.severity == example.rule.severity) }
            let marked = example.markedLines
            if !marked.isEmpty {
                #expect(mine.contains { marked.contains("\($0.location?.file ?? ""):\($0.location?.line ?? -1)") },
                        "expected a finding on line \(marked), got \(mine.map { "\($0.location?.description ?? "-"): \($0.message)" })")
            }
        } else {
            // A good example is clean under every rule, not only its own.
            #expect(all.isEmpty, "expected no findings, got \(all.map { "\($0.rule): \($0.message)" })")
        }
    }
}

/// The findings of one example: a flow file is loaded and analysed; a configuration file is read
/// as `flowlens` reads `.flowlens.yml`.
private func findings(for example: RuleExample) throws -> [Finding] {
    // A conformance rule's example is flows and their recorded runs: the static findings of the
    // flows, and what replaying the runs on them finds.
    if TraceRules.descriptions.contains(where: { $0.id == example.rule.id }) {
        let files = example.rule.files(of: example.text)
        let records = files.filter { file in RunRecordFormats.all.contains { $0.recognises(file.text) } }
        let graph = load(files.filter { file in !records.contains { $0.name == file.name } })
        let staticFindings = Analyzer().analyze(graph)
        let report = TraceReport.replaying(records.map { RunRecordFormats.read($0.text, file: $0.name) }, on: graph.flows)
        return staticFindings + report.findings + TraceRules.findings(of: report, staticFindings: staticFindings)
    }
    guard example.rule.exampleFileName == ConfigurationLoader.fileName else {
        return Analyzer().analyze(load(example.rule.files(of: example.text)))
    }
    let folder = NSTemporaryDirectory() + "flowlens-config-example-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/" + ConfigurationLoader.fileName
    try example.text.write(toFile: path, atomically: true, encoding: .utf8)
    return ConfigurationLoader.load(path, knownRules: Set(RuleRegistry.descriptions.map(\.id)), workingDirectory: folder).1
}

@Suite("Rule documentation text")
struct RuleTextTests {
    @Test("summaries and rationales are plain prose: no stray backslashes or line breaks")
    func prose() {
        for rule in RuleRegistry.descriptions {
            for text in [rule.summary, rule.rationale] {
                #expect(!text.contains("\\"), "\(rule.id): \(text)")
                #expect(!text.contains("\n"), "\(rule.id): \(text)")
            }
        }
    }
}
