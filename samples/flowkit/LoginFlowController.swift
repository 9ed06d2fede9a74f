// FlowLens sample: the flow controllers for LoginFlow.puml, with PLANTED DRIFT.
//
// The diagram was changed after this controller was written, and the controller was not fully
// updated. Each planted difference is marked `// drift: <rule>` on the line above the code it is
// about; README.md lists where each is reported (type-mismatch and unknown-step on the line below
// their comment; missing-handler and unimplemented-transition in LoginFlow.puml, at the state and
// at the transition). Everything else matches the diagram.
//
// FlowKit generates LoginFlowState, CreateAccountState and the LoginFlowStateMachine /
// CreateAccountStateMachine protocols from LoginFlow.puml. This file needs UIKit, PromiseKit and
// FlowKit, so it does not build here; it is valid Swift syntax (`swiftc -parse`).

import FlowKit
import PromiseKit
import UIKit

// drift: missing-handler — no onForgotPass(state:context:) in this type (reported at ForgotPass, LoginFlow.puml:15)
class LoginFlowController: NavStateMachine, LoginFlowStateMachine {
    typealias State = LoginFlowState
    typealias Input = Void
    typealias Output = OAuthToken

    private let authService: AuthService
    private let keychain: Keychain

    init(nav: UINavigationController, authService: AuthService = .shared, keychain: Keychain = .standard) {
        self.authService = authService
        self.keychain = keychain
        super.init(nav: nav)
    }

    func onBegin(state: State, context: Void) -> Promise<State.Begin> {
        return Promise.value(.prompt(nil))
    }

    func onPrompt(state: State, context: String?) -> Promise<State.Prompt> {
        let email = keychain.lastEmail
        return subflow(to: LoginViewController.self, context: LoginViewModel(email: email, error: context))
            .map { result -> State.Prompt in
                switch result {
                case .login(let credentials) where credentials.password.isEmpty:
                    return .prompt("Please enter your password.")
                case .login(let credentials):
                    return .authenticate(credentials)
                case .register:
                    return .createAccount(email)
                case .forgotPassword(let email):
                    return .forgotPass(email)
                }
            }
    }

    // drift: type-mismatch — the diagram says `Authenticate: Credentials`; this still takes the username (a String)
    func onAuthenticate(state: State, context: String) -> Promise<State.Authenticate> {
        let password = keychain.password(for: context) ?? ""
        return authService.login(username: context, password: password)
            .map { token -> State.Authenticate in
                self.keychain.store(token)
                return .end(token)
            }
            .recover { error -> Promise<State.Authenticate> in
                if case AuthError.passwordExpired = error {
                    // drift: unknown-step — the diagram has no Authenticate --> ForgotPass
                    return Promise.value(.forgotPass(context))
                }
                return Promise.value(.prompt(error.localizedDescription))
            }
    }

    // drift: unimplemented-transition — never returns .prompt, so CreateAccount --> Prompt (LoginFlow.puml:38) is never
    // taken: a cancelled registration rejects the promise and the whole login fails
    func onCreateAccount(state: State, context: String?) -> Promise<State.CreateAccount> {
        return subflow(to: CreateAccountFlowController(nav: nav), context: context)
            .map { .authenticate($0) }
    }
}

/// The registration sub-machine (the composite state `CreateAccount`).
class CreateAccountFlowController: NavStateMachine, CreateAccountStateMachine {
    typealias State = CreateAccountState
    typealias Input = String?
    typealias Output = Credentials

    private let accountService = AccountService.shared
    private var typedEmail: String?

    /// `context` is the email typed on the login screen, if any.
    func onBegin(state: State, context: String?) -> Promise<State.Begin> {
        typedEmail = context
        return Promise.value(.enterInfo(nil))
    }

    /// `context` is the error of the previous attempt, if any.
    func onEnterInfo(state: State, context: String?) -> Promise<State.EnterInfo> {
        let model = CreateAccountViewModel(email: typedEmail, error: context)
        return subflow(to: CreateAccountViewController.self, context: model)
            .map { user in .submit(user) }
    }

    func onSubmit(state: State, context: User) -> Promise<State.Submit> {
        return accountService.register(context)
            .map { _ in .end(Credentials(username: context.email, password: context.password)) }
            .recover { Promise.value(.enterInfo($0.localizedDescription)) }
    }
}
