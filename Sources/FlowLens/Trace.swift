import Foundation

extension FlowLens {
    /// Whether the file at `path` holds run records (a format FlowLens reads recognises its content):
    /// how `flowlens trace` tells the records it is given from the flows.
    public static func holdsRunRecords(_ path: String) -> Bool {
        // Opened as every input is: a FIFO or device given here is not a file of run records, and
        // is not waited on.
        guard case let .success(opened) = InputReading.openRegular(atPath: path) else { return false }
        let handle = FileHandle(fileDescriptor: opened.descriptor, closeOnDealloc: true)
        // The formats are recognised from the start of a file.
        let head = String(decoding: handle.readData(ofLength: RunRecordFormats.headLength), as: UTF8.self)
        return RunRecordFormats.all.contains { $0.recognises(head) }
    }

    /// Reads the run records at `records` and the flows at `paths` (as `check` reads them), matches
    /// each run to its flow, replays it on the flow's graph, and makes the conformance findings
    /// (`TraceRules`) against the flows' static findings. Returns the report and the run's
    /// configuration (the first path's: output defaults and the exit policy come from it).
    public static func trace(records: [String], paths: [String], configurationFile: String? = nil,
                             workingDirectory: String = FileManager.default.currentDirectoryPath)
        -> (report: TraceReport, configuration: Configuration) {
        let pipeline = Pipeline(configurationFile: configurationFile, workingDirectory: workingDirectory)
        let result = pipeline.run(paths)
        var report = replay(records: records, on: result.report.graph.flows, spans: result.configuration.spans, workingDirectory: workingDirectory)
        report.staticFindings = result.findings
        // A flow path or file that could not be read is reported with the records' own problems:
        // runs replayed on fewer flows than asked must not pass silently.
        report.findings = result.findings.filter { $0.rule == RuleID.invalidInput } + report.findings
        // The conformance findings, under the run's configuration's rule settings (as `merge` takes
        // the current folder's): `off` drops a rule's findings, a severity replaces its own.
        report.conformance = conformance(of: report, staticFindings: result.findings, configuration: result.configuration, workingDirectory: workingDirectory)
        return (report, result.configuration)
    }

    /// The conformance findings (`TraceRules`) of a replay against the flows' static findings, under
    /// `configuration`'s rule settings (`off` drops a rule's findings, a severity replaces its own):
    /// what `flowlens trace` reports, and what `flowlens export --trace` draws and counts with the
    /// static findings.
    public static func conformance(of report: TraceReport, staticFindings: [Finding], configuration: Configuration,
                                   workingDirectory: String = FileManager.default.currentDirectoryPath) -> [Finding] {
        TraceRules.findings(of: report, staticFindings: staticFindings).compactMap { finding in
            configuration.configured(finding, atRelativePath: finding.location.map {
                FlowLens.relativePath($0.file, to: configuration.baseDirectory, workingDirectory)
            } ?? "")
        }
    }

    /// Reads the run records at `records` (each file's format recognised from its content, spans
    /// mapped by `spans`) and replays each run on its flow of `flows`: what `trace` does once the
    /// flows are read, for a caller that has read them already (`flowlens export --trace` draws the
    /// replay on the pipeline's own flows). A file that cannot be read, and each line or record that
    /// cannot, is an `invalid-input` finding in the report's `findings`; the rest is replayed.
    public static func replay(records: [String], on flows: [Flow], spans: SpanMapping,
                              workingDirectory: String = FileManager.default.currentDirectoryPath) -> TraceReport {
        // Each file is read as a stream and each run replayed when it ends: memory holds the runs
        // still going, not every run read.
        var builder = TraceReport.Builder(flows: flows, names: spans.flows)
        for path in records {
            let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
            RunRecordFormats.read(fileAt: absolute, file: InputDiscovery.displayPath(path, workingDirectory), spans: spans) { builder.add($0) }
            builder.endOfFile()
        }
        return builder.report
    }
}
