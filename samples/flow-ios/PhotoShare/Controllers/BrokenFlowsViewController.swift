import UIKit
import Flow_iOS

/// The "known bad" screen of the debug menu: every action here runs a flow with one mistake in it,
/// the kind that compiles fine and only shows up in the flow summary at run time.
class BrokenFlowsViewController: FlowHostViewController {
    @IBOutlet weak var shareTargetControl: UISegmentedControl!

    /// The form used to send `email_address`; LoginOp reads `email`.
    @IBAction func loginWithRenamedEmailKey() {
        Flow()
            .setDataBucket(dataBucket: ["email_address": "anna@photoshare.example", "password": "123456"])
            // defect: missing-data-key — LoginOp reads "email", the bucket only has "email_address"
            .add(operation: LoginOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                let who = flow.dataBucket["email_address"] as? String ?? "?"
                let token = flow.dataBucket["accessToken"] as? String
                self.summaryTextView.text = "\(who): \(token == nil ? "not signed in" : "signed in")"
            })
            .start()
    }

    /// A PIN pasted in as a number: LoginOp reads `password` as String.
    @IBAction func loginWithNumericPassword() {
        Flow()
            .setDataBucket(dataBucket: ["email": "anna@photoshare.example", "password": 123456])
            // defect: type-mismatch — "password" is the Int 123456, LoginOp reads it as String
            .add(operation: LoginOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                if let token = flow.dataBucket["accessToken"] as? String {
                    SessionStore.shared.save(accessToken: token)
                }
            })
            .start()
    }

    /// The email branch sends the invite server-side and never writes `shareURL`.
    @IBAction func shareAlbumByLinkOrEmail() {
        let target: String = shareTargetControl.selectedSegmentIndex == 0 ? "link" : "email"
        Flow()
            .setDataBucket(dataBucket: ["albumID": "alb_2017_lisbon",
                                        "albumTitle": "Lisbon 2017",
                                        "shareTarget": target])
            .add(operation: TrackEventOp(event: "share_album"))
            .add(operation: CreatePublicLinkOp(), flowCase: FlowCase(key: "shareTarget", value: "link"))
            .add(operation: SendEmailInviteOp(), flowCase: FlowCase(key: "shareTarget", value: "email"))
            .combine()
            // defect: missing-data-key — only the "link" branch writes "shareURL", read after combine()
            .add(operation: ComposeShareMessageOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                self.summaryTextView.text = flow.dataBucket["shareMessage"] as? String ?? flow.generateSummary()
            })
            .start()
    }

    /// WatermarkImageOp also wants the watermark text, but a grouped operation sees only its element.
    @IBAction func watermarkSelection() {
        Flow()
            .setDataBucket(dataBucket: ["images": ["a.jpg", "b.jpg"], "watermarkText": "© Anna K."])
            // defect: missing-data-key — each WatermarkImageOp's private bucket has only "imageToWatermark", not "watermarkText"
            .addGrouped(operationCreator: WatermarkImageOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "watermarkedImages"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                let stamped = flow.dataBucket["watermarkedImages"] as? [String] ?? []
                let text = flow.dataBucket["watermarkText"] as? String ?? ""
                self.summaryTextView.text = "\(stamped.count) photos stamped with \(text)"
            })
            .start()
    }

    /// The picker let a placeholder index through: the third "image" is the Int 3.
    @IBAction func uploadMixedSelection() {
        Flow()
            .setDataBucket(dataBucket: ["albumTitle": "Lisbon 2017", "images": ["a.jpg", "b.jpg", 3]])
            // defect: type-mismatch — element 3 of "images" is an Int, UploadSingleImageOp reads String
            .addGrouped(operationCreator: UploadSingleImageOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "imageURLs", maxConcurrentOperationCount: 3, allowFailure: false))
            .add(operation: SaveAlbumOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                if let album = flow.dataBucket["album"] as? Album {
                    self.title = album.title
                }
            })
            .start()
    }

    /// "enterprise" was added to the backend; the app only knows "free" and "pro".
    @IBAction func openBillingForEnterprise() {
        Flow()
            .setDataBucket(dataBucket: ["plan": "enterprise"])
            .add(operation: TrackEventOp(event: "billing_opened"))
            // defect: unmatched-case — "plan" is "enterprise", no case matches: the flow silently ends here
            .add(operation: SimplePrintOp(message: "Show upgrade offer"), flowCase: FlowCase(key: "plan", value: "free"))
            .add(operation: SimplePrintOp(message: "Show pro badge"), flowCase: FlowCase(key: "plan", value: "pro"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
            .start()
    }

    /// Meant as "pro, and then EU or not" — but cases do not nest.
    @IBAction func openBillingWithRegionalPricing() {
        let account = AccountStore.shared.current
        Flow()
            .setDataBucket(dataBucket: ["plan": account.plan, "region": account.region])
            .add(operation: TrackEventOp(event: "billing_opened"))
            .add(operation: SimplePrintOp(message: "Show upgrade offer"), flowCase: FlowCase(key: "plan", value: "free"))
            .add(operation: SimplePrintOp(message: "Show pro badge"), flowCase: FlowCase(key: "plan", value: "pro"))
            // defect: nested-case — a case on "region" inside the "pro" branch becomes a third sibling of the "plan" cases
            .add(operation: SimplePrintOp(message: "Show prices with EU VAT"), flowCase: FlowCase(key: "region", value: "eu"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
            .start()
    }

    /// LegacySyncOp was deleted with the v1 sync engine; this action was not.
    @IBAction func runLegacySync() {
        Flow()
            .add(operation: SimplePrintOp(message: "Starting legacy sync"))
            // defect: unknown-operation — LegacySyncOp is not defined anywhere in the sources
            .add(operation: LegacySyncOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
            .start()
    }

    /// Background refresh with a stored token; nothing looks at the refresh date it writes.
    @IBAction func refreshProfileSilently() {
        let token: String = SessionStore.shared.accessToken ?? ""
        Flow()
            .setDataBucket(dataBucket: ["accessToken": token])
            // defect: unused-data-key — LoadProfileOp writes "profileRefreshDate", which nothing reads in this flow
            .add(operation: LoadProfileOp())
            .setDidFinishBlock(block: { flow in
                if let profile = flow.dataBucket["profile"] as? UserProfile {
                    self.title = profile.displayName
                }
            })
            .start()
    }
}
