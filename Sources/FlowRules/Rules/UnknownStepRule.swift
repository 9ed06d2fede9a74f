import FlowModel

/// `unknown-step`: a transition, start or sub-flow reference naming something that does not exist.
public struct UnknownStepRule: Rule {
    public static let description = RuleDescription(
        id: "unknown-step",
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
        let ids = Set(flow.steps.map(\.id))
        // One comparison with every id gives both the message's "did you mean" and, when no other id
        // is as close, the fix (a flow with many broken transitions compares each once).
        func suggestion(_ id: String) -> (hint: String, meant: String?) {
            guard let found = Spelling.suggestion(for: id, in: ids) else { return ("", nil) }
            return ("; did you mean '\(found.name)'?", found.isUnique ? found.name : nil)
        }
        var findings: [Finding] = []
        for id in flow.entries where !ids.contains(id) {
            let (hint, meant) = suggestion(id)
            var finding = context.finding(Self.description, "the flow starts at '\(id)', which is not a step of '\(flow.name)'\(hint)",
                                          at: flow.entryLocation, step: id)
            finding.fix = meant.flatMap { Fix.rename(id, to: $0, at: flow.entryLocation) }
            findings.append(finding)
        }
        // An edge into another FlowKit machine is `crossing-transition`'s.
        for transition in flow.transitions where !ids.contains(transition.to) && transition.crossesInto == nil {
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
        for step in flow.steps {
            guard let reference = step.subflow, context.session.flow(named: reference) == nil else { continue }
            // A reference names a flow by id or by name: the fix is the one id or name closest to it,
            // and the message suggests what the fix would write.
            let names = context.session.graph.flows.map(\.name)
            let meant = Spelling.unique(to: reference, in: Set(context.session.graph.flows.flatMap { [$0.id, $0.name] }))
            let suggestion = (meant ?? Spelling.closest(to: reference, in: names)).map { "; did you mean '\($0)'?" } ?? ""
            var finding = context.finding(
                Self.description, "step '\(step.name)' runs the flow '\(reference)', which is not among the flows read\(suggestion)",
                at: step.location, step: step.id)
            finding.fix = meant.flatMap { Fix.rename(reference, to: $0, at: step.subflowLocation) }
            findings.append(finding)
        }
        return findings + handlerReturns(context)
    }

    /// A FlowKit handler that moves to a state its state has no transition to (the Swift code has
    /// drifted from the diagram), or a handler for a state the diagram does not have.
    private func handlerReturns(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        var findings: [Finding] = []
        for implementation in flow.implementations {
            for handler in implementation.handlers where handler.state != "End" && handler.state != "Fail" {
                let name = FlowKitHandlers.qualifiedName(handler, of: implementation)
                guard let step = FlowKitHandlers.step(handledBy: handler, in: flow) else {
                    let states = flow.steps.map(FlowKitHandlers.state(of:))
                    let hint = Spelling.closest(to: handler.state, in: states).map { "; did you mean '\($0)'?" } ?? ""
                    findings.append(context.finding(
                        Self.description, "\(name) handles a state '\(handler.state)' that \(flow.name) does not have\(hint)",
                        at: handler.location))
                    continue
                }
                let declared = flow.transitions.filter { $0.from == step.id && $0.crossesInto == nil }
                let cases = Set(declared.map { FlowKitHandlers.caseName(of: $0, in: flow) })
                var reported = Set<String>()
                for returned in handler.returns where !cases.contains(returned.caseName) && reported.insert(returned.caseName).inserted {
                    let target = flow.steps.first { FlowKitHandlers.state(of: $0).flowKitCaseName == returned.caseName }
                    // A case that is no state at all is a typo when exactly one case of the state's own
                    // transitions (the generated enum's cases, the only ones that compile) is spelt like it:
                    // the fix renames every return of it in this handler.
                    let meant = target == nil ? Spelling.unique(to: returned.caseName, in: cases) : nil
                    let what = target.map { "'\($0.name)', but the diagram has no transition '\(step.name)' → '\($0.name)'" }
                        ?? "'\(returned.caseName)', which is not a state of \(flow.name)" + (meant.map { "; did you mean '\($0)'?" } ?? "")
                    var finding = context.finding(
                        Self.description, "\(name) moves to \(what)",
                        at: returned.location, step: step.id,
                        related: FlowKitHandlers.related(step.location, "'\(step.name)' and its transitions are declared here"))
                    if let meant {
                        let edits = handler.returns.filter { $0.caseName == returned.caseName }.compactMap { other in
                            other.location.map { FixEdit(at: $0, original: returned.caseName, replacement: meant) }
                        }
                        if edits.count == handler.returns.filter({ $0.caseName == returned.caseName }).count {
                            finding.fix = Fix(description: "replace '\(returned.caseName)' with '\(meant)'", edits: edits)
                        }
                    }
                    findings.append(finding)
                }
            }
        }
        return findings
    }
}
