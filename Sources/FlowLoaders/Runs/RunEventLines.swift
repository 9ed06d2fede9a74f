import FlowModel
import Foundation

/// FlowLens's own run-record format, for any app and any flow library: one JSON object a line
/// (JSON Lines), one event each, in the order they happened (docs/inputs/run-records.md):
///
/// ```
/// {"flow": "checkout", "run": "r-41", "step": "validateCart", "event": "start", "time": "2026-11-02T10:15:02.120Z"}
/// {"flow": "checkout", "run": "r-41", "step": "validateCart", "event": "fail", "reason": "missing-key", "key": "cartID"}
/// {"flow": "checkout", "run": "r-41", "event": "end", "reason": "failure"}
/// ```
///
/// `flow` (its id or name), `run` (a string or number) and `event` are required, and `step` for
/// `start`, `finish` and `fail`; `reason`, `key`, `instance`, `detail` and `time` (a string or number)
/// are optional; other fields are ignored. Blank lines are skipped; a line that is not such an object
/// is reported at its line and skipped.
public enum RunEventLines {
    /// The format, as `RunRecordFormats` lists it.
    public static let format = RunRecordFormat(name: "events", recognises: recognises, reader: { Reader(file: $0) })

    /// Whether `text`'s first line is an event: a JSON object with an `event` field. A first line
    /// with an event word in its `event` field but that does not parse (a cut-off line) still counts, so that a damaged file is
    /// read and its bad lines reported rather than passed over; a one-line JSON document that merely
    /// holds the word (a minified declarative flow) does not.
    public static func recognises(_ text: String) -> Bool {
        guard let first = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }),
              first.drop(while: \.isWhitespace).first == "{", first.contains("\"event\"") else { return false }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(first.utf8)) else {
            return first.firstMatch(of: eventField) != nil
        }
        return (parsed as? [String: Any])?["event"] != nil
    }

    /// An `event` field with one of the event words, as a cut-off line still shows it.
    nonisolated(unsafe) static let eventField = try! Regex(#""event"\s*:\s*"(start|finish|fail|write|stop|end)""#)

    public static func read(_ text: String, file: String) -> RunRecords { format.read(text, file: file) }

    struct Reader: RunRecordLineReader {
        let file: String
        var records = RunRecords()

        mutating func read(_ line: Substring, at number: Int) {
            guard !line.allSatisfy(\.isWhitespace) else { return }
            let location = SourceLocation(file: file, line: number, column: 1)
            switch RunEventLines.event(line, at: location) {
            case let .success(event): records.events.append(event)
            case let .failure(problem): records.findings.append(.invalidInput(problem.message + ": line skipped", at: location))
            }
        }

        mutating func finish() {}

        mutating func take() -> RunRecords {
            defer { records = RunRecords() }
            return records
        }
    }

    struct Problem: Error { let message: String }

    static func event(_ line: Substring, at location: SourceLocation) -> Result<RunEvent, Problem> {
        // The common line (flat, strings and whole numbers) is read by `FlatObject`, several times
        // faster; any other line by Foundation's parser, which decides what is valid and says why.
        let text: (String) -> Result<String?, Problem>
        if let flat = FlatObject(line) {
            text = { field in
                switch flat[field: field] {
                case nil, .null?: return .success(nil)
                case let .string(value)?: return .success(value)
                case let .integer(value)? where field == "run" || field == "time" || field == "instance": return .success(value)
                case .integer?: return .failure(Problem(message: "'\(field)' must be a string"))
                }
            }
        } else {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                return .failure(Problem(message: "not a JSON object"))
            }
            text = { field in
                switch object[field] {
                case nil, is NSNull: return .success(nil)
                case let value as String: return .success(value)
                // JSONSerialization gives numbers (and booleans) as NSNumber.
                case let value as NSNumber where field == "run" || field == "time" || field == "instance": return .success(value.stringValue)
                default: return .failure(Problem(message: "'\(field)' must be a string"))
                }
            }
        }
        do {
            let flow = try text("flow").get(), run = try text("run").get(), step = try text("step").get()
            guard let kindText = try text("event").get() else { return .failure(Problem(message: "an event needs 'event'")) }
            guard let kind = RunEvent.Kind(rawValue: kindText) else {
                let kinds = RunEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(Problem(message: "'\(kindText.prefix(80))' is not an event (\(kinds))"))
            }
            guard let flow, !flow.isEmpty else { return .failure(Problem(message: "an event needs 'flow' (the flow's id or name)")) }
            guard let run, !run.isEmpty else { return .failure(Problem(message: "an event needs 'run'")) }
            if [.start, .finish, .fail].contains(kind), step?.isEmpty ?? true {
                return .failure(Problem(message: "a '\(kind.rawValue)' event needs 'step'"))
            }
            return .success(RunEvent(flow: flow, run: run, step: step, instance: try text("instance").get(), kind: kind,
                                     reason: try text("reason").get(), key: try text("key").get(), detail: try text("detail").get(),
                                     time: try text("time").get(), location: location))
        } catch {
            return .failure(error)
        }
    }
}

/// A JSON object of one line whose values are strings, whole numbers without sign or leading zero,
/// and `null`: how run records are written. Any other line (nested values, booleans, other numbers,
/// `\u` escapes, an escaped key, one of `names` twice, anything not valid JSON) gives nil, and is
/// left to Foundation's parser, so that this reader never accepts what JSON does not, and reads what
/// it accepts as Foundation would. Only the values of `names` are kept.
struct FlatObject {
    enum Value: Equatable { case string(String), integer(String), null }
    /// The fields whose values are kept, in the order of `values`.
    static let names = ["flow", "run", "step", "event", "reason", "key", "instance", "detail", "time"]
    static let nameBytes = names.map { Array($0.utf8) }
    /// The value of each of `names`; nil where the line has none.
    var values: [Value?] = Array(repeating: nil, count: names.count)

    /// The value of `field` (one of `names`).
    subscript(field field: String) -> Value? { Self.names.firstIndex(of: field).flatMap { values[$0] } }

    init?(_ line: Substring) {
        var line = line
        guard let parsed = line.withUTF8({ FlatObject(bytes: $0) }) else { return nil }
        self = parsed
    }

    private init?(bytes: UnsafeBufferPointer<UInt8>) {
        var at = 0
        func skipSpace() { while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 } }
        /// A string's bytes between its quotes, and whether it has escapes; nil when it is not one.
        func stringBytes() -> (range: Range<Int>, escaped: Bool)? {
            guard at < bytes.count, bytes[at] == 0x22 else { return nil }
            at += 1
            let start = at
            var escaped = false
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case 0x22: return (start..<(at - 1), escaped)
                case 0x5C:
                    // \u is left to Foundation (surrogate pairs, what it makes of lone ones).
                    guard at < bytes.count, [0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74].contains(bytes[at]) else { return nil }
                    escaped = true
                    at += 1
                case ..<0x20: return nil  // a control character must be escaped
                default: break
                }
            }
            return nil
        }
        func text(_ range: Range<Int>, escaped: Bool) -> String {
            guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            var text: [UInt8] = []
            text.reserveCapacity(range.count)
            var index = range.lowerBound
            while index < range.upperBound {
                var byte = bytes[index]
                if byte == 0x5C {
                    index += 1
                    switch bytes[index] {
                    case 0x62: byte = 0x08
                    case 0x66: byte = 0x0C
                    case 0x6E: byte = 0x0A
                    case 0x72: byte = 0x0D
                    case 0x74: byte = 0x09
                    default: byte = bytes[index]  // " \ /
                    }
                }
                text.append(byte)
                index += 1
            }
            return String(decoding: text, as: UTF8.self)
        }
        skipSpace()
        guard at < bytes.count, bytes[at] == 0x7B else { return nil }
        at += 1
        skipSpace()
        if at < bytes.count, bytes[at] == 0x7D {
            at += 1
        } else {
            while true {
                skipSpace()
                guard let key = stringBytes(), !key.escaped else { return nil }
                let slot = Self.nameBytes.firstIndex { $0.elementsEqual(bytes[key.range]) }
                if let slot, values[slot] != nil { return nil }  // a key twice: Foundation's
                skipSpace()
                guard at < bytes.count, bytes[at] == 0x3A else { return nil }
                at += 1
                skipSpace()
                guard at < bytes.count else { return nil }
                let value: Value
                switch bytes[at] {
                case 0x22:
                    guard let string = stringBytes() else { return nil }
                    value = slot == nil ? .null : .string(text(string.range, escaped: string.escaped))
                case 0x31...0x39:
                    let start = at
                    while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
                    // A fraction or exponent, or a number too long to be exact: Foundation's.
                    guard at - start <= 15, at == bytes.count || ![0x2E, 0x45, 0x65].contains(bytes[at]) else { return nil }
                    value = .integer(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
                case 0x6E:
                    guard bytes[at...].starts(with: [0x6E, 0x75, 0x6C, 0x6C]) else { return nil }
                    at += 4
                    value = .null
                default: return nil
                }
                if let slot { values[slot] = value }
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == 0x2C { at += 1; continue }
                guard bytes[at] == 0x7D else { return nil }
                at += 1
                break
            }
        }
        skipSpace()
        guard at == bytes.count else { return nil }
    }
}
