import FlowLensTestSupport
import FlowLensTesting
import FlowModel
import Foundation
import Testing

/// The steps, transitions and findings of a flow, as comparable text (locations left out).
struct FlowFacts: Equatable, CustomStringConvertible {
    var steps: [String]
    var transitions: [String]
    var accesses: [String]
    var initialData: [String]

    init(_ flow: FlowModel.Flow) {
        steps = flow.steps.map { "\($0.id) '\($0.name)' \($0.kind.rawValue)" }
        transitions = flow.transitions.map { t in
            "\(t.from) -> \(t.to) label=\(t.label ?? "-") condition=\(t.condition.map { "\($0)" } ?? "-") kind=\(t.kind.rawValue)"
        }
        // What operations and groups read and write: declared by FlowLensStepDescribing on one side,
        // read from getData/setData on the other.
        func text(_ a: DataAccess) -> String { "\(a.key): \(a.type?.spelling ?? "?")\(a.optional ? " optional" : "")" }
        accesses = flow.steps.filter { $0.kind == .operation || $0.kind == .group || $0.kind == .join }.map { step in
            var line = "\(step.id) reads [\(step.reads.map(text).joined(separator: ", "))] writes [\(step.writes.map(text).joined(separator: ", "))]"
            line += " details \(step.details) implementation \(step.implementation ?? "-")"
            line += " mayRead \(step.mayReadAnything) mayWrite \(step.mayWriteAnything)"
            if let g = step.group {
                line += " group \(g.inputKey) → \(g.outputKey ?? "-") element \(g.elementKey) → \(g.elementOutputKey ?? "-")"
                line += " elementReads [\(g.elementReads.map(text).joined(separator: ", "))] elementWrites [\(g.elementWrites.map(text).joined(separator: ", "))]"
                line += " max \(g.maxConcurrent.map(String.init) ?? "-") allowFailure \(g.allowFailure)"
            }
            return line
        }
        // The source keeps the bucket's literal order, reflection a dictionary's keys sorted.
        initialData = flow.initialData.sorted { $0.key < $1.key }.map { d in
            "\(d.key): \(d.type?.spelling ?? "?") elements \(d.elementTypes.map { $0.map { $0?.spelling ?? "?" } } ?? []) value \(d.value ?? "-") string \(d.stringValue ?? "-")"
        }
    }

    var description: String { (steps + transitions + accesses + initialData).joined(separator: "\n") }
}

/// A finding as compared between the two loaders: rule, flow (by name), step, key and severity.
func findingKeys(_ findings: [Finding], flow: String) -> [String] {
    findings.filter { $0.flow == flow }
        .map { "\($0.rule) \($0.severity.rawValue) step=\($0.step ?? "-") key=\($0.key ?? "-")" }
        .sorted()
}

@Suite("Reflection agrees with the Flow-iOS source loader on samples/flow-ios")
struct FlowIOSAgreementTests {
    static let sourceGraph = FlowLens.load([packageRoot + "/samples/flow-ios"])
    static let sourceFindings = FlowLens.analyze(sourceGraph).findings
    static let names = photoShareFlows().map(\.name)

    /// Findings the source loader reports and reflection, by design, does not (flow name → finding).
    /// Each is something one side can know and the other cannot:
    static let sourceOnlyFindings: [String: [String]] = [
        // The did-finish block reads only `profile`; the source loader reads that in the closure.
        // Reflection cannot look into a closure: the finish step may read any key, so
        // `profileRefreshDate` may be used, and unknown never produces a finding.
        "BrokenFlowsViewController.refreshProfileSilently": ["unused-data-key warning step=LoadProfileOp key=profileRefreshDate"],
        // The sample never defines LegacySyncOp (the planted defect). A live object graph cannot hold
        // an instance of a class that does not exist: the class exists, and reflection marks what it
        // reads and writes as unknown (it does not describe itself), without a finding.
        "BrokenFlowsViewController.runLegacySync": ["unknown-operation warning step=LegacySyncOp key=-"],
        // The case values come from the user interface (the source cannot see them, and Flow-iOS has
        // no fallback case). A live flow has a value: "link" here, which a case matches.
        "BrokenFlowsViewController.shareAlbumByLinkOrEmail": ["unmatched-case warning step=TrackEventOp key=shareTarget"],
        // Same: `plan` and `region` come from the account; the live ones ("free", "eu") are matched.
        "BrokenFlowsViewController.openBillingWithRegionalPricing": ["unmatched-case warning step=TrackEventOp key=-"],
    ]

    @Test("the sample has the 14 flows its README lists, and every one is built live")
    func everyFlow() {
        #expect(Self.sourceGraph.flows.count == 14)
        #expect(Set(Self.sourceGraph.flows.map(\.name)) == Set(Self.names))
        #expect(Self.names.count == 14)
    }

    @Test("same steps, transitions, reads and writes", arguments: names)
    func sameGraph(_ name: String) throws {
        let live = try #require(photoShareFlows().first { $0.name == name }).flow
        let reflected = try FlowReflector().graph(of: live, name: name)
        try #require(reflected.flows.count == 1)
        let mine = reflected.flows[0]
        let theirs = try #require(Self.sourceGraph.flow(named: name))
        #expect(mine.name == theirs.name)
        #expect(mine.kind == .flowIOS)
        #expect(mine.entries == theirs.entries)

        let a = FlowFacts(mine), b = FlowFacts(theirs)
        #expect(a.steps == b.steps)
        #expect(a.transitions == b.transitions)
        #expect(a.accesses == b.accesses)
        if name == "BrokenFlowsViewController.openBillingWithRegionalPricing" {
            // `["plan": account.plan, "region": account.region]`: the source sees properties of
            // unknown type and value; reflection sees the live Strings.
            #expect(b.initialData == ["plan: ? elements [] value - string -", "region: ? elements [] value - string -"])
            #expect(a.initialData == ["plan: String elements [] value \"free\" string free", "region: String elements [] value \"eu\" string eu"])
        } else if name == "LoginViewController.loginFromForm" || name == "BrokenFlowsViewController.refreshProfileSilently"
                    || name == "BrokenFlowsViewController.shareAlbumByLinkOrEmail" {
            // Values held in annotated locals: the source knows their type, not their value.
            #expect(a.initialData.map(Self.withoutValue) == b.initialData.map(Self.withoutValue))
        } else {
            #expect(a.initialData == b.initialData)
        }

        // Documented difference: the blocks are closures. The source loader lists the keys a block
        // reads (optional reads, on the start step for will-start, the finish step for did-finish);
        // reflection lists none and marks the step as reading unknown keys when the block is set.
        let start = try #require(mine.step("start")), finish = try #require(mine.step("finish"))
        #expect(start.reads.isEmpty && finish.reads.isEmpty)
        #expect(start.mayReadAnything == (live.willStartBlock != nil))
        #expect(finish.mayReadAnything == (live.didFinishBlock != nil))
        #expect(theirs.step("start")!.reads.isEmpty, "the sample's will-start blocks read nothing")
        #expect(!theirs.step("start")!.mayReadAnything && !theirs.step("finish")!.mayReadAnything)
    }

    @Test("same findings, but for the documented differences", arguments: names)
    func sameFindings(_ name: String) throws {
        let live = try #require(photoShareFlows().first { $0.name == name }).flow
        let reflected = FlowLens.analyze(try FlowReflector().graph(of: live, name: name))
        let mine = findingKeys(reflected.findings, flow: name)
        let theirs = findingKeys(Self.sourceFindings, flow: name)
        let sourceOnly = Self.sourceOnlyFindings[name] ?? []
        #expect(mine == theirs.filter { !sourceOnly.contains($0) })
        #expect(sourceOnly.allSatisfy(theirs.contains), "a documented difference the source loader no longer shows")
    }

    @Test("all 14 flows together: 5 errors and 6 warnings from source, 5 errors and 2 warnings from reflection")
    func totals() throws {
        var graph = FlowGraph()
        for (name, flow) in photoShareFlows() { graph.merge(try FlowReflector().graph(of: flow, name: name)) }
        let reflected = FlowLens.analyze(graph)
        let source = FlowLens.analyze(Self.sourceGraph)
        #expect(source.errors.count == 5 && source.warnings.count == 6)
        #expect(reflected.errors.count == 5 && reflected.warnings.count == 2)
        #expect(Set(reflected.findings.map(\.rule)) == ["missing-data-key", "type-mismatch", "unmatched-case", "nested-case"])
    }

    static func withoutValue(_ line: String) -> String {
        line.components(separatedBy: " value ")[0]
    }
}
