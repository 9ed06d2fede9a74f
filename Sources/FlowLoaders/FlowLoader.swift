import Dispatch
import FlowModel
import Foundation

/// Reads the files of one source kind into the IR, one file at a time.
///
/// A loader never throws on user input: whatever it cannot read becomes an `invalid-input` finding
/// in the returned graph, and whatever it can read is still returned.
public protocol FlowLoader: Sendable {
    /// Loads one file whose text is `contents`.
    func load(_ file: InputFile, contents: String) -> FlowGraph
    /// Loads one file, and names the environment variables it read: the result depends on their
    /// values, so the cache keys on them. A loader that reads none need not implement it.
    func loadRecordingEnvironment(_ file: InputFile, contents: String) -> (graph: FlowGraph, environmentNamesRead: Set<String>)
}

extension FlowLoader {
    public func loadRecordingEnvironment(_ file: InputFile, contents: String) -> (graph: FlowGraph, environmentNamesRead: Set<String>) {
        (load(file, contents: contents), [])
    }
}

/// Reads all the files of one source kind together, for sources whose meaning spans files (a Swift
/// flow adds operation classes defined in other files). Same contract as `FlowLoader`.
public protocol BatchFlowLoader: Sendable {
    /// Loads `files`, given with their text, in the order given.
    func load(_ files: [SourceText]) -> FlowGraph
}

/// A file and its text.
public struct SourceText: Sendable {
    /// The file.
    public var file: InputFile
    /// Its text.
    public var contents: String

    /// Pairs a file with its text.
    public init(file: InputFile, contents: String) {
        self.file = file
        self.contents = contents
    }
}

/// Loads a set of files with the loader for each kind, in parallel, in a deterministic order.
public struct SourceLoader: Sendable {
    /// The variables PlantUML's `%getenv("NAME")` reads for a file: the process environment,
    /// overridden by `.flowlens.yml` `plantuml: defines` and `--define NAME=value`.
    public var environment: @Sendable (InputFile) -> [String: String]
    /// Where files loaded on earlier runs are looked up, and this run's are recorded; nil: none.
    public var cache: LoadCache?
    /// The bounds a file must keep to be read (`.flowlens.yml` `limits:`).
    public var limits: Limits = .default
    /// Text to use instead of a file's contents on disk, by `InputFile.path`: an editor's unsaved
    /// buffer or a pre-commit stage given on standard input (`--stdin-path`). The file need not exist.
    public var texts: [String: String] = [:]
    /// Told once for each file loaded (a per-file kind's file once loaded; a Swift file once parsed,
    /// or once the pre-filter has passed it over): to advance a progress line. From any thread.
    public var progress: (@Sendable () -> Void)?

    /// Creates a loader for every source kind FlowLens knows; `%getenv` reads `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = { _ in environment }
    }

    /// Creates a loader whose `%getenv` reads a per-file environment.
    public init(environment: @escaping @Sendable (InputFile) -> [String: String]) {
        self.environment = environment
    }

    /// How each kind is loaded: as its file type says (`SourceFileType`, declared by the dialects).
    enum Strategy {
        case perFile(any FlowLoader)
        case batch(any BatchFlowLoader)
    }

    func strategy(for kind: SourceKind) -> Strategy? {
        switch SourceFileType.all.first(where: { $0.kind == kind })?.reading {
        case let .perFile(make)?: return .perFile(make(LoaderSettings(limits: limits, environment: environment)))
        // The one batch kind: every Swift dialect reads the run's Swift files from one parse.
        case .batch?: return .batch(SwiftSourcesLoader(limits: limits, progress: progress))
        case nil: return nil
        }
    }

    /// Discovers, reads and links everything under `paths`.
    public func load(paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> FlowGraph {
        let (files, findings) = InputDiscovery.discover(paths, workingDirectory: workingDirectory)
        var graph = load(files: files)
        graph.loadFindings = findings + graph.loadFindings
        return graph
    }

    /// Reads `files` from disk and links them: `Pipeline`'s load and link stages, for a caller that
    /// only loads (`FlowLens.load`, tests).
    public func load(files: [InputFile]) -> FlowGraph {
        var graph = read(files: files)
        Dialects.link(&graph)
        return graph
    }

    /// Reads and links files whose text is already in memory (tests, editors, the rule examples).
    public func load(_ sources: [SourceText]) -> FlowGraph {
        var graph = read(sources)
        Dialects.link(&graph)
        return graph
    }

    /// Reads `files` from disk, each by its kind's loader, not linked yet (`Pipeline`'s load stage).
    /// Files are read on all cores; the result lists them in the order given.
    public func read(files: [InputFile]) -> FlowGraph {
        // A file's per-file work follows its reading in the same parallel pass, while its text is fresh.
        let loaded = files.parallelMap { file -> Loaded in
            switch given(file) ?? Self.read(file, maximumBytes: limits.fileBytes) {
            case let .text(text):
                let source = SourceText(file: file, contents: text)
                return .read(source, perFile(source))
            case let .unreadable(finding): return .unreadable(finding)
            }
        }
        var sources: [SourceText] = [], results: [PerFile] = []
        var unreadable: [Finding] = []
        for file in loaded {
            switch file {
            case let .read(source, result):
                sources.append(source)
                results.append(result)
            case let .unreadable(finding): unreadable.append(finding)
            }
        }
        var graph = assemble(sources, results)
        graph.files = files.map(\.displayPath)
        graph.loadFindings = unreadable + graph.loadFindings
        return graph
    }

    /// Reads files whose text is already in memory, not linked yet.
    public func read(_ sources: [SourceText]) -> FlowGraph {
        assemble(sources, sources.parallelMap(perFile))
    }

    /// What is done for each file on its own: its graph when its kind loads file by file, and its
    /// suppression comments (a search of every file's bytes, 0.6 ms of the app-shaped benchmark's
    /// serial time when it ran after the parallel pass).
    typealias PerFile = (graph: FlowGraph?, suppressions: [Suppression])

    /// A file read from disk and passed through `perFile`, or why it was not read.
    enum Loaded {
        case read(SourceText, PerFile)
        case unreadable(Finding)
    }

    private func perFile(_ source: SourceText) -> PerFile {
        let suppressions = SuppressionScanner.commentMarker(forPath: source.file.path).map {
            SuppressionScanner.scan(source.contents, file: source.file.displayPath, marker: $0)
        } ?? []
        guard case let .perFile(loader) = strategy(for: source.file.kind) else { return (nil, suppressions) }
        defer { progress?() }
        return (load(source, with: loader), suppressions)
    }

    /// The run's graph from each file's `perFile` result, and the batch kinds' files, each kind's at once.
    private func assemble(_ sources: [SourceText], _ results: [PerFile]) -> FlowGraph {
        var graph = FlowGraph(files: sources.map(\.file.displayPath))
        for result in results { graph.suppressions += result.suppressions }
        for result in results {
            if let partial = result.graph { graph.merge(Self.content(of: partial)) }
        }
        for kind in SourceKind.allCases {
            guard case let .batch(loader) = strategy(for: kind) else { continue }
            let batch = sources.filter { $0.file.kind == kind }
            guard !batch.isEmpty else { continue }
            let partial = cache?.graph(forBatch: batch, kind: kind) { loader.load(batch) } ?? loader.load(batch)
            graph.merge(Self.content(of: partial))
        }
        // One order for every kind: by file, then position in the file.
        let order = Dictionary(sources.enumerated().map { ($0.element.file.displayPath, $0.offset) }, uniquingKeysWith: { a, _ in a })
        graph.flows = Self.uniquingFlowIDs(&graph.loadFindings, graph.flows.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            let fa = order[la?.file ?? ""] ?? Int.max, fb = order[lb?.file ?? ""] ?? Int.max
            if fa != fb { return fa < fb }
            if (la?.line ?? 0, la?.column ?? 0) != (lb?.line ?? 0, lb?.column ?? 0) {
                return (la?.line ?? 0, la?.column ?? 0) < (lb?.line ?? 0, lb?.column ?? 0)
            }
            return a.offset < b.offset
        }.map(\.element))
        return graph
    }

    /// One file by its kind's loader, through the cache when there is one.
    private func load(_ source: SourceText, with loader: any FlowLoader) -> FlowGraph {
        guard let cache else { return loader.load(source.file, contents: source.contents) }
        return cache.graph(for: source, environment: environment(source.file)) {
            loader.loadRecordingEnvironment(source.file, contents: source.contents)
        }
    }

    /// What a loader's graph adds to the run's: not its files or suppressions, which the run lists itself.
    private static func content(of partial: FlowGraph) -> FlowGraph {
        var partial = partial
        partial.files = []
        partial.suppressions = []
        return partial
    }

    /// The text given for `file` in `texts`, under the same size budget as a file read from disk.
    private func given(_ file: InputFile) -> ReadResult? {
        guard let text = texts[file.path] else { return nil }
        if text.utf8.count > limits.fileBytes {
            return .unreadable(.invalidInput("file is larger than \(limits.fileBytes) bytes (limits.fileBytes), not read",
                                             at: SourceLocation(file: file.displayPath, line: 1, column: 1)))
        }
        return .text(text)
    }

    enum ReadResult {
        case text(String)
        case unreadable(Finding)
    }

    /// A file's text, read the one way inputs are (`InputReading`): a FIFO, device or socket is
    /// refused without a blocking read, a file over the bound is never loaded into memory.
    private static func read(_ file: InputFile, maximumBytes: Int) -> ReadResult {
        switch InputReading.bytes(atPath: file.path, maximumBytes: maximumBytes) {
        case let .success(bytes):
            guard let text = InputReading.decode(bytes) else {
                return .unreadable(.invalidInput("file is not UTF-8 text", at: SourceLocation(file: file.displayPath, line: 1, column: 1)))
            }
            return .text(text)
        case let .failure(failure):
            switch failure.reason {
            case let .tooLarge(bytes):
                return .unreadable(.invalidInput("file is larger than \(bytes) bytes (limits.fileBytes), not read",
                                                 at: SourceLocation(file: file.displayPath, line: 1, column: 1)))
            case .notRegular:
                return .unreadable(.invalidInput(failure.cause, at: SourceLocation(file: file.displayPath)))
            default:
                return .unreadable(.invalidInput("cannot read file", at: SourceLocation(file: file.displayPath)))
            }
        }
    }

    /// Flow ids must be unique in a run (reports, file names and the analysis of each flow key on
    /// them). A later flow whose id is taken gets its file appended (`Checkout@samples/b.flow.yaml`,
    /// then `#2`, `#3` … if that is taken too, or has no file), and every reference to it from its own file follows: a
    /// parent machine's composite step, a sub-machine's `parent`, a crossing edge, and the load
    /// findings the file's loader attached to it. (Loaders keep ids unique within one file.)
    static func uniquingFlowIDs(_ findings: inout [Finding], _ flows: [Flow]) -> [Flow] {
        var taken = Set<String>()
        var renamed: [String: [String: String]] = [:]  // file → old id → new id
        var flows = flows.map { flow in
            var flow = flow
            if !taken.insert(flow.id).inserted {
                let file = flow.location?.file ?? ""
                let base = file.isEmpty ? flow.id : "\(flow.id)@\(file)"
                var candidate = base
                var n = 2
                while taken.contains(candidate) { candidate = "\(base)#\(n)"; n += 1 }
                taken.insert(candidate)
                renamed[file, default: [:]][flow.id] = candidate
                flow.id = candidate
            }
            return flow
        }
        guard !renamed.isEmpty else { return flows }
        for i in flows.indices {
            guard let names = renamed[flows[i].location?.file ?? ""] else { continue }
            func follow(_ id: String?) -> String? { id.map { names[$0] ?? $0 } }
            flows[i].parent = follow(flows[i].parent)
            for s in flows[i].steps.indices { flows[i].steps[s].subflow = follow(flows[i].steps[s].subflow) }
            for t in flows[i].transitions.indices { flows[i].transitions[t].crossesInto = follow(flows[i].transitions[t].crossesInto) }
        }
        for i in findings.indices {
            guard let names = renamed[findings[i].location?.file ?? ""], let flow = findings[i].flow else { continue }
            findings[i].flow = names[flow] ?? flow
        }
        return flows
    }
}
