import Dispatch
import FlowModel
import Foundation

/// Reads the files of one source kind into the IR.
///
/// A loader never throws on user input: whatever it cannot read becomes an `invalid-input` finding
/// in the returned graph, and whatever it can read is still returned.
public protocol FlowLoader: Sendable {
    /// Loads one file whose text is `contents`.
    func load(_ file: InputFile, contents: String) -> FlowGraph
}

/// Loads a set of files with the loader for each kind, in parallel, in a deterministic order.
public struct SourceLoader: Sendable {
    /// Creates a loader for every source kind FlowLens knows.
    public init() {}

    /// The loader for `kind`. An exhaustive switch, so a new kind cannot be forgotten.
    public func loader(for kind: SourceKind) -> any FlowLoader {
        switch kind {
        case .declarative: return DeclarativeLoader()
        }
    }

    /// Discovers and loads everything under `paths`.
    public func load(paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> FlowGraph {
        let (files, findings) = InputDiscovery.discover(paths, workingDirectory: workingDirectory)
        var graph = load(files: files)
        graph.loadFindings = findings + graph.loadFindings
        return graph
    }

    /// Loads `files`. Files are read on all cores; the result lists them in the order given.
    public func load(files: [InputFile]) -> FlowGraph {
        let results = ResultSlots<FlowGraph>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results[index] = loadOne(files[index])
        }
        var graph = FlowGraph()
        for (index, file) in files.enumerated() {
            graph.files.append(file.displayPath)
            if let partial = results[index] { graph.merge(FlowGraph(flows: partial.flows, loadFindings: partial.loadFindings)) }
        }
        graph.flows = Self.uniquingFlowIDs(graph.flows)
        return graph
    }

    private func loadOne(_ file: InputFile) -> FlowGraph {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return FlowGraph(loadFindings: [.invalidInput("cannot read file", at: SourceLocation(file: file.displayPath))])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return FlowGraph(loadFindings: [.invalidInput("file is not UTF-8 text", at: SourceLocation(file: file.displayPath, line: 1, column: 1))])
        }
        return loader(for: file.kind).load(file, contents: text)
    }

    /// Flow ids must be unique in a run (reports and file names key on them). A later flow whose id is
    /// taken gets its file appended: `Checkout@samples/b.flow.yaml`.
    static func uniquingFlowIDs(_ flows: [Flow]) -> [Flow] {
        var taken = Set<String>()
        return flows.map { flow in
            var flow = flow
            if !taken.insert(flow.id).inserted, let file = flow.location?.file {
                flow.id = "\(flow.id)@\(file)"
                taken.insert(flow.id)
            }
            return flow
        }
    }
}

/// Fixed slots written by concurrent workers, each slot by exactly one worker.
final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return slots[index] }
        set { lock.lock(); defer { lock.unlock() }; slots[index] = newValue }
    }
}
