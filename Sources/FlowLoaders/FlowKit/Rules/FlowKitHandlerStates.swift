import FlowModel
import FlowRules

/// `unknown-step`'s part for FlowKit: the Swift code implementing a machine has drifted from its diagram.
struct FlowKitHandlerStates: RuleExtension {
    static let host: any Rule.Type = UnknownStepRule.self

    init() {}

    /// A FlowKit handler that moves to a state its state has no transition to (the Swift code has
    /// drifted from the diagram), or a handler for a state the diagram does not have.
    func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        guard !flow.implementations.isEmpty else { return [] }  // no Swift code implements the machine
        let index = FlowKitHandlers.Index(context.analysis)
        var states: Spelling.Candidates?  // made for the first handler of a state the machine lacks
        var findings: [Finding] = []
        for implementation in flow.implementations {
            for handler in implementation.handlers where handler.state != "End" && handler.state != "Fail" {
                let name = FlowKitHandlers.qualifiedName(handler, of: implementation)
                guard let step = index.step(handledBy: handler) else {
                    if states == nil { states = Spelling.Candidates(flow.steps.map(FlowKitHandlers.state(of:))) }
                    let hint = states!.closest(to: handler.state).map { "; did you mean '\($0)'?" } ?? ""
                    findings.append(context.finding(
                        UnknownStepRule.description, "\(name) handles a state '\(handler.state)' that \(flow.name) does not have\(hint)",
                        at: handler.location))
                    continue
                }
                let cases = Set(index.transitions(from: step.id).map { index.caseName(of: $0) })
                var reported = Set<String>()
                for returned in handler.returns where !cases.contains(returned.caseName) && reported.insert(returned.caseName).inserted {
                    let target = index.step(ofCase: returned.caseName)
                    // A case that is no state at all is a typo when exactly one case of the state's own
                    // transitions (the generated enum's cases, the only ones that compile) is spelt like it:
                    // the fix renames every return of it in this handler.
                    let meant = target == nil ? Spelling.unique(to: returned.caseName, in: cases) : nil
                    let what = target.map { "'\($0.name)', but the diagram has no transition '\(step.name)' → '\($0.name)'" }
                        ?? "'\(returned.caseName)', which is not a state of \(flow.name)" + (meant.map { "; did you mean '\($0)'?" } ?? "")
                    var finding = context.finding(
                        UnknownStepRule.description, "\(name) moves to \(what)",
                        at: returned.location, step: step.id,
                        related: RelatedLocation.list(step.location, "'\(step.name)' and its transitions are declared here"))
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
