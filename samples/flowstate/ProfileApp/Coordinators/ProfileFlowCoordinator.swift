import FlowState
import UIKit

/// The profile flow of FlowState's README: show the profile; download a fresh copy, or edit the
/// name and save it. Every step is a local of `init`, so the flow is `ProfileFlowCoordinator.init`.
final class ProfileFlowCoordinator: NavigationFlowCoordinator {
    init(profile: UserProfile) {
        let navigationController = UINavigationController()

        /// Shows the profile. Its content is set below, and again by the steps that fetch a new one.
        let displayStep = FlowStep(UserProfile.self, UserProfileAction.self, identifier: "Profile", { step in
            let vc = UserProfileViewController()
            navigationController.setViewControllers([vc], animated: false)
            return vc.results
        })
        displayStep.content = profile

        /// Downloads the profile: no content, a new profile as result.
        let networkStep = FlowStep(Any.self, UserProfile.self, identifier: "Download profile", { step in
            let loader = LoadingModalViewController()
            navigationController.present(loader, animated: true, completion: nil)
            let stepResults = FlowStepHandler(Any.self, UserProfile.self)
            UserProfile.getUser { newProfile in
                stepResults.complete(newProfile)
            }
            return stepResults
        }) { [unowned displayStep] step, newProfile in
            if let newProfile = newProfile {
                // Updates the profile screen, which is still shown under the loader.
                displayStep.content = newProfile
            }
            navigationController.dismiss(animated: true, completion: nil)
        }

        /// Asks for a new name, starting from the current one.
        let editNameStep = FlowStep(String.self, String.self, identifier: "Edit name", { step in
            let vc = StringEntryViewController()
            navigationController.pushViewController(vc, animated: true)
            return vc.results
        })

        /// Saves the name it is given and shows the updated profile.
        let updateNameStep = FlowStep(String.self, UserProfile.self, identifier: "Save name", { step in
            let loader = LoadingModalViewController()
            navigationController.present(loader, animated: true, completion: nil)
            let stepResults = FlowStepHandler(String.self, UserProfile.self)
            UserProfile.updateName(step.content ?? "") { newProfile in
                stepResults.complete(newProfile)
            }
            return stepResults
        }) { [unowned displayStep] step, newProfile in
            if let newProfile = newProfile {
                displayStep.content = newProfile
            }
            navigationController.dismiss(animated: true, completion: nil)
            navigationController.popViewController(animated: true)
        }

        editNameStep.setCompletion { step, newName in
            guard let newName = newName else {
                // Cancelled: the flow ends, the profile stays on screen.
                step.nextStep = nil
                return
            }
            updateNameStep.content = newName
            step.nextStep = updateNameStep
        }

        displayStep.setCompletion { step, action in
            guard let action = action else { return }
            switch action {
            case .editName:
                editNameStep.content = step.content?.name
                step.nextStep = editNameStep
            case .downloadProfile:
                step.nextStep = networkStep
            }
        }

        super.init(navigationController: navigationController, identifier: "Profile Flow", firstStep: displayStep)
    }

    required init(navigationController: UINavigationController, identifier: String, firstStep: Startable) {
        fatalError("init(navigationController:identifier:firstStep:) has not been implemented")
    }
}
