import Foundation
import FlowModel

/// The replay of every recorded run read, flow by flow: what `flowlens trace` prints.
public struct TraceReport: Sendable {
    /// The flows read (the static graph).
    public var flows: [Flow]
    /// One trace for each flow that has runs, in the order of `flows`.
    public var traces: [FlowTrace]
    /// The runs no flow was found for, with where their records start and why.
    public var unmatched: [(run: String, location: SourceLocation, reason: String)]
    /// The lines and records that could not be read (`invalid-input`).
    public var findings: [Finding]
    /// The conformance findings (`TraceRules`), once made (`FlowLens.trace` makes them).
    public var conformance: [Finding] = []
    /// The flows' static findings (`FlowLens.trace` sets them): the summary says which of them the
    /// recorded runs reach, most reached first, and which no run reached.
    public var staticFindings: [Finding] = []

    /// Matches each run of `records` to a flow of `flows` and replays it there.
    public static func replaying(_ records: [RunRecords], on flows: [Flow]) -> TraceReport {
        var builder = Builder(flows: flows)
        for file in records {
            builder.add(file)
            builder.endOfFile()
        }
        return builder.report
    }

    /// Builds a report from run records read as a stream (`RunRecordFormats.read(fileAt:)`): each run
    /// is matched and replayed when its `end` arrives, and forgotten, so that memory holds only the
    /// runs still going (and the flows' counts), not every run read. A run with no `end` is replayed
    /// at the end of its file.
    public struct Builder {
        let flows: [Flow]
        let matcher: RunMatcher
        var replayers: [Int: Replayer] = [:]
        var unmatched: [(run: String, location: SourceLocation, reason: String)] = []
        var findings: [Finding] = []
        /// The runs of the current file not yet ended: their events so far, the kinds of flow their
        /// records can come from, and when each began (to replay the unfinished ones in that order).
        var open: [String: (order: Int, kinds: [FlowKind], events: [RunEvent])] = [:]
        var begun = 0

        /// A builder for runs of `flows`; `names` maps the flow names runs use to flow ids or names.
        public init(flows: [Flow], names: [String: String] = [:]) {
            self.flows = flows
            matcher = RunMatcher(flows: flows, names: names)
        }

        /// Reads more records of the current file.
        public mutating func add(_ records: RunRecords) {
            findings += records.findings
            for event in records.events {
                if open[event.run] == nil {
                    open[event.run] = (begun, records.flowKinds, [])
                    begun += 1
                }
                open[event.run]!.events.append(event)
                if event.kind == .end, let run = open.removeValue(forKey: event.run) { replay(event.run, run.events, kinds: run.kinds) }
            }
        }

        /// The runs begun and not yet ended: what the builder holds besides the flows' counts.
        public var openRuns: Int { open.count }

        /// The end of a file: its runs that recorded no end are replayed, in the order they began
        /// (a run's records do not continue in another file).
        public mutating func endOfFile() {
            for (run, state) in open.sorted(by: { $0.value.order < $1.value.order }) { replay(run, state.events, kinds: state.kinds) }
            open = [:]
        }

        mutating func replay(_ run: String, _ events: [RunEvent], kinds: [FlowKind]) {
            switch matcher.match(events, kinds: kinds) {
            case let .success(index):
                if replayers[index] == nil { replayers[index] = Replayer(flow: flows[index]) }
                replayers[index]!.replay(events)
            case let .failure(why):
                unmatched.append((run, events[0].location, why.reason))
            }
        }

        /// The report of every run read (call `endOfFile` first).
        public var report: TraceReport {
            TraceReport(flows: flows, traces: replayers.keys.sorted().map { replayers[$0]!.trace },
                        unmatched: unmatched.sorted { $0.location < $1.location }, findings: findings)
        }
    }

    /// The report as text: each flow's runs, how they ended, the paths they took (most taken first),
    /// the steps none reached, the failures and the moves off the graph, then the unmatched runs.
    public var text: String {
        var out = ""
        let byID = Dictionary(flows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for trace in traces {
            guard let flow = byID[trace.flow] else { continue }
            let name = { (step: Int?) in step.map { flow.steps[$0].id } ?? "the start" }
            out += "\(flow.id) — \(Plural.count(trace.runs, "run"))" + (flow.location.map { " (\($0.file):\($0.line))" } ?? "") + "\n"
            out += "  ended: " + trace.endings.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.value) \($0.key.replacingOccurrences(of: "-", with: " "))" }.joined(separator: " · ") + "\n"
            out += "  paths taken:\n"
            let ranked = trace.paths.map { (text: $0.key.isEmpty ? "no step" : $0.key.map { name($0) }.joined(separator: " → "), count: $0.value) }
                .sorted { ($1.count, $0.text) < ($0.count, $1.text) }
            for (path, count) in ranked.prefix(5) {
                let share = Int((Double(count) / Double(max(trace.runs, 1)) * 100).rounded())
                out += "    \(Plural.count(count, "run")) (\(share)%): \(path)\n"
            }
            let more = trace.paths.count - min(trace.paths.count, 5)
            if more > 0 || trace.otherPaths > 0 {
                out += "    … \(Plural.count(more, "other path"))" + (trace.otherPaths > 0 ? " and \(Plural.count(trace.otherPaths, "run")) on paths not kept" : "") + "\n"
            }
            let never = trace.neverReached(in: flow)
            out += "  never reached: " + (never.isEmpty ? "none" : never.map { name($0) }.joined(separator: ", ")) + "\n"
            if !trace.failures.isEmpty {
                out += "  failures:\n"
                for (failure, example) in trace.failures.sorted(by: { ($1.value.count, $0.value.location) < ($0.value.count, $1.value.location) }) {
                    out += "    \(failure.step.map { name($0) } ?? "a step not in the flow"): \(failure.reason.replacingOccurrences(of: "-", with: " "))"
                        + (failure.key.map { " '\($0)'" } ?? "") + " ×\(example.count) (first: \(example.location.file):\(example.location.line))\n"
                }
            }
            // The static findings at a step, by how often runs reached it: a finding on a path runs
            // take comes first; one no run reached is said, not hidden.
            let atSteps = staticFindings.filter { $0.flow == flow.id && $0.step != nil }
                .compactMap { finding in flow.steps.firstIndex { $0.id == finding.step }.map { (finding, $0) } }
            if !atSteps.isEmpty {
                out += "  static findings, by the runs that reached them:\n"
                let ranked = atSteps.sorted { (trace.stepRuns[$1.1], $0.0.location?.line ?? 0, $0.0.rule) < (trace.stepRuns[$0.1], $1.0.location?.line ?? 0, $1.0.rule) }
                for (finding, step) in ranked {
                    let reached = trace.stepRuns[step]
                    // Failures on the finding's key; a finding about no key has none.
                    let failed = finding.key == nil ? 0 : trace.failures.filter { $0.key.step == step && $0.key.key == finding.key }.values.reduce(0) { $0 + $1.count }
                    let reach = reached == 0 ? "no run of \(trace.runs) reached \(name(step))"
                        : "\(reached) of \(Plural.count(trace.runs, "run")) reached \(name(step))" + (failed > 0 ? ", \(failed) failed there on this key" : "")
                    out += "    \(finding.rule)" + (finding.key.map { " '\($0)'" } ?? "") + ": \(reach)\n"
                }
            }
            if !trace.deviations.isEmpty {
                out += "  off the graph:\n"
                for (deviation, example) in trace.deviations.sorted(by: { ($1.value.count, $0.value.location) < ($0.value.count, $1.value.location) }) {
                    let what: String
                    switch deviation {
                    case let .unknownStep(step): what = "step '\(step)', which the flow does not have"
                    case let .noTransition(from, to): what = "\(name(from)) → \(name(to)), which no transition leads along"
                    }
                    out += "    \(what) ×\(example.count) (first: \(example.location.file):\(example.location.line))\n"
                }
            }
        }
        if !unmatched.isEmpty {
            out += "runs matched to no flow:\n"
            for run in unmatched { out += "  \(run.location.file):\(run.location.line): \(run.reason)\n" }
        }
        if out.isEmpty { return "no runs read\n" }
        // Each line bounded (`Excerpt.messageBytes`): a step name of 5 MB in a record is not printed whole.
        guard out.utf8.count > Excerpt.messageBytes else { return out }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { Excerpt.bounded(String($0)) }.joined(separator: "\n")
    }
}
