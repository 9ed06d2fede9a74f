import FlowModel
import Foundation

/// A format of run records: what flows leave behind when they run (README, "Run records"). Each
/// reader keeps what it can read and reports each line or record it cannot as an `invalid-input`
/// finding at its line, skipping it; nothing else is lost.
public struct RunRecordFormat: Sendable {
    /// The format's name, as reports and `--trace-format` name it.
    public let name: String
    /// Whether a text is in this format (decided from its content, not the file's name: logs are
    /// `.log`, `.txt`, `.json`, `.jsonl` … whatever the app wrote).
    public let recognises: @Sendable (String) -> Bool
    /// The events a text holds, given the path reported in findings and run ids.
    public let read: @Sendable (_ text: String, _ file: String) -> RunRecords
}

/// A dialect whose library writes run records of its own (Flow-iOS's run summaries).
protocol RunRecordDialect: Dialect {
    static var runRecordFormats: [RunRecordFormat] { get }
}

/// Every format of run records FlowLens reads: the dialects' own, then the general ones.
public enum RunRecordFormats {
    /// The formats, in the order they are tried (OpenTelemetry spans read with the default mapping).
    public static var all: [RunRecordFormat] { all(spans: .default) }

    /// The formats, OpenTelemetry spans read with `spans` (`.flowlens.yml` `trace:`).
    public static func all(spans: SpanMapping) -> [RunRecordFormat] {
        var formats: [RunRecordFormat] = []
        for dialect in Dialects.all {
            if let writer = dialect as? any RunRecordDialect.Type { formats += writer.runRecordFormats }
        }
        return formats + [OTLPTraces.format(spans), RunEventLines.format]
    }

    /// The format named `name`.
    public static func format(named name: String) -> RunRecordFormat? { all.first { $0.name == name } }

    /// The events of `text` in `format`, else in the first format that recognises it (spans read
    /// with `spans`); a text no format recognises is one `invalid-input` finding.
    public static func read(_ text: String, file: String, format: RunRecordFormat? = nil, spans: SpanMapping = .default) -> RunRecords {
        if let reader = format ?? all(spans: spans).first(where: { $0.recognises(text) }) { return reader.read(text, file) }
        let names = all.map(\.name).joined(separator: ", ")
        return RunRecords(findings: [.invalidInput("not a run record FlowLens reads (\(names))", at: SourceLocation(file: file, line: 1, column: 1))])
    }
}
