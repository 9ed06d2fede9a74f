import Foundation
import Syrup

/// Backs up the user's notes: reads the notes file, then uploads it. Started from
/// `BackupScheduler` below (the only start: `.readNotes`).
enum NotesBackupProgression: Progression {
    typealias Result = Date

    case readNotes(URL)
    case upload(Data)
    // defect: unreachable-step — nothing constructs `.restoreDraft` (the scheduler starts at `.readNotes`), so it never runs
    case restoreDraft(URL)
    case backedUp(Date)

    mutating func updateOrDeferNext() throws -> Deferred<NotesBackupProgression>? {
        switch self {
        case let .readNotes(url):
            do {
                self = .upload(try Data(contentsOf: url))
            } catch let error as CocoaError {
                if error.code == .fileReadNoSuchFile {
                    self = .backedUp(Date())
                }
            }
            // defect: busy-retry — any other CocoaError (no permission, a locked file) leaves self as it was: the case re-runs at once, forever
            return nil
        case let .upload(data):
            return .future { resolve in
                BackupAPI.shared.put(data) { error in
                    resolve { if let error { throw error } else { return .backedUp(Date()) } }
                }
            }
        case let .restoreDraft(url):
            self = .upload(try Data(contentsOf: url.appendingPathExtension("draft")))
        case .backedUp:
            break
        }
        return nil
    }

    var result: Date? {
        guard case let .backedUp(date) = self else { return nil }
        return date
    }
}

final class BackupScheduler {
    func runNightly(notes: URL) {
        ProgressionRunner.shared.run(NotesBackupProgression.readNotes(notes))
    }
}
