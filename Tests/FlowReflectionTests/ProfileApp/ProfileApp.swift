import Foundation

// The 6 flows of samples/flowstate/ProfileApp, built as live objects on the FlowState stand-ins: the
// same steps (types, identifiers), closures and wiring. Each function that starts its flow in the
// sample returns the step it starts instead (what an app holds while the flow runs); the coordinators
// are built as they are. The types live in `ProfileApp` so that their names do not clash with the
// PhotoShare ones; reflection drops the namespace, as the sources do not write it.

enum ProfileApp {
    struct UserProfile {
        var name: String
        var email: String
    }

    enum UserProfileAction {
        case editName
        case downloadProfile
    }

    enum WelcomeChoice {
        case setUp
        case skip
    }

    enum Language: String {
        case english = "en"
        case french = "fr"
    }

    /// UIKit's image, which does not exist here.
    final class UIImage {}

    /// A screen: it owns the handler its step's intent returns.
    final class Screen<Content, Result> {
        let results = FlowStepHandler(Content.self, Result.self)
    }

    // MARK: Coordinators/ProfileFlowCoordinator.swift

    /// The profile flow of FlowState's README: every step is a local of `init`.
    final class ProfileFlowCoordinator: NavigationFlowCoordinator {
        init(profile: UserProfile) {
            let displayStep = FlowStep(UserProfile.self, UserProfileAction.self, identifier: "Profile", { _ in
                Screen<UserProfile, UserProfileAction>().results
            })
            displayStep.content = profile

            let networkStep = FlowStep(Any.self, UserProfile.self, identifier: "Download profile", { _ in
                FlowStepHandler(Any.self, UserProfile.self)
            }) { [unowned displayStep] _, newProfile in
                if let newProfile {
                    displayStep.content = newProfile
                }
            }

            let editNameStep = FlowStep(String.self, String.self, identifier: "Edit name", { _ in
                Screen<String, String>().results
            })

            let updateNameStep = FlowStep(String.self, UserProfile.self, identifier: "Save name", { _ in
                FlowStepHandler(String.self, UserProfile.self)
            }) { [unowned displayStep] _, newProfile in
                if let newProfile {
                    displayStep.content = newProfile
                }
            }

            editNameStep.setCompletion { step, newName in
                guard let newName else {
                    step.nextStep = nil
                    return
                }
                updateNameStep.content = newName
                step.nextStep = updateNameStep
            }

            displayStep.setCompletion { step, action in
                guard let action else { return }
                switch action {
                case .editName:
                    editNameStep.content = step.content?.name
                    step.nextStep = editNameStep
                case .downloadProfile:
                    step.nextStep = networkStep
                }
            }

            super.init(identifier: "Profile Flow", firstStep: displayStep)
        }
    }

    // MARK: Coordinators/OnboardingCoordinator.swift

    /// Steps as stored properties, wired in `init`.
    final class OnboardingCoordinator {
        let welcomeStep: FlowStep<String, WelcomeChoice>

        let askNotificationsStep = FlowStep(Any.self, Bool.self, identifier: "Ask for notifications", { _ in
            FlowStepHandler(Any.self, Bool.self)
        })

        let askLocationStep = FlowStep(Any.self, Bool.self, identifier: "Ask for location", { _ in
            FlowStepHandler(Any.self, Bool.self)
        })

        lazy var permissionsStep = ConcurentFlowStep(identifier: "Permissions", steps: [askNotificationsStep, askLocationStep])

        let doneStep = FlowStep(Any.self, Any.self, identifier: "All set", { _ in
            nil
        })

        init(userName: String) {
            welcomeStep = FlowStep(String.self, WelcomeChoice.self, identifier: "Welcome") { _ in
                Screen<String, WelcomeChoice>().results
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

    // MARK: Coordinators/AccountSettingsFlows.swift

    /// One flow a function; each returns the step it starts.
    final class AccountSettingsFlows {
        func deleteAccount() -> Startable {
            let goodbyeStep = FlowStep(String.self, Void.self, identifier: "Goodbye", { _ in
                Screen<String, Void>().results
            })

            let deleteOnServerStep = FlowStep(Any.self, Bool.self, identifier: "Delete on server", { _ in
                FlowStepHandler(Any.self, Bool.self)
            }) { step, _ in
                goodbyeStep.content = "Your account is deleted."
                step.nextStep = goodbyeStep
            }

            let confirmDeletionStep = FlowStep(String.self, Bool.self, identifier: "Confirm deletion", { _ in
                Screen<String, Bool>().results
            }) { step, confirmed in
                if confirmed == true {
                    step.nextStep = deleteOnServerStep
                } else {
                    step.nextStep = nil
                }
            }
            confirmDeletionStep.content = "Delete your account and all your photos?"

            // The planted unreachable step: built, never linked. Nothing keeps it alive once this
            // function returns.
            let exportDataStep = FlowStep(Any.self, URL.self, identifier: "Export my data", { _ in
                FlowStepHandler(Any.self, URL.self)
            })
            _ = exportDataStep

            return confirmDeletionStep
        }

        func changePassword() -> Startable {
            let savePasswordStep = FlowStep(String.self, Bool.self, identifier: "Save password", { _ in
                FlowStepHandler(String.self, Bool.self)
            }) { step, saved in
                if saved == true {
                    step.nextStep = nil
                } else {
                    // The sample's planted unknown step, `retryPasswordStep`, does not exist: the
                    // sample cannot compile with it, nor can a live flow hold it. Nothing goes on here.
                    step.nextStep = nil
                }
            }

            let enterPasswordStep = FlowStep(Any.self, String.self, identifier: "Enter password", { _ in
                Screen<Any, String>().results
            }) { step, newPassword in
                savePasswordStep.content = newPassword
                step.nextStep = savePasswordStep
            }

            return enterPasswordStep
        }

        func changeLanguage() -> Startable {
            let pickLanguageStep = FlowStep(Any.self, Language.self, identifier: "Pick language", { _ in
                Screen<Any, Language>().results
            })

            // The planted type mismatch: a String screen given a Language. Swift would not compile
            // `confirmLanguageStep.content = language`; the sample's source is what FlowLens reads.
            let confirmLanguageStep = FlowStep(String.self, Bool.self, identifier: "Confirm language", { _ in
                Screen<String, Bool>().results
            })

            pickLanguageStep.setCompletion { step, language in
                confirmLanguageStep.content = language.map { "\($0)" }
                step.nextStep = confirmLanguageStep
            }

            return pickLanguageStep
        }

        func changeAvatar() -> Startable {
            let uploadAvatarStep = FlowStep(UIImage.self, URL.self, identifier: "Upload photo", { _ in
                FlowStepHandler(UIImage.self, URL.self)
            })

            // The planted content-never-set: the picker goes on to the crop step without its photo.
            let cropPhotoStep = FlowStep(UIImage.self, UIImage.self, identifier: "Crop photo", { _ in
                Screen<UIImage, UIImage>().results
            }) { step, cropped in
                uploadAvatarStep.content = cropped
                step.nextStep = uploadAvatarStep
            }

            let pickPhotoStep = FlowStep(Any.self, UIImage.self, identifier: "Pick photo", { _ in
                Screen<Any, UIImage>().results
            }) { step, _ in
                step.nextStep = cropPhotoStep
            }

            return pickPhotoStep
        }
    }
}

/// Every flow of the sample, named as the source loader names it, with the live object an app holds.
func profileAppFlows() -> [(name: String, root: AnyObject)] {
    let settings = ProfileApp.AccountSettingsFlows()
    return [
        ("AccountSettingsFlows.deleteAccount", settings.deleteAccount()),
        ("AccountSettingsFlows.changePassword", settings.changePassword()),
        ("AccountSettingsFlows.changeLanguage", settings.changeLanguage()),
        ("AccountSettingsFlows.changeAvatar", settings.changeAvatar()),
        ("OnboardingCoordinator", ProfileApp.OnboardingCoordinator(userName: "Anna")),
        ("ProfileFlowCoordinator.init", ProfileApp.ProfileFlowCoordinator(profile: ProfileApp.UserProfile(name: "Anna", email: "anna@example.com"))),
    ]
}
