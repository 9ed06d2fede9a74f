import FlowModel
import FlowRules

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

    /// The steps whose handlers the generated protocol requires: Begin and every state (FlowKit
    /// implements `onEnd` and `onFail` itself).
    static func required(in flow: Flow) -> [Step] {
        var seen = Set<String>()
        return flow.steps.filter { $0.kind != .end && $0.kind != .fail && seen.insert(state(of: $0)).inserted }
    }

    /// A machine's steps, transitions and handlers by the names the FlowKit rules look them up by,
    /// found once per flow: the rules ask for every handler and every transition, and a scan of the
    /// steps each time made a machine of thousands of states quadratic (16,000 states and handlers
    /// took 35 s).
    struct Index {
        /// The machine's analysis, which finds a step by its id (`FlowAnalysis.step(id:)`).
        let analysis: FlowAnalysis
        private var flow: Flow { analysis.flow }
        private var byState: [String: Int] = [:]
        private var byCase: [String: Int] = [:]
        /// Transitions within the machine (not into another one), by their source's id, in order.
        private var leaving: [String: [Int]] = [:]
        /// Per implementation of the machine, its first handler of each state.
        private var handlers: [[String: StateHandler]] = []

        init(_ analysis: FlowAnalysis) {
            self.analysis = analysis
            let flow = analysis.flow
            for (i, step) in flow.steps.enumerated() {
                let state = FlowKitHandlers.state(of: step)
                if byState[state] == nil { byState[state] = i }
                if byCase[state.generatedCaseName] == nil { byCase[state.generatedCaseName] = i }
            }
            for (t, transition) in flow.transitions.enumerated() where transition.crossesInto == nil {
                leaving[transition.from, default: []].append(t)
            }
            handlers = flow.implementations.map { Dictionary($0.handlers.map { ($0.state, $0) }, uniquingKeysWith: { first, _ in first }) }
        }

        /// The first step with this id (`Flow.step(_:)`).
        func step(_ id: String) -> Step? { analysis.step(id: id) }

        /// The step `handler` handles, if the machine has one.
        func step(handledBy handler: StateHandler) -> Step? { byState[handler.state].map { flow.steps[$0] } }

        /// The first step whose state's case is `caseName` (what a handler's `return .x` moves to).
        func step(ofCase caseName: String) -> Step? { byCase[caseName].map { flow.steps[$0] } }

        /// The transitions from the step with id `id` within the machine, in order.
        func transitions(from id: String) -> [Transition] { (leaving[id] ?? []).map { flow.transitions[$0] } }

        /// The first handler of `state` in the machine's `implementation`-th implementation
        /// (`MachineImplementation.handler(for:)`).
        func handler(for state: String, inImplementation implementation: Int) -> StateHandler? { handlers[implementation][state] }

        /// The case a handler returns to move along `transition` (`.authenticate`, `.end`).
        func caseName(of transition: Transition) -> String {
            guard let target = step(transition.to) else { return transition.to.generatedCaseName }
            return FlowKitHandlers.state(of: target).generatedCaseName
        }
    }

    /// A handler as a person finds it in the code: `LoginFlowController.onPrompt`.
    static func qualifiedName(_ handler: StateHandler, of implementation: MachineImplementation) -> String {
        "\(implementation.typeName).\(name(handler.state))"
    }
}

