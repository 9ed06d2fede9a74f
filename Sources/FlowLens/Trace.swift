import Foundation

extension FlowLens {
    /// Whether the file at `path` holds run records (a format FlowLens reads recognises its content):
    /// how `flowlens trace` tells the records it is given from the flows.
    public static func holdsRunRecords(_ path: String) -> Bool {
        guard !isFolder(path, FileManager.default.currentDirectoryPath),
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
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
        let flows = result.report.graph.flows
        // Each file is read as a stream and each run replayed when it ends: memory holds the runs
        // still going, not every run read.
        var builder = TraceReport.Builder(flows: flows, names: result.configuration.spans.flows)
        for path in records {
            let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
            RunRecordFormats.read(fileAt: absolute, file: InputDiscovery.displayPath(path, workingDirectory),
                                  spans: result.configuration.spans) { builder.add($0) }
            builder.endOfFile()
        }
        var report = builder.report
        report.staticFindings = result.findings
        // A flow path or file that could not be read is reported with the records' own problems:
        // runs replayed on fewer flows than asked must not pass silently.
        report.findings = result.findings.filter { $0.rule == RuleID.invalidInput } + report.findings
        // The conformance findings, under the run's configuration's rule settings (as `merge` takes
        // the current folder's): `off` drops a rule's findings, a severity replaces its own.
        let configuration = result.configuration
        report.conformance = TraceRules.findings(of: report, staticFindings: result.findings).compactMap { finding in
            configuration.configured(finding, atRelativePath: finding.location.map {
                FlowLens.relativePath($0.file, to: configuration.baseDirectory, workingDirectory)
            } ?? "")
        }
        return (report, configuration)
    }
}
