import Foundation
import Flow_iOS

/// Uploads one image. Usable on its own or in a group: `FlowArrayGroupDispatcher` hands each
/// element over at `targetImageForUpload` and collects `uploadedImageUrl` into its output array.
class UploadSingleImageOp: FlowOperation, FlowOperationCreator {
    static func create() -> FlowOperation {
        return UploadSingleImageOp()
    }

    override var primaryInputParamKey: String { return "targetImageForUpload" }
    override var primaryOutputParamKey: String { return "uploadedImageUrl" }

    override func mainLogic() {
        guard let image: String = getData(name: primaryInputParamKey) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            self.log(message: "uploaded \(image)")
            let url: String = "https://cdn.photoshare.example/u/" + image
            self.setData(name: self.primaryOutputParamKey, value: url)
            self.finishSuccessfully()
        }
        startWithAsynchronous()
    }
}

/// Stamps the user's watermark on one image (grouped over the selection).
class WatermarkImageOp: FlowOperation, FlowOperationCreator {
    static func create() -> FlowOperation {
        return WatermarkImageOp()
    }

    override var primaryInputParamKey: String { return "imageToWatermark" }
    override var primaryOutputParamKey: String { return "watermarkedImage" }

    override func mainLogic() {
        guard let image: String = getData(name: primaryInputParamKey) else { return }
        guard let text: String = getData(name: "watermarkText") else { return }
        let stamped: String = image.replacingOccurrences(of: ".jpg", with: "_wm.jpg")
        log(message: "stamped '\(text)' on \(image)")
        setData(name: primaryOutputParamKey, value: stamped)
        finishSuccessfully()
    }
}

/// Renders the album cover thumbnail.
class MakeThumbnailOp: FlowOperation {
    override func mainLogic() {
        guard let coverImage: String = getData(name: "coverImage") else { return }
        let thumbnail: String = "thumb_" + coverImage
        setData(name: "coverThumbnail", value: thumbnail)
        finishSuccessfully()
    }
}

/// Creates the album from the uploaded image URLs.
class SaveAlbumOp: FlowOperation {
    override func mainLogic() {
        guard let title: String = getData(name: "albumTitle") else { return }
        guard let imageURLs: [String] = getData(name: "imageURLs") else { return }
        let coverThumbnail: String? = getData(name: "coverThumbnail", isOptional: true)
        let album = Album(title: title, photoURLs: imageURLs, coverThumbnail: coverThumbnail ?? imageURLs.first)
        setData(name: "album", value: album)
        finishSuccessfully()
    }
}
