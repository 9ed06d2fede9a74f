import FlowLensTesting
import Foundation

// The operations of samples/flow-ios/PhotoShare/Operations, as live classes on the Flow-iOS stand-ins.
// Each declares, with `FlowLensStepDescribing`, exactly the reads, writes and primary keys its sample
// source has (file and line in the comments), which is what the source loader reads from the
// `getData`/`setData` calls. Only `LegacySyncOp`, which the sample deliberately never defines, has no
// description.

struct UserProfile {
    let userID: String
    let displayName: String
}

struct Album {
    let title: String
    let photoURLs: [String]
}

/// ValidateCredentialsOp (LoginOperations.swift:8-9): `getData(name: FlowKeys.email) as? String`, `password: String`.
final class ValidateCredentialsOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("email", String.self), .read("password", String.self)] }
}

/// LoginOp (LoginOperations.swift:23-28): reads `email`, `password`; writes `accessToken`.
final class LoginOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("email", String.self), .read("password", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("accessToken", String.self)] }
}

/// AuthenticatedOperation (AuthenticatedOperation.swift:11): its helper reads `accessToken: String`.
class AuthenticatedOperation: FlowOperation {}

/// LoadProfileOp (LoginOperations.swift:39-51): the base class's `accessToken` read; writes `profile`, `profileRefreshDate`.
final class LoadProfileOp: AuthenticatedOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("accessToken", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("profile", UserProfile.self), .write("profileRefreshDate", Date.self)] }
}

/// UploadSingleImageOp (ImageOperations.swift:6-19): grouped, `targetImageForUpload` → `uploadedImageUrl`.
final class UploadSingleImageOp: FlowOperation, FlowOperationCreator, FlowLensStepDescribing {
    static func create() -> FlowOperation { UploadSingleImageOp() }
    override var primaryInputParamKey: String { "targetImageForUpload" }
    override var primaryOutputParamKey: String { "uploadedImageUrl" }
    static var flowLensPrimaryInputKey: String? { "targetImageForUpload" }
    static var flowLensPrimaryOutputKey: String? { "uploadedImageUrl" }
    static var flowLensReads: [DataAccess] { [.read("targetImageForUpload", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("uploadedImageUrl", String.self)] }
}

/// WatermarkImageOp (ImageOperations.swift:27-40): grouped, `imageToWatermark` → `watermarkedImage`, and reads `watermarkText`.
final class WatermarkImageOp: FlowOperation, FlowOperationCreator, FlowLensStepDescribing {
    static func create() -> FlowOperation { WatermarkImageOp() }
    override var primaryInputParamKey: String { "imageToWatermark" }
    override var primaryOutputParamKey: String { "watermarkedImage" }
    static var flowLensPrimaryInputKey: String? { "imageToWatermark" }
    static var flowLensPrimaryOutputKey: String? { "watermarkedImage" }
    static var flowLensReads: [DataAccess] { [.read("imageToWatermark", String.self), .read("watermarkText", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("watermarkedImage", String.self)] }
}

/// MakeThumbnailOp (ImageOperations.swift:46-50): `coverImage` → `coverThumbnail`.
final class MakeThumbnailOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("coverImage", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("coverThumbnail", String.self)] }
}

/// SaveAlbumOp (ImageOperations.swift:56-62): `albumTitle`, `imageURLs: [String]`, optional `coverThumbnail`; writes `album`.
final class SaveAlbumOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] {
        [.read("albumTitle", String.self), .read("imageURLs", [String].self), .read("coverThumbnail", String.self, optional: true)]
    }
    static var flowLensWrites: [DataAccess] { [.write("album", Album.self)] }
}

/// CreatePublicLinkOp (SharingOperations.swift:5-9): `albumID` → `shareURL`.
final class CreatePublicLinkOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("albumID", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("shareURL", String.self)] }
}

/// CreateInviteLinkOp (SharingOperations.swift:15-19): `albumID` → `shareURL`.
final class CreateInviteLinkOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("albumID", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("shareURL", String.self)] }
}

/// SendEmailInviteOp (SharingOperations.swift:25-27): reads `albumID`, writes nothing.
final class SendEmailInviteOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("albumID", String.self)] }
}

/// ComposeShareMessageOp (SharingOperations.swift:34-39): `albumTitle`, `shareURL` → `shareMessage`.
final class ComposeShareMessageOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("albumTitle", String.self), .read("shareURL", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("shareMessage", String.self)] }
}

/// TrackEventOp(event:) (AnalyticsOperations.swift:5-14): an optional read of `screenName`.
final class TrackEventOp: FlowOperation, FlowLensStepDescribing {
    let event: String
    init(event: String) { self.event = event }
    static var flowLensReads: [DataAccess] { [.read("screenName", String.self, optional: true)] }
}

/// SimplePrintOp(message:) (AnalyticsOperations.swift:23): no data at all, declared as such.
final class SimplePrintOp: FlowOperation, FlowLensStepDescribing {
    var message: String!
    init(message: String) { self.message = message }
}

/// LegacySyncOp: the sample never defines it (the planted `unknown-operation`). A live app cannot
/// hold an instance of a class that does not exist, so here it exists, without a description: what it
/// reads and writes is unknown to reflection.
final class LegacySyncOp: FlowOperation {}
