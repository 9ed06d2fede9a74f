import FlowModel

/// `duplicate-step`: two steps with one id in a flow.
public struct DuplicateStepRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.duplicateStep,
        tags: ["flow-graph", "correctness"],
        severity: .error,
        summary: "Two steps of one flow have the same id.",
        rationale: """
            Transitions name steps by id, so a second step with the same id can never be told apart: \
            only the first is used, and the second silently never runs.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Twice
                steps:
                  - {id: save, next: done}
                  - {id: save, next: done} # finding
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Same name, other ids
                steps:
                  - {id: save1, name: Save, next: save2}
                  - {id: save2, name: Save, next: done}
                  - {id: done, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        return analysis.duplicates.sorted().map { i in
            let step = analysis.step(i)
            let first = analysis.step(analysis.index[step.id]!)
            let line = first.location.map { " at line \($0.line)" } ?? ""
            return context.finding(
                Self.description, "step id '\(step.id)' is already used by '\(first.name)'\(line); this step can never be reached",
                at: step.location, step: step.id,
                related: first.location.map { [RelatedLocation(message: "first step with id '\(step.id)'", location: $0)] } ?? [])
        }
    }
}
