import Foundation
import Flow_iOS

/// Public, read-only link to an album.
class CreatePublicLinkOp: FlowOperation {
    override func mainLogic() {
        guard let albumID: String = getData(name: "albumID") else { return }
        let shareURL: String = "https://photoshare.example/a/" + albumID
        setData(name: "shareURL", value: shareURL)
        finishSuccessfully()
    }
}

/// Private invite link, to be pasted into an email by the user.
class CreateInviteLinkOp: FlowOperation {
    override func mainLogic() {
        guard let albumID: String = getData(name: "albumID") else { return }
        let shareURL: String = "https://photoshare.example/invite/" + albumID + "?t=" + UUID().uuidString
        setData(name: "shareURL", value: shareURL)
        finishSuccessfully()
    }
}

/// Sends the invite straight from the server; the user never sees a link.
class SendEmailInviteOp: FlowOperation {
    override func mainLogic() {
        guard let albumID: String = getData(name: "albumID") else { return }
        log(message: "server-side invite sent for \(albumID)")
        finishSuccessfully()
    }
}

/// Text for the share sheet.
class ComposeShareMessageOp: FlowOperation {
    override func mainLogic() {
        guard let title: String = getData(name: "albumTitle") else { return }
        guard let shareURL: String = getData(name: "shareURL") else { return }
        let message: String = "Have a look at my album \(title): \(shareURL)"
        setData(name: "shareMessage", value: message)
        finishSuccessfully()
    }
}
