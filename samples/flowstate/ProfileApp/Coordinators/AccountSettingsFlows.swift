import FlowState
import UIKit

/// The account settings screens. Each function builds one flow (`AccountSettingsFlows.<function>`),
/// and each flow has one planted defect, marked `// defect: <rule> — <why>` on the line above it.
/// Steps are declared before the completions that name them, as Swift requires of locals.
final class AccountSettingsFlows {
    let navigationController: UINavigationController

    init(navigationController: UINavigationController) {
        self.navigationController = navigationController
    }

    /// Confirm, delete on the server, say goodbye.
    func deleteAccount() {
        let navigationController = self.navigationController
        let goodbyeStep = FlowStep(String.self, Void.self, identifier: "Goodbye", { step in
            let vc = MessageViewController()
            navigationController.setViewControllers([vc], animated: true)
            return vc.results
        })

        let deleteOnServerStep = FlowStep(Any.self, Bool.self, identifier: "Delete on server", { step in
            let handler = FlowStepHandler(Any.self, Bool.self)
            ProfileService.shared.deleteAccount { deleted in
                handler.complete(deleted)
            }
            return handler
        }) { step, deleted in
            goodbyeStep.content = "Your account is deleted."
            step.nextStep = goodbyeStep
        }

        let confirmDeletionStep = FlowStep(String.self, Bool.self, identifier: "Confirm deletion", { step in
            let vc = ConfirmationViewController()
            navigationController.pushViewController(vc, animated: true)
            return vc.results
        }) { step, confirmed in
            if confirmed == true {
                step.nextStep = deleteOnServerStep
            } else {
                step.nextStep = nil
            }
        }
        confirmDeletionStep.content = "Delete your account and all your photos?"

        // defect: unreachable-step — the data export was dropped from the flow, but its step is still built and never linked
        let exportDataStep = FlowStep(Any.self, URL.self, identifier: "Export my data", { step in
            let handler = FlowStepHandler(Any.self, URL.self)
            ProfileService.shared.exportData { url in
                handler.complete(url)
            }
            return handler
        })

        confirmDeletionStep.start()
    }

    /// Enter a new password and save it; retry when the server refuses it.
    func changePassword() {
        let navigationController = self.navigationController
        let savePasswordStep = FlowStep(String.self, Bool.self, identifier: "Save password", { step in
            let handler = FlowStepHandler(String.self, Bool.self)
            ProfileService.shared.changePassword(step.content ?? "") { saved in
                handler.complete(saved)
            }
            return handler
        }) { step, saved in
            if saved == true {
                step.nextStep = nil
            } else {
                // defect: unknown-step — there is no `retryPasswordStep` (the retry screen was never written): the flow cannot go on here
                step.nextStep = retryPasswordStep
            }
        }

        let enterPasswordStep = FlowStep(Any.self, String.self, identifier: "Enter password", { step in
            let vc = PasswordEntryViewController()
            navigationController.pushViewController(vc, animated: true)
            return vc.results
        }) { step, newPassword in
            savePasswordStep.content = newPassword
            step.nextStep = savePasswordStep
        }

        enterPasswordStep.start()
    }

    /// Pick a language, then confirm the switch.
    func changeLanguage() {
        let navigationController = self.navigationController
        let pickLanguageStep = FlowStep(Any.self, Language.self, identifier: "Pick language", { step in
            let vc = LanguagePickerViewController()
            navigationController.pushViewController(vc, animated: true)
            return vc.results
        })

        // defect: type-mismatch — the confirmation shows a String, but the picker's completion gives it its result, a Language
        let confirmLanguageStep = FlowStep(String.self, Bool.self, identifier: "Confirm language", { step in
            let vc = ConfirmationViewController()
            navigationController.present(vc, animated: true, completion: nil)
            return vc.results
        })

        pickLanguageStep.setCompletion { step, language in
            confirmLanguageStep.content = language
            step.nextStep = confirmLanguageStep
        }

        pickLanguageStep.start()
    }

    /// Pick a photo, crop it, upload it.
    func changeAvatar() {
        let navigationController = self.navigationController
        let uploadAvatarStep = FlowStep(UIImage.self, URL.self, identifier: "Upload photo", { step in
            let handler = FlowStepHandler(UIImage.self, URL.self)
            if let image = step.content {
                ProfileService.shared.uploadAvatar(image) { url in
                    handler.complete(url)
                }
            }
            return handler
        })

        // defect: content-never-set — the picker's completion goes on to the crop step but never gives it the photo, so it crops nothing
        let cropPhotoStep = FlowStep(UIImage.self, UIImage.self, identifier: "Crop photo", { step in
            let vc = CropViewController()
            navigationController.pushViewController(vc, animated: true)
            return vc.results
        }) { step, cropped in
            uploadAvatarStep.content = cropped
            step.nextStep = uploadAvatarStep
        }

        let pickPhotoStep = FlowStep(Any.self, UIImage.self, identifier: "Pick photo", { step in
            let vc = PhotoPickerViewController()
            navigationController.present(vc, animated: true, completion: nil)
            return vc.results
        }) { step, photo in
            step.nextStep = cropPhotoStep
        }

        pickPhotoStep.start()
    }
}
