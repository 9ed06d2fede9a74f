import FlowLoaders
import FlowLensTestSupport
import FlowLoaders
import FlowModel
import FlowRules
import Testing

/// Sub-flows nested a thousand deep are analysed without a stack frame per level (issue 16: the
/// recursion FlowAnalysis.init → interface(of:) → analysis(of:) overflowed the stack).
@Suite struct SubflowChainTests {
    /// `count` flows in one file, each running the next; the last sets `receipt`, which the first reads
    /// after its call. With `cycle`, the last runs the first again.
    private func chain(_ count: Int, cycle: Bool = false) -> String {
        var lines = ["version: 1", "flows:"]
        for i in 0..<count {
            let next = i + 1 < count ? "Stage \(i + 1)" : (cycle ? "Stage 0" : nil)
            lines.append("  - name: Stage \(i)")
            lines.append("    steps:")
            if let next {
                lines.append("      - {id: call, kind: subflow, flow: \"\(next)\", next: \(i == 0 ? "use" : "done")}")
                if i == 0 { lines.append("      - {id: use, reads: {receipt: String}, next: done}") }
            } else {
                lines.append("      - {id: issue, writes: {receipt: String}, next: done}")
            }
            lines.append("      - {id: done, kind: end}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aLongChainOfSubflowsIsAnalysedAndItsOutputsPassedUp() {
        let findings = analyze(chain(1_500))
        // The receipt set at the bottom reaches the top: no missing-data-key on Stage 0's read.
        #expect(!findings.contains { $0.rule == "missing-data-key" }, "\(findings.prefix(3).map(\.message))")
    }

    @Test func aCycleOfSubflowsTerminatesAsBefore() {
        let findings = analyze(chain(800, cycle: true))
        // In a cycle no flow's interface is complete when first asked: the top's read is reported.
        #expect(findings.filter { $0.rule == "missing-data-key" }.count == 1)
    }

    @Test func shortChainsGetTheSameResultsAsTheRecursionGave() {
        // Two flows running each other and a third calling both: the outcome the recursive analysis gave.
        let text = """
            version: 1
            flows:
              - name: Main
                steps:
                  - {id: a, kind: subflow, flow: Ping, next: b}
                  - {id: b, kind: subflow, flow: Pong, next: c}
                  - {id: c, reads: {ball: String, score: Int}, next: done}
                  - {id: done, kind: end}
              - name: Ping
                steps:
                  - {id: hit, writes: {ball: String}, next: back}
                  - {id: back, kind: subflow, flow: Pong, next: done}
                  - {id: done, kind: end}
              - name: Pong
                steps:
                  - {id: hit, writes: {score: Int}, next: back}
                  - {id: back, kind: subflow, flow: Ping, next: done}
                  - {id: done, kind: end}
            """
        let missing = analyze(text).filter { $0.rule == "missing-data-key" }.map(\.message)
        #expect(missing.isEmpty, "\(missing)")
    }
}
