// Replaying recorded runs (issue 19): events replayed per second on a large flow's graph, and the
// process's peak memory, for at least `events` events. Runs are made one at a time by walking the
// graph (a pseudo-random choice at each split) and replayed at once, as a stream of records would
// be read: nothing is kept of a run once it is replayed, so memory must not grow with their number.
import Dispatch
import FlowLens
import FlowLensTestSupport
import Foundation

func peakResidentMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
}

@MainActor func replayBenchmark(events target: Int) {
    let flow = LargeFlow.make(steps: 1000)
    let graph = FlowIndex(flow)
    var random: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        return Int((random >> 33) % UInt64(bound))
    }
    let location = SourceLocation(file: "runs.jsonl", line: 1, column: 1)
    /// One run: from the entry, a step a move, up to 400 steps or an exit; start and finish events
    /// for each step that runs code.
    func makeRun(_ number: Int) -> [RunEvent] {
        var events: [RunEvent] = []
        var at = graph.entries[0]
        let run = "r\(number)"
        for _ in 0..<400 {
            let step = flow.steps[at]
            if !Replayer.silentKinds.contains(step.kind) {
                events.append(RunEvent(flow: flow.id, run: run, step: step.id, kind: .start, location: location))
                events.append(RunEvent(flow: flow.id, run: run, step: step.id, kind: .finish, location: location))
            }
            let ways = graph.successors[at]
            if ways.isEmpty || step.kind.isExit { break }
            at = ways[next(ways.count)].to
        }
        events.append(RunEvent(flow: flow.id, run: run, step: nil, kind: .end, reason: RunEvent.Reason.success, location: location))
        return events
    }
    print("\nReplaying runs on the \(flow.steps.count)-step flow (\(flow.transitions.count) transitions), at least \(target) events")
    let before = peakResidentMiB()
    var replayer = Replayer(flow: flow)
    var replayed = 0
    var runs = 0
    var seconds = 0.0
    var midway = 0.0
    while replayed < target {
        let events = makeRun(runs)
        let start = DispatchTime.now().uptimeNanoseconds
        replayer.replay(events)
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        replayed += events.count
        runs += 1
        if midway == 0, replayed >= target / 2 { midway = peakResidentMiB() }
    }
    print(String(format: "replayed %d events of %d runs in %.3f s: %.0f events/s", replayed, runs, seconds, Double(replayed) / seconds))
    print(String(format: "peak memory: %.0f MiB before, %.0f MiB at half the events, %.0f MiB at the end (%d distinct paths kept)",
                 before, midway, peakResidentMiB(), replayer.trace.paths.count))

    // The same, read from a file of JSON-lines events as `flowlens trace` reads one: in blocks, each
    // run replayed when its end is read. Making the file is not timed; reading and replaying are.
    let path = NSTemporaryDirectory() + "flowlens-replay-benchmark-\(getpid()).jsonl"
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let file = FileHandle(forWritingAtPath: path) else { return print("cannot write \(path)") }
    var written = 0
    var fileRuns = 0
    var block = ""
    while written < target {
        for event in makeRun(runs + fileRuns) {
            block += #"{"flow": "\#(event.flow!)", "run": "\#(event.run)", "#
                + (event.step.map { #""step": "\#($0)", "# } ?? "")
                + #""event": "\#(event.kind.rawValue)""# + (event.reason.map { #", "reason": "\#($0)""# } ?? "") + "}\n"
            written += 1
        }
        fileRuns += 1
        if block.utf8.count > 1 << 20 {
            file.write(Data(block.utf8))
            block = ""
        }
    }
    file.write(Data(block.utf8))
    try? file.close()
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let beforeReading = peakResidentMiB()
    let start = DispatchTime.now().uptimeNanoseconds
    var builder = TraceReport.Builder(flows: [flow])
    RunRecordFormats.read(fileAt: path, file: "runs.jsonl") { builder.add($0) }
    builder.endOfFile()
    let report = builder.report
    let readSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(String(format: "read and replayed a %.0f MiB file of %d events (%d runs) in %.3f s: %.0f events/s",
                 Double(size) / 1_048_576, written, report.traces.first?.runs ?? 0, readSeconds, Double(written) / readSeconds))
    print(String(format: "peak memory: %.0f MiB before reading, %.0f MiB after", beforeReading, peakResidentMiB()))
}
