import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The recorded runs in `samples/runs/` (issue 19, "Done when"): simulated runs of the samples' own
/// flows, by their libraries' run-time semantics, written in the three record formats by a committed
/// generator (`Tests/Support/RunGenerator.swift`, `RunWriters.swift`, `SampleRuns.swift`). Here they
/// are read by the real readers and replayed by `FlowLens.trace`, as `flowlens trace samples/runs/…
/// samples` does, and what the replay finds is compared with what the generator did.
@Suite("Recorded runs of the samples")
struct RecordedRunsTests {
    /// The samples' flows, as `flowlens check samples` reads them.
    static let graph = SourceLoader().load(paths: ["samples"], workingDirectory: packageRoot)
    static let files = SampleRuns.files(graph.flows)
    /// The files traced on all the samples.
    static let onSamples = files.filter { $0.paths == ["samples"] }
    /// `flowlens trace samples/runs/… samples`.
    static let traced = FlowLens.trace(records: onSamples.map { SampleRuns.folder + "/" + $0.name }, paths: ["samples"],
                                       workingDirectory: packageRoot).report
    /// The share flow's runs, traced on their screen's flows (`SampleRuns`).
    static let sharing = files.first { $0.name == "photoshare-sharing.log" }!
    static let tracedSharing = FlowLens.trace(records: [SampleRuns.folder + "/" + sharing.name], paths: sharing.paths,
                                              workingDirectory: packageRoot).report

    @Test("the committed files are what the generator writes (FLOWLENS_UPDATE_GOLDEN=1 rewrites them)")
    func committedFilesAreGenerated() throws {
        let folder = packageRoot + "/" + SampleRuns.folder
        for file in Self.files {
            let path = folder + "/" + file.name
            if ProcessInfo.processInfo.environment["FLOWLENS_UPDATE_GOLDEN"] == "1" {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try file.text.write(toFile: path, atomically: true, encoding: .utf8)
                Issue.record("\(file.name) was rewritten; run the tests again without FLOWLENS_UPDATE_GOLDEN")
                continue
            }
            let committed = try String(contentsOfFile: path, encoding: .utf8)
            #expect(committed == file.text, "\(file.name) differs from what the generator writes")
        }
        // `readBack` reads each of them.
        #expect(Self.files.map(\.name) == ["photoshare-albums.log", "photoshare-sharing.log", "shop-events.jsonl", "profileapp-events.jsonl",
                                           "elevate-events.jsonl", "login-traces.otlp.json", "login-traces-collector.otlp.jsonl",
                                           "image-import-traces.otlp.jsonl"])
        // Same seed, same bytes.
        #expect(SampleRuns.files(Self.graph.flows).map(\.text) == Self.files.map(\.text))
        let total = Self.files.reduce(0) { $0 + $1.text.utf8.count }
        #expect(total < 1_000_000)
    }

    @Test("run files in samples/ are not read as flows: check samples reads the same files with and without them")
    func runsAreNotFlows() {
        let files = Self.graph.files
        #expect(!files.contains { $0.hasPrefix(SampleRuns.folder) })
        #expect(!Self.graph.loadFindings.contains { $0.location?.file.hasPrefix(SampleRuns.folder) ?? false })
    }

    /// The truth about one flow's runs across all files: what the generator did, in the order the
    /// records show the runs, with runs named as the readers name them.
    static func truth(_ flow: String) -> RunTally {
        var tally = RunTally()
        for file in files {
            for var run in file.runs where run.flow == flow {
                run.id = file.recordedID[run.id] ?? run.id
                tally.add(run)
            }
        }
        return tally
    }

    /// The replay of one flow, in the truth's terms.
    static func replayed(_ flowID: String, in report: TraceReport = traced) -> RunTally {
        var tally = RunTally()
        guard let flow = report.flows.first(where: { $0.id == flowID }), let trace = report.traces.first(where: { $0.flow == flowID }) else { return tally }
        let name = { (step: Int?) in step.map { flow.steps[$0].id } ?? "the start" }
        tally.runs = trace.runs
        for (i, count) in trace.stepVisits.enumerated() where count > 0 { tally.visits[flow.steps[i].id, default: 0] += count }
        for (i, count) in trace.transitionCounts.enumerated() where count > 0 { tally.transitions[i] = count }
        tally.endings = trace.endings
        for (failure, example) in trace.failures {
            tally.failures["\(name(failure.step)) \(failure.reason) \(failure.key ?? "-")"] = .init(count: example.count, run: example.run)
        }
        for (stop, example) in trace.stops { tally.stops["\(name(stop.step)) \(stop.reason)"] = .init(count: example.count, run: example.run) }
        for (deviation, example) in trace.deviations {
            switch deviation {
            case let .unknownStep(step): tally.drift["unknown \(step)"] = .init(count: example.count, run: example.run)
            case let .noTransition(from, to): tally.drift["\(name(from)) → \(name(to))"] = .init(count: example.count, run: example.run)
            }
        }
        for (path, count) in trace.paths { tally.paths[path.isEmpty ? "no step" : path.map { flow.steps[$0].id }.joined(separator: " → "), default: 0] += count }
        return tally
    }

    /// `from → to` of transition `index` of `flow`.
    static func edge(_ flow: String, _ index: Int) -> String {
        let transition = graph.flows.first { $0.id == flow }!.transitions[index]
        return "\(transition.from) → \(transition.to)"
    }

    static func edges(_ flow: String, _ counts: [Int: Int]) -> [String: Int] {
        Dictionary(counts.map { (edge(flow, $0.key) + " #\($0.key)", $0.value) }, uniquingKeysWith: +)
    }

    @Test("every record is read, and every run is matched to the flow it is a run of")
    func readAndMatched() {
        let problems = Self.traced.findings.filter { $0.location?.file.hasPrefix(SampleRuns.folder) ?? true }
        #expect(problems.map(\.message) == [])
        // Every run, also one that starts no step (an empty group first: its summary has only the keys it
        // started with, which name its flow).
        var runsByFlow: [String: Int] = [:]
        for file in Self.onSamples { for run in file.runs { runsByFlow[run.flow, default: 0] += 1 } }
        #expect(Self.traced.unmatched.map { "\($0.location.file):\($0.location.line) \($0.reason)" } == [])
        #expect(Dictionary(uniqueKeysWithValues: Self.traced.traces.map { ($0.flow, $0.runs) }) == runsByFlow)
    }

    /// Flows whose replay agrees with the generator in every count.
    @Test("the replay counts exactly what the runs did", arguments: [
        "BrokenFlowsViewController.openBillingForEnterprise", "onboarding", "LoginFlow", "CreateAccount",
    ])
    func exactCounts(_ flow: String) {
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        #expect(truth.runs > 0)
        #expect(replay.runs == truth.runs)
        #expect(replay.visits == truth.visits)
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.stops == truth.stops)
        #expect(replay.drift == truth.drift)
        #expect(replay.paths == truth.paths)
    }

    @Test("a failed step's error transition to its fail exit (a declined card, a thrown error) is counted with the rest", arguments: [
        "checkout", "charge-card", "ImageImportProgression",
    ])
    func failureExits(_ flow: String) {
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        #expect(truth.runs > 0)
        #expect(truth.transitions.keys.contains { Self.graph.flows.first { $0.id == flow }!.transitions[$0].kind == .error })
        #expect(replay.runs == truth.runs)
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.stops == truth.stops)
        #expect(replay.drift == truth.drift)
        #expect(replay.paths == truth.paths)
        #expect(replay.visits == truth.visits)
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
    }

    @Test("a Flow-iOS group: its instances (one visit, however many start after others finished), an empty list and a failing element")
    func groups() {
        let flow = "AlbumViewController.uploadAlbum"
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        #expect(replay.runs == truth.runs)
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.drift == truth.drift)
        #expect(replay.visits == truth.visits)
        // An empty list: the run reached the group (its dispatcher found nothing to run) and stopped there.
        #expect(replay.stops == truth.stops)
        #expect(truth.stops.keys.contains("UploadSingleImageOp empty-group"))
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
        #expect(replay.paths == truth.paths)
    }

    @Test("a Flow-iOS group whose element operation always fails on a key the group's private bucket lacks")
    func groupAlwaysFails() {
        let flow = "BrokenFlowsViewController.watermarkSelection"
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        // Runs whose list was empty start no step: the summary has only the keys the run started with
        // (`images`, `watermarkText`), which only this flow starts with.
        #expect(truth.stops.keys.contains("WatermarkImageOp empty-group"))
        #expect(replay.failures == truth.failures)
        #expect(replay.runs == truth.runs)
        #expect(replay.stops == truth.stops)
        #expect(replay.visits == truth.visits)
    }
}

extension RecordedRunsTests {
    /// A conformance finding as the tests compare it: rule, flow, step, key, edge, and how many runs
    /// (or, for a way never taken, how many times runs reached its step).
    struct Conformance: Hashable, CustomStringConvertible {
        var rule: String, flow: String, step: String?, key: String?, edge: String? = nil, runs: Int
        var description: String { "\(rule) \(flow) \(step ?? "-") \(key ?? "-") \(edge ?? "-") ×\(runs)" }
    }

    /// The conformance findings the generator's truth calls for, in every flow that has runs: a move
    /// off the graph for each drift, a failure no static finding predicted for each missing key or type
    /// mismatch whose step and key no `missing-data-key` / `type-mismatch` finding names, and a case
    /// split every run that reached it stopped at for no case matching; and coverage: each step that runs
    /// code no run reached (but one `unreachable-step` reports), and each way out of a reached step with
    /// several that no run took to a step runs reached otherwise.
    static func expectedConformance(_ files: [SampleRuns.File] = onSamples, _ report: TraceReport = traced) -> Set<Conformance> {
        var expected: Set<Conformance> = []
        let flows = Set(files.flatMap { $0.runs.map(\.flow) })
        for flow in flows {
            let truth = Self.truth(flow)
            for (move, example) in truth.drift {
                if move.hasPrefix("unknown ") {
                    expected.insert(Conformance(rule: "run-off-graph", flow: flow, step: nil, key: nil, runs: example.count))
                } else {
                    let ends = move.components(separatedBy: " → ")
                    expected.insert(Conformance(rule: "run-off-graph", flow: flow, step: ends[1], key: nil,
                                                edge: ends[0] == "the start" ? nil : ends[0] + "→" + ends[1], runs: example.count))
                }
            }
            for (failure, example) in truth.failures {
                let parts = failure.split(separator: " ").map(String.init)
                let (step, reason, key) = (parts[0], parts[1], parts[2])
                let rule = reason == "missing-key" ? "missing-data-key" : reason == "type-mismatch" ? "type-mismatch" : nil
                guard let rule, key != "-" else { continue }
                let predicted = report.staticFindings.contains { $0.rule == rule && $0.flow == flow && $0.step == step && $0.key == key }
                if !predicted { expected.insert(Conformance(rule: "failure-not-predicted", flow: flow, step: step, key: key, runs: example.count)) }
            }
            for (stop, example) in truth.stops where stop.hasSuffix(" no-case-matched") {
                let step = String(stop.dropLast(" no-case-matched".count))
                if truth.visits[step] == example.count {
                    expected.insert(Conformance(rule: "no-case-matched", flow: flow, step: step, key: nil, runs: example.count))
                }
            }
            let model = graph.flows.first { $0.id == flow }!
            let unreachable = Set(report.staticFindings.filter { $0.rule == "unreachable-step" && $0.flow == flow }.compactMap(\.step))
            for step in model.steps where truth.visits[step.id] == nil && !unreachable.contains(step.id)
                && [.operation, .group, .subflow, .state, .callback].contains(step.kind) {
                expected.insert(Conformance(rule: "never-reached", flow: flow, step: step.id, key: nil, runs: truth.runs))
            }
            for step in model.steps {
                guard let reached = truth.visits[step.id] else { continue }
                let ways = model.transitions.indices.filter {
                    model.transitions[$0].from == step.id && model.transitions[$0].kind != .parallel && model.step(model.transitions[$0].to) != nil
                }
                guard ways.count > 1 else { continue }
                for way in ways where truth.transitions[way] == nil && truth.visits[model.transitions[way].to] != nil {
                    expected.insert(Conformance(rule: "never-reached", flow: flow, step: step.id, key: nil,
                                                edge: step.id + "→" + model.transitions[way].to, runs: reached))
                }
            }
        }
        return expected
    }

    static func actualConformance(_ report: TraceReport = traced) -> Set<Conformance> {
        Set(report.conformance.map { finding in
            let runs = finding.message.hasPrefix("the one run") ? 1 : Int(finding.message.split(separator: " ").first { Int($0) != nil }!)!
            return Conformance(rule: finding.rule, flow: finding.flow ?? "-", step: finding.step, key: finding.key,
                               edge: finding.edge.map { $0.from + "→" + $0.to }, runs: runs)
        })
    }

    @Test("flowlens trace's conformance findings are the ones the runs call for, and none other")
    func conformance() {
        let expected = Self.expectedConformance(), actual = Self.actualConformance()
        #expect(!expected.isEmpty)
        #expect(actual.sorted { $0.description < $1.description } == expected.sorted { $0.description < $1.description })
        // Each kind is there: drift, failures static analysis missed, a case split no run got past, coverage.
        #expect(Set(expected.map(\.rule)) == ["run-off-graph", "failure-not-predicted", "no-case-matched", "never-reached"])
        // The controller never returns .prompt from CreateAccount: no run takes that way (unimplemented-transition).
        #expect(expected.contains(Conformance(rule: "never-reached", flow: "LoginFlow", step: "CreateAccount", key: nil,
                                              edge: "CreateAccount→Prompt", runs: Self.truth("LoginFlow").visits["CreateAccount"]!)))
        // A failure static analysis predicted is not reported again.
        #expect(!actual.contains { $0.flow == "BrokenFlowsViewController.watermarkSelection" })
    }
}

extension RecordedRunsTests {
    /// `N runs: n reason, …` from the replay, endings most first.
    static func inWords(_ flow: String, in report: TraceReport = traced) -> String {
        let replay = replayed(flow, in: report)
        return "\(replay.runs) runs: " + replay.endings.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
            .joined(separator: ", ")
    }

    @Test("the committed runs, in numbers")
    func inNumbers() {
        #expect(Self.inWords("checkout") == "180 runs: 155 success, 25 failure")
        #expect(Self.inWords("charge-card") == "99 runs: 89 success, 10 failure")
        #expect(Self.inWords("onboarding") == "80 runs: 76 success, 4 failure")
        #expect(Self.inWords("AlbumViewController.uploadAlbum") == "130 runs: 107 success, 13 failure, 5 empty-group, 5 group-failure")
        #expect(Self.inWords("BrokenFlowsViewController.watermarkSelection") == "40 runs: 38 group-failure, 2 empty-group")
        #expect(Self.inWords("BrokenFlowsViewController.openBillingForEnterprise") == "30 runs: 30 no-case-matched")
        #expect(Self.inWords("LoginFlow") == "50 runs: 48 success, 2 failure")
        #expect(Self.inWords("CreateAccount") == "31 runs: 31 success")
        #expect(Self.inWords("OnboardingCoordinator") == "60 runs: 60 success")
        #expect(Self.inWords("LoginController.login_task") == "60 runs: 57 success, 3 failure")
        #expect(Self.inWords("ImageImportProgression") == "40 runs: 37 success, 3 failure")
        // Every card charge that failed failed its checkout's chargeCard step.
        #expect(Self.replayed("checkout").failures["chargeCard error -"]?.count == 10)
        // The predicted failure: every watermark run fails on the key the group's private bucket lacks.
        #expect(Self.replayed("BrokenFlowsViewController.watermarkSelection").failures["WatermarkImageOp missing-key watermarkText"]?.count == 38)
        // The controller's own drift: onAuthenticate moves to ForgotPass, which the diagram has no transition for.
        #expect(Self.replayed("LoginFlow").drift["Authenticate → ForgotPass"]?.count == 7)
        #expect(Self.replayed("checkout").drift.values.map(\.count).reduce(0, +) == 6)
        // Steps the runs never reached: none (the samples' flows are small; every branch is taken).
        for trace in Self.traced.traces where trace.runs > 20 {
            let flow = Self.traced.flows.first { $0.id == trace.flow }!
            let never = flow.steps.indices.filter { trace.stepVisits[$0] == 0 && [.operation, .group, .state, .subflow].contains(flow.steps[$0].kind) }
            #expect(never.isEmpty || trace.flow == "BrokenFlowsViewController.openBillingForEnterprise", "\(trace.flow): \(never)")
        }
    }
}

extension RecordedRunsTests {
    @Test("the summary's static findings by runs: how many runs reached a step, and failed there on the finding's key")
    func staticFindingsByRuns() {
        let lines = Self.traced.text.split(separator: "\n").map(String.init)
        // `N of M runs reached S`: N counts arrivals at S, and a LoginFlow run arrives at Authenticate again
        // after a wrong password, so the runs that reached it are fewer than the arrivals.
        let overcounted = lines.filter { line in
            let words = line.split(separator: " ")
            guard let of = words.firstIndex(of: "of"), of > 0, of + 1 < words.count,
                  let reached = Int(words[of - 1]), let runs = Int(words[of + 1]) else { return false }
            return reached > runs
        }
        // A finding without a key (`type-mismatch` of a handler's context, `missing-handler`) is not about a
        // key: an error failure at its step is not a failure "on this key".
        let keyless = lines.filter { $0.contains("failed there on this key") && !$0.contains("'") }
        #expect(overcounted == [])
        #expect(keyless == [])
        #expect(lines.contains("    missing-data-key 'watermarkText': 40 of 40 runs reached WatermarkImageOp, 38 failed there on this key"))
    }
}

extension RecordedRunsTests {
    /// What a run's records say, as the comparison reads them: kind, step, instance, reason, key.
    static func said(_ kind: String, _ step: String?, _ instance: String?, _ reason: String?, _ key: String?) -> String {
        [kind, step ?? "-", instance ?? "-", reason ?? "-", key ?? "-"].joined(separator: " ")
    }

    @Test("each file read back by its reader says, run by run, what the generator wrote", arguments: [
        "photoshare-albums.log", "photoshare-sharing.log", "shop-events.jsonl", "profileapp-events.jsonl", "elevate-events.jsonl",
        "login-traces.otlp.json", "login-traces-collector.otlp.jsonl", "image-import-traces.otlp.jsonl",
    ])
    func readBack(_ name: String) throws {
        let file = try #require(Self.files.first { $0.name == name })
        let records = RunRecordFormats.read(file.text, file: SampleRuns.folder + "/" + name)
        #expect(records.findings.isEmpty)
        let read = Dictionary(uniqueKeysWithValues: records.runs.map { ($0.run, $0.events) })
        #expect(read.count == file.runs.count)
        // OTLP has no record of an early stop; its run span's status ends the run.
        let kinds: Set<String> = name.contains("otlp") ? ["start", "finish", "fail", "end"] : ["start", "finish", "fail", "stop", "end"]
        for run in file.runs {
            let events = try #require(read[file.recordedID[run.id] ?? run.id], "run \(run.id) not read")
            let wrote = run.events.filter { kinds.contains($0.kind.rawValue) }.map { event in
                Self.said(event.kind.rawValue, event.kind == .stop || event.kind == .end ? nil : event.step, event.instance, event.reason,
                          event.kind == .fail || event.kind == .stop ? event.key : nil)
            }
            let got = events.filter { kinds.contains($0.kind.rawValue) }.map { event in
                Self.said(event.kind.rawValue, event.step, event.instance, event.reason, event.kind == .fail || event.kind == .stop ? event.key : nil)
            }
            #expect(got == wrote, "run \(run.id)")
            if got != wrote { break }
        }
        // The keys a Flow-iOS summary starts with, as its start dump lists them.
        if name.hasSuffix(".log") {
            for run in file.runs {
                let keys = read[file.recordedID[run.id]!]!.prefix { $0.kind == .write }.compactMap(\.key)
                #expect(keys == run.initialData.map(\.key), "run \(run.id)")
            }
        }
    }
}

extension RecordedRunsTests {
    @Test("a case split some runs get past: counted exactly, and no no-case-matched finding, as not every run stopped there")
    func sharing() {
        let flow = "AlbumViewController.shareAlbum"
        let truth = Self.truth(flow), replay = Self.replayed(flow, in: Self.tracedSharing)
        #expect(Self.tracedSharing.unmatched.isEmpty)
        #expect(Self.tracedSharing.findings.isEmpty)
        #expect(replay.runs == truth.runs)
        #expect(replay.visits == truth.visits)
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.stops == truth.stops)
        #expect(replay.drift == truth.drift)
        #expect(replay.paths == truth.paths)
        let stopped = truth.stops["TrackEventOp no-case-matched"]?.count ?? 0
        #expect(stopped > 0 && stopped < truth.visits["TrackEventOp"]!)
        let expected = Self.expectedConformance([Self.sharing], Self.tracedSharing), actual = Self.actualConformance(Self.tracedSharing)
        #expect(actual.sorted { $0.description < $1.description } == expected.sorted { $0.description < $1.description })
        #expect(!actual.contains { $0.rule == "no-case-matched" })
        #expect(Self.inWords(flow, in: Self.tracedSharing) == "96 runs: 84 success, 9 failure, 3 no-case-matched")
    }

    @Test("traced on all the samples, a share run that did not take the invite case fits two flows equally, and is left unmatched, not guessed")
    func sharingAmongAllFlows() {
        let report = FlowLens.trace(records: [SampleRuns.folder + "/" + Self.sharing.name], paths: ["samples"], workingDirectory: packageRoot).report
        // `shareAlbumByLinkOrEmail` starts with the same keys and runs the same operations but for the invite case.
        let ambiguous = Self.sharing.runs.filter { !$0.events.contains { $0.kind == .start && $0.step == "CreateInviteLinkOp" } }
        #expect(report.unmatched.count == ambiguous.count)
        #expect(report.unmatched.allSatisfy { $0.reason.hasSuffix("fit 2 flows equally: AlbumViewController.shareAlbum, BrokenFlowsViewController.shareAlbumByLinkOrEmail") })
        #expect(report.traces.map(\.flow) == ["AlbumViewController.shareAlbum"])
        #expect(report.traces.first?.runs == Self.sharing.runs.count - ambiguous.count)
    }
}

extension RecordedRunsTests {
    @Test("a parallel split (FlowState's ConcurentFlowStep): both branches run at once, then the run goes on from the join")
    func parallelBranches() {
        let flow = "OnboardingCoordinator"
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        #expect(truth.runs == 60)
        #expect(replay.runs == truth.runs)
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.paths == truth.paths)
        #expect(replay.drift == truth.drift)
        #expect(replay.visits == truth.visits)
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
    }
}

extension RecordedRunsTests {
    @Test("an Elevate task that raises goes on to on_completed with the exception, along its error transition, and ends failed")
    func elevateTask() {
        let flow = "LoginController.login_task"
        let truth = Self.truth(flow), replay = Self.replayed(flow)
        #expect(truth.runs == 60)
        #expect(replay.runs == truth.runs)
        #expect(replay.endings == truth.endings)
        #expect(replay.failures == truth.failures)
        #expect(replay.drift == truth.drift)
        #expect(replay.paths == truth.paths)
        #expect(truth.endings["failure", default: 0] > 0)
        // After the task raised, the run goes on along its error transition, and on to the fail exit.
        #expect(replay.visits == truth.visits)
        #expect(Self.edges(flow, replay.transitions) == Self.edges(flow, truth.transitions))
    }
}
