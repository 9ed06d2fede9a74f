@_exported import FlowLoaders
@_exported import FlowModel
@_exported import FlowReflection
@_exported import FlowRendering
@_exported import FlowReporters
@_exported import FlowRules
import Foundation

/// FlowLens as a library: load flow definitions, analyse them, report and draw them.
///
/// The pipeline, in order: discover and load files (loaders never throw on user input; what they
/// cannot read becomes `invalid-input`), analyse every flow with every rule, then report (pure
/// functions of the report) and render (DOT, then Graphviz in-process).
public enum FlowLens {
    /// Loads every flow file under `paths` (files or folders, walked recursively).
    public static func load(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> FlowGraph {
        SourceLoader().load(paths: paths, workingDirectory: workingDirectory)
    }

    /// Runs the rules over `graph`; the report includes the graph's load findings.
    public static func analyze(_ graph: FlowGraph, rules: [any Rule] = RuleRegistry.rules.map { $0.init() }) -> Report {
        Report(graph: graph, findings: Analyzer(rules: rules).analyze(graph))
    }

    /// Loads and analyses `paths` as `flowlens check` does: under the nearest `.flowlens.yml` in or
    /// above each path, when there is one (see `check(_:configurationFile:workingDirectory:)`).
    public static func check(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> Report {
        check(paths, configurationFile: nil, workingDirectory: workingDirectory)
    }

    /// The DOT text of one flow's diagram, with the report's findings drawn on it. A FlowKit
    /// machine's composite states are drawn with their sub-machines (and their findings) from the
    /// report's graph; each sub-machine also has its own diagram.
    public static func dot(for flow: Flow, in report: Report) -> String {
        DOTBuilder().dot(for: flow, findings: report.findings, flows: report.graph.flows)
    }

    /// Analyses `graph` and writes its diagrams and `report.json` into `directory`.
    @discardableResult
    public static func export(_ graph: FlowGraph, to directory: String, format: ExportFormat = .svg) throws -> [String] {
        try Exporter(format: format).export(analyze(graph), to: directory)
    }
}

/// The formats `flowlens export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// SVG diagrams (the default).
    case svg
    /// Graphviz DOT text, as given to Graphviz.
    case dot
    /// PNG images.
    case png
    /// PDF documents.
    case pdf
    /// One self-contained HTML review page, `index.html`, for the whole run (see `ReviewPage`).
    case html

    /// Mermaid text (`.mmd`): a `flowchart`, or a `stateDiagram-v2` for a FlowKit machine.
    case mermaid
    /// Markdown (`.md`): a title, the Mermaid diagram in a fenced block, and the findings.
    case md

    /// The formats that are one Graphviz diagram a flow (what `Exporter.render` writes).
    public static let diagramFormats: [ExportFormat] = [.svg, .dot, .png, .pdf]

    /// The extension of the files written.
    public var fileExtension: String { self == .mermaid ? "mmd" : rawValue }
}

/// Writes one diagram per flow and `report.json` into a folder.
///
/// Every file is written to a temporary file beside it and renamed into place, so a reader (or a
/// crash) never sees half a file. Diagram names come from flow names, made safe for every file
/// system: no path separators, no `..`, no leading dot, unique ignoring case.
public struct Exporter: Sendable {
    /// The diagram format.
    public var format: ExportFormat

    /// Creates an exporter.
    public init(format: ExportFormat = .svg) { self.format = format }

    /// Writes the diagrams and the report; returns the paths written, in order.
    public func export(_ report: Report, to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        if format == .html {
            let path = (directory as NSString).appendingPathComponent("index.html")
            try Data(ReviewPage().render(report).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
            return written + [try writeReport(report, to: directory)]
        }
        let names = Self.fileNames(for: report.graph.flows)
        for (flow, name) in zip(report.graph.flows, names) {
            if format == .mermaid || format == .md {
                written += try MermaidExport.write(flow, in: report, to: directory, name: name, markdown: format == .md)
                continue
            }
            let data = try Self.render(FlowLens.dot(for: flow, in: report), format: format)
            let path = (directory as NSString).appendingPathComponent("\(name).\(format.rawValue)")
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        written.append(try writeReport(report, to: directory))
        return written
    }

    private func writeReport(_ report: Report, to directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent("report.json")
        try Data(JSONReporter().report(report).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// `dot` in `format` (`dot`, `svg`, `png` or `pdf`): the DOT text itself, or rendered by Graphviz.
    public static func render(_ dot: String, format: ExportFormat) throws -> Data {
        switch format {
        case .dot: return Data(dot.utf8)
        case .svg: return try Graphviz.render(dot: dot, format: .svg)
        case .png: return try Graphviz.render(dot: dot, format: .png)
        case .pdf: return try Graphviz.render(dot: dot, format: .pdf)
        case .html, .mermaid, .md: preconditionFailure("\(format) is not one diagram a flow")
        }
    }

    /// A safe, unique file name (without extension) for each flow, in order.
    public static func fileNames(for flows: [Flow]) -> [String] {
        var taken = Set<String>(["report"])  // report.json is ours
        return flows.map { flow in
            let base = sanitize(flow.name)
            var name = base
            var n = 2
            while taken.contains(name.lowercased()) {
                name = "\(base)-\(n)"
                n += 1
            }
            taken.insert(name.lowercased())
            return name
        }
    }

    /// Letters, digits, `-`, `_` and `.` kept; everything else (separators, spaces, `..`) becomes `-`.
    public static func sanitize(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            let keep = (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == ".")
                && scalar.value < 0x2000
            out += keep ? String(scalar) : "-"
        }
        while out.contains("..") { out = out.replacingOccurrences(of: "..", with: ".") }
        while out.contains("--") { out = out.replacingOccurrences(of: "--", with: "-") }
        out = out.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        if out.isEmpty { out = "flow" }
        return String(out.prefix(120))
    }
}
