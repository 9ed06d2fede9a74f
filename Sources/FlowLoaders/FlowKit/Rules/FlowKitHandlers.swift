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
        guard let target = flow.step(transition.to) else { return transition.to.generatedCaseName }
        return state(of: target).generatedCaseName
    }

    /// A handler as a person finds it in the code: `LoginFlowController.onPrompt`.
    static func qualifiedName(_ handler: StateHandler, of implementation: MachineImplementation) -> String {
        "\(implementation.typeName).\(name(handler.state))"
    }
}

