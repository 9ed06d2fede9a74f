import FlowLensTestSupport
import FlowModel
@testable import FlowRendering
import Testing

/// Diagrams of flows with a finding at each of thousands of steps and transitions (issue 17): every
/// finding is drawn where it belongs. A scan of every finding for each step and transition made these
/// quadratic (8,000 steps: Mermaid 71 s, DOT 8.9 s); `FindingPlaces` files them once.
@Suite struct LargeFindingsRenderingTests {
    /// A start, and `count` steps in a chain no transition reaches, each going to a step that does not exist
    /// as well as to the next: an unreachable-step finding on each step and an unknown-step one on each edge.
    private func brokenChain(_ count: Int) -> (flow: Flow, findings: [Finding]) {
        var lines = ["version: 1", "flows:", "  - name: Broken", "    steps:", "      - {id: start, next: done}", "      - {id: done, kind: end}"]
        for i in 0..<count {
            lines.append("      - {id: u\(i), next: [{to: u\(i + 1), when: ok}, {to: gone\(i), otherwise: true}]}")
        }
        lines.append("      - {id: u\(count), next: done}")
        let text = lines.joined(separator: "\n") + "\n"
        return (load(text).flows[0], analyze(text))
    }

    @Test("DOT: each of 2,000 steps' and edges' findings is marked on its own step or edge")
    func dotMarksEveryFinding() throws {
        let (flow, findings) = brokenChain(2_000)
        let onSteps = findings.filter { $0.edge == nil && $0.step?.hasPrefix("u") == true }
        let onEdges = findings.filter { $0.edge != nil }
        #expect(onSteps.count == 2_001 && onEdges.count == 2_000)
        let diagram = DOTBuilder().diagram(for: flow, findings: findings)
        let index = Dictionary(flow.steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for finding in onSteps {
            #expect(diagram.marks[finding] == .node(id: "step-\(index[finding.step!]!)"), "\(finding.message)")
        }
        for finding in onEdges {
            guard case let .edge(tail, head)? = diagram.marks[finding] else { Issue.record("\(finding.message) is not on an edge"); continue }
            #expect(tail == "s\(index[finding.edge!.from]!)" && head.hasPrefix("m"), "\(finding.message)")
        }
    }

    @Test("Mermaid: each of 2,000 steps' and edges' findings is written on its own step or edge, in whichever part it is drawn")
    func mermaidWritesEveryFinding() throws {
        let (flow, findings) = brokenChain(2_000)
        let diagrams = MermaidBuilder().diagrams(for: flow, findings: findings)
        #expect(diagrams.count > 1)  // too large for one: drawn in parts
        let text = diagrams.map(\.text).joined(separator: "\n")
        // Steps 0 and 1 are the start and the end; u(i) is step i + 2.
        for i in 0...2_000 {
            #expect(text.contains("  s\(i + 2)(\"u\(i)<br>✖ never reached\")\n"), "u\(i)")
        }
        let edgeMarks = text.components(separatedBy: "-->|\"otherwise<br>✖ no such step\"| m").count - 1
        #expect(edgeMarks == 2_000)
    }
}
