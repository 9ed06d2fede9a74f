import FlowModel

/// How a FlowKit machine's states map to the handlers of the Swift types that implement it.
enum FlowKitHandlers {
    /// The handler name FlowKit generates for a state (`onPrompt`).
    static func name(_ state: String) -> String { "on" + state }

    /// The handler's state name for a step: `Begin` and `End` for the pseudo-states, else its id.
    static func state(of step: Step) -> String {
        switch step.kind {
        case .start: return "Begin"
        case .end: return "End"
        default: return step.id
        }
    }

    /// The step `handler` handles, if the machine has one.
    static func step(handledBy handler: StateHandler, in flow: Flow) -> Step? {
        flow.steps.first { state(of: $0) == handler.state }
    }

    /// The steps whose handlers the generated protocol requires: Begin and every state (FlowKit
    /// implements `onEnd` and `onFail` itself).
    static func required(in flow: Flow) -> [Step] {
        var seen = Set<String>()
        return flow.steps.filter { $0.kind != .end && $0.kind != .fail && seen.insert(state(of: $0)).inserted }
    }

    /// The case a handler returns to move along `transition` (`.authenticate`, `.end`).
    static func caseName(of transition: Transition, in flow: Flow) -> String {
        guard let target = flow.step(transition.to) else { return transition.to.flowKitCaseName }
        return state(of: target).flowKitCaseName
    }

    /// A handler as a person finds it in the code: `LoginFlowController.onPrompt`.
    static func qualifiedName(_ handler: StateHandler, of implementation: MachineImplementation) -> String {
        "\(implementation.typeName).\(name(handler.state))"
    }

    /// A finding's related location, when the place is known.
    static func related(_ location: SourceLocation?, _ text: String) -> [RelatedLocation] {
        location.map { [RelatedLocation(message: text, location: $0)] } ?? []
    }
}

/// How PlantUML state machines run when nobody generates code from them (and, for the end, also
/// when FlowKit does): what `dead-end` and `unreachable-step` need to know about them.
enum PlantUMLMachines {
    /// For a machine with no `--> [*]` anywhere (it runs forever on purpose: a firmware main loop,
    /// an app shell), the `dead-end` findings: only its *trap* states, which no transition leaves.
    /// Nil for any other flow, which `dead-end` checks as usual. Inside a composite of a plain
    /// diagram that the composite's own edges leave, an inner state with no way on is not a trap
    /// either: the composite's transitions leave from any state inside it.
    static func runsForever(_ context: RuleContext) -> [Finding]? {
        let flow = context.flow
        guard flow.stateMachine != nil else { return nil }
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
            let message = flow.isFlowKitMachine
                ? "state '\(step.name)' is a dead end: it has no outgoing transition and is not the end, so its generated handler can only fail"
                : "state '\(step.name)' is a trap: no transition leaves it, so the machine, which otherwise runs without end, stops there for good"
            return context.finding(DeadEndRule.description, message, at: step.location, step: step.id)
        }
    }

    /// For a diagram FlowKit does not generate, the rule context of the flow with the edges that cross
    /// a composite's boundary seen from this machine: an edge out of a composite state's inside is an
    /// edge from that composite state; one into it is an edge to it; one that leaves this machine
    /// for an outer one is a way out (an end). PlantUML allows them all, and without them a machine
    /// left from inside a composite would look like a loop with no end. Other flows are unchanged.
    static func withCrossingEdges(_ context: RuleContext) -> RuleContext {
        let flow = context.flow
        let graph = context.session.graph
        guard flow.stateMachine != nil, !flow.isFlowKitMachine else { return context }
        let file = flow.location?.file
        let machines = graph.flows.filter { $0.stateMachine != nil && $0.location?.file == file }
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

    /// True for a diagram not written for FlowKit whose machine has no `[*] -->` (a composite used as a
    /// group, a diagram without an initial state): where it starts is not written, so no state of it
    /// is known to be unreachable, and its missing start is no dead end.
    static func startsNowhere(_ flow: Flow) -> Bool {
        guard flow.stateMachine != nil, !flow.isFlowKitMachine else { return false }
        let starts = Set(flow.steps.filter { $0.kind == .start }.map(\.id))
        return !flow.transitions.contains { starts.contains($0.from) }
    }

    /// True for the inside of a composite state of a diagram not written for FlowKit whose own edges
    /// carry an event: the event leaves the composite from whichever inner state it is in, so no
    /// inner state is a trap or stuck.
    static func leftByEvents(_ context: RuleContext) -> Bool {
        let flow = context.flow
        guard flow.stateMachine != nil, !flow.isFlowKitMachine,
              let composite = compositeStep(of: flow, in: context.session.graph) else { return false }
        return composite.flow.transitions.contains { $0.from == composite.step.id && $0.label != nil }
    }

    /// The composite state (and the flow holding it) whose inside `flow` is.
    static func compositeStep(of flow: Flow, in graph: FlowGraph) -> (flow: Flow, step: Step)? {
        guard let parentID = flow.parent, let parent = graph.flows.first(where: { $0.id == parentID }),
              let step = parent.steps.first(where: { $0.subflow == flow.id }) else { return nil }
        return (parent, step)
    }

    /// In a diagram FlowKit does not generate, an edge into a composite's state or out of it to an
    /// outer state is ordinary PlantUML: the steps it reaches in other machines, by flow id. Empty
    /// for FlowKit machines (`crossing-transition` reports such an edge).
    static func reachedByCrossingEdges(_ graph: FlowGraph) -> [String: Set<String>] {
        var reached: [String: Set<String>] = [:]
        for flow in graph.flows where flow.stateMachine != nil && !flow.isFlowKitMachine {
            for transition in flow.transitions {
                if let other = transition.crossesInto { reached[other, default: []].insert(transition.to) }
            }
        }
        return reached
    }
}
