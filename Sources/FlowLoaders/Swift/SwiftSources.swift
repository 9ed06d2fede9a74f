import Dispatch
import FlowModel

/// Reads every Swift-based library's flows from one set of Swift files, parsing each file once.
///
/// Swift sources are loaded together because their meaning spans files (an operation class defined
/// in one file is added to a flow in another). Each library has a reader over the parsed files; a
/// new Swift library is one more line in `readers`.
public struct SwiftSourcesLoader: BatchFlowLoader {
    /// Creates the loader with the built-in limits.
    public init() { limits = .default }

    /// The bounds a file must keep to be read.
    public var limits: Limits

    /// Creates the loader.
    public init(limits: Limits) { self.limits = limits }

    public func load(_ files: [SourceText]) -> FlowGraph {
        let parsed = SwiftSources.parse(files, limits: limits)
        var graph = FlowGraph()
        for read in SwiftSources.readers { graph.merge(read(parsed)) }
        graph.loadFindings = parsed.compactMap(\.problem) + graph.loadFindings
        return graph
    }
}

/// The parsed Swift files of a run, and the readers that find flows in them.
enum SwiftSources {
    /// One reader per Swift library, in a fixed order.
    static let readers: [@Sendable ([ParsedSwiftFile]) -> FlowGraph] = [
        { FlowGraph(flows: FlowIOSLoader().flows(in: $0)) },
        { FlowGraph(flows: FlowStateReader().flows(in: $0)) },
        { FlowGraph(flows: SyrupReader().flows(in: $0)) },
        { files in
            var graph = FlowGraph()
            graph.machineImplementations = FlowKitControllerReader().implementations(in: files)
            return graph
        },
    ]

    /// Parses `files` on all cores, in the order given.
    static func parse(_ files: [SourceText], limits: Limits = .default) -> [ParsedSwiftFile] {
        let slots = ResultSlots<ParsedSwiftFile>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            slots[i] = ParsedSwiftFile(files[i], limits: limits)
        }
        return files.indices.map { slots[$0]! }
    }
}
