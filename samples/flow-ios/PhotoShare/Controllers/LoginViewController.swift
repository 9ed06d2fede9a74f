import UIKit
import Flow_iOS

class LoginViewController: FlowHostViewController {
    @IBOutlet weak var welcomeLabel: UILabel!
    @IBOutlet weak var emailField: UITextField!
    @IBOutlet weak var passwordField: UITextField!

    /// Demo account: validate, log in, then load the profile with the new token.
    @IBAction func loginWithDemoAccount() {
        Flow()
            .setDataBucket(dataBucket: ["email": "anna@photoshare.example", "password": "123456"])
            .add(operation: ValidateCredentialsOp())
            .add(operation: LoginOp())
            .add(operation: LoadProfileOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                self.summaryTextView.text = flow.generateSummary()
                guard flow.isSuccess, let profile = flow.dataBucket["profile"] as? UserProfile else { return }
                let refreshed = flow.dataBucket["profileRefreshDate"] as? Date
                self.welcomeLabel.text = "Hi \(profile.displayName) (as of \(refreshed?.description ?? "now"))"
            })
            .start()
    }

    /// Same login from the form, built step by step on a variable.
    @IBAction func loginFromForm() {
        let email: String = emailField.text ?? ""
        let password: String = passwordField.text ?? ""

        let flow = Flow()
        flow.setDataBucket(dataBucket: [FlowKeys.email: email,
                                        FlowKeys.password: password,
                                        FlowKeys.screenName: "login"])
        flow.add(operation: LoginOp())
        flow.add(operation: TrackEventOp(event: "login_submitted"))
        flow.setWillStartBlock(block: commonWillStartBlock())
        flow.setDidFinishBlock(block: { finishedFlow in
            if let token = finishedFlow.dataBucket[FlowKeys.accessToken] as? String {
                SessionStore.shared.save(accessToken: token)
            }
            self.summaryTextView.text = finishedFlow.generateSummary()
        })
        flow.start()
    }
}
