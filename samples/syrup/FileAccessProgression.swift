import Foundation
import Syrup

/// Scopes access to a security-scoped file (Syrup's README). Its steps are two flags, not enum
/// cases: FlowLens cannot read them and says so with one `unanalyzable-flow` note.
struct FileAccessProgression: Progression {
    let fileURL: URL
    private var startAccess: Bool
    private var done: Bool

    init(fileURL: URL) {
        self.fileURL = fileURL
        startAccess = true
        done = false
    }

    enum ErrorKind: Error {
        case cannotAccess(fileURL: URL)
    }

    mutating func updateOrDeferNext() throws -> Deferred<FileAccessProgression>? {
        if startAccess {
            let accessSucceeded = fileURL.startAccessingSecurityScopedResource()
            if !accessSucceeded {
                throw ErrorKind.cannotAccess(fileURL: fileURL)
            }
        } else {
            fileURL.stopAccessingSecurityScopedResource()
        }

        done = true

        // Mutated, so no need to return future
        return nil
    }

    typealias Result = FileAccessProgression

    var result: FileAccessProgression? {
        guard done else { return nil }

        var copy = self
        if startAccess {
            copy.startAccess = false
            copy.done = false
        }
        return copy
    }
}
