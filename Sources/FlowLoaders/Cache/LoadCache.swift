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
/// The cache is one file of JSON lines: a header, then for each entry a line naming its input and
/// a line with its graph. It is read once, and written atomically by `save()`: entries parsed in a
/// run are encoded (on the loading threads), the others are written back as the bytes read, and a
/// graph is decoded only when used. A missing, corrupt, foreign or older-format file is ignored and
/// replaced. On saving, entries of this run are kept, and entries of other runs too while their
/// files exist (at most a few Swift sets), so runs over different inputs share one file. Two runs
/// saving at once lose entries, never corrupt the file. Safe to use from several threads.
public final class LoadCache: @unchecked Sendable {
    /// The version of the file layout and of what an entry means; a different one is ignored.
    public static let formatVersion = 5  // 3: PlantUML machines carry `stateMachine`; 4: load findings carry their fix; 5: a flow kind carries its traits
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
        // Read as every input is (a FIFO or device at the path is not waited on; the cache's writer refuses it).
        guard let path, case let .success(bytes) = InputReading.bytes(atPath: path, maximumBytes: 1 << 40) else { return }
        let data = Data(bytes)
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: lines[0]), header.format == Self.formatName else {
            ignoredReason = "corrupt, or not a FlowLens cache"
            changed = true
            return
        }
        guard header.formatVersion == Self.formatVersion, header.tool == toolIdentity else {
            ignoredReason = "written by another FlowLens version"
            changed = true
            return
        }
        // Then an input line and a graph line per entry, and the final newline.
        var entries: [Entry] = []
        var index = 1
        while index + 1 < lines.count, let input = try? decoder.decode(EntryInput.self, from: lines[index]), !input.files.isEmpty {
            entries.append(Entry(input: input, graph: Data(lines[index + 1])))
            index += 2
        }
        guard index == lines.count - 1, lines[index].isEmpty else {
            ignoredReason = "corrupt"
            changed = true
            return
        }
        for entry in entries where stored[entry.input.key] == nil {
            stored[entry.input.key] = entry
            storedOrder.append(entry.input.key)
        }
    }

    /// Writes the entries of this run, and those of earlier runs whose files still exist, to `path`
    /// atomically. Does nothing when the file would not change, or for a cache in memory.
    public func save() throws {
        lock.lock(); defer { lock.unlock() }
        guard let path else { return }
        let fm = FileManager.default
        // This run's entries in the order of their keys, not in the order the loading threads
        // finished them: the same inputs write the same file.
        var entries = current.keys.sorted().map { current[$0]! }
        var unusedBatches = 0
        for key in storedOrder where current[key] == nil {
            let entry = stored[key]!
            // Another run's entry: kept while its files exist (stale ones are dropped), and only the
            // most recently used Swift sets (each a whole set, so they add up).
            let exists = entry.input.files.allSatisfy { fm.fileExists(atPath: $0.path) }
            if entry.input.batch != nil, exists { unusedBatches += 1 }
            if !exists || (entry.input.batch != nil && unusedBatches > Self.keptUnusedBatches) { changed = true; continue }
            entries.append(entry)
        }
        let directory = (path as NSString).deletingLastPathComponent
        // What a run killed while saving left beside the file goes, whether or not it changes.
        AtomicFile.removeStaleTemporaries(in: directory.isEmpty ? "." : directory)
        guard changed || !fm.fileExists(atPath: path) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(Header(format: Self.formatName, formatVersion: Self.formatVersion, tool: toolIdentity))
        data.append(UInt8(ascii: "\n"))
        for entry in entries {
            data.append(try encoder.encode(entry.input))
            data.append(UInt8(ascii: "\n"))
            data.append(entry.graph)
            data.append(UInt8(ascii: "\n"))
        }
        if !directory.isEmpty { try AtomicFile.createFolder(directory) }
        try AtomicFile.write(data, to: path)
        changed = false
    }

    // MARK: Loading through the cache

    /// `source` loaded by `load`, or the graph an earlier run got for the same input. `load` returns
    /// the graph and the names of the environment variables it read; `environment` is the file's.
    func graph(for source: SourceText, environment: [String: String],
               load: () -> (graph: FlowGraph, environmentNamesRead: Set<String>)) -> FlowGraph {
        let stamp = FileStamp(source)
        let key = Self.fileKey(stamp)
        if let entry = lookUp(key), entry.input.files == [stamp],
           entry.input.environment.allSatisfy({ environment[$0.name] == $0.value }),
           let graph = use(entry, for: [source]) {
            return graph
        }
        let (graph, names) = load()
        let read = names.sorted().map { EnvironmentValue(name: $0, value: environment[$0]) }
        remember(EntryInput(key: key, files: [stamp], batch: nil, environment: read), graph, parsed: 1)
        return graph
    }

    /// `sources` (all of one batch kind) loaded by `load`, or the graph an earlier run got for the
    /// same files with the same texts.
    func graph(forBatch sources: [SourceText], kind: SourceKind, load: () -> FlowGraph) -> FlowGraph {
        let stamps = sources.map(FileStamp.init)
        let key = "batch:\(kind.rawValue):" + SHA256.hex(stamps.map { "\($0.path)\u{0}\($0.displayPath)\u{0}\($0.sha256)\n" }.joined())
        if let entry = lookUp(key), entry.input.files == stamps, let graph = use(entry, for: sources) {
            return graph
        }
        let graph = load()
        remember(EntryInput(key: key, files: stamps, batch: kind.rawValue, environment: []), graph, parsed: stamps.count)
        return graph
    }

    private func lookUp(_ key: String) -> Entry? {
        lock.lock(); defer { lock.unlock() }
        return stored[key]
    }

    /// The entry's graph, recorded as used; nil (a miss) when it cannot be decoded, or names places
    /// that `sources`, the texts it is stored for, do not have (`CachedGraphCheck`).
    private func use(_ entry: Entry, for sources: [SourceText]) -> FlowGraph? {
        guard let graph = try? JSONDecoder().decode(FlowGraph.self, from: entry.graph),
              CachedGraphCheck.isPlausible(graph, for: sources) else { return nil }
        lock.lock(); defer { lock.unlock() }
        current[entry.input.key] = entry
        reusedFiles += entry.input.files.count
        return graph
    }

    /// Records a graph just loaded; encoded here, on the loading thread.
    private func remember(_ input: EntryInput, _ graph: FlowGraph, parsed: Int) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = try? encoder.encode(graph)
        lock.lock(); defer { lock.unlock() }
        parsedFiles += parsed
        changed = true
        guard let encoded else { return }  // not cached; never happens for the IR's plain values
        current[input.key] = Entry(input: input, graph: encoded)
    }

    private static func fileKey(_ stamp: FileStamp) -> String { "file:\(stamp.path)\u{0}\(stamp.displayPath)" }

    // MARK: The file

    private static let formatName = "flowlens-cache"

    private struct Header: Codable {
        var format: String
        var formatVersion: Int
        var tool: String
    }

    /// One file (or Swift set) and what its loader made of it, as JSON read or to write.
    private struct Entry {
        var input: EntryInput
        var graph: Data
    }

    /// What an entry is valid for.
    private struct EntryInput: Codable {
        var key: String
        var files: [FileStamp]
        /// The batch kind, for a set of files loaded together.
        var batch: String?
        /// The variables read while loading, with their values (nil: unset).
        var environment: [EnvironmentValue]
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
