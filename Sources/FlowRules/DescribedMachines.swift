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
        return analysis.reachable.compactMap { i in
            guard analysis.transitionsLeaving[i].isEmpty else { return nil }
            let step = analysis.step(i)
            guard !step.isExit, step.kind != .start else { return nil }
            // A composite whose inside never ends keeps running there: the machine lives inside it.
            if let inside = step.subflow.flatMap({ context.session.describedMachines.flow(id: $0) }),
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
        guard flow.kind.machine == .described else { return context }
        let session = context.session
        // Asked by more than one rule: the augmented flow is analysed once.
        let analysis = session.crossingAnalysis(of: flow.id) { augmentedAnalysis(of: flow, session: session) }
        return analysis.map { RuleContext(analysis: $0, session: session) } ?? context
    }

    /// The analysis of described machine `flow` with its crossing edges; nil when it has none.
    private static func augmentedAnalysis(of flow: Flow, session: AnalysisSession) -> FlowAnalysis? {
        let index = session.describedMachines
        // The step of this machine that holds a machine inside it, by that machine's id.
        var holders: [String: String] = [:]
        for step in flow.steps { if let inside = step.subflow, holders[inside] == nil { holders[inside] = step.id } }
        /// The step of this machine that is, or holds, machine `id`'s inside; nil when `id` is not inside it.
        func standIn(for id: String) -> String? {
            index.child(of: flow.id, above: id, inFile: flow.location?.file).flatMap { holders[$0] }
        }
        var extra: [Transition] = []
        for crossing in index.crossings(seenFrom: flow.id, inFile: flow.location?.file) {
            let machine = session.graph.flows[crossing.machine]
            let transition = machine.transitions[crossing.transition]
            guard let target = transition.crossesInto else { continue }
            let source = machine.id == flow.id ? transition.from : holders[crossing.child ?? ""]
            guard let source else { continue }
            let destination = target == flow.id ? transition.to : standIn(for: target) ?? "End"
            guard source != destination || machine.id == flow.id else { continue }
            extra.append(Transition(from: source, to: destination, label: transition.label, location: transition.location))
        }
        guard !extra.isEmpty else { return nil }
        var augmented = flow
        augmented.transitions += extra
        if extra.contains(where: { $0.to == "End" }), !flow.steps.contains(where: { $0.id == "End" }) {
            augmented.steps.append(Step(id: "End", name: "End", kind: .end, location: flow.location))
        }
        return FlowAnalysis(flow: augmented, session: session)
    }

    /// What `withCrossingEdges`, `runsForever` and `compositeStep` look up in the whole graph, found
    /// in one pass over it (per flow, the scans over every machine of the file made a file of 2,000
    /// composite states quadratic): flows by id, each file's machines' parents, and for each machine
    /// the edges that cross a boundary from inside it.
    final class Index {
        private let firstByID: [String: Int]
        /// Per file, each machine's parent (the first machine of an id wins, as everywhere).
        private var parents: [String?: [String: String?]] = [:]
        /// Per file and machine id, the crossing edges from that machine or from one inside it: the
        /// machine's index in the graph, the edge's index in it, and the machine just inside the one
        /// asked about on the way up (nil for its own edges) — in the graph's order of machines and edges.
        private var crossings: [String?: [String: [(machine: Int, transition: Int, child: String?)]]] = [:]
        /// In a described machine, the steps reached by edges from other machines, by flow id.
        let reachedByCrossingEdges: [String: Set<String>]
        private let graph: FlowGraph

        init(_ graph: FlowGraph) {
            self.graph = graph
            var firstByID: [String: Int] = [:]
            for (i, flow) in graph.flows.enumerated() where firstByID[flow.id] == nil { firstByID[flow.id] = i }
            self.firstByID = firstByID
            for flow in graph.flows where flow.kind.isStateMachine {
                let file = flow.location?.file
                if parents[file, default: [:]][flow.id] == nil { parents[file, default: [:]][flow.id] = .some(flow.parent) }
            }
            var reached: [String: Set<String>] = [:]
            for (m, machine) in graph.flows.enumerated() where machine.kind.isStateMachine {
                let file = machine.location?.file
                for (t, transition) in machine.transitions.enumerated() where transition.crossesInto != nil {
                    if machine.kind.machine == .described { reached[transition.crossesInto!, default: []].insert(transition.to) }
                    // Seen from the machine itself, and from each machine it is inside.
                    // (A machine met twice on the way up, only in a broken graph, is taken once, where first met.)
                    crossings[file, default: [:]][machine.id, default: []].append((m, t, nil))
                    var child = machine.id
                    var seen = Set<String>(), taken: Set<String> = [machine.id]
                    while let parent = parents[file]?[child] ?? nil, seen.insert(child).inserted {
                        if taken.insert(parent).inserted { crossings[file, default: [:]][parent, default: []].append((m, t, child)) }
                        child = parent
                    }
                }
            }
            reachedByCrossingEdges = reached
        }

        /// The first flow with this id.
        func flow(id: String) -> Flow? { firstByID[id].map { graph.flows[$0] } }

        /// The crossing edges seen from machine `id` of `file`: its own and those of machines inside it.
        func crossings(seenFrom id: String, inFile file: String?) -> [(machine: Int, transition: Int, child: String?)] {
            crossings[file]?[id] ?? []
        }

        /// The machine just inside `outer` on the way up from machine `inner` (`inner` itself when
        /// `outer` is its parent); nil when `inner` is not inside `outer`.
        func child(of outer: String, above inner: String, inFile file: String?) -> String? {
            var child = inner
            var seen = Set<String>()
            while let parent = parents[file]?[child] ?? nil, seen.insert(child).inserted {
                if parent == outer { return child }
                child = parent
            }
            return nil
        }
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
              let composite = compositeStep(of: flow, in: context.session) else { return false }
        return composite.flow.transitions.contains { $0.from == composite.step.id && $0.label != nil }
    }

    /// The composite state (and the flow holding it) whose inside `flow` is.
    static func compositeStep(of flow: Flow, in session: AnalysisSession) -> (flow: Flow, step: Step)? {
        guard let parentID = flow.parent, let parent = session.describedMachines.flow(id: parentID),
              let step = parent.steps.first(where: { $0.subflow == flow.id }) else { return nil }
        return (parent, step)
    }
}
