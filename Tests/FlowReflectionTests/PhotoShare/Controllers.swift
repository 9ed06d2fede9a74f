import Foundation

// The 14 flows of samples/flow-ios/PhotoShare/Controllers, built as live objects on the Flow-iOS
// stand-ins: the same builder calls in the same order, with the same data buckets. Each function
// returns its flow instead of starting it (reflection reads a flow before `start()`, with the data it
// starts with). Values that come from the user interface in the sample come from plain properties
// here; the blocks read what the sample's blocks read, though reflection cannot see into them.

enum FlowKeys {
    static let email = "email"
    static let password = "password"
    static let accessToken = "accessToken"
    static let profile = "profile"
    static let profileRefreshDate = "profileRefreshDate"
    static let screenName = "screenName"
}

struct Account {
    let plan: String
    let region: String
}

/// Controllers/FlowHostViewController.swift: the common will-start and did-finish blocks.
class FlowHostViewController {
    var summaryText = ""

    func commonWillStartBlock(block: FlowWillStartBlock? = nil) -> FlowWillStartBlock {
        { flow in
            block?(flow)
            self.summaryText = "Flow Starting..."
        }
    }

    func commonDidFinishBlock(block: FlowDidFinishBlock? = nil) -> FlowDidFinishBlock {
        { flow in
            block?(flow)
            self.summaryText = "\(flow.logs)"
        }
    }
}

/// Controllers/LoginViewController.swift.
final class LoginViewController: FlowHostViewController {
    var emailField = "anna@photoshare.example"
    var passwordField = "123456"
    var welcomeText = ""

    func loginWithDemoAccount() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["email": "anna@photoshare.example", "password": "123456"])
            .add(operation: ValidateCredentialsOp())
            .add(operation: LoginOp())
            .add(operation: LoadProfileOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                guard flow.isSuccess, let profile = flow.dataBucket["profile"] as? UserProfile else { return }
                let refreshed = flow.dataBucket["profileRefreshDate"] as? Date
                self.welcomeText = "Hi \(profile.displayName) (as of \(refreshed?.description ?? "now"))"
            })
    }

    func loginFromForm() -> Flow {
        let email: String = emailField
        let password: String = passwordField

        let flow = Flow()
        flow.setDataBucket(dataBucket: [FlowKeys.email: email,
                                        FlowKeys.password: password,
                                        FlowKeys.screenName: "login"])
        flow.add(operation: LoginOp())
        flow.add(operation: TrackEventOp(event: "login_submitted"))
        flow.setWillStartBlock(block: commonWillStartBlock())
        flow.setDidFinishBlock(block: { finishedFlow in
            if let token = finishedFlow.dataBucket[FlowKeys.accessToken] as? String {
                self.summaryText = token
            }
        })
        return flow
    }
}

/// Controllers/AlbumViewController.swift.
final class AlbumViewController: FlowHostViewController {
    var albumTitleText = ""

    func uploadAlbum() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["albumTitle": "Lisbon 2017",
                                        "coverImage": "a.jpg",
                                        "images": ["a.jpg", "b.jpg"]])
            .add(operation: MakeThumbnailOp())
            .addGrouped(operationCreator: UploadSingleImageOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "imageURLs", maxConcurrentOperationCount: 3, allowFailure: false))
            .add(operation: SaveAlbumOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock(block: { flow in
                if let album = flow.dataBucket["album"] as? Album {
                    self.albumTitleText = "\(album.title) · \(album.photoURLs.count) photos"
                }
            }))
    }

    func shareAlbum() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["albumID": "alb_2017_lisbon",
                                        "albumTitle": "Lisbon 2017",
                                        "shareTarget": "link"])
            .add(operation: TrackEventOp(event: "share_album"))
            .add(operation: CreatePublicLinkOp(), flowCase: FlowCase(key: "shareTarget", value: "link"))
            .add(operation: CreateInviteLinkOp(), flowCase: FlowCase(key: "shareTarget", value: "invite"))
            .combine()
            .add(operation: ComposeShareMessageOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                guard let message = flow.dataBucket["shareMessage"] as? String else { return }
                self.summaryText = message
            })
    }

    func exportAlbum() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["exportFormat": "zip"])
            .add(operation: SimplePrintOp(message: "Preparing export"))
            .add(operation: TrackEventOp(event: "export_zip"), case: FlowCase(key: "exportFormat", value: "zip"))
            .add(operation: TrackEventOp(event: "export_pdf"), case: FlowCase(key: "exportFormat", value: "pdf"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
    }
}

/// Controllers/BrokenFlowsViewController.swift: one planted defect a flow.
final class BrokenFlowsViewController: FlowHostViewController {
    /// The segmented control of the sample: 0 is "link".
    var shareTargetIndex = 0
    /// `AccountStore.shared.current` of the sample.
    var account = Account(plan: "free", region: "eu")
    /// `SessionStore.shared.accessToken` of the sample.
    var storedAccessToken: String?
    var titleText = ""

    func loginWithRenamedEmailKey() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["email_address": "anna@photoshare.example", "password": "123456"])
            // defect: missing-data-key — LoginOp reads "email", the bucket only has "email_address"
            .add(operation: LoginOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                let who = flow.dataBucket["email_address"] as? String ?? "?"
                let token = flow.dataBucket["accessToken"] as? String
                self.summaryText = "\(who): \(token == nil ? "not signed in" : "signed in")"
            })
    }

    func loginWithNumericPassword() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["email": "anna@photoshare.example", "password": 123456])
            // defect: type-mismatch — "password" is the Int 123456, LoginOp reads it as String
            .add(operation: LoginOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                if let token = flow.dataBucket["accessToken"] as? String {
                    self.storedAccessToken = token
                }
            })
    }

    func shareAlbumByLinkOrEmail() -> Flow {
        let target: String = shareTargetIndex == 0 ? "link" : "email"
        return Flow()
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
                self.summaryText = flow.dataBucket["shareMessage"] as? String ?? ""
            })
    }

    func watermarkSelection() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["images": ["a.jpg", "b.jpg"], "watermarkText": "© Anna K."])
            // defect: missing-data-key — each WatermarkImageOp's private bucket has only "imageToWatermark"
            .addGrouped(operationCreator: WatermarkImageOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "watermarkedImages"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                let stamped = flow.dataBucket["watermarkedImages"] as? [String] ?? []
                let text = flow.dataBucket["watermarkText"] as? String ?? ""
                self.summaryText = "\(stamped.count) photos stamped with \(text)"
            })
    }

    func uploadMixedSelection() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["albumTitle": "Lisbon 2017", "images": ["a.jpg", "b.jpg", 3]])
            // defect: type-mismatch — element 3 of "images" is an Int, UploadSingleImageOp reads String
            .addGrouped(operationCreator: UploadSingleImageOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "imageURLs", maxConcurrentOperationCount: 3, allowFailure: false))
            .add(operation: SaveAlbumOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: { flow in
                if let album = flow.dataBucket["album"] as? Album {
                    self.titleText = album.title
                }
            })
    }

    func openBillingForEnterprise() -> Flow {
        Flow()
            .setDataBucket(dataBucket: ["plan": "enterprise"])
            .add(operation: TrackEventOp(event: "billing_opened"))
            // defect: unmatched-case — "plan" is "enterprise", no case matches: the flow silently ends here
            .add(operation: SimplePrintOp(message: "Show upgrade offer"), flowCase: FlowCase(key: "plan", value: "free"))
            .add(operation: SimplePrintOp(message: "Show pro badge"), flowCase: FlowCase(key: "plan", value: "pro"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
    }

    func openBillingWithRegionalPricing() -> Flow {
        let account = self.account
        return Flow()
            .setDataBucket(dataBucket: ["plan": account.plan, "region": account.region])
            .add(operation: TrackEventOp(event: "billing_opened"))
            .add(operation: SimplePrintOp(message: "Show upgrade offer"), flowCase: FlowCase(key: "plan", value: "free"))
            .add(operation: SimplePrintOp(message: "Show pro badge"), flowCase: FlowCase(key: "plan", value: "pro"))
            // defect: nested-case — a case on "region" inside the "pro" branch becomes a third sibling of the "plan" cases
            .add(operation: SimplePrintOp(message: "Show prices with EU VAT"), flowCase: FlowCase(key: "region", value: "eu"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
    }

    func runLegacySync() -> Flow {
        Flow()
            .add(operation: SimplePrintOp(message: "Starting legacy sync"))
            // defect: unknown-operation — LegacySyncOp is not defined anywhere in the sample's sources
            .add(operation: LegacySyncOp())
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
    }

    func refreshProfileSilently() -> Flow {
        let token: String = storedAccessToken ?? ""
        return Flow()
            .setDataBucket(dataBucket: ["accessToken": token])
            // defect: unused-data-key — LoadProfileOp writes "profileRefreshDate", which nothing reads in this flow
            .add(operation: LoadProfileOp())
            .setDidFinishBlock(block: { flow in
                if let profile = flow.dataBucket["profile"] as? UserProfile {
                    self.titleText = profile.displayName
                }
            })
    }
}

/// Every flow of the sample, named as the source loader names it (`TypeName.functionName`).
func photoShareFlows() -> [(name: String, flow: Flow)] {
    let login = LoginViewController(), album = AlbumViewController(), broken = BrokenFlowsViewController()
    return [
        ("LoginViewController.loginWithDemoAccount", login.loginWithDemoAccount()),
        ("LoginViewController.loginFromForm", login.loginFromForm()),
        ("AlbumViewController.uploadAlbum", album.uploadAlbum()),
        ("AlbumViewController.shareAlbum", album.shareAlbum()),
        ("AlbumViewController.exportAlbum", album.exportAlbum()),
        ("BrokenFlowsViewController.loginWithRenamedEmailKey", broken.loginWithRenamedEmailKey()),
        ("BrokenFlowsViewController.loginWithNumericPassword", broken.loginWithNumericPassword()),
        ("BrokenFlowsViewController.shareAlbumByLinkOrEmail", broken.shareAlbumByLinkOrEmail()),
        ("BrokenFlowsViewController.watermarkSelection", broken.watermarkSelection()),
        ("BrokenFlowsViewController.uploadMixedSelection", broken.uploadMixedSelection()),
        ("BrokenFlowsViewController.openBillingForEnterprise", broken.openBillingForEnterprise()),
        ("BrokenFlowsViewController.openBillingWithRegionalPricing", broken.openBillingWithRegionalPricing()),
        ("BrokenFlowsViewController.runLegacySync", broken.runLegacySync()),
        ("BrokenFlowsViewController.refreshProfileSilently", broken.refreshProfileSilently()),
    ]
}
