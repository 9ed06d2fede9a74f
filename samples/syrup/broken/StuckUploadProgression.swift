import Foundation
import Syrup

/// Uploads a file, waiting for the network when the device is offline.
enum UploadProgression: Progression {
    typealias Result = URL

    case prepare(fileURL: URL)
    // defect: stuck-step — its branch waits and returns nil but never moves on to `.upload`, so the progression never finishes
    case waitForNetwork(fileURL: URL)
    case upload(fileURL: URL)
    case uploaded(URL)

    mutating func updateOrDeferNext() throws -> Deferred<UploadProgression>? {
        switch self {
        case let .prepare(fileURL):
            self = NetworkMonitor.shared.isOnline ? .upload(fileURL: fileURL) : .waitForNetwork(fileURL: fileURL)
        case .waitForNetwork:
            if !NetworkMonitor.shared.isOnline {
                NetworkMonitor.shared.waitUntilOnline(timeout: 30)
            }
            return nil
        case let .upload(fileURL):
            return Deferred.future { resolve in
                UploadService.shared.upload(fileURL) { remoteURL, error in
                    if let remoteURL = remoteURL {
                        resolve { .uploaded(remoteURL) }
                    } else {
                        resolve { throw error ?? UploadError.unknown }
                    }
                }
            }
        case .uploaded:
            return nil
        }
    }

    var result: URL? {
        guard case let .uploaded(remoteURL) = self else { return nil }
        return remoteURL
    }
}
