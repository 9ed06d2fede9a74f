import Foundation
import Syrup

/// Loads a document: gains access to its file by composing FileAccessProgression, reads and parses
/// it, migrates an old version in the background and saves it back.
enum DocumentLoadProgression: Progression {
    typealias Result = Document

    /// Initial stages
    case open(fileURL: URL)
    /// Intermediate stages
    case access(FileAccessProgression)
    case read(fileURL: URL)
    case parse(data: Data, fileURL: URL)
    case migrate(Document, fileURL: URL)
    case save(Document, fileURL: URL)
    /// Completed stages
    case loaded(Document)

    mutating func updateOrDeferNext() throws -> Deferred<DocumentLoadProgression>? {
        switch self {
        case let .open(fileURL):
            self = .access(FileAccessProgression(fileURL: fileURL))
        case let .access(access):
            return compose(access,
                           mapNext: DocumentLoadProgression.access,
                           mapResult: { granted in .read(fileURL: granted.fileURL) })
        case let .read(fileURL):
            let data = try Data(contentsOf: fileURL, options: .mappedIfSafe)
            self = .parse(data: data, fileURL: fileURL)
        case let .parse(data, fileURL):
            let document = try JSONDecoder().decode(Document.self, from: data)
            if document.version < Document.currentVersion {
                self = .migrate(document, fileURL: fileURL)
            } else {
                self = .loaded(document)
            }
        case .migrate(let document, let fileURL):
            return .future { resolve in
                DocumentMigrator.shared.migrate(document) { migrated, error in
                    if let migrated = migrated {
                        resolve { .save(migrated, fileURL: fileURL) }
                    } else {
                        resolve { throw error ?? DocumentError.migrationFailed }
                    }
                }
            }
        case let .save(document, fileURL):
            try JSONEncoder().encode(document).write(to: fileURL, options: .atomic)
            self = .loaded(document)
        case .loaded:
            break
        }
        return nil
    }

    var result: Document? {
        if case let .loaded(document) = self {
            return document
        }
        return nil
    }
}
