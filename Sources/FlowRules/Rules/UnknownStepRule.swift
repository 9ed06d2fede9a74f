import FlowModel

/// `unknown-step`: a transition, start or sub-flow reference naming something that does not exist.
public struct UnknownStepRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unknownStep,
        tags: ["flow-graph", "correctness"],
        severity: .error,
        summary: "A transition or reference names a step (or sub-flow) that does not exist, or (a state machine) a handler handles or moves to a state or transition its diagram does not have.",
        rationale: """
            A transition to a missing step is a typo or a step that was removed; at run time the flow \
            cannot continue there. The message suggests the closest existing id; when exactly one id is \
            closest, `check --fix` renames the target to it (a start, a transition target, or a sub-flow reference).
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Typo
                steps:
                  - id: a
                    next: finsh # finding
                  - {id: finish, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Bad start
                start: begin # finding
                steps:
                  - {id: a, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Calls nothing
                steps:
                  - {id: pay, flow: Payment, next: done} # finding
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Caller
                steps:
                  - {id: pay, flow: Payment, next: done}
                  - {id: done, kind: end}
              - name: Payment
                steps:
                  - {id: charge, next: ok}
                  - {id: ok, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        let ids = context.analysis.index  // every step's id (the first step with it)
        // One comparison with every id gives both the message's "did you mean" and, when no other id
        // is as close, the fix. The ids are lowercased once for all broken names, and a flow with
        // thousands of them gets suggestions within `Spelling.Candidates`'s budget.
        var candidates: Spelling.Candidates?  // made for the first broken name: most flows have none
        func suggestion(_ id: String) -> (hint: String, meant: String?) {
            if candidates == nil { candidates = Spelling.Candidates(flow.steps.map(\.id)) }
            guard let found = candidates!.suggestion(for: id) else { return ("", nil) }
            return ("; did you mean '\(found.name)'?", found.isUnique ? found.name : nil)
        }
        var findings: [Finding] = []
        for id in flow.entries where ids[id] == nil {
            let (hint, meant) = suggestion(id)
            var finding = context.finding(Self.description, "the flow starts at '\(id)', which is not a step of '\(flow.name)'\(hint)",
                                          at: flow.entryLocation, step: id)
            finding.fix = meant.flatMap { Fix.rename(id, to: $0, at: flow.entryLocation) }
            findings.append(finding)
        }
        // An edge into another machine is its dialect's to judge (`crossing-transition` for generated ones).
        for t in context.analysis.graphIndex.unknownTargets where flow.transitions[t].crossesInto == nil {
            let transition = flow.transitions[t]
            let source = flow.step(transition.from)?.name ?? transition.from
            let (hint, meant) = suggestion(transition.to)
            var finding = context.finding(
                Self.description, "step '\(source)' goes to '\(transition.to)', which is not a step of '\(flow.name)'\(hint)",
                at: transition.location ?? flow.step(transition.from)?.location, step: transition.from,
                edge: EdgeReference(from: transition.from, to: transition.to))
            // A fix never turns a transition into a loop on its own step: that is a new flow, not a typo.
            if let meant, meant != transition.from { finding.fix = Fix.rename(transition.to, to: meant, at: transition.location) }
            findings.append(finding)
        }
        // Made when a step first runs a flow that is not there.
        var flowNames: (idsAndNames: Spelling.Candidates, names: Spelling.Candidates)?
        // By index: most steps run no flow, and a copy of each would cost more than the question.
        for i in flow.steps.indices where flow.steps[i].subflow != nil {
            let step = flow.steps[i]
            guard let reference = step.subflow, context.session.flow(named: reference) == nil else { continue }
            // A reference names a flow by id or by name: the fix is the one id or name closest to it,
            // and the message suggests what the fix would write.
            let flows = context.session.graph.flows
            if flowNames == nil { flowNames = (Spelling.Candidates(flows.flatMap { [$0.id, $0.name] }), Spelling.Candidates(flows.map(\.name))) }
            let meant = flowNames!.idsAndNames.unique(to: reference)
            let suggestion = (meant ?? flowNames!.names.closest(to: reference)).map { "; did you mean '\($0)'?" } ?? ""
            var finding = context.finding(
                Self.description, "step '\(step.name)' runs the flow '\(reference)', which is not among the flows read\(suggestion)",
                at: step.location, step: step.id)
            finding.fix = meant.flatMap { Fix.rename(reference, to: $0, at: step.subflowLocation) }
            findings.append(finding)
        }
        return findings
    }
}
