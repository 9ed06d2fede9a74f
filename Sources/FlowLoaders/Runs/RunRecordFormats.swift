import FlowModel
import Foundation

/// A format of run records: what flows leave behind when they run (docs/inputs/run-records.md). Each
/// reader keeps what it can read and reports each line or record it cannot as an `invalid-input`
/// finding at its line, skipping it; nothing else is lost.
public struct RunRecordFormat: Sendable {
    /// The format's name, as reports and `--trace-format` name it.
    public let name: String
    /// Whether a text is in this format (decided from its content, not the file's name: logs are
    /// `.log`, `.txt`, `.json`, `.jsonl` … whatever the app wrote).
    public let recognises: @Sendable (String) -> Bool
    /// A reader of one file in this format, fed its lines one by one (the path is the one reported
    /// in findings and run ids), so that a file is read as a stream: what it has read so far is taken
    /// from it as it goes (`RunRecordLineReader.take`).
    public let reader: @Sendable (_ file: String) -> any RunRecordLineReader

    public init(name: String, recognises: @escaping @Sendable (String) -> Bool,
                reader: @escaping @Sendable (_ file: String) -> any RunRecordLineReader) {
        self.name = name
        self.recognises = recognises
        self.reader = reader
    }

    /// The events a text holds, given the path reported in findings and run ids.
    public func read(_ text: String, file: String) -> RunRecords {
        var reader = reader(file)
        for (index, line) in RunRecordFormats.lines(of: text).enumerated() { reader.read(line, at: index + 1) }
        reader.finish()
        return reader.take()
    }
}

/// A reader of run records fed one line at a time, so that a file of any size is read with memory
/// for what is not yet handed on (an open Flow-iOS summary; for OTLP, the file's spans).
public protocol RunRecordLineReader {
    /// Reads line `number` (from 1), without its line end.
    mutating func read(_ line: Substring, at number: Int)
    /// The end of the file: what is still open is closed (and reported if it should not be).
    mutating func finish()
    /// The events and findings read since the last call, handed over and forgotten.
    mutating func take() -> RunRecords
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
        if let reader = format ?? all(spans: spans).first(where: { $0.recognises(text) }) { return reader.read(text, file: file) }
        return RunRecords(findings: [unrecognised(file)])
    }

    /// How much of a file's start the formats are recognised from.
    public static let headLength = 64 * 1024

    /// Reads the file at `path` as a stream: its format is recognised from its first
    /// `headLength` bytes, then it is read in blocks, line by line, and what has been read is
    /// handed to `receive` after each block of `blockSize` bytes (and at the end), so that memory
    /// does not grow with the file. `file` is the path reported. A file that cannot be read, or is in no format, is
    /// one `invalid-input` finding.
    public static func read(fileAt path: String, file: String, spans: SpanMapping = .default, blockSize: Int = 1 << 20,
                            receive: (RunRecords) -> Void) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return receive(RunRecords(findings: [.invalidInput("a folder, not a file of run records: give the files in it", at: SourceLocation(file: file))]))
        }
        let handle: FileHandle
        switch InputReading.openRegular(atPath: path) {
        case let .success(opened):
            handle = FileHandle(fileDescriptor: opened.descriptor, closeOnDealloc: true)
        case let .failure(failure):
            let cause = if case .notRegular = failure.reason { ": \(failure.cause)" } else { "" }
            return receive(RunRecords(findings: [.invalidInput("cannot read the run records\(cause)", at: SourceLocation(file: file))]))
        }
        let first: Data
        do {
            first = try handle.read(upToCount: max(blockSize, headLength)) ?? Data()
        } catch {
            return receive(RunRecords(findings: [.invalidInput("cannot read the run records: \(WriteFailure.cause(of: error))", at: SourceLocation(file: file))]))
        }
        var pending = [UInt8](first)
        let head = String(decoding: pending.prefix(headLength), as: UTF8.self)
        guard let format = all(spans: spans).first(where: { $0.recognises(head) }) else { return receive(RunRecords(findings: [unrecognised(file)])) }
        var reader = format.reader(file)
        var number = 0
        var atEnd = pending.isEmpty
        while true {
            // Whole lines only: the rest waits for the next block (a line, or a UTF-8 sequence, may span two).
            let consumed = pending.withUnsafeBufferPointer { bytes -> Int in
                var start = 0
                while start < bytes.count, let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
                    let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    let end = newline > start && bytes[newline - 1] == 0x0D ? newline - 1 : newline
                    number += 1
                    reader.read(Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)), at: number)
                    start = newline + 1
                }
                if atEnd, start < bytes.count {
                    number += 1
                    reader.read(Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)), at: number)
                    start = bytes.count
                }
                return start
            }
            if atEnd { break }
            receive(reader.take())
            pending.removeFirst(consumed)
            let next: Data
            do {
                next = try handle.read(upToCount: blockSize) ?? Data()
            } catch {
                // What was read is kept; the rest of the file is reported, not passed over.
                receive(RunRecords(findings: [.invalidInput("cannot read the run records after line \(number): \(WriteFailure.cause(of: error))",
                                                            at: SourceLocation(file: file, line: max(number, 1), column: 1))]))
                next = Data()
            }
            atEnd = next.isEmpty
            pending.append(contentsOf: next)
        }
        reader.finish()
        receive(reader.take())
    }

    /// The lines of `text` without their ends (LF or CRLF), line N at index N - 1, as the readers
    /// number them.
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    static func unrecognised(_ file: String) -> Finding {
        .invalidInput("not a run record FlowLens reads (\(all.map(\.name).joined(separator: ", ")))", at: SourceLocation(file: file, line: 1, column: 1))
    }
}
