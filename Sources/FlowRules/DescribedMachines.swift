import FlowModel

/// How state machines whose diagram only describes them (`MachineSemantics.described`) run, and,
/// for the end, also generated ones: what `dead-end`, `unreachable-step` and `stuck-step` need to
/// know about them.
enum DescribedMachines {
    /// For a machine with no `--> [*]` anywhere (it runs forever on purpose: a firmware main loop,
    /// an app shell), the `dead-end` findings: only its *trap* states, which no transition leaves.
    /// Nil for any other flow, which `dead-end` checks as usual. Inside a composite of a described
    /// machine that the composite's own edges leave, an inner state with no way on is not a trap
    /// either: the composite's transitions leave from any state inside it.
    static func runsForever(_ context: RuleContext) -> [Finding]? {
        let flow = context.flow
        guard flow.kind.isStateMachine else { return nil }
        if leftByEvents(context) { return [] }
        guard !flow.steps.contains(where: { $0.kind == .end }) else { return nil }
        let analysis = context.analysis
        let leaving = Set(flow.transitions.map(\.from))
        let graph = context.session.graph
        return analysis.uniqueSteps.compactMap { i in
            let step = analysis.step(i)
            guard !step.isExit, step.kind != .start, !leaving.contains(step.id), analysis.reachable.contains(i) else { return nil }
            // A composite whose inside never ends keeps running there: the machine lives inside it.
            if let inside = step.subflow.flatMap({ id in graph.flows.first { $0.id == id } }),
               !inside.steps.contains(where: { $0.kind == .end }) { return nil }
            let message = flow.kind.machine == .generated
                ? "state '\(step.name)' is a dead end: it has no outgoing transition and is not the end, so its generated handler can only fail"
                : "state '\(step.name)' is a trap: no transition leaves it, so the machine, which otherwise runs without end, stops there for good"
            return context.finding(DeadEndRule.description, message, at: step.location, step: step.id)
        }
    }

    /// For a described machine, the rule context of the flow with the edges that cross
    /// a composite's boundary seen from this machine: an edge out of a composite state's inside is an
    /// edge from that composite state; one into it is an edge to it; one that leaves this machine
    /// for an outer one is a way out (an end). A described diagram allows them all, and without them a machine
    /// left from inside a composite would look like a loop with no end. Other flows are unchanged.
    static func withCrossingEdges(_ context: RuleContext) -> RuleContext {
        let flow = context.flow
        let graph = context.session.graph
        guard flow.kind.machine == .described else { return context }
        let file = flow.location?.file
        let machines = graph.flows.filter { $0.kind.isStateMachine && $0.location?.file == file }
        let parents = Dictionary(machines.map { ($0.id, $0.parent) }, uniquingKeysWith: { a, _ in a })
        /// The step of this machine that is, or holds, machine `id`'s inside; nil when `id` is not inside it.
        func standIn(for id: String) -> String? {
            var child = id
            var seen = Set<String>()
            while let parent = parents[child] ?? nil, seen.insert(child).inserted {
                if parent == flow.id { return flow.steps.first { $0.subflow == child }?.id }
                child = parent
            }
            return nil
        }
        var extra: [Transition] = []
        for machine in machines {
            for transition in machine.transitions {
                guard let target = transition.crossesInto else { continue }
                let source = machine.id == flow.id ? transition.from : standIn(for: machine.id)
                guard let source else { continue }
                let destination = target == flow.id ? transition.to : standIn(for: target) ?? "End"
                guard source != destination || machine.id == flow.id else { continue }
                extra.append(Transition(from: source, to: destination, label: transition.label, location: transition.location))
            }
        }
        guard !extra.isEmpty else { return context }
        var augmented = flow
        augmented.transitions += extra
        if extra.contains(where: { $0.to == "End" }), !flow.steps.contains(where: { $0.id == "End" }) {
            augmented.steps.append(Step(id: "End", name: "End", kind: .end, location: flow.location))
        }
        return RuleContext(analysis: FlowAnalysis(flow: augmented, session: context.session), session: context.session)
    }

    /// True for a described machine that has no `[*] -->` (a composite used as a
    /// group, a diagram without an initial state): where it starts is not written, so no state of it
    /// is known to be unreachable, and its missing start is no dead end.
    static func startsNowhere(_ flow: Flow) -> Bool {
        guard flow.kind.machine == .described else { return false }
        let starts = Set(flow.steps.filter { $0.kind == .start }.map(\.id))
        return !flow.transitions.contains { starts.contains($0.from) }
    }

    /// True for the inside of a composite state of a described machine whose own edges
    /// carry an event: the event leaves the composite from whichever inner state it is in, so no
    /// inner state is a trap or stuck.
    static func leftByEvents(_ context: RuleContext) -> Bool {
        let flow = context.flow
        guard flow.kind.machine == .described,
              let composite = compositeStep(of: flow, in: context.session.graph) else { return false }
        return composite.flow.transitions.contains { $0.from == composite.step.id && $0.label != nil }
    }

    /// The composite state (and the flow holding it) whose inside `flow` is.
    static func compositeStep(of flow: Flow, in graph: FlowGraph) -> (flow: Flow, step: Step)? {
        guard let parentID = flow.parent, let parent = graph.flows.first(where: { $0.id == parentID }),
              let step = parent.steps.first(where: { $0.subflow == flow.id }) else { return nil }
        return (parent, step)
    }

    /// In a described machine, an edge into a composite's state or out of it to an outer state is
    /// allowed: the steps it reaches in other machines, by flow id. Empty
    /// for generated machines (where the dialect reports such an edge).
    static func reachedByCrossingEdges(_ graph: FlowGraph) -> [String: Set<String>] {
        var reached: [String: Set<String>] = [:]
        for flow in graph.flows where flow.kind.machine == .described {
            for transition in flow.transitions {
                if let other = transition.crossesInto { reached[other, default: []].insert(transition.to) }
            }
        }
        return reached
    }
}
