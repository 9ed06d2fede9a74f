import FlowLoaders
import FlowModel
import Foundation
import Testing

/// The readers of run records (issue 19, point 1): Flow-iOS's run summaries as the library writes
/// them, and FlowLens's JSON-lines events. Every line they cannot read is reported at its line and
/// skipped; the rest is kept.
@Suite("Run records")
struct RunRecordTests {
    /// `kind step(instance) reason key detail @line` of each event, for compact expectations.
    func lines(_ records: RunRecords) -> [String] {
        records.events.map { event in
            var text = event.kind.rawValue
            if let step = event.step { text += " " + step + (event.instance.map { "(\($0))" } ?? "") }
            for part in [event.reason, event.key.map { "key=\($0)" }, event.detail] { if let part { text += " " + part } }
            return text + " @\(event.location.line)"
        }
    }

    func problems(_ records: RunRecords) -> [String] {
        records.findings.map { "\($0.rule) \($0.location!.line): \($0.message)" }
    }

    // Two summaries of a photo-album upload in one log, among the app's own lines, written on a
    // device with a 12-hour clock (iOS 17 puts a narrow no-break space before "PM").
    static let album = """
        2026-11-02 10:15:01.220 Album[812:3312] app did become active
        ====== Flow Summary ======
        4:17:18\u{202F}PM [DataBucket] start with:
        albumTitle: Summer
        photoList: [Album.Photo(id: 1, caption: "beach"),
         Album.Photo(id: 2, caption: "dunes")]
        4:17:18\u{202F}PM [MakeThumbnailOp] WillStart
        4:17:18\u{202F}PM [MakeThumbnailOp] resized 2 photos to 320 px
        4:17:19\u{202F}PM [DataBucket] add for thumbnails: [<UIImage: 0x600>, <UIImage: 0x601>]
        4:17:19\u{202F}PM [MakeThumbnailOp] DidFinish: successfully
        4:17:19\u{202F}PM [UploadSingleImageOp 3F2A] WillStart
        4:17:19\u{202F}PM [UploadSingleImageOp 9C01] WillStart
        4:17:20\u{202F}PM [UploadSingleImageOp 9C01] DidFinish: withError: The request timed out.
        4:17:20\u{202F}PM [Group] not allow failure in group. stop immediately.
        4:17:20\u{202F}PM [DataBucket] end with:
        albumTitle: Summer
        thumbnails: [<UIImage: 0x600>,
        <UIImage: 0x601>]
        Flow isSuccess: false
        ======    Ending    ======
        2026-11-02 10:15:09.004 Album[812:3312] retrying upload
        ====== Flow Summary ======
        4:18:02\u{202F}PM [DataBucket] start with:
        albumTitle: Summer
        4:18:02\u{202F}PM [Group] no operation to run for group; please make sure the input data: <photoList> is not empty
        4:18:02\u{202F}PM [DataBucket] end with:
        albumTitle: Summer
        Flow isSuccess: false
        ======    Ending    ======

        """

    @Test("a Flow-iOS log: several summaries, app lines between them, grouped operations, multi-line values, group messages")
    func flowIOSAlbum() {
        let records = RunRecordFormats.read(Self.album, file: "logs/album.log")
        #expect(problems(records).isEmpty)
        #expect(lines(records) == [
            "write key=albumTitle @4", "write key=photoList @5",
            "start MakeThumbnailOp @7", "write key=thumbnails @9", "finish MakeThumbnailOp @10",
            "start UploadSingleImageOp(3F2A) @11", "start UploadSingleImageOp(9C01) @12",
            "fail UploadSingleImageOp(9C01) error The request timed out. @13",
            "stop group-failure @14", "end failure @19",
            "write key=albumTitle @24", "stop empty-group key=photoList @25", "end failure @28",
        ])
        #expect(records.runs.map(\.run) == ["logs/album.log:2", "logs/album.log:22"])
        #expect(records.events.first?.time == nil && records.events[2].time == "4:17:18\u{202F}PM")
    }

    @Test("the ways an operation finishes, in 24-hour and other locales' times, with CRLF line ends")
    func flowIOSFinishes() {
        let log = [
            "====== Flow Summary ======",
            "16:17:05 [DataBucket] start with:",
            "password: 123456",
            "16:17:05 [LoginOp] WillStart",
            "16:17:06 [LoginOp] DidFinish: withMismatchInputDataType: <password> in data bucket is <<redacted>> with type <Int>, but NOT type <String>.",
            "Flow isSuccess: false",
            "======    Ending    ======",
            "====== Flow Summary ======",
            "午後4:17:06 [ProfileOp] WillStart",
            "午後4:17:06 [ProfileOp] DidFinish: withInsufficientInputData: can't find <accessToken> in data bucket",
            "Flow isSuccess: false",
            "======    Ending    ======",
            "====== Flow Summary ======",
            "4:17:07 p.m. [CheckRoleOp] WillStart",
            "4:17:07 p.m. [CheckRoleOp] DidFinish: successfully",
            "4:17:07 p.m. [Cases] no case is matached. finished in early.",
            "4:17:07 p.m. [DataBucket] replace for role: guest -> admin",
            "Flow isSuccess: true",
            "======    Ending    ======",
        ].joined(separator: "\r\n")
        let records = RunRecordFormats.read(log, file: "device.txt")
        #expect(problems(records).isEmpty)
        #expect(lines(records) == [
            "write key=password @3", "start LoginOp @4", "fail LoginOp type-mismatch key=password is Int, not String @5", "end failure @6",
            "start ProfileOp @9", "fail ProfileOp missing-key key=accessToken @10", "end failure @11",
            "start CheckRoleOp @14", "finish CheckRoleOp @15", "stop no-case-matched @16", "write key=role @17", "end success @18",
        ])
        #expect(records.runs.count == 3)
    }

    @Test("a summary cut off by the next one or by the end of the file is reported, and its events are kept")
    func flowIOSCutOff() {
        let log = """
            ====== Flow Summary ======
            9:00:01 AM [FetchOp] WillStart
            ====== Flow Summary ======
            9:00:02 AM [FetchOp] WillStart
            9:00:02 AM [FetchOp] DidFinish: withSomethingNew
            9:00:03 AM [FetchOp] DidFinish: successfully
            """
        let records = RunRecordFormats.read(log, file: "crash.log")
        #expect(lines(records) == ["start FetchOp @2", "start FetchOp @4", "finish FetchOp @6"])
        #expect(problems(records) == [
            "invalid-input 1: the run summary that starts here has no '======    Ending    ======' line (cut off before the next summary at line 3); its events are kept",
            "invalid-input 5: 'DidFinish: withSomethingNew' is not a way a Flow-iOS operation finishes (successfully, withInsufficientInputData, withMismatchInputDataType, withError): line skipped",
            "invalid-input 3: the run summary that starts here has no '======    Ending    ======' line (cut off at the end of the file); its events are kept",
        ])
    }

    @Test("JSON-lines events: every field, numbers for run and time, and each bad line reported and skipped")
    func eventLines() {
        let text = """
            {"flow": "checkout", "run": "r-41", "step": "validateCart", "event": "start", "time": "2026-11-02T10:15:02.120Z"}
            {"flow": "checkout", "run": 42, "step": "pay", "event": "fail", "reason": "missing-key", "key": "cardToken", "time": 1762078502120000000}

            {"flow": "checkout", "run": "r-41", "step": "validateCart", "event": "finish", "extra": {"ignored": true}}
            not json at all
            {"flow": "checkout", "run": "r-41", "event": "start"}
            {"flow": "checkout", "run": "r-41", "step": "x", "event": "begin"}
            {"run": "r-41", "step": "x", "event": "start"}
            {"flow": "checkout", "run": "r-41", "step": ["x"], "event": "start"}
            {"flow": "checkout", "run": "r-41", "event": "end", "reason": "success"}
            """
        let records = RunRecordFormats.read(text, file: "events.jsonl")
        #expect(lines(records) == ["start validateCart @1", "fail pay missing-key key=cardToken @2", "finish validateCart @4", "end success @10"])
        #expect(records.events[1].run == "42" && records.events[1].time == "1762078502120000000" && records.events[1].flow == "checkout")
        #expect(problems(records) == [
            "invalid-input 5: not a JSON object: line skipped",
            "invalid-input 6: a 'start' event needs 'step': line skipped",
            "invalid-input 7: 'begin' is not an event (start, finish, fail, write, stop, end): line skipped",
            "invalid-input 8: an event needs 'flow' (the flow's id or name): line skipped",
            "invalid-input 9: 'step' must be a string: line skipped",
        ])
    }

    @Test("a file in no run-record format is one finding; a format can be named instead of recognised")
    func formats() {
        #expect(problems(RunRecordFormats.read("hello\nworld\n", file: "notes.txt")) == ["invalid-input 1: not a run record FlowLens reads (flow-ios-summary, otlp, events)"])
        let named = RunRecordFormats.read("{\"flow\": \"f\", \"run\": 1, \"step\": \"s\", \"event\": \"start\"}", file: "a.log",
                                          format: RunRecordFormats.format(named: "events"))
        #expect(lines(named) == ["start s @1"])
    }

    @Test("a file read as a stream, in blocks that cut lines and characters, gives what reading it whole gives", arguments: [1, 997, 4096, 1 << 20])
    func streamed(blockSize: Int) throws {
        // Files larger than the 64 KiB the format is recognised from, so that later blocks are read
        // one by one: Flow-iOS summaries with CRLF line ends and a 3-byte no-break space in every
        // time, JSON-lines events with bad lines among them, and OTLP spans one request a line.
        let flowIOS = String(repeating: Self.album, count: 120).replacingOccurrences(of: "\n", with: "\r\n") + "====== Flow Summary ======\r\n9:00:01 AM [FetchOp] WillStart"
        var events = ""
        for run in 0..<1500 {
            events += #"{"flow": "checkout", "run": \#(run), "step": "pay", "event": "start", "detail": "für \#(run) €"}"# + "\n"
            events += run % 100 == 7 ? "{\"flow\": \"checkout\", \"run\n" : #"{"flow": "checkout", "run": \#(run), "event": "end", "reason": "success"}"# + "\n"
        }
        let span = Self.span(id: "a1", name: "Checkout", start: 0, end: 9, attributes: ["flow.name": "checkout"])
        let otlp = String(repeating: #"{"resourceSpans": [{"scopeSpans": [{"spans": [\#(span.replacingOccurrences(of: "\n", with: " "))]}]}]}"# + "\n", count: 400)
        let folder = NSTemporaryDirectory() + "flowlens-stream-\(blockSize)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in [("device.log", flowIOS), ("events.jsonl", events), ("spans.json", otlp)] {
            #expect(text.utf8.count > RunRecordFormats.headLength)
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
            var streamed = RunRecords()
            var batches = 0
            RunRecordFormats.read(fileAt: folder + "/" + name, file: name, blockSize: blockSize) { batch in
                streamed.events += batch.events
                streamed.findings += batch.findings
                streamed.flowKinds = batch.flowKinds
                batches += 1
            }
            let whole = RunRecordFormats.read(text, file: name)
            #expect(!whole.events.isEmpty)
            #expect(streamed.events == whole.events, "\(name)")
            #expect(streamed.findings == whole.findings, "\(name)")
            #expect(streamed.flowKinds == whole.flowKinds)
            // Handed on as it is read, not at the end only.
            #expect(batches > (blockSize < 1 << 20 ? 2 : 0))
        }
        // A folder or a missing file: one finding, nothing read.
        for (path, message) in [(folder, "a folder, not a file of run records: give the files in it"), (folder + "/none.log", "cannot read the run records")] {
            var read: [RunRecords] = []
            RunRecordFormats.read(fileAt: path, file: "given", blockSize: blockSize) { read.append($0) }
            #expect(read.count == 1 && read[0].events.isEmpty && read[0].findings.map(\.message) == [message])
        }
    }

    @Test("JSON-lines events are recognised by an event on the first line, not by the word 'event' anywhere in it")
    func eventLinesRecognised() {
        let recognised = { (text: String) in RunRecordFormats.all.first { $0.recognises(text) }?.name }
        #expect(recognised(#"{"run": 7, "flow": "f", "step": "s", "event": "start"}"#) == "events")
        #expect(recognised("\n  \r\n" + #"{"event":"end","run":"r","flow":"f","reason":"success"}"#) == "events")
        // A first line cut off (a log rotated mid-write) is still read, and its bad line reported.
        #expect(recognised(#"{"flow": "f", "run": "r", "step": "pay", "event": "fail", "reas"# + "\n") == "events")
        // A one-line declarative flow (minified JSON) with "event" as a value or a step id is a flow.
        #expect(recognised(#"{"version":1,"flows":[{"name":"Tickets","steps":[{"id":"event","next":"done"},{"id":"done","kind":"end"}]}]}"#) == nil)
        #expect(recognised(#"{"version":1,"flows":[{"name":"Log","data":{"event":"String"},"steps":[{"id":"a"}]}]}"#) == nil)
        // The same, cut off after the 64 KiB `flowlens trace` looks at: no event word in an `event` field.
        #expect(recognised(#"{"version":1,"flows":[{"name":"Log","data":{"event":"String"},"steps":[{"id":"a","#) == nil)
    }

    /// A span of an OTLP JSON export, its attributes given as text.
    static func span(trace: String = "5b8efff798038103d269b633813fc60c", id: String, parent: String? = nil, name: String,
                     start: Int, end: Int, attributes: [String: String] = [:], error: String? = nil) -> String {
        let attributeList = attributes.sorted { $0.key < $1.key }.map { #"{"key": "\#($0.key)", "value": {"stringValue": "\#($0.value)"}}"# }
        let status = error.map { #"{"code": 2, "message": "\#($0)"}"# } ?? #"{"code": 1}"#
        return #"""
            {"traceId": "\#(trace)", "spanId": "\#(id)", \#(parent.map { #""parentSpanId": "\#($0)", "# } ?? "")"name": "\#(name)", "kind": 1,
             "startTimeUnixNano": "\#(1_762_078_500_000_000_000 + start)", "endTimeUnixNano": "\#(1_762_078_500_000_000_000 + end)",
             "attributes": [\#(attributeList.joined(separator: ", "))], "status": \#(status)}
            """#
    }

    @Test("OTLP JSON: the run span and its step spans, a failed step with its reason and key, other spans left out, time order")
    func otlpRequest() {
        let spans = [
            Self.span(id: "a1", name: "checkout", start: 0, end: 900, attributes: ["flow.name": "checkout"], error: "payment failed"),
            Self.span(id: "b2", parent: "a1", name: "validate", start: 10, end: 200, attributes: ["flow.step": "validateCart"]),
            Self.span(id: "c3", parent: "b2", name: "GET /cart", start: 20, end: 150),
            Self.span(id: "d4", parent: "a1", name: "pay", start: 300, end: 800,
                      attributes: ["flow.step": "pay", "flow.failure.reason": "missing-key", "flow.key": "cardToken"], error: "no card token"),
        ]
        // Pretty-printed: the request spans many lines, with a legacy status code and an int attribute.
        let text = """
            {
              "resourceSpans": [{
                "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "shop-ios"}},
                                            {"key": "app.build", "value": {"intValue": "812"}}]},
                "scopeSpans": [{"scope": {"name": "flows"}, "spans": [
                  \(spans.joined(separator: ",\n"))
                ]}]
              }]
            }
            """
        let records = RunRecordFormats.read(text, file: "traces.json")
        #expect(problems(records).isEmpty)
        // Each span at the line of its own spanId, not the request's first line.
        #expect(lines(records) == [
            "start validateCart @9", "finish validateCart @9", "start pay @15",
            "fail pay missing-key key=cardToken no card token @15", "end failure payment failed @6",
        ])
        // A "spanId" that is not a span's key (here a resource attribute's name): the spans cannot be
        // told apart by line, and keep the request's.
        let ambiguous = RunRecordFormats.read(text.replacingOccurrences(of: "\"service.name\"", with: "\"spanId\""), file: "traces.json")
        #expect(problems(ambiguous).isEmpty)
        #expect(ambiguous.events.map(\.location.line) == [1, 1, 1, 1, 1])
        #expect(Set(records.events.map(\.flow)) == ["checkout"] && Set(records.events.map(\.run)) == ["5b8efff798038103d269b633813fc60c"])
        #expect(records.events[2].time == "1762078500000000300")
    }

    @Test("OTLP JSON lines: the flow from the resource, steps from span names when asked, bad lines and spans reported")
    func otlpLines() {
        func request(_ spans: [String], flow: String) -> String {
            let body = #"{"resourceSpans": [{"resource": {"attributes": [{"key": "flow.name", "value": {"stringValue": "\#(flow)"}}]}, "#
                + #""scopeSpans": [{"spans": [\#(spans.joined(separator: ", "))]}]}]}"#
            return body.replacingOccurrences(of: "\n", with: " ")
        }
        let text = [
            request([Self.span(trace: "t1", id: "s1", name: "loadProfile", start: 5, end: 9),
                     Self.span(trace: "t1", id: "s2", name: "saveProfile", start: 10, end: 12, error: "disk full")], flow: "profile"),
            "{ this is not json",
            request([#"{"traceId": "t2", "spanId": "s9", "name": "broken"}"#], flow: "profile"),
        ].joined(separator: "\n")
        var mapping = SpanMapping()
        mapping.stepsFromSpanNames = true
        let records = RunRecordFormats.read(text, file: "collector.jsonl", format: OTLPTraces.format(mapping))
        #expect(lines(records) == ["start loadProfile @1", "finish loadProfile @1", "start saveProfile @1", "fail saveProfile error disk full @1"])
        #expect(problems(records) == [
            "invalid-input 2: not an OTLP JSON export request (a JSON object with 'resourceSpans'): line skipped",
            "invalid-input 3: span 'broken' needs traceId, spanId, name, startTimeUnixNano and endTimeUnixNano: skipped",
        ])
        // With the default mapping, spans without the step attribute are not steps.
        #expect(RunRecordFormats.read(text, file: "collector.jsonl").events.isEmpty)
    }
}
