import FlowModel
import FlowRules

/// `missing-handler`: the Swift type implementing a FlowKit machine lacks a state's handler.
public struct MissingHandlerRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.missingHandler,
        severity: .error,
        summary: "The Swift flow controller of a FlowKit machine has no handler for one of its states.",
        rationale: """
            FlowKit generates a protocol with one on<State>(state:context:) handler per state, and \
            onBegin; the controller that adopts it must write them all. A handler missing after the \
            diagram gained a state is a build failure at best, and a state the app cannot leave at \
            worst. Checked when the diagram and the Swift sources are read in the same run.
            """,
        triggeringExamples: [
            """
            ' file: Checkout.puml
            @startuml
            [*] --> Cart
            Cart --> Pay /' finding '/
            Pay: Order
            Pay --> [*]
            @enduml
            // file: CheckoutController.swift
            final class CheckoutController: CheckoutStateMachine {
                func onBegin(state: CheckoutState, context: Void) -> Promise<CheckoutState.Begin> { .value(.cart(())) }
                func onCart(state: CheckoutState, context: Void) -> Promise<CheckoutState.Cart> {
                    return Promise.value(.pay(Order()))
                }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            ' file: Checkout.puml
            @startuml
            [*] --> Cart
            Cart --> Pay
            Pay: Order
            Pay --> [*]
            @enduml
            // file: CheckoutController.swift
            final class CheckoutController: CheckoutStateMachine {
                func onBegin(state: CheckoutState, context: Void) -> Promise<CheckoutState.Begin> { .value(.cart(())) }
                func onCart(state: CheckoutState, context: Void) -> Promise<CheckoutState.Cart> {
                    return Promise.value(.pay(Order()))
                }
            }
            extension CheckoutController {
                func onPay(state: CheckoutState, context: Order) -> Promise<CheckoutState.Pay> {
                    return payments.charge(context).map { .end(()) }
                }
            }
            """,
        ],
        exampleFileName: "Example.puml")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        var findings: [Finding] = []
        guard !flow.implementations.isEmpty else { return [] }  // no Swift code implements the machine
        let index = FlowKitHandlers.Index(context.analysis)
        let required = FlowKitHandlers.required(in: flow)
        for (i, implementation) in flow.implementations.enumerated() {
            for step in required {
                let state = FlowKitHandlers.state(of: step)
                guard index.handler(for: state, inImplementation: i) == nil else { continue }
                let name = FlowKitHandlers.name(state)
                let conformance = RelatedLocation.list(implementation.location, "\(implementation.typeName) adopts \(implementation.machine)StateMachine here")
                findings.append(context.finding(
                    Self.description,
                    "\(implementation.typeName) implements \(implementation.machine)StateMachine but has no \(name)(state:context:) for state '\(step.name)'",
                    at: step.location, step: step.id, related: conformance))
            }
        }
        return findings
    }
}
