import FlowModel
import Foundation

/// FlowLens's own run-record format, for any app and any flow library: one JSON object a line
/// (JSON Lines), one event each, in the order they happened (README, "Run records"):
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
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            return .failure(Problem(message: "not a JSON object"))
        }
        func text(_ field: String) -> Result<String?, Problem> {
            switch object[field] {
            case nil, is NSNull: return .success(nil)
            case let value as String: return .success(value)
            // JSONSerialization gives numbers (and booleans) as NSNumber.
            case let value as NSNumber where field == "run" || field == "time" || field == "instance": return .success(value.stringValue)
            default: return .failure(Problem(message: "'\(field)' must be a string"))
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
