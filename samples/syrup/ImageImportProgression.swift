import Foundation
import Syrup

/// Imports an image from a file, the camera roll, the web or the pasteboard (several initial
/// stages), then makes its thumbnail. `updateOrDeferNext` lives in an extension.
enum ImageImportProgression {
    typealias Result = ImportOutcome

    /// Initial stages: an import starts from any of these.
    case fromFile(URL)
    case fromCameraRoll(URL)
    case fromWeb(URL)
    case fromPasteboard(Data)
    /// Work in progress
    case decode(Data, source: URL?)
    case makeThumbnail(Image, source: URL?)
    /// Completed stages
    case imported(ImportedImage)
    case skipped(reason: String)
}

enum ImportOutcome {
    case imported(ImportedImage)
    case skipped(reason: String)
}

extension ImageImportProgression: Progression {
    mutating func updateOrDeferNext() throws -> Deferred<Self>? {
        switch self {
        case let .fromFile(url), let .fromCameraRoll(url):
            self = .decode(try Data(contentsOf: url), source: url)
        case .fromWeb(let url):
            return .future { resolve in
                URLSession.shared.dataTask(with: url) { data, _, error in
                    if let data = data {
                        resolve { .decode(data, source: url) }
                    } else {
                        resolve { throw error ?? ImportError.noData }
                    }
                }.resume()
            }
        case let .fromPasteboard(data):
            self = .decode(data, source: nil)
        case let .decode(data, source):
            guard let image = Image(data: data) else {
                self = .skipped(reason: "not an image")
                return nil
            }
            self = .makeThumbnail(image, source: source)
        case let .makeThumbnail(image, source):
            return Deferred {
                .imported(ImportedImage(image: image, thumbnail: try image.thumbnail(maxSide: 256), source: source))
            }
        default:
            return nil
        }
        return nil
    }

    var result: ImportOutcome? {
        switch self {
        case let .imported(image):
            return .imported(image)
        case let .skipped(reason):
            return .skipped(reason: reason)
        default:
            return nil
        }
    }
}
