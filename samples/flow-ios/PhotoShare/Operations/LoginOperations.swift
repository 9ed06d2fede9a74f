import Foundation
import Flow_iOS

/// Checks the form before we hit the network. Reads only, writes nothing.
class ValidateCredentialsOp: FlowOperation {
    override func mainLogic() {
        // Older style: untyped getData plus a cast (still a required read).
        guard let email = getData(name: FlowKeys.email) as? String else { return }
        guard let password: String = getData(name: FlowKeys.password) else { return }
        if !email.contains("@") {
            finishWithError(error: PhotoShareError.invalidEmail)
        } else if password.count < 6 {
            finishWithError(error: PhotoShareError.passwordTooShort)
        } else {
            finishSuccessfully()
        }
    }
}

/// Exchanges email + password for an access token.
class LoginOp: FlowOperation {
    override func mainLogic() {
        guard let email: String = getData(name: FlowKeys.email) else { return }
        guard let password: String = getData(name: FlowKeys.password) else { return }
        APIClient.shared.login(email: email, password: password) { token, error in
            self.log(message: "login callback")
            if let accessToken: String = token {
                self.setData(name: FlowKeys.accessToken, value: accessToken)
                self.finishSuccessfully()
            } else {
                self.finishWithError(error: error ?? PhotoShareError.emptyResponse)
            }
        }
        startWithAsynchronous()
    }
}

/// Loads the signed-in user's profile; the token comes from `AuthenticatedOperation`.
class LoadProfileOp: AuthenticatedOperation {
    override func mainLogic() {
        guard let token = requireAccessToken() else { return }
        APIClient.shared.fetchProfile(token: token) { json, error in
            guard let json = json else {
                self.finishWithError(error: error ?? PhotoShareError.emptyResponse)
                return
            }
            let profile = UserProfile(userID: json["id"] as? String ?? "",
                                      displayName: json["name"] as? String ?? "",
                                      avatarURL: nil)
            self.setData(name: FlowKeys.profile, value: profile)
            self.setData(name: FlowKeys.profileRefreshDate, value: Date())
            self.finishSuccessfully()
        }
        startWithAsynchronous()
    }
}
