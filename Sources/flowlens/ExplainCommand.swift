import ArgumentParser
import FlowLens
import Foundation

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show where a data key of a flow is set and read, path by path, and where it is missing.",
        discussion: """
            FLOW is a flow's id or name (as 'flowlens check' and the diagrams show it). Prints every \
            step that sets, reads or tests KEY (file:line:col), the first path on which a step reads \
            it before any step sets it (what the missing-data-key rule reports), or that it is always \
            set before it is read, then every path from the start to an end in plain language with the \
            key's writes and reads along it. Each transition is taken at most once per path (a loop is \
            gone round once); the first 50 paths are listed (--max-paths) with the total count.

            --diagram writes the flow's diagram with the steps that set the key in green, those that \
            read it in blue, and the step and path where it is missing in red (.svg, .png, .pdf or .dot, \
            by the file's extension).

            EXIT STATUS
              0  the key is always set before it is read
              1  some step can read the key before it is set
              2  unknown or ambiguous flow or key (close matches are listed), invalid input,
                 a usage error, or a diagram that could not be written

            EXAMPLES
              flowlens explain "One branch only" --key displayName samples/declarative/broken
              flowlens explain Checkout --key cartID --format json samples/declarative
              flowlens explain LoginViewController.loginFromForm --key authToken --diagram token.svg samples/flow-ios
            """)

    @Argument(help: ArgumentHelp("The flow: its id or name.", valueName: "flow"))
    var flow: String

    @Option(help: ArgumentHelp("The data key to explain.", valueName: "key"))
    var key: String

    @Argument(help: ArgumentHelp("Flow files or folders to read (default: the current folder).", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("The one configuration file to use, instead of the .flowlens.yml files in and above each file's folder.", valueName: "file"))
    var config: String?

    @OptionGroup var output: TextOrJSONOutput

    @Option(help: ArgumentHelp("Also write the flow's diagram with the key's writers, readers and missing path marked (.svg, .png, .pdf or .dot).", valueName: "file"))
    var diagram: String?

    @Option(help: ArgumentHelp("List at most this many paths (the count covers them all).", valueName: "n"))
    var maxPaths: Int = FlowPaths.defaultLimit

    func validate() throws {
        if maxPaths < 0 { throw ValidationError("--max-paths takes a number of paths, 0 or more.") }
        if let diagram, Self.diagramFormat(diagram) == nil {
            throw ValidationError("--diagram writes .svg, .png, .pdf or .dot files (got '\(diagram)').")
        }
    }

    static func diagramFormat(_ path: String) -> ExportFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "svg": return .svg
        case "png": return .png
        case "pdf": return .pdf
        case "dot", "gv": return .dot
        default: return nil
        }
    }

    func run() throws {
        let report = FlowLens.check(paths.isEmpty ? ["."] : paths, configurationFile: config)
        let explanation: KeyExplanation
        do {
            explanation = try KeyExplanation(flow: flow, key: key, in: report, limit: maxPaths)
        } catch {
            // Unreadable files may be why the flow is not there: say so.
            let invalid = report.findings.filter { $0.rule == RuleID.invalidInput }
            if !invalid.isEmpty { Output.error(TextReporter().report(Report(graph: report.graph, findings: invalid))) }
            throw CommandFailure(error.description)
        }
        if let diagram {
            let dot = explanation.dot(in: report)
            do {
                // `validate()` has checked the extension: one of dot, svg, png and pdf.
                let data = try Exporter.render(dot, format: Self.diagramFormat(diagram) ?? .dot)
                try AtomicFile.write(data, to: diagram)
            } catch {
                let folder = (diagram as NSString).deletingLastPathComponent
                if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                    throw CommandFailure("cannot write the diagram '\(diagram)': the folder '\(folder)' does not exist; create it, or give a path in an existing folder")
                }
                throw CommandFailure("cannot write the diagram '\(diagram)': \(WriteFailure.cause(of: error))")
            }
        }
        try Output.write(output.format == .json ? explanation.json : explanation.text)
        throw ExitCode(explanation.provenance.isAlwaysSetBeforeRead ? Status.clean : Status.findings)
    }
}
