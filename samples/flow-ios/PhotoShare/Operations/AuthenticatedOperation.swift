import Foundation
import Flow_iOS

/// Base class for operations that call the API on behalf of the signed-in user.
/// Subclasses call `requireAccessToken()` first thing in `mainLogic()`.
class AuthenticatedOperation: FlowOperation {

    /// The session token written by `LoginOp` (or restored from the keychain).
    /// Returns nil, and the operation ends `withInsufficientInputData`, when it is missing.
    func requireAccessToken() -> String? {
        guard let token: String = getData(name: FlowKeys.accessToken) else { return nil }
        return token
    }

    func authorizationHeader(token: String) -> [String: String] {
        return ["Authorization": "Bearer " + token]
    }
}
