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
/// every call happens under one process-wide lock.
///
/// Its dot layout also carries state from one layout to the next in static variables, and that state
/// goes bad: `decompose` numbers its passes with a `char` that wraps after 255 calls and then takes
/// marks other phases left on nodes for its own, which valgrind shows as a use-after-free and which
/// crashed about every 85th to 250th layout in one process. So each render uses a fresh copy of the
/// dot layout plugin, loaded for that render and unloaded after it (`FreshLayout`): every layout
/// starts from the same state, so the output of a graph does not depend on what was drawn before.
/// Where that cannot be set up (plugins not where libgvc's own folder says), the ordinary shared
/// context is used.
public enum Graphviz {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var context: OpaquePointer?
    nonisolated(unsafe) private static var messages: [String] = []
    /// Nil where the plugins cannot be loaded one by one: then the shared context is used.
    nonisolated(unsafe) private static let freshLayout = FreshLayout()

    /// The resolution of a PNG at scale 1, in pixels per inch: Graphviz's own for bitmaps, at which a
    /// 9-point label is 12 pixels high.
    public static let pngResolution = 96.0

    /// The largest PNG scale: a picture's pixels grow with its square, and Graphviz shrinks any PNG
    /// wider or taller than 32 767 pixels to fit, so a larger scale could only waste memory.
    public static let maximumScale = 10.0

    /// Whether `scale` is one `render(dot:format:scale:)` accepts: a number above 0, at most `maximumScale`.
    public static func isValidScale(_ scale: Double) -> Bool { scale.isFinite && scale > 0 && scale <= maximumScale }

    /// Lays out `dot` with the `dot` engine and renders it.
    ///
    /// `scale` multiplies a PNG's size in pixels (its resolution: `pngResolution` × `scale` pixels per
    /// inch), for sharp pictures on high-density screens; the layout is the same at every scale. Vector
    /// formats (SVG, PDF) have no pixels and ignore it. An invalid scale (see `isValidScale`) throws.
    public static func render(dot: String, format: GraphvizFormat, scale: Double = 1) throws -> Data {
        guard isValidScale(scale) else {
            throw GraphvizError(description: "a PNG scale must be a number above 0 and at most \(Int(maximumScale)), not \(scale)")
        }
        lock.lock()
        defer { lock.unlock() }
        let fresh = freshLayout?.makeContext()
        defer { if let fresh { freshLayout?.release(fresh) } }
        let gvc = try fresh?.gvc ?? sharedContext()
        return try withGraph(dot) { graph in
            if format == .png, scale != 1 {
                // Read when the layout starts, so it is set before: it only changes how many pixels an inch is.
                _ = "dpi".withCString { name in
                    "\(pngResolution * scale)".withCString { value in
                        "".withCString { agsafeset(UnsafeMutableRawPointer(graph), UnsafeMutablePointer(mutating: name),
                                                   UnsafeMutablePointer(mutating: value), UnsafeMutablePointer(mutating: $0)) }
                    }
                }
            }
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
    }

    /// Draws a one-node graph and drops it, so that what Graphviz sets up once a process (its
    /// plugins and the fonts' configuration: about 10 ms before the first diagram) is ready before
    /// the first diagram that counts: `export` calls it on another thread while the flows are read,
    /// and each render worker as it starts. Every render loads a fresh layout plugin, so no picture
    /// drawn after depends on it.
    public static func warmUp() {
        _ = try? render(dot: "digraph { a }", format: .svg)
    }

    /// Parses `dot` with Graphviz's reader (`agmemread`) without laying it out, and throws its
    /// message when the text is not DOT Graphviz accepts: how the fuzz targets check the DOT text
    /// FlowLens writes, at a fraction of a layout's cost (and without its static state).
    public static func parse(dot: String) throws {
        lock.lock()
        defer { lock.unlock() }
        try withGraph(dot) { _ in }
        // agmemread returns the graph even when the lexer met bytes it rejects (invalid UTF-8 in a
        // label is only a warning there): those messages are errors for FlowLens's own DOT.
        if agerrors() > 0 || !messages.isEmpty {
            throw GraphvizError(description: "Graphviz reported: \(messages.joined(separator: "; "))")
        }
    }

    /// Reads `dot` with `agmemread` and gives `body` the graph, closed after it; Graphviz's errors and
    /// warnings are collected in `messages` (not printed to stderr) from the read to the end of
    /// `body`. Called with `lock` held.
    private static func withGraph<T>(_ dot: String, _ body: (UnsafeMutablePointer<Agraph_t>) throws -> T) throws -> T {
        messages.removeAll()
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
        return try body(graph)
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

/// A context whose dot layout plugin is a fresh load of the library (see `Graphviz`), with the core
/// (SVG) and pango/cairo (text metrics, PNG, PDF) plugins loaded once: the plugins `dot -Tsvg|png|pdf`
/// uses, so the output is byte for byte that of the ordinary context. Used only under Graphviz's lock.
private struct FreshLayout {
    let layoutLibrary: String
    let core: UnsafeMutableRawPointer
    let pango: UnsafeMutableRawPointer
    /// Plugin library names, as C strings that live as long as the process.
    nonisolated(unsafe) static let names: [UnsafePointer<CChar>] =
        ["gvplugin_dot_layout_LTX_library", "gvplugin_core_LTX_library", "gvplugin_pango_LTX_library"].map { (name: String) in UnsafePointer(strdup(name)!) }

    /// Nil when the plugins are not beside libgvc, in its `graphviz` folder.
    init?() {
        guard let file = flowlens_gvc_library_path() else { return nil }
        let directory = (String(cString: file) as NSString).deletingLastPathComponent + "/graphviz/"
        func library(_ name: String) -> String? {
            [directory + "libgvplugin_\(name).so.6", directory + "libgvplugin_\(name).6.dylib"]
                .first { FileManager.default.fileExists(atPath: $0) }
        }
        guard let layout = library("dot_layout"), let corePath = library("core"), let pangoPath = library("pango"),
              let core = dlopen(corePath, RTLD_NOW | RTLD_LOCAL) else { return nil }
        guard let pango = dlopen(pangoPath, RTLD_NOW | RTLD_LOCAL) else { dlclose(core); return nil }
        layoutLibrary = layout
        self.core = core
        self.pango = pango
    }

    /// A context, with what it holds until it is released: its dot layout library, and the list of
    /// plugin libraries it was made from (the context keeps a pointer to that list).
    struct Context {
        let gvc: OpaquePointer
        let layout: UnsafeMutableRawPointer
        let builtins: UnsafeMutablePointer<lt_symlist_t>
    }

    /// A new context with a freshly loaded dot layout, or nil.
    func makeContext() -> Context? {
        guard let layout = dlopen(layoutLibrary, RTLD_NOW | RTLD_LOCAL) else { return nil }
        guard let dot = dlsym(layout, Self.names[0]), let core = dlsym(core, Self.names[1]), let pango = dlsym(pango, Self.names[2]) else {
            dlclose(layout)
            return nil
        }
        let builtins = UnsafeMutablePointer<lt_symlist_t>.allocate(capacity: 4)
        builtins.initialize(from: [
            lt_symlist_t(name: Self.names[0], address: dot), lt_symlist_t(name: Self.names[1], address: core),
            lt_symlist_t(name: Self.names[2], address: pango), lt_symlist_t(name: nil, address: nil),
        ], count: 4)
        guard let gvc = gvContextPlugins(builtins, 0) else {
            builtins.deallocate()
            dlclose(layout)
            return nil
        }
        return Context(gvc: gvc, layout: layout, builtins: builtins)
    }

    /// Frees `context`, then unloads its dot layout.
    func release(_ context: Context) {
        gvFreeContext(context.gvc)
        context.builtins.deallocate()
        dlclose(context.layout)
    }
}
