import Foundation

struct UserProfile {
    let userID: String
    let displayName: String
    let avatarURL: URL?
}

struct Album {
    let title: String
    let photoURLs: [String]
    let coverThumbnail: String?
}

enum PhotoShareError: Error {
    case invalidEmail
    case passwordTooShort
    case emptyResponse
}

/// Thin wrapper around the PhotoShare REST API (the network layer lives elsewhere in the app).
final class APIClient {
    static let shared = APIClient()

    func login(email: String, password: String, completion: @escaping (String?, Error?) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            completion(password.count >= 6 ? "tok_" + email.lowercased() : nil, nil)
        }
    }

    func fetchProfile(token: String, completion: @escaping ([String: Any]?, Error?) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            completion(["id": "u_1029", "name": "Anna Kowalska"], nil)
        }
    }
}

/// Keeps the access token between launches (keychain-backed in the real app).
final class SessionStore {
    static let shared = SessionStore()
    private(set) var accessToken: String?

    func save(accessToken: String) {
        self.accessToken = accessToken
    }
}

struct Account {
    let plan: String    // "free", "pro" (and, since the 2.3 backend, "enterprise")
    let region: String  // "eu", "us", ...
}

final class AccountStore {
    static let shared = AccountStore()
    var current = Account(plan: "free", region: "eu")
}
