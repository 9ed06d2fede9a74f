@_exported import FlowLoaders
@_exported import FlowModel
@_exported import FlowPresentation
@_exported import FlowReflection
@_exported import FlowRendering
@_exported import FlowReporters
@_exported import FlowRules
@_exported import FlowTrace
import Foundation

/// FlowLens as a library: load flow definitions, analyse them, report and draw them.
///
/// The stages, in order, are `Pipeline`'s: discover and load files (loaders never throw on user
/// input; what they cannot read becomes `invalid-input`), analyse every flow with every rule, apply
/// suppressions and the configuration, then report (pure functions of the report) and render (DOT,
/// then Graphviz in-process).
public enum FlowLens {
    /// Loads every flow file under `paths` (files or folders, walked recursively).
    public static func load(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> FlowGraph {
        SourceLoader().load(paths: paths, workingDirectory: workingDirectory)
    }

    /// Runs the rules over `graph` as `check` does after loading (`Pipeline.run(graph:)`, without a
    /// baseline): the report includes the graph's load findings, inline suppressions apply, and each
    /// finding takes the setting of the `.flowlens.yml` files governing its file (a finding with no
    /// file, a reflected flow's, those of `workingDirectory`), whose own problems are findings too.
    public static func analyze(_ graph: FlowGraph, rules: [any Rule] = RuleRegistry.rules.map { $0.init() },
                               workingDirectory: String = FileManager.default.currentDirectoryPath) -> Report {
        var pipeline = Pipeline(workingDirectory: workingDirectory)
        pipeline.rules = rules
        return pipeline.run(graph: graph).report
    }

    /// Loads and analyses `paths` as `flowlens check` does: under the `.flowlens.yml` files in and
    /// above each file's folder, merged, when there are any (see `check(_:configurationFile:workingDirectory:)`).
    public static func check(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> Report {
        check(paths, configurationFile: nil, workingDirectory: workingDirectory)
    }

    /// The DOT text of one flow's diagram, with the report's findings drawn on it. A FlowKit
    /// machine's composite states are drawn with their sub-machines (and their findings) from the
    /// report's graph; each sub-machine also has its own diagram.
    public static func dot(for flow: Flow, in report: Report) -> String {
        dot(for: flow, in: report, trace: nil)
    }

    /// The DOT text of one flow's diagram (as `dot(for:in:)`) with what recorded runs did on it
    /// drawn over it (`flowlens export --trace`); nil `trace`: the flow alone.
    public static func dot(for flow: Flow, in report: Report, trace: TraceOverlay?) -> String {
        var builder = DOTBuilder()
        builder.trace = trace
        return builder.dot(for: flow, findings: report.findings, flows: report.graph.flows)
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

    /// Whether Graphviz draws its pictures (`Exporter.renderer` renders them).
    public var drawsWithGraphviz: Bool { [.svg, .png, .pdf, .html].contains(self) }
}

/// Writes one diagram per flow and `report.json` into a folder.
///
/// Every file is written to a temporary file beside it and renamed into place, so a reader (or a
/// crash) never sees half a file. Diagram names come from flow names, made safe for every file
/// system: no path separators, no `..`, no leading dot, unique ignoring case.
public struct Exporter: Sendable {
    /// The diagram format.
    public var format: ExportFormat
    /// How many times larger than its natural size a PNG is drawn, in pixels (see
    /// `Graphviz.render(dot:format:scale:)`); other formats ignore it.
    public var scale: Double
    /// Who renders the diagrams: Graphviz in this process (the default), or worker processes.
    /// The files are the same bytes either way.
    public var renderer: DiagramRenderer = .inProcess
    /// Told after each diagram is rendered (one a flow): to advance a `ProgressLine`.
    public var progress: @Sendable () -> Void = {}
    /// What recorded runs did on each flow, by flow id (`flowlens export --trace`, made by
    /// `FlowLens.traceOverlays`): drawn on every diagram and on the review page. Nil: no runs are
    /// drawn, and the files are those of an export without records.
    public var traces: [String: TraceOverlay]?

    /// Creates an exporter.
    public init(format: ExportFormat = .svg, scale: Double = 1) {
        self.format = format
        self.scale = scale
    }

    /// Writes the diagrams and the report; returns the paths written, in order.
    ///
    /// A flow whose diagram cannot be drawn or written does not stop the others, nor `report.json`:
    /// everything that can be written is, then an `ExportFailure` lists what could not be. A folder
    /// that cannot be made throws a `WriteFailure` naming it.
    public func export(_ report: Report, to directory: String) throws -> [String] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder.boolValue {
            throw WriteFailure(path: directory, cause: "it is a file, not a folder")
        }
        try AtomicFile.createFolder(directory)
        AtomicFile.removeStaleTemporaries(in: directory)
        var written: [String] = []
        var failures: [WriteFailure] = []
        func write(_ path: String, _ make: () throws -> Data) {
            do {
                try AtomicFile.write(try make(), to: path)
                written.append(path)
            } catch {
                failures.append(WriteFailure(path: path, cause: WriteFailure.cause(of: error)))
            }
        }
        func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        // A diagram shows the findings that count for its flow (an operation flow's own, `DOTBuilder`
        // filters them first; a machine's with its sub-machines'): grouped once here, so that drawing
        // every flow is not flows × findings.
        let grouped = FlowFindings(report.findings, flows: report.graph.flows)
        @Sendable func diagramReport(_ flow: Flow) -> Report {
            Report(graph: report.graph, findings: flow.kind.isStateMachine ? grouped.counted(flow) : grouped.own(flow))
        }
        // `report.json` does not wait for the pictures: its text is made while worker processes draw
        // them (this process is free then). In this process, one diagram at a time, it is made after
        // them, as --jobs 1 asks for one core.
        let reportText = ResultSlots<String>(count: 1)
        let reportMade = DispatchGroup()
        func makeReportWhileWorkersDraw() {
            guard renderer.drawsInOtherProcesses else { return }
            DispatchQueue.global().async(group: reportMade) { reportText[0] = JSONReporter().report(report) }
        }
        switch format {
        case .html:
            makeReportWhileWorkersDraw()
            var page = ReviewPage()
            page.traces = traces
            let text = page.render(report, renderer: renderer, done: progress)
            write(file("index.html")) { Data(text.utf8) }
        case .dot:
            for (flow, name) in zip(report.graph.flows, Self.fileNames(for: report.graph.flows)) {
                write(file("\(name).\(format.rawValue)")) { Data(FlowLens.dot(for: flow, in: diagramReport(flow), trace: traces?[flow.id]).utf8) }
            }
        case .svg, .png, .pdf:
            // Each diagram's DOT is made when a renderer is free for it and each picture is written
            // as soon as it is drawn, so that with worker processes this process's share (DOT, files,
            // the report below) runs while they draw; `written` keeps the order of the flows.
            let graphviz: GraphvizFormat = format == .svg ? .svg : format == .png ? .png : .pdf
            let flows = report.graph.flows, traces = traces, scale = scale, progress = progress
            let paths = Self.fileNames(for: flows).map { file("\($0).\(format.rawValue)") }
            let outcomes = ResultSlots<WriteFailure?>(count: flows.count)
            makeReportWhileWorkersDraw()
            renderer.render(count: flows.count, job: { index in
                RenderJob(dot: FlowLens.dot(for: flows[index], in: diagramReport(flows[index]), trace: traces?[flows[index].id]), format: graphviz, scale: scale)
            }, finished: { index, result in
                do {
                    try AtomicFile.write(try result.get(), to: paths[index])
                    outcomes[index] = .some(nil)
                } catch {
                    outcomes[index] = .some(WriteFailure(path: paths[index], cause: WriteFailure.cause(of: error)))
                }
                progress()
            })
            for (index, path) in paths.enumerated() {
                if let failure = outcomes[index]! { failures.append(failure) } else { written.append(path) }
            }
        case .mermaid, .md:
            // A flow's files show the findings that count for it: given those alone, the same files.
            var pages: [(flow: Flow, file: String, counted: [Finding])] = []
            for (flow, name) in zip(report.graph.flows, Self.fileNames(for: report.graph.flows)) {
                let counted = Report(graph: report.graph, findings: grouped.counted(flow))
                for (fileName, text) in MermaidExport.files(for: flow, in: counted, name: name, markdown: format == .md, trace: traces?[flow.id]) {
                    write(file(fileName)) { Data(text.utf8) }
                }
                pages.append((flow, "\(name).md", counted.findings))
            }
            // The pages' index, README.md: what a folder of pages shows first on GitHub and GitLab.
            if format == .md { write(file(Self.markdownIndexName)) { Data(MermaidExport.index(pages).utf8) } }
        }
        reportMade.wait()
        write(file("report.json")) { Data((reportText[0] ?? JSONReporter().report(report)).utf8) }
        guard failures.isEmpty else { throw ExportFailure(written: written, failures: failures) }
        return written
    }

    /// Removes from `directory` the diagrams of flows that are no longer there (`export --clean`):
    /// the regular files, directly in `directory`, with the extension this format writes a flow's
    /// diagram with (`.mmd` for Mermaid, `.md` for Markdown), whose name FlowLens could have given a
    /// flow, and that are not in `keeping` (what this export wrote, or failed to write: an old
    /// diagram stays rather than leave a hole). Nothing else is touched: not `report.json`, not
    /// folders, links or other extensions. `html` writes no diagram a flow, so it removes nothing.
    /// Returns the paths removed, in name order, and the files that could not be removed.
    public func removeStaleDiagrams(in directory: String, keeping: [String]) -> (removed: [String], failures: [WriteFailure]) {
        guard format != .html, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        let kept = Set(keeping.map { ($0 as NSString).lastPathComponent })
        var removed: [String] = []
        var failures: [WriteFailure] = []
        for name in names.sorted() where !kept.contains(name) {
            let base = (name as NSString).deletingPathExtension
            guard (name as NSString).pathExtension == format.fileExtension, base != "report", name != Self.markdownIndexName else { continue }
            // A split Mermaid diagram's part (`Name.part2.mmd`) is named after its flow's file.
            let flowName = format == .mermaid ? base.replacingOccurrences(of: #"\.part[0-9]+$"#, with: "", options: .regularExpression) : base
            guard !flowName.isEmpty, Self.sanitize(flowName) == flowName || Self.isNumbered(flowName) else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 {
                removed.append(path)
            } else {
                failures.append(WriteFailure(path: path, cause: String(cString: strerror(errno)).lowercased() + "; it was not removed"))
            }
        }
        return (removed, failures)
    }

    /// `Name-2`: the name `fileNames(for:)` gives a second flow whose name makes `Name`.
    static func isNumbered(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isNumber) else { return false }
        let base = String(name[..<dash])
        return !base.isEmpty && sanitize(base) == base
    }

    /// `dot` in `format` (`dot`, `svg`, `png` or `pdf`): the DOT text itself, or rendered by Graphviz;
    /// a PNG `scale` times its natural size in pixels. Another format throws `NotADiagramFormat`.
    public static func render(_ dot: String, format: ExportFormat, scale: Double = 1) throws -> Data {
        switch format {
        case .dot: return Data(dot.utf8)
        case .svg: return try Graphviz.render(dot: dot, format: .svg)
        case .png: return try Graphviz.render(dot: dot, format: .png, scale: scale)
        case .pdf: return try Graphviz.render(dot: dot, format: .pdf)
        case .html, .mermaid, .md: throw NotADiagramFormat(format: format)
        }
    }

    /// The longest file name written, in bytes, before its extension: file systems allow 255 bytes
    /// for a whole name, which leaves room for `-12`, `.part12` and the extension.
    public static let maximumNameBytes = 200

    /// A safe, unique file name (without extension) for each flow, in order: unique ignoring case,
    /// never `report`, and never ending in `.part` and a number, which the parts of a split
    /// Mermaid diagram (`Big.part2.mmd`) use, so a flow's files and another's parts cannot meet.
    /// The index of `export --format md`: every flow's page, its kind and status.
    public static let markdownIndexName = "README.md"

    public static func fileNames(for flows: [Flow]) -> [String] {
        var taken = Set<String>(["report", "readme"])  // report.json and the Markdown pages' README.md are ours
        var nextSuffix: [String: Int] = [:]  // by base, so many flows of one name cost linear time
        return flows.map { flow in
            let base = sanitize(flow.name)
            var name = base
            var n = nextSuffix[base.lowercased()] ?? 2
            while taken.contains(name.lowercased()) {
                name = "\(base)-\(n)"
                n += 1
            }
            nextSuffix[base.lowercased()] = n
            taken.insert(name.lowercased())
            return name
        }
    }

    /// Letters, digits, `-`, `_` and `.` kept; everything else (separators, spaces, `..`) becomes `-`;
    /// cut to `maximumNameBytes` bytes of UTF-8 (whole characters).
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
        // `Big.part2` would be the second part of flow `Big`'s Mermaid diagram.
        if let range = out.range(of: #"\.part[0-9]+$"#, options: [.regularExpression, .caseInsensitive]) {
            out.replaceSubrange(range.lowerBound...range.lowerBound, with: "-")
        }
        if out.isEmpty { out = "flow" }
        var bytes = 0
        var cut = ""
        for character in out {
            bytes += character.utf8.count
            if bytes > maximumNameBytes { break }
            cut.append(character)
        }
        return cut.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
    }
}

/// `Exporter.render` was asked for a format that is not one Graphviz diagram a flow.
public struct NotADiagramFormat: Error, CustomStringConvertible, Sendable {
    /// The format asked for.
    public var format: ExportFormat
    public var description: String {
        "\(format.rawValue) is not one diagram a flow (use one of \(ExportFormat.diagramFormats.map(\.rawValue).joined(separator: ", ")))"
    }
}

/// What an export could not write, after writing everything else it could.
public struct ExportFailure: Error, CustomStringConvertible, Sendable {
    /// The files written.
    public var written: [String]
    /// The files that could not be, each with its cause.
    public var failures: [WriteFailure]

    public var description: String { failures.map(\.description).joined(separator: "\n") }
}
