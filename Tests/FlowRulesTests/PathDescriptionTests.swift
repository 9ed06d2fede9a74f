import FlowModel
import FlowRules
import Testing

@Suite("A path as arrows")
struct PathDescriptionTests {
    /// Intake → Triage, then by the `urgent` label to Escalate, else to Queue; Queue → Archive.
    static let flow = Flow(id: "support", name: "Support ticket", kind: .declarative,
                           steps: ["intake", "triage", "escalate", "queue", "archive"].map { Step(id: $0, name: $0.capitalized) },
                           transitions: [Transition(from: "intake", to: "triage"), Transition(from: "triage", to: "escalate", label: "urgent"),
                                         Transition(from: "triage", to: "queue", label: "routine"), Transition(from: "queue", to: "archive")])

    @Test("a labelled transition shows its label; the rule message and explain write the same path the same way")
    func labels() throws {
        let text = FlowAnalysis.describe(steps: [0, 1, 3, 4], transitions: [0, 2, 3], in: Self.flow)
        #expect(text == "'Intake' → 'Triage' —[routine]→ 'Queue' → 'Archive'")
        let analysis = AnalysisSession(graph: FlowGraph(flows: [Self.flow])).analysis(of: Self.flow)
        let path = try #require(analysis.path(to: 4, in: analysis.pathsAvoidingWrites(of: "ticket")))
        #expect(analysis.describe(path) == text)
    }

    @Test("a long path keeps its first and last steps around the number left out", arguments: [17, 40])
    func long(count: Int) {
        let steps = (0..<count).map { Step(id: "s\($0)") }
        let transitions = (1..<count).map { Transition(from: "s\($0 - 1)", to: "s\($0)") }
        let chain = Flow(id: "chain", name: "Chain", kind: .declarative, steps: steps, transitions: transitions)
        let text = FlowAnalysis.describe(steps: Array(0..<count), transitions: Array(0..<(count - 1)), in: chain)
        let half = FlowAnalysis.describedSteps / 2
        #expect(text.hasPrefix("'s0' → 's1'"))
        #expect(text.contains("'s\(half - 1)' → … \(count - 2 * half) more steps … → 's\(count - half)'"))
        #expect(text.hasSuffix("'s\(count - 1)'"))
    }
}
