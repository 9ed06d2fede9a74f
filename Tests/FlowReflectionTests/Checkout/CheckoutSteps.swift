// A FlowState flow whose every link is set while it is built: no completion chooses a next step and
// no closure sets content. What reflection sees of it is therefore all there is to see, and the
// source loader (reading this file) and reflection (walking a live `CheckoutSteps`) must build the
// same flow: FlowStateAssemblyTests compares them whole. Keep it free of completions, and write
// literals as they print (the source shows the literal, reflection the value).

/// Shows a step's screen; in this test nothing is shown, and a step without a handler completes.
enum CheckoutScreens {
    static func show<Content, Result>(_ step: FlowStep<Content, Result>) -> FlowStepHandler<Content, Result>? { nil }
}

/// A `Startable` that is not a `FlowStep`: prints the receipt, then the flow goes on or ends.
final class ReceiptPrinter: Startable {
    var nextStep: Startable?
    let identifier = "receipt"

    func start() {
        finishStep()
    }
}

/// Review the cart, then two extras at once (made in place, in the group's `steps`), then pay, then
/// print the receipt; the cart and the amount are set before the flow starts.
final class CheckoutSteps {
    let cartStep = FlowStep([String].self, Bool.self, identifier: "Review cart") { step in
        CheckoutScreens.show(step)
    }

    lazy var extrasStep = ConcurentFlowStep(identifier: "Extras", steps: [
        FlowStep(String.self, String.self, identifier: "Gift message") { step in CheckoutScreens.show(step) },
        FlowStep(Any.self, Bool.self, identifier: "Gift wrap") { step in CheckoutScreens.show(step) },
    ])

    let paymentStep = FlowStep(Int.self, Bool.self, identifier: "Payment") { step in
        CheckoutScreens.show(step)
    }

    let receipt = ReceiptPrinter()

    init() {
        cartStep.content = ["book", "desk lamp"]
        paymentStep.content = 4250  // as the live value prints: initial data shows the value
        cartStep.nextStep = extrasStep
        extrasStep.nextStep = paymentStep
        paymentStep.nextStep = receipt
    }
}
