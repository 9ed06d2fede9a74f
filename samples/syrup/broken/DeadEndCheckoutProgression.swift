import Foundation
import Syrup

/// Checks out a cart: validates it, then charges the card in the background.
enum CheckoutProgression: Progression {
    typealias Result = Receipt

    case validate(Cart)
    case pay(Cart, token: PaymentToken)
    // defect: dead-end — its branch calls completedStep(self) as if `.declined` were an end, but `result` returns nil for it: Syrup runs the branch and crashes
    case declined(reason: String)
    case paid(Receipt)

    mutating func updateOrDeferNext() throws -> Deferred<CheckoutProgression>? {
        switch self {
        case let .validate(cart):
            guard cart.isValid else { throw CheckoutError.invalidCart }
            self = .pay(cart, token: try PaymentSheet.token(for: cart))
        case let .pay(cart, token):
            return Deferred.future { resolve in
                PaymentService.charge(cart.total, with: token) { outcome in
                    switch outcome {
                    case .success(let receipt):
                        resolve { .paid(receipt) }
                    case .failure(.declined(let reason)):
                        resolve { .declined(reason: reason) }
                    case .failure(let error):
                        resolve { throw error }
                    }
                }
            }
        case .declined, .paid:
            completedStep(self)
        }
    }

    var result: Receipt? {
        guard case let .paid(receipt) = self else { return nil }
        return receipt
    }
}
