import FlowModel
import Foundation

/// OpenTelemetry traces in the OTLP JSON export format (`resourceSpans` → `scopeSpans` → `spans`, as
/// the OpenTelemetry Collector's file exporter and the SDKs' OTLP/JSON exporters write them): one
/// export request in the file, or one a line.
///
/// A span is a step of a flow run when it carries the step attribute (`SpanMapping.stepAttribute`),
/// or, when the mapping takes steps from span names, when it belongs to a flow; its flow is the flow
/// attribute of the span, of its nearest ancestor span that has one, or of its resource. A span with
/// the flow attribute and no step is the run itself: its status ends the run. The run is the trace.
/// A step span gives a `start` at its start time and a `finish` at its end, or a `fail` when its status
/// is an error (reason and key from the mapping's attributes, the status message as detail). Events
/// come out in time order. Other spans (HTTP calls, database queries) are not steps and are left out.
public enum OTLPTraces {
    /// The format with the default mapping, as `RunRecordFormats` lists it.
    public static let format = format(.default)

    /// The format with `mapping`.
    public static func format(_ mapping: SpanMapping) -> RunRecordFormat {
        RunRecordFormat(name: "otlp", recognises: recognises, reader: { Reader(file: $0, mapping: mapping) })
    }

    /// A trace's spans may come in any order and on any line (one request a file, pretty-printed, or
    /// one a line), and events come out in time order: the file is gathered and read at its end.
    struct Reader: RunRecordLineReader {
        let file: String
        let mapping: SpanMapping
        var text = ""
        var records = RunRecords()

        mutating func read(_ line: Substring, at number: Int) {
            text += line
            text += "\n"
        }

        mutating func finish() {
            records = OTLPTraces.read(text, file: file, mapping: mapping)
            text = ""
        }

        mutating func take() -> RunRecords {
            defer { records = RunRecords() }
            return records
        }
    }

    public static func recognises(_ text: String) -> Bool {
        let head = text.prefix(4096)
        return head.drop(while: \.isWhitespace).first == "{" && (head.contains("\"resourceSpans\""))
    }

    /// A span as read, before its events are made.
    struct Span {
        var trace: String
        var id: String
        var parent: String?
        var name: String
        var start: UInt64
        var end: UInt64
        var attributes: [String: String]
        var failed: Bool
        var statusMessage: String?
        var resourceFlow: String?
        var location: SourceLocation
        var order: Int
    }

    public static func read(_ text: String, file: String, mapping: SpanMapping = .default) -> RunRecords {
        var records = RunRecords()
        var spans: [Span] = []
        // One request in the file (possibly pretty-printed), or one a line.
        let whole = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        var documents: [(object: [String: Any], line: Int)] = []
        if let whole {
            documents = [(whole, 1)]
        } else {
            for (index, line) in RunRecordFormats.lines(of: text).enumerated() {
                let number = index + 1
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
                    documents.append((object, number))
                } else {
                    records.findings.append(.invalidInput("not an OTLP JSON export request (a JSON object with 'resourceSpans'): line skipped",
                                                          at: SourceLocation(file: file, line: number, column: 1)))
                }
            }
        }
        // In a pretty-printed request each span is at its own line: the line of its `"spanId"` key
        // (in file order, as the spans are read), when the keys and the spans with one agree in number.
        var spanLines: [Int] = []
        if whole != nil {
            let spansWithIDs = documents.reduce(0) { count, document in
                count + ((document.object["resourceSpans"] as? [[String: Any]]) ?? []).reduce(0) { count, resource in
                    count + (((resource["scopeSpans"] ?? resource["instrumentationLibrarySpans"]) as? [[String: Any]]) ?? []).reduce(0) { count, scope in
                        count + ((scope["spans"] as? [Any]) ?? []).filter { ($0 as? [String: Any])?["spanId"] != nil }.count
                    }
                }
            }
            // By bytes, in place: a search through Foundation copied the rest of the line at each
            // span, quadratic in the spans of a request written on one line.
            let key = Array("\"spanId\"".utf8)
            for (index, line) in RunRecordFormats.lines(of: text).enumerated() {
                var line = line
                line.withUTF8 { bytes in
                    var from = 0
                    while let found = ByteSearch.firstOffset(of: key, in: bytes, range: from..<bytes.count) {
                        spanLines.append(index + 1)
                        from = found + key.count
                    }
                }
            }
            if spanLines.count != spansWithIDs { spanLines = [] }
        }
        var spanOrdinal = 0
        for (object, line) in documents {
            let requestLocation = SourceLocation(file: file, line: line, column: 1)
            var location = requestLocation
            guard let resources = object["resourceSpans"] as? [[String: Any]] else {
                records.findings.append(.invalidInput("an OTLP export request needs a 'resourceSpans' list: skipped", at: location))
                continue
            }
            for resource in resources {
                let resourceAttributes = attributes((resource["resource"] as? [String: Any])?["attributes"])
                // `instrumentationLibrarySpans` is the name before OTLP 0.15.
                let scopes = (resource["scopeSpans"] ?? resource["instrumentationLibrarySpans"]) as? [[String: Any]] ?? []
                for scope in scopes {
                    for case let span as [String: Any] in scope["spans"] as? [Any] ?? [] {
                        if span["spanId"] != nil {
                            if spanOrdinal < spanLines.count { location = SourceLocation(file: file, line: spanLines[spanOrdinal], column: 1) }
                            spanOrdinal += 1
                        } else {
                            location = requestLocation
                        }
                        guard let trace = span["traceId"] as? String, !trace.isEmpty, let id = span["spanId"] as? String, !id.isEmpty,
                              let name = span["name"] as? String, let start = nanoseconds(span["startTimeUnixNano"]),
                              let end = nanoseconds(span["endTimeUnixNano"]) else {
                            let named = (span["name"] as? String).map { " '\($0.prefix(80))'" } ?? ""
                            records.findings.append(.invalidInput("span\(named) needs traceId, spanId, name, startTimeUnixNano and endTimeUnixNano: skipped",
                                                                  at: location))
                            continue
                        }
                        let status = span["status"] as? [String: Any]
                        let code = status?["code"]
                        let failed = (code as? NSNumber)?.intValue == 2 || (code as? String) == "STATUS_CODE_ERROR"
                        let parent = (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                        spans.append(Span(trace: trace, id: id, parent: parent, name: name, start: start, end: end,
                                          attributes: attributes(span["attributes"]), failed: failed,
                                          statusMessage: (status?["message"] as? String).flatMap { $0.isEmpty ? nil : $0 },
                                          resourceFlow: resourceAttributes[mapping.flowAttribute], location: location, order: spans.count))
                    }
                }
            }
        }
        records.events = events(of: spans, mapping: mapping)
        return records
    }

    /// The events of the step spans and run spans, in time order (a span's start before its end;
    /// ties in the file's order).
    static func events(of spans: [Span], mapping: SpanMapping) -> [RunEvent] {
        var byID: [String: Int] = [:]
        for (index, span) in spans.enumerated() { byID[span.trace + "/" + span.id] = index }
        /// The flow of span `index`: its own attribute, an ancestor's, its resource's (memoised).
        var flows: [Int: String?] = [:]
        func flow(_ index: Int) -> String? {
            var path: [Int] = []
            var onPath = Set<Int>()  // a set: a chain of 100,000 parents must not be searched at each step
            var current: Int? = index
            var found: String?
            while let at = current {
                if let known = flows[at] { found = known; break }
                path.append(at)
                onPath.insert(at)
                if let own = spans[at].attributes[mapping.flowAttribute] { found = own; break }
                // A cycle of parents (a broken export) ends the walk.
                current = spans[at].parent.flatMap { byID[spans[at].trace + "/" + $0] }.flatMap { onPath.contains($0) ? nil : $0 }
                if current == nil { found = spans[at].resourceFlow }
            }
            for at in path { flows[at] = found }
            return found
        }
        var timed: [(time: UInt64, order: Int, event: RunEvent)] = []
        for (index, span) in spans.enumerated() {
            guard let flowName = flow(index) else { continue }
            let step = span.attributes[mapping.stepAttribute] ?? (mapping.stepsFromSpanNames && span.attributes[mapping.flowAttribute] == nil ? span.name : nil)
            if let step {
                let instance = span.attributes[mapping.instanceAttribute]
                timed.append((span.start, 2 * index, RunEvent(flow: flowName, run: span.trace, step: step, instance: instance, kind: .start,
                                                            time: String(span.start), location: span.location)))
                let ending = span.failed
                    ? RunEvent(flow: flowName, run: span.trace, step: step, instance: instance, kind: .fail,
                               reason: span.attributes[mapping.reasonAttribute] ?? RunEvent.Reason.error, key: span.attributes[mapping.keyAttribute],
                               detail: span.statusMessage, time: String(span.end), location: span.location)
                    : RunEvent(flow: flowName, run: span.trace, step: step, instance: instance, kind: .finish, time: String(span.end), location: span.location)
                timed.append((span.end, 2 * index + 1, ending))
            } else if span.attributes[mapping.flowAttribute] != nil {
                timed.append((span.end, 2 * index + 1, RunEvent(flow: flowName, run: span.trace, step: nil, kind: .end,
                                                              reason: span.failed ? RunEvent.Reason.failure : RunEvent.Reason.success,
                                                              detail: span.statusMessage, time: String(span.end), location: span.location)))
            }
        }
        return timed.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.event)
    }

    /// OTLP's `[{key, value: {stringValue | intValue | boolValue | doubleValue}}]` as text.
    static func attributes(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for case let attribute as [String: Any] in list as? [Any] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
            if let text = value["stringValue"] as? String {
                result[key] = text
            } else if let number = (value["intValue"] ?? value["doubleValue"]) {
                result[key] = (number as? String) ?? (number as? NSNumber)?.stringValue
            } else if let flag = value["boolValue"] as? Bool {
                result[key] = flag ? "true" : "false"
            }
        }
        return result
    }

    /// OTLP JSON writes 64-bit integers as strings, some exporters as numbers.
    static func nanoseconds(_ value: Any?) -> UInt64? {
        if let text = value as? String { return UInt64(text) }
        if let number = value as? NSNumber { return number.uint64Value }
        return nil
    }
}
