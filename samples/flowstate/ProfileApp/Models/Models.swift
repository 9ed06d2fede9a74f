import Foundation
import UIKit

/// The signed-in user's profile, as the server returns it.
struct UserProfile {
    var name: String
    var email: String
    var avatarURL: URL?

    /// Downloads the current profile.
    static func getUser(_ completion: @escaping (UserProfile?) -> Void) {
        ProfileService.shared.fetchProfile(completion)
    }

    /// Saves a new name and returns the updated profile.
    static func updateName(_ name: String, _ completion: @escaping (UserProfile?) -> Void) {
        ProfileService.shared.updateName(name, completion)
    }
}

/// What the profile screen asks for.
enum UserProfileAction {
    case editName
    case downloadProfile
}

/// What the welcome screen of onboarding asks for.
enum WelcomeChoice {
    case setUp
    case skip
}

/// A language the app is translated into.
enum Language: String {
    case english = "en"
    case french = "fr"
    case german = "de"
}

/// Talks to the profile API.
final class ProfileService {
    static let shared = ProfileService()

    func fetchProfile(_ completion: @escaping (UserProfile?) -> Void) {
        completion(nil)
    }

    func updateName(_ name: String, _ completion: @escaping (UserProfile?) -> Void) {
        completion(nil)
    }

    func changePassword(_ password: String, _ completion: @escaping (Bool) -> Void) {
        completion(true)
    }

    func deleteAccount(_ completion: @escaping (Bool) -> Void) {
        completion(true)
    }

    func uploadAvatar(_ image: UIImage, _ completion: @escaping (URL?) -> Void) {
        completion(nil)
    }

    func exportData(_ completion: @escaping (URL?) -> Void) {
        completion(nil)
    }
}

/// Asks the system for permissions.
enum PermissionService {
    static func requestNotifications(_ completion: @escaping (Bool) -> Void) {
        completion(true)
    }

    static func requestLocation(_ completion: @escaping (Bool) -> Void) {
        completion(true)
    }
}
