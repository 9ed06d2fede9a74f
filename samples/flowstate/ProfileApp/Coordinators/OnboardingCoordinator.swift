import FlowState
import UIKit

/// Onboarding: greet the user, ask for both permissions at once, then finish. The steps are stored
/// properties, so the whole type is one flow, `OnboardingCoordinator`, wired in `init` and started
/// in `start()`.
final class OnboardingCoordinator {
    let navigationController: UINavigationController

    /// Greets the user by name (its content, set in `init`).
    let welcomeStep: FlowStep<String, WelcomeChoice>

    let askNotificationsStep = FlowStep(Any.self, Bool.self, identifier: "Ask for notifications", { step in
        let handler = FlowStepHandler(Any.self, Bool.self)
        PermissionService.requestNotifications { granted in
            handler.complete(granted)
        }
        return handler
    })

    let askLocationStep = FlowStep(Any.self, Bool.self, identifier: "Ask for location", { step in
        let handler = FlowStepHandler(Any.self, Bool.self)
        PermissionService.requestLocation { granted in
            handler.complete(granted)
        }
        return handler
    })

    /// Both permission prompts run together; the flow goes on when both are answered.
    lazy var permissionsStep = ConcurentFlowStep(identifier: "Permissions", steps: [askNotificationsStep, askLocationStep])

    /// Nothing to show: the intent returns nil, so the step completes at once.
    let doneStep = FlowStep(Any.self, Any.self, identifier: "All set", { step in
        return nil
    })

    init(userName: String, navigationController: UINavigationController) {
        self.navigationController = navigationController
        welcomeStep = FlowStep(String.self, WelcomeChoice.self, identifier: "Welcome") { step in
            let vc = WelcomeViewController()
            navigationController.setViewControllers([vc], animated: false)
            return vc.results
        }
        welcomeStep.content = userName
        welcomeStep.setCompletion { [unowned self] step, choice in
            step.nextStep = choice == .skip ? self.doneStep : self.permissionsStep
        }
        permissionsStep.nextStep = doneStep
    }

    func start() {
        welcomeStep.start()
    }
}
