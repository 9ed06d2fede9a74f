import FlowModel
import Foundation

/// What the loaders made of files on earlier runs, so that an unchanged file is not parsed again
/// (`flowlens check --cache-path PATH`).
///
/// An entry is the loader's IR output for a file, valid only for exactly the same input: the file's
/// path and reported path, its text (SHA-256), the cache format, the tool identity (version and,
/// from the CLI, the executable's size and date, so a rebuilt FlowLens never reuses an older one's
/// results), and for PlantUML the values of the variables `%getenv` read while loading it. Swift
/// files are loaded together (a flow in one file adds operations defined in others), so the Swift
/// set is one entry keyed by every Swift file: one changed Swift file re-parses all of them.
///
/// The cache is one JSON file, read once and written atomically by `save()`. A missing, corrupt,
/// foreign or older-format file is ignored and replaced. On saving, entries of this run are kept,
/// and entries of other runs too while their files exist (at most a few Swift sets), so runs over
/// different inputs share one file. Two runs saving at once lose entries, never corrupt the file.
/// Safe to use from several threads.
public final class LoadCache: @unchecked Sendable {
    /// The version of the file layout and of what an entry means; a different one is ignored.
    public static let formatVersion = 1
    /// How many Swift sets not used in a run are kept.
    static let keptUnusedBatches = 4

    /// The cache file; nil for a cache in memory only.
    public let path: String?
    /// What, besides the inputs, the loaders' output depends on: FlowLens's version by default.
    public let toolIdentity: String
    /// Why the file at `path` was not used, when it existed but was not a usable cache.
    public private(set) var ignoredReason: String?

    private let lock = NSLock()
    private var stored: [String: Entry] = [:]
    private var storedOrder: [String] = []
    private var current: [String: Entry] = [:]
    private var currentOrder: [String] = []
    private var reusedFiles = 0
    private var parsedFiles = 0
    private var changed = false

    /// How many files this cache served (`reused`) and how many were parsed, since it was created.
    public var statistics: (reused: Int, parsed: Int) {
        lock.lock(); defer { lock.unlock() }
        return (reusedFiles, parsedFiles)
    }

    /// A cache read from `path` (absent, unreadable or foreign: empty). `toolIdentity` must change
    /// whenever the loaders might: the default is FlowLens's version.
    public init(path: String?, toolIdentity: String = FlowLensTool.version) {
        self.path = path
        self.toolIdentity = toolIdentity
        guard let path, let data = FileManager.default.contents(atPath: path) else { return }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), header.format == Self.formatName else {
            ignoredReason = "corrupt, or not a FlowLens cache"
            changed = true
            return
        }
        guard header.formatVersion == Self.formatVersion, header.tool == toolIdentity else {
            ignoredReason = "written by another FlowLens version"
            changed = true
            return
        }
        guard let document = try? decoder.decode(Document.self, from: data) else {
            ignoredReason = "unreadable"
            changed = true
            return
        }
        for entry in document.entries where stored[entry.key] == nil {
            stored[entry.key] = entry
            storedOrder.append(entry.key)
        }
    }

    /// Writes the entries of this run, and those of earlier runs whose files still exist, to `path`
    /// atomically. Does nothing when the file would not change, or for a cache in memory.
    public func save() throws {
        lock.lock(); defer { lock.unlock() }
        guard let path else { return }
        let fm = FileManager.default
        var entries = currentOrder.map { current[$0]! }
        var unusedBatches = 0
        for key in storedOrder where current[key] == nil {
            let entry = stored[key]!
            // Another run's entry: kept while its files exist (stale ones are dropped), and only the
            // most recently used Swift sets (each a whole set, so they add up).
            let exists = entry.files.allSatisfy { fm.fileExists(atPath: $0.path) }
            if entry.batch != nil, exists { unusedBatches += 1 }
            if !exists || (entry.batch != nil && unusedBatches > Self.keptUnusedBatches) { changed = true; continue }
            entries.append(entry)
        }
        guard changed || !fm.fileExists(atPath: path) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let document = Document(format: Self.formatName, formatVersion: Self.formatVersion, tool: toolIdentity, entries: entries)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try encoder.encode(document).write(to: URL(fileURLWithPath: path), options: .atomic)
        changed = false
    }

    // MARK: Loading through the cache

    /// `source` loaded by `load`, or the graph an earlier run got for the same input. `load` returns
    /// the graph and the names of the environment variables it read; `environment` is the file's.
    func graph(for source: SourceText, environment: [String: String],
               load: () -> (graph: FlowGraph, environmentNamesRead: Set<String>)) -> FlowGraph {
        let stamp = FileStamp(source)
        let key = Self.fileKey(stamp)
        if let entry = lookUp(key), entry.files == [stamp],
           entry.environment.allSatisfy({ environment[$0.name] == $0.value }) {
            return use(entry, key: key)
        }
        let (graph, names) = load()
        let read = names.sorted().map { EnvironmentValue(name: $0, value: environment[$0]) }
        remember(Entry(key: key, files: [stamp], batch: nil, environment: read, graph: graph), parsed: 1)
        return graph
    }

    /// `sources` (all of one batch kind) loaded by `load`, or the graph an earlier run got for the
    /// same files with the same texts.
    func graph(forBatch sources: [SourceText], kind: SourceKind, load: () -> FlowGraph) -> FlowGraph {
        let stamps = sources.map(FileStamp.init)
        let key = "batch:\(kind.rawValue):" + SHA256.hex(stamps.map { "\($0.path)\u{0}\($0.displayPath)\u{0}\($0.sha256)\n" }.joined())
        if let entry = lookUp(key), entry.files == stamps {
            return use(entry, key: key)
        }
        let graph = load()
        remember(Entry(key: key, files: stamps, batch: kind.rawValue, environment: [], graph: graph), parsed: stamps.count)
        return graph
    }

    private func lookUp(_ key: String) -> Entry? {
        lock.lock(); defer { lock.unlock() }
        return stored[key]
    }

    private func use(_ entry: Entry, key: String) -> FlowGraph {
        lock.lock(); defer { lock.unlock() }
        if current[key] == nil { currentOrder.append(key) }
        current[key] = entry
        reusedFiles += entry.files.count
        return entry.graph
    }

    private func remember(_ entry: Entry, parsed: Int) {
        lock.lock(); defer { lock.unlock() }
        if current[entry.key] == nil { currentOrder.append(entry.key) }
        current[entry.key] = entry
        parsedFiles += parsed
        changed = true
    }

    private static func fileKey(_ stamp: FileStamp) -> String { "file:\(stamp.path)\u{0}\(stamp.displayPath)" }

    // MARK: The file

    private static let formatName = "flowlens-cache"

    private struct Header: Decodable {
        var format: String
        var formatVersion: Int
        var tool: String
    }

    private struct Document: Codable {
        var format: String
        var formatVersion: Int
        var tool: String
        var entries: [Entry]
    }

    /// One file (or Swift set) and what its loader made of it.
    private struct Entry: Codable {
        var key: String
        var files: [FileStamp]
        /// The batch kind, for a set of files loaded together.
        var batch: String?
        /// The variables read while loading, with their values (nil: unset).
        var environment: [EnvironmentValue]
        var graph: FlowGraph
    }

    private struct FileStamp: Codable, Equatable {
        var path: String
        var displayPath: String
        var kind: String
        var sha256: String

        init(_ source: SourceText) {
            path = source.file.path
            displayPath = source.file.displayPath
            kind = source.file.kind.rawValue
            sha256 = SHA256.hex(source.contents)
        }
    }

    private struct EnvironmentValue: Codable, Equatable {
        var name: String
        var value: String?
    }
}
