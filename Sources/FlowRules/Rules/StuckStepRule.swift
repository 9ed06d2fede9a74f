import FlowModel

/// `stuck-step`: a step whose every way on leads back to itself, so the flow can never leave it.
public struct StuckStepRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.stuckStep,
        tags: ["flow-graph", "correctness"],
        severity: .error,
        summary: "A step that is not an end can only stay where it is: the flow never finishes.",
        rationale: """
            A case of a state enum whose branch neither changes the state, defers, nor throws leaves \
            the progression in the same case on every update, so it never finishes. In any flow, a \
            step whose only transitions lead back to itself is stuck in the same way.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Polling forever
                steps:
                  - {id: start, next: poll}
                  - {id: poll, next: poll} # finding
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Polling until ready
                steps:
                  - {id: start, next: poll}
                  - {id: poll, next: [{to: poll, when: pending}, {to: done, otherwise: true}]}
                  - {id: done, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        guard !DescribedMachines.leftByEvents(context) else { return [] }
        return analysis.uniqueSteps.compactMap { i in
            // A step that never runs cannot get stuck: `unreachable-step` reports it instead.
            guard Self.isStuck(i, in: analysis), analysis.entries.isEmpty || analysis.reachable.contains(i) else { return nil }
            let step = analysis.step(i)
            return context.finding(Self.description,
                                   "step '\(step.name)' never moves on: its only way on leads back to itself, so the flow never finishes",
                                   at: step.location, step: step.id)
        }
    }

    /// True for a non-exit step with transitions that all lead back to it.
    public static func isStuck(_ i: Int, in analysis: FlowAnalysis) -> Bool {
        // Asked of every step: read in place, without copying the step or its transitions. Whether
        // it is an exit comes last: asking it copied the step, and few steps only loop back.
        let flow = analysis.flow
        let leaving = analysis.transitionsLeaving[i]
        guard !leaving.isEmpty, leaving.allSatisfy({ flow.transitions[$0].to == flow.steps[i].id }) else { return false }
        return !flow.steps[i].isExit
    }
}
