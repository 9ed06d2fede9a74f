import Foundation
import Syrup

/// Fetches a user's profile by composing HTTPRequestProgression, and retries a bad response twice
/// after a pause (a loop with a way out). No stage is marked: the initial one is the stage nothing
/// leads to, `.start`.
enum ProfileSyncProgression: Progression {
    typealias Result = Profile

    case start(userID: String)
    case fetch(HTTPRequestProgression, attempt: Int)
    case decode(body: Data?, attempt: Int)
    case waitBeforeRetry(attempt: Int)
    case synced(Profile)

    mutating func updateOrDeferNext() throws -> Deferred<ProfileSyncProgression>? {
        switch self {
        case .start(let userID):
            self = .fetch(.get(url: ProfileAPI.url(for: userID)), attempt: 1)
        case let .fetch(request, attempt):
            return compose(request,
                           mapNext: { .fetch($0, attempt: attempt) },
                           mapResult: { response in .decode(body: response.body, attempt: attempt) })
        case let .decode(body, attempt):
            if let body = body, let profile = try? JSONDecoder().decode(Profile.self, from: body) {
                self = .synced(profile)
            } else if attempt < 3 {
                self = .waitBeforeRetry(attempt: attempt)
            } else {
                throw SyncError.invalidProfile
            }
        case let .waitBeforeRetry(attempt):
            return .future { resolve in
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(attempt * 2)) {
                    resolve { .fetch(.get(url: ProfileAPI.currentURL), attempt: attempt + 1) }
                }
            }
        case .synced:
            break
        }
        return nil
    }

    var result: Profile? {
        guard case let .synced(profile) = self else { return nil }
        return profile
    }
}
