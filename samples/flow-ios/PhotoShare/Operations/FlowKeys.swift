import Foundation

/// Data-bucket keys shared by operations and controllers, so that a typo is a compile error
/// rather than a flow that stops with `withInsufficientInputData`.
enum FlowKeys {
    // Login
    static let email = "email"
    static let password = "password"
    static let accessToken = "accessToken"

    // Profile
    static let profile = "profile"
    static let profileRefreshDate = "profileRefreshDate"

    // Analytics
    static let screenName = "screenName"
}
