@testable import FlowRules
import FlowLensTestSupport
import FlowLoaders
import FlowModel
import Testing

/// `Analyzer.findings` runs the rules of different flows at once (one `AnalysisSession` shared by
/// the threads): the findings must be those of running them one flow after another, in the graph's
/// order, on every run.
@Suite struct ParallelRulesTests {
    /// Pairs of flows running each other, the caller first: `Pay i` runs `Settle i` and then reads the
    /// receipt that `Settle i` writes before it runs `Pay i` again. Whichever of the two is analysed
    /// first sees the other without itself: `Pay i` first sees the receipt come back (no finding);
    /// `Settle i` first makes `Pay i` see a sub-flow that gives nothing (a missing-data-key). Beside
    /// them, flows with findings of their own and described state machines whose edges cross their
    /// composites (an analysis the session makes on a rule's first question).
    private func files(pairs: Int) -> [(name: String, text: String)] {
        var lines = ["version: 1", "flows:"]
        for i in 0..<pairs {
            lines += [
                "  - name: Pay \(i)",
                "    steps:",
                "      - {id: settle, kind: subflow, flow: \"Settle \(i)\", next: print}",
                "      - {id: print, reads: {receipt: String}, next: done}",
                "      - {id: done, kind: end}",
                "  - name: Settle \(i)",
                "    steps:",
                "      - {id: issue, writes: {receipt: String}, next: again}",
                "      - {id: again, kind: subflow, flow: \"Pay \(i)\", next: done}",
                "      - {id: done, kind: end}",
                "  - name: Lonely \(i)",
                "    steps:",
                "      - {id: read, reads: {token\(i): String}, next: done}",
                "      - {id: orphan, next: done}",
                "      - {id: done, kind: end}",
            ]
        }
        var files = [(name: "pairs.flow.yaml", text: lines.joined(separator: "\n") + "\n")]
        for i in 0..<max(1, pairs / 4) {
            files.append((name: "door\(i).puml", text: """
                @startuml
                title Door \(i)
                [*] --> Closed
                Closed --> Opening : OPEN
                state Moving {
                  [*] --> Accelerating
                  Accelerating --> Cruising
                  Cruising --> Braking
                  Braking --> Arrived
                  Arrived --> Opening
                  Braking --> Stuck
                }
                Closed --> Cruising : RESUME
                Opening --> Open
                Open --> Closed : TIMEOUT
                Open --> [*] : SHUTDOWN
                @enduml
                """))
        }
        return files
    }

    /// The rules run one flow after another, in the graph's order, after every flow's analysis in
    /// that order: what `Analyzer.findings` promises, spelled out serially.
    private func serialFindings(_ analyzer: Analyzer, _ graph: FlowGraph) -> [Finding] {
        let session = AnalysisSession(graph: graph)
        let analyses = graph.flows.map { session.analysis(of: $0) }
        var findings = graph.loadFindings
        for f in graph.flows.indices {
            let context = RuleContext(analysis: analyses[f], session: session)
            for rule in analyzer.rules {
                let parts = analyzer.extensions[rule.id, default: []].flatMap { $0.check(context) }
                findings += Analyzer.grouped(rule.check(context) + parts, perKey: analyzer.findingsPerKey)
            }
        }
        return findings
    }

    @Test("the rules of many flows, run at once, find what they find one flow at a time, in the same order, every run")
    func sameAsSerial() {
        let graph = load(files(pairs: 60))
        #expect(graph.loadFindings.isEmpty)
        let analyzer = Analyzer()
        let expected = serialFindings(analyzer, graph)
        // The pairs are analysed caller first, as the graph lists them: no Pay flow misses its receipt.
        #expect(!expected.contains { $0.rule == "missing-data-key" && $0.flow?.hasPrefix("Pay") == true })
        #expect(expected.contains { $0.rule == "missing-data-key" && $0.key == "token7" })
        #expect(expected.contains { $0.rule == "unreachable-step" && $0.step == "orphan" })
        #expect(expected.filter { $0.rule == "dead-end" && $0.step == "Stuck" }.count == 15)
        for _ in 0..<40 {
            let findings = analyzer.findings(of: graph, session: AnalysisSession(graph: graph))
            #expect(findings == expected)
            if findings != expected { break }
        }
    }
}
