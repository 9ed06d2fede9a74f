import ArgumentParser
import FlowLens
import Foundation

struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay recorded runs on the flows: the paths runs take, where they fail, where they leave the graph.",
        discussion: """
            Each FILE is a file of run records: Flow-iOS run summaries (flow.generateSummary()), \
            FlowLens's JSON-lines events, or OpenTelemetry traces in OTLP JSON (README, "Run records"); \
            its format is recognised from its content. Every other PATH is read for flows as 'check' \
            reads it (default: the current folder). Each run is matched to its flow (by the flow's id \
            or name, or by the steps it started) and replayed on the flow's graph.

            EXAMPLES
              flowlens trace device-logs/*.log Sources        # Flow-iOS summaries against the app's flows
              flowlens trace events.jsonl Flows
            """)

    @Argument(help: ArgumentHelp("Files of run records, then the flow files or folders to replay them on.", valueName: "file-or-path"))
    var arguments: [String] = []

    @Option(help: ArgumentHelp("The one configuration file to use when reading the flows, instead of the .flowlens.yml files in and above them.", valueName: "file"))
    var config: String?

    func validate() throws {
        if !arguments.contains(where: { FlowLens.holdsRunRecords($0) }) {
            throw ValidationError("Give at least one file of run records (Flow-iOS run summaries, JSON-lines events or OTLP JSON traces).")
        }
    }

    func run() throws {
        let records = arguments.filter { FlowLens.holdsRunRecords($0) }
        let paths = arguments.filter { !records.contains($0) }
        let report = FlowLens.trace(records: records, paths: paths.isEmpty ? ["."] : paths, configurationFile: config)
        try Output.write(report.text)
        if !report.findings.isEmpty {
            Output.error(TextReporter().report(Report(graph: FlowGraph(), findings: report.findings)))
            throw ExitCode(Status.invalidInputOrUsage)
        }
    }
}
