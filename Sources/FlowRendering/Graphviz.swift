import CGraphviz
import Foundation

/// Output formats Graphviz renders for FlowLens.
public enum GraphvizFormat: String, Sendable, CaseIterable {
    /// Scalable vector graphics (text stays text, selectable and searchable).
    case svg
    /// A raster image.
    case png
    /// A vector document.
    case pdf
}

/// An error from Graphviz. Only FlowLens's own DOT reaches Graphviz, so these are programmer
/// errors or a broken installation, never a user's mistake.
public struct GraphvizError: Error, CustomStringConvertible, Sendable {
    /// What failed and what Graphviz said.
    public let description: String
}

/// The only code that calls the Graphviz C library (libgvc/libcgraph, linked in-process).
///
/// Graphviz 2.4x keeps global state and is not thread-safe, even with one context per thread:
/// every call happens under one process-wide lock, and one context is shared for the process.
public enum Graphviz {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var context: OpaquePointer?
    nonisolated(unsafe) private static var messages: [String] = []

    /// Lays out `dot` with the `dot` engine and renders it.
    public static func render(dot: String, format: GraphvizFormat) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        let gvc = try sharedContext()
        messages.removeAll()
        // Collect parse errors and warnings instead of letting Graphviz print them to stderr.
        let previousHandler = agseterrf { message in
            if let message { Graphviz.messages.append(String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)) }
            return 0
        }
        defer { _ = agseterrf(previousHandler) }
        _ = agreseterrors()

        guard let graph = dot.withCString({ agmemread($0) }) else {
            throw GraphvizError(description: "Graphviz could not parse the DOT text: \(messages.joined(separator: "; "))")
        }
        defer { agclose(graph) }
        guard gvLayout(gvc, graph, "dot") == 0 else {
            throw GraphvizError(description: "Graphviz could not lay out the graph: \(messages.joined(separator: "; "))")
        }
        defer { gvFreeLayout(gvc, graph) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        guard gvRenderData(gvc, graph, format.rawValue, &buffer, &length) == 0, let buffer else {
            throw GraphvizError(description: "Graphviz could not render \(format.rawValue): \(messages.joined(separator: "; "))")
        }
        defer { gvFreeRenderData(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// The Graphviz version the process is linked with, e.g. `2.43.0`.
    public static var version: String {
        lock.lock()
        defer { lock.unlock() }
        guard let gvc = try? sharedContext(), let text = gvcVersion(gvc) else { return "unknown" }
        return String(cString: text)
    }

    /// The process's context. Creating one loads the plugins listed in Graphviz's `config6a`; when
    /// that file is missing (`dot -c` was never run), there is no `dot` layout engine.
    private static func sharedContext() throws -> OpaquePointer {
        if let context { return context }
        guard let created = gvContext() else { throw GraphvizError(description: "Graphviz could not create a context") }
        // Probe the layout engine once, so a broken installation gives one clear message.
        let probe = "digraph{a}".withCString { agmemread($0) }
        defer { if let probe { agclose(probe) } }
        guard let probe, gvLayout(created, probe, "dot") == 0 else {
            gvFreeContext(created)
            throw GraphvizError(description: """
                Graphviz has no 'dot' layout engine: its plugin configuration is missing. \
                Run 'dot -c' as root (scripts/setup.sh does this), then try again.
                """)
        }
        gvFreeLayout(created, probe)
        context = created
        return created
    }
}
