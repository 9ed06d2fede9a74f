import FlowModel
import Foundation

// The records of simulated runs (RunGenerator.swift) in the three formats FlowLens reads, written
// as their writers write them: Flow-iOS's `generateSummary()`, FlowLens's JSON-lines events, and
// OpenTelemetry's OTLP JSON. Same runs and seed, same bytes.

/// Flow-iOS run summaries (`flow-libraries.md` §6), as an app's log collects them: several summaries
/// among the app's other log lines, from devices in several locales.
public enum FlowIOSSummaryWriter {
    /// A device locale's `DateFormatter` `.medium` time style, as a function of the seconds of the day.
    public static let timeStyles: [(name: String, format: @Sendable (Int) -> String)] = [
        ("en_US", { twelve($0, [], " ", ["AM", "PM"]) }),
        // iOS 17 and later put a narrow no-break space before the day period.
        ("en_US iOS 17", { twelve($0, [], "\u{202F}", ["AM", "PM"]) }),
        ("de_DE", { String(format: "%02d:%02d:%02d", $0 / 3600, $0 / 60 % 60, $0 % 60) }),
        ("ja_JP", { String(format: "%d:%02d:%02d", $0 / 3600, $0 / 60 % 60, $0 % 60) }),
        ("zh_CN", { twelve($0, ["上午", "下午"], "", []) }),
        ("ko_KR", { twelve($0, ["오전 ", "오후 "], "", []) }),
    ]

    static func twelve(_ seconds: Int, _ before: [String], _ gap: String, _ after: [String]) -> String {
        let hour = seconds / 3600, pm = hour >= 12 ? 1 : 0
        let h = hour % 12 == 0 ? 12 : hour % 12
        let time = String(format: "%d:%02d:%02d", h, seconds / 60 % 60, seconds % 60)
        return (before.isEmpty ? "" : before[pm]) + time + (after.isEmpty ? "" : gap + after[pm])
    }

    /// The app's own log lines between summaries (never inside one: a summary is logged at once).
    static let appLines = [
        "[Network] GET https://api.photoshare.example/v2/albums -> 200 (182 ms)",
        "[Analytics] flushed 12 events",
        "<UIKit> Unable to simultaneously satisfy constraints.",
        "[Session] token refresh scheduled in 3600 s",
        "[ImageCache] evicted 4 images (11.2 MB)",
        "[Push] registered for remote notifications",
    ]

    /// The summaries of `runs`, in order, each with its own locale and time of day; and the line
    /// each summary starts at (the reader names a run by it).
    public static func write(_ runs: [SimulatedRun], seed: UInt64) -> (text: String, headerLines: [Int]) {
        var headers: [Int] = []
        var rng = SplitMix64(seed: seed)
        var out: [String] = []
        var day = 8 * 3600
        for run in runs {
            day += 20 + rng.below(400)
            if day > 23 * 3600 { day = 7 * 3600 }
            for _ in 0..<rng.below(3) {
                out.append("2026-11-25 \(FlowIOSSummaryWriter.timeStyles[2].format(day)).\(rng.below(900) + 100) PhotoShare[\(400 + rng.below(600)):\(rng.hex(5, upper: false))] \(rng.pick(appLines))")
            }
            let style = rng.pick(timeStyles).format
            let start = day
            func time(_ ms: Int) -> String { style(start + ms / 1000) }
            out.append("====== Flow Summary ======")
            out.append("\(time(0)) [DataBucket] start with:")
            for (key, value) in run.initialData { out.append("\(key): \(value)") }
            for event in run.events {
                let name = event.step.map { $0 + (event.instance.map { " " + $0 } ?? "") } ?? ""
                let t = time(event.at)
                switch event.kind {
                case .start: out.append("\(t) [\(name)] WillStart")
                case .log: out.append("\(t) [\(name)] \(event.value ?? "")")
                case .write:
                    if let previous = event.previous {
                        out.append("\(t) [DataBucket] replace for \(event.key!): \(previous) -> \(event.value ?? "")")
                    } else {
                        out.append("\(t) [DataBucket] add for \(event.key!): \(event.value ?? "")")
                    }
                case .finish: out.append("\(t) [\(name)] DidFinish: successfully")
                case .fail:
                    switch event.reason {
                    case RunEvent.Reason.missingKey?:
                        out.append("\(t) [\(name)] DidFinish: withInsufficientInputData: can't find <\(event.key!)> in data bucket")
                    case RunEvent.Reason.typeMismatch?:
                        out.append("\(t) [\(name)] DidFinish: withMismatchInputDataType: <\(event.key!)> in data bucket is <\(event.value ?? "")> with type <\(event.types!.found)>, but NOT type <\(event.types!.expected)>.")
                    default:
                        out.append("\(t) [\(name)] DidFinish: withError: \(event.value ?? "")")
                    }
                case .stop:
                    switch event.reason {
                    case RunEvent.Reason.noCaseMatched?: out.append("\(t) [Cases] no case is matached. finished in early.")
                    case RunEvent.Reason.emptyGroup?:
                        out.append("\(t) [Group] no operation to run for group; please make sure the input data: <\(event.key ?? "")> is not empty")
                    default: out.append("\(t) [Group] not allow failure in group. stop immediately.")
                    }
                case .end:
                    out.append("\(t) [DataBucket] end with:")
                    var final = run.finalData
                    for i in final.indices.reversed() where i > 0 { final.swapAt(i, rng.below(i + 1)) }
                    for (key, value) in final { out.append("\(key): \(value)") }
                    out.append("Flow isSuccess: \(event.reason == RunEvent.Reason.success)")
                    out.append("======    Ending    ======")
                }
            }
        }
        let text = out.joined(separator: "\n") + "\n"
        // Values and messages may span lines: the headers' line numbers are counted in the text.
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line == "====== Flow Summary ======" {
            headers.append(number + 1)
        }
        return (text, headers)
    }
}

/// FlowLens's JSON-lines events (README, "Run records"): one object a line, the lines of runs that
/// overlap in time interleaved, as a log shipper writes them.
public enum RunEventLinesWriter {
    /// The lines of `runs` and their sub-flows' runs, in time order; runs start `gap` ms apart on average.
    /// Also the run ids in the order the lines first show each.
    public static func write(_ runs: [SimulatedRun], seed: UInt64, gap: Int = 700) -> (text: String, order: [String]) {
        var rng = SplitMix64(seed: seed)
        var lines: [(time: Int, order: Int, text: String)] = []
        var start = 1_795_000_000_000 // 2026-11-18, in ms
        func add(_ run: SimulatedRun, at base: Int) {
            for event in run.events {
                guard let kind = ["start": "start", "finish": "finish", "fail": "fail", "stop": "stop", "end": "end"][event.kind.rawValue] else { continue }
                var fields: [(String, String)] = [("time", iso(base + event.at)), ("flow", run.flow), ("run", run.id)]
                if let step = event.step, event.kind != .stop, event.kind != .end { fields.append(("step", step)) }
                if let instance = event.instance { fields.append(("instance", instance)) }
                fields.append(("event", kind))
                if let reason = event.reason { fields.append(("reason", reason)) }
                if let key = event.key { fields.append(("key", key)) }
                if event.kind == .fail, let detail = event.value { fields.append(("detail", detail)) }
                let text = "{" + fields.map { "\(JSONText.quote($0.0)): \(JSONText.quote($0.1))" }.joined(separator: ", ") + "}"
                lines.append((base + event.at, lines.count, run.id + "\u{0}" + text))
            }
            for child in run.children { add(child, at: base + child.offset) }
        }
        for run in runs {
            start += rng.below(2 * gap)
            add(run, at: start)
        }
        let sorted = lines.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map { $0.text.split(separator: "\u{0}", maxSplits: 1) }
        var order: [String] = []
        var seen: Set<String> = []
        for line in sorted where seen.insert(String(line[0])).inserted { order.append(String(line[0])) }
        return (sorted.map { String($0[1]) }.joined(separator: "\n") + "\n", order)
    }

    /// An ISO 8601 time in UTC with milliseconds.
    static func iso(_ ms: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}

/// JSON text written by hand, so that keys keep their order and the bytes never change.
public indirect enum JSONText {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case number(Int)

    /// Compact (one line), or indented by two spaces.
    public func text(indent: String? = nil) -> String {
        let (open, between, colon) = indent.map { ("\n" + $0 + "  ", ",\n" + $0 + "  ", ": ") } ?? ("", ",", ":")
        let close = indent.map { "\n" + $0 } ?? ""
        let inner = indent.map { $0 + "  " }
        switch self {
        case let .string(text): return Self.quote(text)
        case let .number(value): return String(value)
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[" + open + items.map { $0.text(indent: inner) }.joined(separator: between) + close + "]"
        case let .object(fields):
            if fields.isEmpty { return "{}" }
            return "{" + open + fields.map { Self.quote($0.0) + colon + $0.1.text(indent: inner) }.joined(separator: between) + close + "}"
        }
    }

    /// A JSON string literal.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// OpenTelemetry traces in the OTLP JSON export format, as an app's tracing SDK sends them to a
/// Collector and its file exporter writes them: a trace per run, a root span for the run (`flow.name`),
/// a child span per step (`flow.step`), failures as error status with `flow.failure.reason` and
/// `flow.key`, and the app's other spans (HTTP calls) beneath the steps.
public enum OTLPWriter {
    /// How a file holds its requests.
    public enum Layout: Sendable {
        /// One export request, indented.
        case oneRequest
        /// One request a line, `batch` runs each (the Collector's file exporter).
        case requestPerLine(batch: Int)
    }

    /// The spans of `runs` (and their sub-flows' runs, each a trace of its own) in `layout`.
    /// Also the run ids in the order the reader meets them (by their first step's start), and each
    /// run's trace id (the reader's run id).
    public static func write(_ runs: [SimulatedRun], seed: UInt64, layout: Layout, service: String)
        -> (text: String, order: [String], traceIDs: [String: String]) {
        var rng = SplitMix64(seed: seed)
        var start: UInt64 = 1_795_000_000_000_000_000
        var traces: [[JSONText]] = []
        var firsts: [(time: UInt64, order: Int, run: String)] = []
        var ids: [String: String] = [:]
        func add(_ run: SimulatedRun, at base: UInt64) {
            let made = spans(run, base: base, rng: &rng)
            traces.append(made.spans)
            ids[run.id] = made.trace
            if let first = made.firstStart { firsts.append((first, firsts.count, run.id)) }
            for child in run.children { add(child, at: base + UInt64(child.offset) * 1_000_000) }
        }
        for run in runs {
            start += UInt64(rng.below(3_000)) * 1_000_000
            add(run, at: start)
        }
        func request(_ spans: [JSONText]) -> JSONText {
            .object([
                ("resourceSpans", .array([.object([
                    ("resource", .object([("attributes", .array([attribute("service.name", service), attribute("service.version", "4.2.0"),
                                                                 attribute("telemetry.sdk.language", "swift")]))])),
                    ("scopeSpans", .array([.object([
                        ("scope", .object([("name", .string("flow-tracing")), ("version", .string("1.4.0"))])),
                        ("spans", .array(spans)),
                    ])])),
                ])])),
            ])
        }
        let order = firsts.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.run)
        switch layout {
        case .oneRequest:
            return (request(traces.flatMap { $0 }).text(indent: "") + "\n", order, ids)
        case let .requestPerLine(batch):
            return (stride(from: 0, to: traces.count, by: batch).map { request(traces[$0..<min($0 + batch, traces.count)].flatMap { $0 }).text() }
                .joined(separator: "\n") + "\n", order, ids)
        }
    }

    static func attribute(_ key: String, _ value: String) -> JSONText {
        .object([("key", .string(key)), ("value", .object([("stringValue", .string(value))]))])
    }

    static func span(trace: String, id: String, parent: String?, name: String, start: UInt64, end: UInt64, attributes: [JSONText],
                     error: String?) -> JSONText {
        var fields: [(String, JSONText)] = [("traceId", .string(trace)), ("spanId", .string(id))]
        if let parent { fields.append(("parentSpanId", .string(parent))) }
        fields += [("name", .string(name)), ("kind", .number(1)), ("startTimeUnixNano", .string(String(start))),
                   ("endTimeUnixNano", .string(String(end))), ("attributes", .array(attributes))]
        fields.append(("status", error.map { .object([("code", .number(2)), ("message", .string($0))]) } ?? .object([("code", .number(1))])))
        return .object(fields)
    }

    /// One run's spans: the run, its steps (a start and its finish or failure), an HTTP call under some.
    static func spans(_ run: SimulatedRun, base: UInt64, rng: inout SplitMix64) -> (spans: [JSONText], trace: String, firstStart: UInt64?) {
        var firstStart: UInt64?
        let trace = rng.hex(32, upper: false)
        let root = rng.hex(16, upper: false)
        func ns(_ ms: Int) -> UInt64 { base + UInt64(ms) * 1_000_000 + UInt64(rng.below(1000)) * 1000 }
        var spans: [JSONText] = []
        var open: [String: (start: UInt64, id: String)] = [:]
        var end = base
        var failedRun = false
        for event in run.events {
            let key = (event.step ?? "") + "/" + (event.instance ?? "")
            switch event.kind {
            case .start:
                open[key] = (ns(event.at), rng.hex(16, upper: false))
                if firstStart == nil { firstStart = open[key]!.start }
            case .finish, .fail:
                guard let started = open.removeValue(forKey: key), let step = event.step else { continue }
                let finished = max(ns(event.at), started.start + 1_000_000)
                var attributes = [attribute("flow.step", step)]
                if let instance = event.instance { attributes.append(attribute("flow.instance", instance)) }
                var error: String?
                if event.kind == .fail {
                    attributes.append(attribute("flow.failure.reason", event.reason ?? RunEvent.Reason.error))
                    if let key = event.key { attributes.append(attribute("flow.key", key)) }
                    error = event.value ?? (event.key.map { "missing \($0)" } ?? "failed")
                }
                spans.append(span(trace: trace, id: started.id, parent: root, name: step, start: started.start, end: finished,
                                  attributes: attributes, error: error))
                if rng.chance(0.15) {
                    // The app's HTTP call inside the step: not a step, left out by the reader.
                    let call = started.start + (finished - started.start) / 4
                    spans.append(span(trace: trace, id: rng.hex(16, upper: false), parent: started.id, name: "POST",
                                      start: call, end: call + (finished - started.start) / 2,
                                      attributes: [attribute("http.request.method", "POST"),
                                                   attribute("url.full", "https://api.acme.example/v3/\(step.lowercased())")],
                                      error: nil))
                }
                end = max(end, finished)
            case .end:
                failedRun = event.reason != RunEvent.Reason.success
                end = max(end, ns(event.at)) + 1_000_000
            default: break
            }
        }
        spans.insert(span(trace: trace, id: root, parent: nil, name: run.flow, start: base, end: end,
                          attributes: [attribute("flow.name", run.flow), attribute("flow.run", run.id)],
                          error: failedRun ? "flow failed" : nil), at: 0)
        return (spans, trace, firstStart)
    }
}
