import FlowState
import UIKit

// Each screen owns the FlowStepHandler its step's intent returns: the step's content arrives through
// it, and the screen completes the step with its result.

/// Shows the profile; the user can edit their name or download a fresh copy.
final class UserProfileViewController: UIViewController {
    let results = FlowStepHandler(UserProfile.self, UserProfileAction.self)

    @objc func editNamePressed() {
        results.complete(.editName)
    }

    @objc func refreshPressed() {
        results.complete(.downloadProfile)
    }
}

/// A text field and a Save button.
final class StringEntryViewController: UIViewController {
    let results = FlowStepHandler(String.self, String.self)
    let textField = UITextField()

    @objc func savePressed() {
        results.complete(textField.text)
    }

    @objc func cancelPressed() {
        results.complete(nil)
    }
}

/// A spinner shown over the current screen while a request runs.
final class LoadingModalViewController: UIViewController {}

/// The first screen of onboarding: greets the user by name.
final class WelcomeViewController: UIViewController {
    let results = FlowStepHandler(String.self, WelcomeChoice.self)

    @objc func setUpPressed() {
        results.complete(.setUp)
    }

    @objc func skipPressed() {
        results.complete(.skip)
    }
}

/// A list of languages.
final class LanguagePickerViewController: UIViewController {
    let results = FlowStepHandler(Any.self, Language.self)
}

/// "Switch the app to <language>?" with Yes / No.
final class ConfirmationViewController: UIViewController {
    let results = FlowStepHandler(String.self, Bool.self)
}

/// Two password fields.
final class PasswordEntryViewController: UIViewController {
    let results = FlowStepHandler(Any.self, String.self)
}

/// A photo picker.
final class PhotoPickerViewController: UIViewController {
    let results = FlowStepHandler(Any.self, UIImage.self)
}

/// Crops the photo it is given to a square.
final class CropViewController: UIViewController {
    let results = FlowStepHandler(UIImage.self, UIImage.self)
}

/// A message and an OK button.
final class MessageViewController: UIViewController {
    let results = FlowStepHandler(String.self, Void.self)
}
