import ArgumentParser
import FlowLens
import Foundation

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the JSON reports of a sharded run into what one run prints.",
        discussion: """
            Each REPORT is the output of 'flowlens check --shard I/N --format json' (every shard of \
            one split, each once, made by this FlowLens version). The output, in any format, and the \
            exit status are those of one 'flowlens check' over all the paths. Output defaults, \
            --strict and --max-warnings come from --config, else the .flowlens.yml files in and above the \
            current folder, as for 'check'.

            EXAMPLES
              flowlens check Sources --shard 1/3 --format json > shard-1.json    # on each machine
              flowlens merge shard-*.json                                          # then, once
              flowlens merge shard-*.json --format sarif > flowlens.sarif
            """)

    @Argument(help: ArgumentHelp("The shards' JSON reports.", valueName: "report"))
    var reports: [String] = []

    @OptionGroup var output: ReportOutputOptions

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
        if reports.isEmpty { throw ValidationError("Give the shards' JSON reports, e.g. 'flowlens merge shard-*.json'.") }
    }

    func run() throws {
        var texts: [(name: String, text: String)] = []
        for path in reports {
            switch InputReading.bytes(atPath: path, maximumBytes: Output.reportBytes) {
            case let .success(bytes): texts.append((path, String(decoding: bytes, as: UTF8.self)))
            case let .failure(failure): throw CommandFailure("cannot read the report '\(path)': \(failure.cause)")
            }
        }
        let merged: MergedReport
        do {
            merged = try MergedReport(reports: texts)
        } catch let error as ReportMergeError {
            throw CommandFailure("cannot merge: \(error.description)")
        }
        // The exit status and output defaults as 'check' has them: the same options, the current
        // folder's configuration.
        let configuration = FlowLens.configuration(for: ".", file: policy.config).0
        let exitPolicy = policy.policy(configuration)
        let format = output.format(configuration)
        let color = output.color(configuration)
        try Output.write(merged.output(Check.reporter(for: merged.report, format: format, color: color,
                                                      warningsFail: exitPolicy.warningsFail(merged.report.findings))))
        if format == .text { Output.error(TextReporter().summary(merged.report)) }
        throw ExitCode(exitPolicy.status(of: merged.report).rawValue)
    }
}
