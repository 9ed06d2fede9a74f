import ArgumentParser
import FlowLens
import Foundation

struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay recorded runs on the flows: the paths runs take, where they fail, where they leave the graph.",
        discussion: """
            Each FILE is a file of run records: Flow-iOS run summaries (flow.generateSummary()), \
            FlowLens's JSON-lines events, or OpenTelemetry traces in OTLP JSON (docs/inputs/run-records.md); \
            its format is recognised from its content. Every other PATH is read for flows as 'check' \
            reads it (default: the current folder). Each run is matched to its flow (by the flow's id \
            or name, a name .flowlens.yml's trace.flows maps, or the steps it started) and replayed on the flow's graph. The summary of each \
            flow's runs is printed, then the conformance findings (run-off-graph, failure-not-predicted, \
            no-case-matched, never-reached) in --format (the summary only in text). Exit status as for 'check'; 2 when \
            a record file has lines that cannot be read.

            EXAMPLES
              flowlens trace device-logs/*.log Sources        # Flow-iOS summaries against the app's flows
              flowlens trace events.jsonl Flows
            """)

    @Argument(help: ArgumentHelp("Files of run records, then the flow files or folders to replay them on.", valueName: "file-or-path"))
    var arguments: [String] = []

    @OptionGroup var output: ReportOutputOptions

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
        if !arguments.contains(where: { FlowLens.holdsRunRecords($0) }) {
            // A file that is no flow file was meant as run records: it is named, with why it is not read.
            let formats = "Flow-iOS run summaries, JSON-lines events or OTLP JSON traces"
            for argument in arguments where SourceKind.of(path: argument) == nil {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue { continue }
                switch InputReading.openRegular(atPath: argument) {
                case let .success(opened): close(opened.descriptor)
                case let .failure(failure): throw ValidationError("Cannot read the run records '\(argument)': \(failure.cause).")
                }
                throw ValidationError("'\(argument)' is not in a format of run records FlowLens recognises (\(formats)): "
                    + "it is damaged, or not run records.")
            }
            throw ValidationError("Give at least one file of run records (\(formats)).")
        }
    }

    func run() throws {
        let isRecords = arguments.map { FlowLens.holdsRunRecords($0) }
        let records = zip(arguments, isRecords).filter { $0.1 }.map(\.0)
        let paths = zip(arguments, isRecords).filter { !$0.1 }.map(\.0)
        let (trace, configuration) = FlowLens.trace(records: records, paths: paths.isEmpty ? ["."] : paths, configurationFile: policy.config)
        let exitPolicy = policy.policy(configuration)
        // The conformance findings as a report of the flows, so that every format prints them.
        let findings = Report(graph: FlowGraph(flows: trace.flows), findings: trace.conformance)
        let format = output.format(configuration)
        if format == .text {
            try Output.write(trace.text + (trace.conformance.isEmpty ? "" : "\n"))
        }
        if format != .text || !trace.conformance.isEmpty {
            try Output.write(Check.reporter(for: findings, format: format, color: output.color(configuration),
                                            warningsFail: exitPolicy.warningsFail(findings.findings)).report(findings))
        }
        if !trace.findings.isEmpty {
            Output.error(TextReporter().report(Report(graph: FlowGraph(), findings: trace.findings)))
            throw ExitCode(Status.invalidInputOrUsage)
        }
        throw ExitCode(exitPolicy.status(of: findings).rawValue)
    }
}
