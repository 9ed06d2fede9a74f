import FlowModel
import Foundation

extension FlowIOSDialect: RunRecordDialect {
    static let runRecordFormats = [FlowIOSRunSummary.format]
}

/// Flow-iOS's run summary, `flow.generateSummary()`, exactly as the library writes it (its Flow.swift
/// and FlowOperation.swift; `flow-libraries.md` §6), several to a file among the app's other log
/// lines:
///
/// ```
/// ====== Flow Summary ======
/// 4:17:18 PM [DataBucket] start with:
/// email: someone@example.com
/// 4:17:18 PM [LoginOp] WillStart
/// 4:17:19 PM [DataBucket] add for accessToken: sdaftadagasg
/// 4:17:19 PM [LoginOp] DidFinish: successfully
/// 4:17:20 PM [DataBucket] end with:
/// accessToken: sdaftadagasg
/// Flow isSuccess: true
/// ======    Ending    ======
/// ```
///
/// A line of the log is a time of day in the device's locale (`4:17:18 PM`, `16:17:18`, `午後4:17:18`),
/// `[Name]` (the operation's `name`, else its type; a grouped operation adds a space and four
/// characters of its UUID) and a message. Every other line continues the line before it: a data
/// bucket's `key: value` lines (values print with `\(value)` and may span lines) or a multi-line
/// message of an operation's own `log(message:)`.
public enum FlowIOSRunSummary {
    /// The format, as `RunRecordFormats` lists it.
    public static let format = RunRecordFormat(name: "flow-ios-summary", recognises: recognises, reader: { Reader(file: $0) })
    static let header = "====== Flow Summary ======"

    public static func recognises(_ text: String) -> Bool { text.contains(header) }

    public static func read(_ text: String, file: String) -> RunRecords { format.read(text, file: file) }

    /// What a bucket dump's lines are: the keys the run starts with, or the bucket at its end.
    enum Dump { case none, start, end }

    struct Reader: RunRecordLineReader {
        let file: String
        var records = RunRecords(flowKinds: [.flowIOS])
        /// The summary being read: its run id and the line of its header.
        var run: (id: String, line: Int)?
        var dump = Dump.none

        init(file: String) { self.file = file }

        func at(_ line: Int, _ column: Int = 1) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }

        mutating func event(_ kind: RunEvent.Kind, step: String? = nil, instance: String? = nil, reason: String? = nil,
                            key: String? = nil, detail: String? = nil, time: String? = nil, line: Int) {
            guard let run else { return }
            records.events.append(RunEvent(run: run.id, step: step, instance: instance, kind: kind, reason: reason, key: key,
                                           detail: detail, time: time, location: at(line)))
        }

        mutating func read(_ line: Substring, at number: Int) {
            let trimmed = line.trimmingWhitespace
            if trimmed == FlowIOSRunSummary.header {
                closeRun(cutOffBefore: number)
                run = ("\(file):\(number)", number)
                dump = .none
                return
            }
            guard run != nil else { return }  // the app's other log lines, between summaries
            if trimmed.hasPrefix("======"), trimmed.hasSuffix("======"), trimmed.dropFirst(6).dropLast(6).trimmingWhitespace == "Ending" {
                run = nil
                return
            }
            if trimmed.hasPrefix("Flow isSuccess: ") {
                dump = .none
                let value = trimmed.dropFirst("Flow isSuccess: ".count)
                event(.end, reason: value == "true" ? RunEvent.Reason.success : RunEvent.Reason.failure, line: number)
                return
            }
            guard let entry = Self.entry(line) else {
                // A continuation line: a key of the bucket the run starts with (`key: value`, not
                // indented), or more of a value or message.
                if dump == .start, let colon = line.firstIndex(of: ":"), let first = line.first, !first.isWhitespace,
                   colon > line.startIndex, line[line.index(after: colon)...].first.map({ $0 == " " }) ?? true {
                    event(.write, key: String(line[..<colon]), line: number)
                }
                return
            }
            dump = .none
            let time = String(entry.time)
            switch entry.name {
            case "DataBucket":
                if entry.message == "start with:" {
                    dump = .start
                } else if entry.message == "end with:" {
                    dump = .end
                } else if let key = Self.between(entry.message, after: "add for ", before: ": ")
                            ?? Self.between(entry.message, after: "replace for ", before: ": ") {
                    event(.write, key: key, time: time, line: number)
                }
            case "Cases" where entry.message.hasPrefix("no case is mat"):
                // "no case is matached. finished in early." (sic): the run ends here and reports success.
                event(.stop, reason: RunEvent.Reason.noCaseMatched, time: time, line: number)
            case "Group" where entry.message.hasPrefix("no operation to run for group"):
                event(.stop, reason: RunEvent.Reason.emptyGroup, key: Self.between(entry.message, after: "input data: <", before: ">"),
                      time: time, line: number)
            case "Group" where entry.message.hasPrefix("not allow failure in group"):
                event(.stop, reason: RunEvent.Reason.groupFailure, time: time, line: number)
            default:
                let (step, instance) = Self.operation(entry.name)
                if entry.message == "WillStart" {
                    event(.start, step: step, instance: instance, time: time, line: number)
                } else if entry.message.hasPrefix("DidFinish: ") {
                    finished(step, instance, state: entry.message.dropFirst("DidFinish: ".count), time: time, line: number)
                }
                // Anything else is the operation's own `log(message:)`.
            }
        }

        /// `DidFinish: <state>`: one of the four ways a Flow-iOS operation ends.
        mutating func finished(_ step: String, _ instance: String?, state: Substring, time: String, line: Int) {
            if state == "successfully" {
                event(.finish, step: step, instance: instance, time: time, line: line)
            } else if state.hasPrefix("withInsufficientInputData") {
                // "withInsufficientInputData: can't find <email> in data bucket"
                event(.fail, step: step, instance: instance, reason: RunEvent.Reason.missingKey,
                      key: Self.between(state, after: "can't find <", before: "> in data bucket"), time: time, line: line)
            } else if state.hasPrefix("withMismatchInputDataType") {
                // "withMismatchInputDataType: <password> in data bucket is <123456> with type <Int>, but NOT type <String>."
                // The value may hold anything, so the types are read from the end.
                var detail: String?
                if let expected = state.range(of: ", but NOT type <", options: .backwards),
                   let found = state[..<expected.lowerBound].range(of: " with type <", options: .backwards) {
                    let foundType = state[found.upperBound..<expected.lowerBound].dropLast(state[..<expected.lowerBound].hasSuffix(">") ? 1 : 0)
                    var expectedType = state[expected.upperBound...]
                    if expectedType.hasSuffix(">.") { expectedType = expectedType.dropLast(2) }
                    detail = "is \(foundType), not \(expectedType)"
                }
                event(.fail, step: step, instance: instance, reason: RunEvent.Reason.typeMismatch,
                      key: Self.between(state, after: ": <", before: "> in data bucket"), detail: detail, time: time, line: line)
            } else if state.hasPrefix("withError") {
                let description = state.dropFirst("withError".count).drop { $0 == ":" || $0 == " " }
                event(.fail, step: step, instance: instance, reason: RunEvent.Reason.error,
                      detail: description.isEmpty ? nil : String(description), time: time, line: line)
            } else {
                records.findings.append(.invalidInput("'DidFinish: \(state.prefix(80))' is not a way a Flow-iOS operation finishes "
                                                      + "(successfully, withInsufficientInputData, withMismatchInputDataType, withError): line skipped",
                                                      at: at(line)))
            }
        }

        /// A summary that ends where the next begins, or at the end of the file, was cut off (an app
        /// that crashed, a log rotated): its events are kept, and the cut is reported.
        mutating func closeRun(cutOffBefore line: Int?) {
            guard let open = run else { return }
            let place = line.map { "before the next summary at line \($0)" } ?? "at the end of the file"
            records.findings.append(.invalidInput("the run summary that starts here has no '======    Ending    ======' line (cut off \(place)); its events are kept",
                                                  at: at(open.line)))
            run = nil
        }

        mutating func finish() { closeRun(cutOffBefore: nil) }

        mutating func take() -> RunRecords {
            defer { records = RunRecords(flowKinds: [.flowIOS]) }
            return records
        }

        /// `4:17:18 PM [Name] message`: the time (text with a digit and a `:`), the name and the message.
        static func entry(_ line: Substring) -> (time: Substring, name: Substring, message: Substring)? {
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return nil }
            let time = line[..<open].trimmingWhitespace
            guard !time.isEmpty, time.count <= 32, time.contains(":"), time.contains(where: \.isNumber) else { return nil }
            let name = line[line.index(after: open)..<close]
            guard !name.isEmpty else { return nil }
            var message = line[line.index(after: close)...]
            if message.first == " " { message = message.dropFirst() }
            return (time, name, message)
        }

        /// `UploadSingleImageOp 3F2A` → the operation and its group instance (four hexadecimal digits).
        static func operation(_ name: Substring) -> (String, String?) {
            if let space = name.lastIndex(of: " ") {
                let suffix = name[name.index(after: space)...]
                if suffix.count == 4, suffix.allSatisfy(\.isHexDigit), space > name.startIndex {
                    return (String(name[..<space]), String(suffix))
                }
            }
            return (String(name), nil)
        }

        /// The text of `text` between the first `after` and the next `before`.
        static func between(_ text: Substring, after: String, before: String) -> String? {
            guard let start = text.range(of: after), let end = text[start.upperBound...].range(of: before) else { return nil }
            return String(text[start.upperBound..<end.lowerBound])
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
