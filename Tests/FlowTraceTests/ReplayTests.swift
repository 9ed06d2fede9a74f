import FlowLensTestSupport
import FlowLoaders
import FlowModel
import FlowRules
import FlowTrace
import Foundation
import Testing

/// Token replay of recorded runs on the flow graph (issue 19, point 2), on the Flow-iOS sample app's
/// own flows and run summaries written as the library writes them.
@Suite("Replaying runs")
struct ReplayTests {
    /// The sample app's Flow-iOS flows, read from its sources.
    static let graph: FlowGraph = {
        let folder = packageRoot + "/samples/flow-ios/PhotoShare"
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        return load(files.map { (folder + "/" + $0, try! String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) })
    }()

    static func flow(_ id: String) -> Flow { graph.flows.first { $0.id == id }! }

    /// One summary: the operations' lines (`name WillStart` …), then `Flow isSuccess: outcome`.
    static func summary(_ lines: [String], success: Bool) -> String {
        (["====== Flow Summary ======"] + lines.map { "10:02:11 [\($0)" } + ["Flow isSuccess: \(success)", "======    Ending    ======"])
            .joined(separator: "\n")
    }

    /// Replays every run of `log` on `flow`.
    static func replay(_ log: String, on flow: Flow) -> FlowTrace {
        var replayer = Replayer(flow: flow)
        for run in RunRecordFormats.read(log, file: "app.log").runs { replayer.replay(run.events) }
        return replayer.trace
    }

    /// `from → to: count` for every transition taken.
    static func taken(_ trace: FlowTrace, _ flow: Flow) -> [String] {
        flow.transitions.indices.filter { trace.transitionCounts[$0] > 0 }
            .map { "\(flow.transitions[$0].from) → \(flow.transitions[$0].to): \(trace.transitionCounts[$0])" }.sorted()
    }

    static func visits(_ trace: FlowTrace, _ flow: Flow) -> [String: Int] {
        Dictionary(flow.steps.indices.map { (flow.steps[$0].id, trace.stepVisits[$0]) }, uniquingKeysWith: +)
    }

    @Test("a case split: which branch each run took, the join passed silently, early finishes and failures")
    func shareAlbum() {
        let flow = Self.flow("AlbumViewController.shareAlbum")
        let log = [
            Self.summary(["TrackEventOp] WillStart", "TrackEventOp] DidFinish: successfully", "CreatePublicLinkOp] WillStart",
                          "CreatePublicLinkOp] DidFinish: successfully", "ComposeShareMessageOp] WillStart",
                          "ComposeShareMessageOp] DidFinish: successfully"], success: true),
            Self.summary(["TrackEventOp] WillStart", "TrackEventOp] DidFinish: successfully", "CreateInviteLinkOp] WillStart",
                          "CreateInviteLinkOp] DidFinish: successfully", "ComposeShareMessageOp] WillStart",
                          "ComposeShareMessageOp] DidFinish: successfully"], success: true),
            Self.summary(["TrackEventOp] WillStart", "TrackEventOp] DidFinish: successfully", "Cases] no case is matached. finished in early."],
                         success: true),
            Self.summary(["TrackEventOp] WillStart", "TrackEventOp] DidFinish: successfully", "CreatePublicLinkOp] WillStart",
                          "CreatePublicLinkOp] DidFinish: withError: The Internet connection appears to be offline."], success: false),
        ].joined(separator: "\n")
        let trace = Self.replay(log, on: flow)
        #expect(trace.runs == 4)
        #expect(Self.taken(trace, flow) == [
            "ComposeShareMessageOp → finish: 2", "CreateInviteLinkOp → combine: 1", "CreatePublicLinkOp → combine: 1",
            "TrackEventOp → CreateInviteLinkOp: 1", "TrackEventOp → CreatePublicLinkOp: 2", "combine → ComposeShareMessageOp: 2",
            "start → TrackEventOp: 4",
        ])
        #expect(Self.visits(trace, flow) == ["start": 0, "TrackEventOp": 4, "CreatePublicLinkOp": 2, "CreateInviteLinkOp": 1, "combine": 2,
                                              "ComposeShareMessageOp": 2, "finish": 2])
        #expect(trace.endings == ["success": 2, "no-case-matched": 1, "failure": 1])
        #expect(trace.failures.map { "\(flow.steps[$0.key.step!].id) \($0.key.reason) ×\($0.value.count) first in \($0.value.run)" }
                == ["CreatePublicLinkOp error ×1 first in app.log:25"])
        #expect(trace.deviations.isEmpty)
    }

    @Test("a group's concurrent instances are one visit of its step; a run that skips a step or names an unknown one leaves the graph")
    func groupAndDrift() {
        let flow = Self.flow("AlbumViewController.uploadAlbum")
        let log = [
            Self.summary(["MakeThumbnailOp] WillStart", "MakeThumbnailOp] DidFinish: successfully",
                          "UploadSingleImageOp 3F2A] WillStart", "UploadSingleImageOp 9C01] WillStart",
                          "UploadSingleImageOp 9C01] DidFinish: successfully", "UploadSingleImageOp 3F2A] DidFinish: successfully",
                          "SaveAlbumOp] WillStart", "SaveAlbumOp] DidFinish: successfully"], success: true),
            // Drift: the code no longer matches what runs (a build that skipped thumbnails, a new operation).
            Self.summary(["UploadSingleImageOp 0A1B] WillStart", "UploadSingleImageOp 0A1B] DidFinish: successfully",
                          "WatermarkOp] WillStart", "WatermarkOp] DidFinish: successfully",
                          "SaveAlbumOp] WillStart", "SaveAlbumOp] DidFinish: successfully"], success: true),
        ].joined(separator: "\n")
        let trace = Self.replay(log, on: flow)
        #expect(Self.visits(trace, flow)["UploadSingleImageOp"] == 2 && Self.visits(trace, flow)["SaveAlbumOp"] == 2)
        #expect(Self.taken(trace, flow) == [
            "MakeThumbnailOp → UploadSingleImageOp: 1", "SaveAlbumOp → finish: 2", "UploadSingleImageOp → SaveAlbumOp: 2",
            "start → MakeThumbnailOp: 1",
        ])
        let index = { (id: String) in flow.steps.firstIndex { $0.id == id }! }
        #expect(trace.deviations.mapValues(\.count) == [
            .noTransition(from: nil, to: index("UploadSingleImageOp")): 1,
            .unknownStep("WatermarkOp"): 1,
        ])
        #expect(trace.deviations[.unknownStep("WatermarkOp")]?.location.line == 15)
    }
}

/// Matching runs to flows, and `flowlens trace` end to end.
@Suite("Replaying records as a stream")
struct StreamedReplayTests {
    static let flow = """
        version: 1
        flows:
          - name: Checkout
            id: checkout
            steps:
              - {id: cart, next: [{to: pay, when: {key: method, equals: card}}, {to: invoice, otherwise: true}]}
              - {id: pay, next: ship}
              - {id: invoice, next: ship}
              - {id: ship, next: done}
              - {id: done, kind: end}
        """

    @Test("each run is replayed when it ends and forgotten; one with no end at the end of its file; the counts are those of reading it all")
    func builderHoldsOnlyOpenRuns() {
        let graph = load(Self.flow, file: "checkout.flow.yaml")
        // 3,000 runs, three going at any time (their lines interleaved), every 50th with no end.
        var lines: [String] = []
        for first in stride(from: 0, to: 3000, by: 3) {
            let runs = first..<(first + 3)
            for run in runs { lines.append(#"{"flow": "checkout", "run": "\#(run)", "step": "cart", "event": "start"}"#) }
            for run in runs { lines.append(#"{"flow": "checkout", "run": "\#(run)", "step": "\#(run % 4 == 0 ? "invoice" : "pay")", "event": "start"}"#) }
            for run in runs { lines.append(#"{"flow": "checkout", "run": "\#(run)", "step": "ship", "event": "start"}"#) }
            for run in runs where run % 50 != 0 { lines.append(#"{"flow": "checkout", "run": "\#(run)", "event": "end", "reason": "success"}"#) }
        }
        let records = RunRecordFormats.read(lines.joined(separator: "\n"), file: "runs.jsonl")
        var builder = TraceReport.Builder(flows: graph.flows)
        var mostOpen = 0
        for event in records.events {
            builder.add(RunRecords(events: [event]))
            mostOpen = max(mostOpen, builder.openRuns)
        }
        // The 60 runs with no end stay open until the file ends; the others, three at most.
        #expect(mostOpen <= 3 + 60)
        #expect(builder.openRuns == 60)
        builder.endOfFile()
        #expect(builder.openRuns == 0)
        let streamed = builder.report
        let trace = try! #require(streamed.traces.first)
        #expect(trace.runs == 3000)
        #expect(trace.endings == ["success": 2940, "no end recorded": 60])
        #expect(ReplayTests.visits(trace, graph.flows[0]) == ["cart": 3000, "pay": 2250, "invoice": 750, "ship": 3000, "done": 2940])
        // Read whole, replayed run by run in the order they began: the same counts.
        var replayer = Replayer(flow: graph.flows[0])
        for run in records.runs { replayer.replay(run.events) }
        #expect(replayer.trace.stepVisits == trace.stepVisits && replayer.trace.transitionCounts == trace.transitionCounts)
        #expect(replayer.trace.paths == trace.paths && replayer.trace.endings == trace.endings)
    }
}

@Suite("Replaying parallel branches, groups and failures")
struct BranchesAndGroupsReplayTests {
    static let flow = """
        version: 1
        flows:
          - name: Publish
            id: publish
            data: {photos: "[String]"}
            steps:
              - {id: prepare, next: [resize, tag]}
              - {id: resize, next: merge}
              - {id: tag, next: merge}
              - {id: merge, kind: join, next: upload}
              - id: upload
                group: {inputKey: photos, elementKey: photo, maxConcurrent: 2}
                next: [{to: done}, {to: failed, kind: error}]
              - {id: done, kind: end}
              - {id: failed, kind: fail}
        """

    func replay(_ events: String) -> (trace: FlowTrace, flow: Flow) {
        let graph = load(Self.flow, file: "publish.flow.yaml")
        let report = TraceReport.replaying([RunRecordFormats.read(events, file: "runs.jsonl")], on: graph.flows)
        return (report.traces[0], graph.flows[0])
    }

    @Test("branches of a parallel split in either order meet at the join; a group's instances, some after others finished, are one visit; a failed run's error way to its fail exit; an empty group's stop at the group")
    func branchesGroupsFailures() {
        func line(_ run: Int, _ event: String, _ step: String? = nil, _ more: String = "") -> String {
            #"{"flow": "publish", "run": \#(run), "event": "\#(event)""# + (step.map { #", "step": "\#($0)""# } ?? "") + more + "}"
        }
        let runs = [
            line(1, "start", "prepare"), line(1, "finish", "prepare"), line(1, "start", "resize"), line(1, "start", "tag"),
            line(1, "finish", "resize"), line(1, "finish", "tag"),
            line(1, "start", "upload", #", "instance": "a1""#), line(1, "start", "upload", #", "instance": "b2""#),
            line(1, "finish", "upload", #", "instance": "a1""#), line(1, "start", "upload", #", "instance": "c3""#),
            line(1, "finish", "upload", #", "instance": "b2""#), line(1, "finish", "upload", #", "instance": "c3""#),
            line(1, "end", nil, #", "reason": "success""#),
            line(2, "start", "prepare"), line(2, "start", "tag"), line(2, "start", "resize"),
            line(2, "start", "upload", #", "instance": "d4""#), line(2, "fail", "upload", #", "instance": "d4", "reason": "error""#),
            line(2, "end", nil, #", "reason": "failure""#),
            line(3, "start", "prepare"), line(3, "start", "resize"), line(3, "start", "tag"),
            line(3, "stop", nil, #", "reason": "empty-group", "key": "photos""#),
        ].joined(separator: "\n")
        let (trace, flow) = replay(runs)
        #expect(trace.deviations.isEmpty, "\(trace.deviations)")
        #expect(ReplayTests.visits(trace, flow) == ["prepare": 3, "resize": 3, "tag": 3, "merge": 3, "upload": 3, "done": 1, "failed": 1])
        #expect(ReplayTests.taken(trace, flow) == ["merge → upload: 3", "prepare → resize: 3", "prepare → tag: 3", "resize → merge: 3",
                                                   "tag → merge: 3", "upload → done: 1", "upload → failed: 1"])
        #expect(trace.endings == ["success": 1, "failure": 1, "empty-group": 1])
        let upload = flow.steps.firstIndex { $0.id == "upload" }
        #expect(trace.stops.map { "\($0.key.step.map { flow.steps[$0].id } ?? "-") \($0.key.reason) ×\($0.value.count)" } == ["upload empty-group ×1"])
        #expect(trace.stepRuns[upload!] == 3)
        // A step the run has no way to: still a move off the graph, from the branch it was on last.
        let (drifted, _) = replay([line(4, "start", "prepare"), line(4, "start", "resize"), line(4, "start", "done")].joined(separator: "\n"))
        #expect(drifted.deviations.keys.map { "\($0)" } == ["noTransition(from: Optional(1), to: 5)"])
    }

    @Test("a step that failed goes on by its error transition, also to the step its normal one leads to; then by the first way to a fail exit")
    func failureWays() {
        let graph = load("""
            version: 1
            flows:
              - name: Sync
                id: sync
                steps:
                  - {id: fetch, next: [{to: report}, {to: report, kind: error}]}
                  - {id: report, next: [{to: done, when: "no error"}, {to: gaveUp, when: error}]}
                  - {id: done, kind: end}
                  - {id: gaveUp, kind: fail}
            """, file: "sync.flow.yaml")
        let runs = """
            {"flow": "sync", "run": 1, "step": "fetch", "event": "start"}
            {"flow": "sync", "run": 1, "step": "fetch", "event": "fail", "reason": "error"}
            {"flow": "sync", "run": 1, "step": "report", "event": "start"}
            {"flow": "sync", "run": 1, "event": "end", "reason": "failure"}
            {"flow": "sync", "run": 2, "step": "fetch", "event": "start"}
            {"flow": "sync", "run": 2, "step": "report", "event": "start"}
            {"flow": "sync", "run": 2, "event": "end", "reason": "success"}
            {"flow": "sync", "run": 3, "step": "fetch", "event": "start"}
            {"flow": "sync", "run": 3, "step": "fetch", "event": "fail", "reason": "error"}
            {"flow": "sync", "run": 3, "step": "fetch", "event": "start"}
            {"flow": "sync", "run": 3, "step": "report", "event": "start"}
            """
        let report = TraceReport.replaying([RunRecordFormats.read(runs, file: "runs.jsonl")], on: graph.flows)
        let trace = report.traces[0], flow = graph.flows[0]
        // Run 3 retried fetch (a move off the graph: no way from fetch back to itself), and its retry went the normal way.
        let ways = flow.transitions.indices.map { "\(flow.transitions[$0].from) → \(flow.transitions[$0].to) \(flow.transitions[$0].kind): \(trace.transitionCounts[$0])" }
        #expect(ways == ["fetch → report normal: 2", "fetch → report error: 1", "report → done normal: 1", "report → gaveUp normal: 1"])
        #expect(ReplayTests.visits(trace, flow) == ["fetch": 4, "report": 3, "done": 1, "gaveUp": 1])
    }

    @Test("a run that reached a step twice is one run there: the summary says runs, not visits")
    func runsNotVisits() {
        let graph = load("""
            version: 1
            flows:
              - name: Review
                id: review
                data: {draft: String}
                steps:
                  - {id: edit, reads: {draft: String, note: String}, next: check}
                  - {id: check, next: [{to: edit, when: {key: verdict, equals: rework}}, {to: done, otherwise: true}]}
                  - {id: done, kind: end}
            """, file: "review.flow.yaml")
        let runs = """
            {"flow": "review", "run": 1, "step": "edit", "event": "start"}
            {"flow": "review", "run": 1, "step": "check", "event": "start"}
            {"flow": "review", "run": 1, "step": "edit", "event": "start"}
            {"flow": "review", "run": 1, "step": "check", "event": "start"}
            {"flow": "review", "run": 1, "event": "end", "reason": "success"}
            {"flow": "review", "run": 2, "step": "edit", "event": "start"}
            {"flow": "review", "run": 2, "step": "edit", "event": "fail", "reason": "error", "detail": "offline"}
            """
        var report = TraceReport.replaying([RunRecordFormats.read(runs, file: "runs.jsonl")], on: graph.flows)
        report.staticFindings = Analyzer().analyze(graph)
        let lines = report.text.split(separator: "\n").filter { $0.contains("reached edit") }
        // 'note' is read and set by no one; run 2 failed at edit with an error, not on that key.
        #expect(lines == ["    missing-data-key 'note': 2 of 2 runs reached edit"], "\(report.text)")
    }
}

@Suite("Coverage by recorded runs (never-reached)")
struct CoverageTests {
    @Test("no note for a way runs may have taken without their records saying so: one of two exits, a failing step's error way, a second condition to the same step")
    func unrecordedWays() {
        let graph = load("""
            version: 1
            flows:
              - name: Returns
                id: returns
                data: {reason: String}
                steps:
                  - {id: inspect, next: [{to: refund, when: {key: reason, equals: damaged}}, {to: refund, when: {key: reason, equals: late}}, {to: repair, otherwise: true}]}
                  - {id: refund, next: [{to: refunded, when: "paid"}, {to: credited, when: "store credit"}, {to: refundFailed, kind: error}]}
                  - {id: repair, next: [{to: refund, when: "beyond repair"}, {to: repaired, otherwise: true}]}
                  - {id: refunded, kind: end}
                  - {id: credited, kind: end}
                  - {id: repaired, kind: end}
                  - {id: refundFailed, kind: fail}
            """, file: "returns.flow.yaml")
        let runs = """
            {"flow": "returns", "run": 1, "step": "inspect", "event": "start"}
            {"flow": "returns", "run": 1, "step": "refund", "event": "start"}
            {"flow": "returns", "run": 1, "event": "end", "reason": "success"}
            {"flow": "returns", "run": 2, "step": "inspect", "event": "start"}
            {"flow": "returns", "run": 2, "step": "repair", "event": "start"}
            {"flow": "returns", "run": 2, "step": "refund", "event": "start"}
            {"flow": "returns", "run": 2, "step": "refund", "event": "fail", "reason": "error"}
            {"flow": "returns", "run": 2, "event": "end", "reason": "failure"}
            """
        let report = TraceReport.replaying([RunRecordFormats.read(runs, file: "runs.jsonl")], on: graph.flows)
        let notes = TraceRules.findings(of: report, staticFindings: Analyzer().analyze(graph)).filter { $0.rule == "never-reached" }.map(\.message)
        // (repaired, an exit no run reached, is not a step runs run code at: not reported.)
        #expect(notes.isEmpty, "\(notes)")
        // Not said: inspect → refund on 'late' (the run may have had either reason), refund → credited
        // (which exit run 1 ended at is not recorded); refund → refundFailed run 2 took (it failed there).
        let trace = report.traces[0], flow = graph.flows[0]
        #expect(trace.unrecordedWays(on: flow, graph: FlowIndex(flow)).map { "\(flow.transitions[$0].from)→\(flow.transitions[$0].to)" }.sorted()
                == ["inspect→refund", "refund→credited"])
    }

    static let flow = """
        version: 1
        flows:
          - name: Claims
            id: claims
            data: {amount: Int, tier: String}
            steps:
              - {id: intake, next: [{to: assess, kind: normal}, {to: manualReview, kind: error}]}
              - {id: assess, next: [{to: payOut, when: {key: tier, equals: gold}}, {to: manualReview, when: {key: tier, equals: basic}}, {to: reject, otherwise: true}]}
              - {id: manualReview, next: [{to: assess, label: reassess}, {to: payOut, label: approved}]}
              - {id: payOut, next: done}
              - {id: reject, next: done}
              - {id: archive, next: done}
              - {id: done, kind: end}
        """

    func coverage(_ events: String) -> [String] {
        let graph = load(Self.flow, file: "claims.flow.yaml")
        let statics = Analyzer().analyze(graph)
        let report = TraceReport.replaying([RunRecordFormats.read(events, file: "runs.jsonl")], on: graph.flows)
        return TraceRules.findings(of: report, staticFindings: statics).filter { $0.rule == "never-reached" }
            .map { "\($0.location!.line) \($0.severity) \($0.step ?? "-") \($0.edge.map { "\($0.from)→\($0.to)" } ?? "-"): \($0.message)" }
    }

    @Test("steps no run reached and ways out no run took, with the counts; exits, unreachable steps and unreached targets are not repeated")
    func neverReached() {
        let runs = """
            {"flow": "claims", "run": "a", "step": "intake", "event": "start"}
            {"flow": "claims", "run": "a", "step": "assess", "event": "start"}
            {"flow": "claims", "run": "a", "step": "manualReview", "event": "start"}
            {"flow": "claims", "run": "a", "step": "assess", "event": "start"}
            {"flow": "claims", "run": "a", "step": "payOut", "event": "start"}
            {"flow": "claims", "run": "a", "event": "end", "reason": "success"}
            {"flow": "claims", "run": "b", "step": "intake", "event": "start"}
            {"flow": "claims", "run": "b", "step": "assess", "event": "start"}
            {"flow": "claims", "run": "b", "step": "payOut", "event": "start"}
            {"flow": "claims", "run": "b", "event": "end", "reason": "success"}
            """
        #expect(coverage(runs) == [
            // intake failed in no run: its error way was never taken, though manualReview was reached.
            "7 note intake intake→manualReview: recorded runs reached intake 2 times and never went on from there to manualReview",
            // assess was reached three times (run a twice); no run was rejected, which is a step finding.
            "9 note manualReview manualReview→payOut: recorded runs reached manualReview 1 time and never went on from there to payOut (when approved)",
            "11 note reject -: none of the 2 recorded runs reached reject",
        ])
        // archive: static analysis reports it unreachable; done: an exit, which runs pass silently.
        #expect(!coverage(runs).contains { $0.contains("archive") || $0.contains(" done") })
        // One run: said of the one run; once every way is taken, nothing is reported.
        #expect(coverage(runs.split(separator: "\n").suffix(4).joined(separator: "\n")).contains("11 note reject -: the one recorded run did not reach reject"))
        let all = runs + "\n" + """
            {"flow": "claims", "run": "c", "step": "intake", "event": "start"}
            {"flow": "claims", "run": "c", "step": "intake", "event": "fail", "reason": "error"}
            {"flow": "claims", "run": "c", "step": "manualReview", "event": "start"}
            {"flow": "claims", "run": "c", "step": "payOut", "event": "start"}
            {"flow": "claims", "run": "d", "step": "intake", "event": "start"}
            {"flow": "claims", "run": "d", "step": "assess", "event": "start"}
            {"flow": "claims", "run": "d", "step": "reject", "event": "start"}
            """
        #expect(coverage(all).isEmpty, "\(coverage(all))")
    }
}

@Suite("Matching runs to flows")
struct RunMatchingTests {
    let flows = ReplayTests.graph.flows

    func matched(_ log: String) -> [String] {
        let report = TraceReport.replaying([RunRecordFormats.read(log, file: "device.log")], on: flows)
        return report.traces.map { "\($0.flow) ×\($0.runs)" } + report.unmatched.map { "unmatched @\($0.location.line): \($0.reason)" }
    }

    @Test("a Flow-iOS summary names no flow: the steps decide, then the keys it started with; a true tie is said, not guessed")
    func bySteps() {
        let renamedKey = ReplayTests.summary(["DataBucket] start with:", "LoginOp] WillStart",
                                              "LoginOp] DidFinish: withInsufficientInputData: can't find <email> in data bucket"], success: false)
            .replacingOccurrences(of: "start with:\n", with: "start with:\nemail_address: anna@example.com\npassword: 123456\n")
        let noKeys = ReplayTests.summary(["LoginOp] WillStart", "LoginOp] DidFinish: successfully"], success: true)
        let album = ReplayTests.summary(["MakeThumbnailOp] WillStart", "MakeThumbnailOp] DidFinish: successfully"], success: false)
        #expect(matched([renamedKey, noKeys, album].joined(separator: "\n")) == [
            "AlbumViewController.uploadAlbum ×1",
            "BrokenFlowsViewController.loginWithRenamedEmailKey ×1",
            // Not loginWithDemoAccount: it validates the credentials before LoginOp, so this run would leave its graph.
            "unmatched @10: the steps it started (LoginOp) fit 3 flows equally: BrokenFlowsViewController.loginWithRenamedEmailKey, "
                + "BrokenFlowsViewController.loginWithNumericPassword, LoginViewController.loginFromForm",
        ])
    }

    @Test("an event names its flow by id or name; an unknown or shared name is said")
    func byName() {
        let lines = [
            #"{"flow": "AlbumViewController.exportAlbum", "run": 1, "step": "SimplePrintOp", "event": "start"}"#,
            #"{"flow": "NoSuchFlow", "run": 2, "step": "SimplePrintOp", "event": "start"}"#,
        ].joined(separator: "\n")
        #expect(matched(lines) == [
            "AlbumViewController.exportAlbum ×1",
            "unmatched @2: it names flow 'NoSuchFlow', which no flow read has as its id or name",
        ])
    }
}

/// The conformance findings beyond the rules' own examples.
@Suite("Conformance findings")
struct ConformanceTests {
    static let flow = """
        version: 1
        flows:
          - name: Login
            id: login
            steps:
              - {id: signIn, reads: {email: String, password: String}, next: profile}
              - {id: profile, reads: {token: String}, next: done}
              - {id: done, kind: end}
        """

    func conformance(_ events: String) -> (findings: [Finding], statics: [Finding]) {
        let graph = load(Self.flow, file: "login.flow.yaml")
        let statics = Analyzer().analyze(graph)
        let report = TraceReport.replaying([RunRecordFormats.read(events, file: "runs.jsonl")], on: graph.flows)
        return (TraceRules.findings(of: report, staticFindings: statics), statics)
    }

    @Test("a failure static analysis predicted is not reported again; one it did not predict is, at its step, with the first record")
    func predictedOrNot() {
        let (findings, statics) = conformance("""
            {"flow": "login", "run": "1", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "1", "step": "signIn", "event": "fail", "reason": "missing-key", "key": "email"}
            {"flow": "login", "run": "2", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "2", "step": "signIn", "event": "fail", "reason": "missing-key", "key": "email"}
            {"flow": "login", "run": "3", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "3", "step": "profile", "event": "start"}
            {"flow": "login", "run": "3", "step": "profile", "event": "fail", "reason": "type-mismatch", "key": "token"}
            """)
        // Static analysis predicts the missing email (nothing sets it) and the missing token, not a token of another type.
        #expect(statics.contains { $0.rule == "missing-data-key" && $0.step == "signIn" && $0.key == "email" })
        #expect(findings.map { "\($0.rule) \($0.location!.line) \($0.message) | \($0.related.map { "\($0.location.line)" })" } == [
            "failure-not-predicted 7 1 run failed at profile: key 'token' of another type; static analysis did not predict it | [\"7\"]",
        ])
    }

    @Test("runs that all stop at a case split are reported; when one run of them went on, they are not")
    func someRunsGoOn() {
        let stop = """
            {"flow": "login", "run": "1", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "1", "event": "stop", "reason": "no-case-matched"}
            """
        #expect(conformance(stop).findings.filter { $0.rule == "no-case-matched" }.map(\.message) == ["the one run that reached signIn ended there: no case matched"])
        let goesOn = stop + "\n" + """
            {"flow": "login", "run": "2", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "2", "step": "profile", "event": "start"}
            """
        #expect(conformance(goesOn).findings.filter { $0.rule == "no-case-matched" }.isEmpty)
    }

    @Test("the summary ranks the static findings by the runs that reached them, and says when none did")
    func staticFindingsByRuns() {
        let graph = load(Self.flow, file: "login.flow.yaml")
        var report = TraceReport.replaying([RunRecordFormats.read("""
            {"flow": "login", "run": "1", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "1", "step": "signIn", "event": "fail", "reason": "missing-key", "key": "email"}
            {"flow": "login", "run": "2", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "2", "step": "signIn", "event": "fail", "reason": "missing-key", "key": "email"}
            """, file: "runs.jsonl")], on: graph.flows)
        report.staticFindings = Analyzer().analyze(graph)
        #expect(report.text.contains("""
              static findings, by the runs that reached them:
                missing-data-key 'email': 2 of 2 runs reached signIn, 2 failed there on this key
                missing-data-key 'password': 2 of 2 runs reached signIn
                missing-data-key 'token': no run of 2 reached profile

            """), "\(report.text)")
    }
}
