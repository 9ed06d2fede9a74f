import ArgumentParser
import FlowLens
import Foundation

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two versions of flows: what changed, and which findings are new or fixed.",
        discussion: """
            OLD and NEW are two files, two folders, or a file or folder at a git revision, written \
            REV:PATH (PATH relative to the current folder, as the other paths; 'main:' is the current \
            folder at main). A revision is read with 'git archive' into a temporary folder, removed \
            afterwards, so findings name the same paths as on disk. Flows are matched by id, steps by \
            id, transitions by their ends, label and kind, and findings by rule, flow, step and key \
            (as a baseline matches them, never by line). The summary goes to standard output; with \
            --output, one diagram per changed flow: added steps and transitions green, removed ones \
            red and dashed, changed steps blue with what changed listed in them.

            EXIT STATUS
              0  no new finding fails the run (errors; with --strict, warnings too)
              1  NEW has findings OLD did not have that fail the run, as 'check' would fail
              2  a usage error, a path that does not exist, not a git repository or an unknown
                 revision, or output that could not be written

            EXAMPLES
              flowlens diff main:Flows Flows                  # the working tree against main
              flowlens diff main:Flows HEAD:Flows --format markdown > comment.md
              flowlens diff old/checkout.flow.yaml new/checkout.flow.yaml --output diff --diagram-format svg
              flowlens diff before after --format json
            """)

    @Argument(help: ArgumentHelp("The old version: a file, a folder, or REV:PATH.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The new version: a file, a folder, or REV:PATH.", valueName: "new"))
    var new: String

    @Option(help: ArgumentHelp("Output format: \(DiffReporter.Format.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var format: DiffReporter.Format = .text

    @Option(name: [.short, .long], help: ArgumentHelp("Write one diagram per changed flow into this folder (created if missing).", valueName: "dir"))
    var output: String?

    @Option(help: ArgumentHelp("Diagram format for --output: \(ExportFormat.diagramFormats.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var diagramFormat = DiagramFormatArgument(.svg)

    @Flag(help: "Exit with status 1 when the change brings new warnings, not only new errors.")
    var strict = false

    @Option(help: ArgumentHelp("The configuration file to use for both versions, instead of the .flowlens.yml files in and above each file's folder.", valueName: "file"))
    var config: String?

    @Option(name: .customLong("define"),
            help: ArgumentHelp("Set a variable PlantUML's %getenv(\"NAME\") reads (repeatable).", valueName: "NAME=value"))
    var defines: [String] = []

    func validate() throws {
        guard ExportFormat.diagramFormats.contains(diagramFormat.format) else {
            let names = ExportFormat.diagramFormats.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--diagram-format is one of \(names) (got '\(diagramFormat.format.rawValue)').")
        }
    }

    func run() throws {
        let values = try InputOptions.values(of: defines)
        let oldSide = DiffSide(parsing: old), newSide = DiffSide(parsing: new)
        let diff: GraphDiff
        do {
            diff = try FlowLens.diff(old: oldSide, new: newSide, configurationFile: config, defines: values)
        } catch let error as DiffError {
            throw CommandFailure(error.description)
        }
        try Output.write(DiffReporter(format: format).report(diff, oldName: old, newName: new))
        if let output {
            do {
                let written = try FlowLens.writeDiagrams(of: diff, to: output, format: diagramFormat.format)
                Output.error("wrote \(Plural.count(written.count, "diagram")) to \(output)\n")
            } catch {
                throw CommandFailure("cannot write the diagrams to '\(output)': \(WriteFailure.cause(of: error))")
            }
        }
        // New findings fail the run as they would fail 'check'.
        throw ExitCode(ExitPolicy(strict: strict).fails(diff.newFindings) ? Status.findings : Status.clean)
    }
}

extension DiffReporter.Format: ExpressibleByArgument {}

/// `diff --diagram-format`: read as any export format (`validate()` says which are allowed, exit 2),
/// but listed in `--help` as exactly the formats it accepts, one diagram a flow.
struct DiagramFormatArgument: ExpressibleByArgument {
    var format: ExportFormat
    init(_ format: ExportFormat) { self.format = format }
    init?(argument: String) {
        guard let format = ExportFormat(argument: argument) else { return nil }
        self.format = format
    }
    static var allValueStrings: [String] { ExportFormat.diagramFormats.map(\.rawValue) }
    var defaultValueDescription: String { format.rawValue }
}
