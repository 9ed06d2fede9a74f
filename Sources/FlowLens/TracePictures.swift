import Foundation

extension FlowLens {
    /// The overlay every picture of `flows` draws for the replay in `report` (`flowlens export --trace`),
    /// by flow id: a flow with runs gets its replay's, every other flow one with no runs, so that its
    /// pictures say "no recorded runs".
    public static func traceOverlays(of report: TraceReport, flows: [Flow]) -> [String: TraceOverlay] {
        let traces = Dictionary(report.traces.map { ($0.flow, $0) }, uniquingKeysWith: { first, _ in first })
        var overlays: [String: TraceOverlay] = [:]
        for flow in flows where overlays[flow.id] == nil {
            overlays[flow.id] = traces[flow.id].map { TraceOverlay($0, on: flow) }
                ?? .noRuns(steps: flow.steps.count, transitions: flow.transitions.count)
        }
        return overlays
    }
}

extension TraceOverlay {
    /// The overlay of `trace`, the replay of runs on `flow`.
    ///
    /// What is faded is decided here, where the replay's rules are known: a transition no run took,
    /// and a step no run arrived at. What runs may have taken without their records saying so is
    /// never faded: the transitions `FlowTrace.unrecordedWays` names, and a step that runs no code of
    /// its own (`Replayer.silentKinds`: the start, case splits, joins, exits) next to a transition
    /// that is not faded.
    public init(_ trace: FlowTrace, on flow: Flow) {
        let graph = FlowIndex(flow)
        let mayBeTaken = trace.unrecordedWays(on: flow, graph: graph)
        let untaken = Set(flow.transitions.indices.filter { trace.transitionCounts[$0] == 0 && !mayBeTaken.contains($0) })
        var passed = Set<Int>()
        for (t, transition) in flow.transitions.enumerated() where !untaken.contains(t) {
            for end in [transition.from, transition.to] { if let step = graph.index[end] { passed.insert(step) } }
        }
        let unreached = Set(flow.steps.indices.filter { step in
            guard trace.stepVisits[step] == 0 else { return false }
            return !(Replayer.silentKinds.contains(flow.steps[step].kind) && passed.contains(step))
        })
        func example(_ e: FlowTrace.Example) -> Example { Example(run: e.run, location: e.location) }
        let name = { (steps: [Int]) in steps.map { flow.steps[$0].id }.joined(separator: " → ") }
        let ranked = trace.paths.sorted { ($1.value, name($0.key)) < ($0.value, name($1.key)) }
        let shown = ranked.prefix(Self.shownPaths)
        let rest = ranked.dropFirst(Self.shownPaths)
        self.init(
            runs: trace.runs, transitionCounts: trace.transitionCounts, stepVisits: trace.stepVisits,
            unreachedSteps: trace.runs == 0 ? [] : unreached, untakenTransitions: trace.runs == 0 ? [] : untaken,
            neverReached: trace.runs == 0 ? [] : trace.neverReached(in: flow),
            endings: trace.endings.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { Ending(reason: $0.key, count: $0.value) },
            failures: trace.failures.sorted { ($1.value.count, $0.value.location) < ($0.value.count, $1.value.location) }
                .map { Failure(step: $0.key.step, reason: $0.key.reason, key: $0.key.key, count: $0.value.count, first: example($0.value)) },
            paths: shown.map { Path(steps: $0.key, count: $0.value) },
            otherPathRuns: rest.reduce(trace.otherPaths) { $0 + $1.value }, otherPaths: rest.count, unkeptPathRuns: trace.otherPaths,
            deviations: trace.deviations.sorted { ($1.value.count, $0.value.location) < ($0.value.count, $1.value.location) }.map { deviation, first in
                switch deviation {
                case let .unknownStep(step): return Deviation(kind: .unknownStep(step), count: first.count, first: example(first))
                case let .noTransition(from, to): return Deviation(kind: .noTransition(from: from, to: to), count: first.count, first: example(first))
                }
            },
            entered: trace.entered, ended: trace.ended)
    }
}
