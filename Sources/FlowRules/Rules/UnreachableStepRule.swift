import FlowModel

/// `unreachable-step`: a step with no path from the start.
public struct UnreachableStepRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unreachableStep,
        tags: ["flow-graph", "correctness"],
        severity: .error,
        summary: "A step has no path from the start of its flow.",
        rationale: """
            A step nothing leads to never runs: either a transition to it is missing, or it is dead \
            code that misleads every reader of the diagram.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Orphan
                steps:
                  - {id: start, next: done}
                  - {id: audit, next: done} # finding
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Island
                steps:
                  - {id: a, next: done}
                  - {id: done, kind: end}
                  - {id: x, next: y} # finding
                  - {id: y, next: x}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Branches
                steps:
                  - id: choose
                    next: [{to: a, when: fast}, {to: b, otherwise: true}]
                  - {id: a, next: done}
                  - {id: b, next: done}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Explicit start
                start: second
                steps:
                  - {id: done, kind: end}
                  - {id: second, next: done}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        guard !DescribedMachines.startsNowhere(context.flow) else { return [] }
        let written = context.flow.steps.count
        let context = DescribedMachines.withCrossingEdges(context)
        let analysis = context.analysis
        // Without a valid start nothing is reachable; `unknown-step` reports the start instead.
        guard !analysis.entries.isEmpty else { return [] }
        // (Steps after the written ones are an end `withCrossingEdges` adds for the analysis only.)
        var unreachable = analysis.uniqueSteps.filter { !analysis.reachable.contains($0) && $0 < written }
        // A plain PlantUML diagram may enter a composite at any inner state, or leave it to an outer one.
        if context.flow.kind.machine == .described,
           let targets = context.session.describedMachines.reachedByCrossingEdges[context.flow.id] {
            let roots = analysis.uniqueSteps.filter { targets.contains(analysis.step($0).id) }
            let reached = FlowAnalysis.closure(from: roots, next: { analysis.successors[$0].lazy.map(\.to) })
            unreachable.removeAll(where: reached.contains)
        }
        let unreachableSet = Set(unreachable)
        return unreachable.map { i in
            let step = analysis.step(i)
            let from = analysis.predecessors[i].map(\.from).filter(unreachableSet.contains)
            let message: String
            if let source = from.first {
                message = "step '\(step.name)' is unreachable: it is only reached from '\(analysis.step(source).name)', which is itself unreachable"
            } else {
                message = "step '\(step.name)' is unreachable: no transition leads to it from the start"
            }
            return context.finding(Self.description, message, at: step.location, step: step.id)
        }
    }
}
