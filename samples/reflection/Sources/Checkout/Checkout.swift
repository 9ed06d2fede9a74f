import Foundation

// The checkout flow of a shop app. Which steps it has is decided at run time, by feature flags from
// remote configuration: no source file shows the whole flow, so FlowLens cannot check it by reading
// the code (`flowlens check` finds no flow here). The tests reflect the live flow instead.

/// Features switched on and off by remote configuration.
public struct CheckoutFeatures: Sendable {
    /// Wrap the parcel; the gift card carries the buyer's message.
    public var giftWrapping: Bool
    /// Show the screen where the buyer types a gift message.
    public var giftMessages: Bool

    public init(giftWrapping: Bool = false, giftMessages: Bool = false) {
        self.giftWrapping = giftWrapping
        self.giftMessages = giftMessages
    }
}

/// Builds the checkout flow the features ask for.
public struct CheckoutAssembler {
    public var features: CheckoutFeatures
    /// How a flow is made: injected, so that the app can pass one that logs to its analytics.
    public var makeFlow: () -> Flow

    public init(features: CheckoutFeatures, makeFlow: @escaping () -> Flow = Flow.init) {
        self.features = features
        self.makeFlow = makeFlow
    }

    public func assemble(cartID: String, paymentMethod: String) -> Flow {
        let flow = makeFlow()
        flow.setDataBucket(dataBucket: ["cartID": cartID, "paymentMethod": paymentMethod])
        var steps: [FlowOperation] = [ValidateCartOp()]
        if features.giftMessages { steps.append(AskGiftMessageOp()) }
        if features.giftWrapping { steps.append(GiftWrapOp()) }
        for step in steps { flow.add(operation: step) }
        flow.add(operation: ChargeCardOp(), flowCase: FlowCase(key: "paymentMethod", value: "card"))
        flow.add(operation: SendInvoiceOp(), flowCase: FlowCase(key: "paymentMethod", value: "invoice"))
        flow.combine()
        flow.add(operation: ConfirmOrderOp())
        flow.setDidFinishBlock { finished in
            print("order", finished.dataBucket["orderID"] as? String ?? "not placed")
        }
        return flow
    }
}

/// The checkout as remote configuration has it today: gift wrapping on, but the gift-message screen
/// it needs is still off. GiftWrapOp reads `giftMessage`, which nothing sets: at run time the flow
/// stops there (`withInsufficientInputData`) and the order is never placed.
public func makeCheckoutFlow() -> Flow {
    CheckoutAssembler(features: CheckoutFeatures(giftWrapping: true, giftMessages: false))
        .assemble(cartID: "cart-42", paymentMethod: "card")
}

/// The same, with both flags on.
public func makeFixedCheckoutFlow() -> Flow {
    CheckoutAssembler(features: CheckoutFeatures(giftWrapping: true, giftMessages: true))
        .assemble(cartID: "cart-42", paymentMethod: "card")
}

// The operations. In the app, each `mainLogic()` reads and writes the flow's data bucket as its doc
// comment says (here they are empty). Reflection cannot see into method bodies: the tests declare
// these keys to FlowLens (see CheckoutFlowTests.swift).

/// Reads `cartID`; writes `orderTotal: Double`.
public final class ValidateCartOp: FlowOperation {}

/// Asks for the gift message; writes `giftMessage: String`.
public final class AskGiftMessageOp: FlowOperation {}

/// Reads `giftMessage: String` and `orderTotal: Double`; writes the new `orderTotal`.
public final class GiftWrapOp: FlowOperation {}

/// Reads `orderTotal`; writes `paymentID: String`.
public final class ChargeCardOp: FlowOperation {}

/// Reads `orderTotal`; writes `paymentID: String`.
public final class SendInvoiceOp: FlowOperation {}

/// Reads `paymentID`; writes `orderID: String`.
public final class ConfirmOrderOp: FlowOperation {}
