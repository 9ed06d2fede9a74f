import UIKit
import Flow_iOS

class AlbumViewController: FlowHostViewController {
    @IBOutlet weak var albumTitleLabel: UILabel!

    /// Thumbnail the cover, upload every photo (3 at a time), then create the album.
    @IBAction func uploadAlbum() {
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
                    self.albumTitleLabel.text = "\(album.title) · \(album.photoURLs.count) photos"
                }
            }))
            .start()
    }

    /// Share by public link or by invite link; both branches write `shareURL`,
    /// so the message composed after `combine()` always has it.
    @IBAction func shareAlbum() {
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
                self.summaryTextView.text = flow.generateSummary()
                guard let message = flow.dataBucket["shareMessage"] as? String else { return }
                let sheet = UIActivityViewController(activityItems: [message], applicationActivities: nil)
                self.present(sheet, animated: true)
            })
            .start()
    }

    /// Export only records which format was chosen; each case ends the flow (no combine).
    /// Written with the older `case:` label.
    @IBAction func exportAlbum() {
        Flow()
            .setDataBucket(dataBucket: ["exportFormat": "zip"])
            .add(operation: SimplePrintOp(message: "Preparing export"))
            .add(operation: TrackEventOp(event: "export_zip"), case: FlowCase(key: "exportFormat", value: "zip"))
            .add(operation: TrackEventOp(event: "export_pdf"), case: FlowCase(key: "exportFormat", value: "pdf"))
            .setWillStartBlock(block: commonWillStartBlock())
            .setDidFinishBlock(block: commonDidFinishBlock())
            .start()
    }
}
