import Foundation

extension FlowLens {
    /// Whether the file at `path` holds run records (a format FlowLens reads recognises its content):
    /// how `flowlens trace` tells the records it is given from the flows.
    public static func holdsRunRecords(_ path: String) -> Bool {
        guard !isFolder(path, FileManager.default.currentDirectoryPath),
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // The formats are recognised from the start of a file.
        let head = String(decoding: handle.readData(ofLength: 64 * 1024), as: UTF8.self)
        return RunRecordFormats.all.contains { $0.recognises(head) }
    }

    /// Reads the run records at `records` and the flows at `paths` (as `check` reads them), matches
    /// each run to its flow and replays it on the flow's graph.
    public static func trace(records: [String], paths: [String], configurationFile: String? = nil,
                             workingDirectory: String = FileManager.default.currentDirectoryPath) -> TraceReport {
        let pipeline = Pipeline(configurationFile: configurationFile, workingDirectory: workingDirectory)
        let flows = pipeline.run(paths).report.graph.flows
        let read = records.map { path -> RunRecords in
            let shown = InputDiscovery.displayPath(path, workingDirectory)
            let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: absolute) else {
                return RunRecords(findings: [.invalidInput("cannot read the run records", at: SourceLocation(file: shown))])
            }
            return RunRecordFormats.read(String(decoding: data, as: UTF8.self), file: shown)
        }
        return TraceReport.replaying(read, on: flows)
    }
}
