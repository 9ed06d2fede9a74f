import FlowModel

/// What the recorded runs of one flow did on its graph (token replay, as process-mining tools check
/// conformance, but against the flow graph the code defines): how often each step ran and each
/// transition was taken, where and how runs ended, where they failed, and where they left the graph.
/// Aggregates only: memory grows with the flow, not with the number of runs.
public struct FlowTrace: Sendable {
    /// The flow replayed on.
    public let flow: String
    /// Runs replayed.
    public var runs = 0
    /// Per step (index in `flow.steps`): how many times a run arrived at it.
    public var stepVisits: [Int]
    /// Per step: how many runs arrived at it (once a run, however often it came back).
    public var stepRuns: [Int]
    /// Per transition (index in `flow.transitions`): how many times a run took it.
    public var transitionCounts: [Int]
    /// Per step: how many runs entered the flow there (its first step, or the entry its first move
    /// left from): with the moves into a step, what arrives at it.
    public var entered: [Int]
    /// Per step: how many runs ended there (where the run was when its records ended: an exit it went
    /// on to, or the step it stopped or failed at). A step's arrivals are its departures (transitions
    /// and moves off the graph) plus these.
    public var ended: [Int]
    /// How runs ended: by the reason of their end (`success`, `failure`, `no-case-matched` …).
    public var endings: [String: Int] = [:]
    /// Failures, by step, reason and key, with how many and the first run that had it.
    public var failures: [Failure: Example] = [:]
    /// Where runs left the graph: a step the flow does not have, or a move it has no transition for.
    public var deviations: [Deviation: Example] = [:]
    /// Where runs stopped early without a step failing (no case matched, a group with nothing to run),
    /// by the step they were at.
    public var stops: [Stop: Example] = [:]
    /// The paths runs took (the steps they started, in order, a step repeated at once counted once),
    /// with how many runs took each; at most `pathLimit` distinct paths, the runs of any other in
    /// `otherPaths`, so that memory stays bounded whatever the runs do.
    public var paths: [[Int]: Int] = [:]
    /// Runs whose path was not kept (see `paths`).
    public var otherPaths = 0
    /// Distinct paths kept.
    public static let pathLimit = 10_000

    /// A step failing for a reason.
    public struct Failure: Hashable, Sendable {
        /// The step's index; nil when the failing step is not in the flow.
        public var step: Int?
        public var reason: String
        public var key: String?
    }

    /// A run stopping early at a step (its index; nil: before its first step) for a reason.
    public struct Stop: Hashable, Sendable {
        public var step: Int?
        public var reason: String
    }

    /// A way a run left the graph.
    public enum Deviation: Hashable, Sendable {
        /// A run named a step the flow does not have.
        case unknownStep(String)
        /// A run went from one step (nil: the flow's start) to another with no transition, or chain of
        /// transitions through steps that run no code, between them.
        case noTransition(from: Int?, to: Int)
    }

    /// How often, and the first time.
    public struct Example: Hashable, Sendable {
        public var count: Int
        /// The first run it happened in (the earliest record, by file and line, whatever order runs
        /// were replayed in), and where its record says so.
        public var run: String
        public var location: SourceLocation
    }

    init(flow: Flow) {
        self.flow = flow.id
        stepVisits = Array(repeating: 0, count: flow.steps.count)
        stepRuns = Array(repeating: 0, count: flow.steps.count)
        transitionCounts = Array(repeating: 0, count: flow.transitions.count)
        entered = Array(repeating: 0, count: flow.steps.count)
        ended = Array(repeating: 0, count: flow.steps.count)
    }

    static func note<Key: Hashable>(_ key: Key, in table: inout [Key: Example], run: String, at location: SourceLocation) {
        if let known = table[key] {
            table[key]!.count += 1
            if location < known.location { (table[key]!.run, table[key]!.location) = (run, location) }
        } else {
            table[key] = Example(count: 1, run: run, location: location)
        }
    }
}

extension FlowTrace {
    /// The steps of `flow` no run reached, among those that run code of their own (the steps a run
    /// passes silently, `Replayer.silentKinds`, leave no record to be missed by).
    public func neverReached(in flow: Flow) -> [Int] {
        flow.steps.indices.filter { stepVisits[$0] == 0 && !Replayer.silentKinds.contains(flow.steps[$0].kind) }
    }

    /// The transitions of `flow` runs may have taken although the replay counted none on them: the
    /// records do not say. A way a failing run left its step (an error transition, or one to a fail
    /// exit, out of a step where runs failed: the records say the step failed, not always where the
    /// run went next); a transition to an exit out of a step runs reached that has another exit of
    /// that kind (a run's records say how it ended, not at which exit: the replay counts the first
    /// it can reach); a transition beside one runs took between the same two steps (two conditions
    /// leading the same way: the replay counts the move on the first). What is drawn faded, and
    /// what `never-reached` reports, leaves them out.
    public func unrecordedWays(on flow: Flow, graph: FlowIndex) -> Set<Int> {
        let failedAt = Set(failures.keys.compactMap(\.step))
        var taken = Set<[String]>()
        for (t, transition) in flow.transitions.enumerated() where transitionCounts[t] > 0 { taken.insert([transition.from, transition.to]) }
        var ways = Set<Int>()
        for (t, transition) in flow.transitions.enumerated() where transitionCounts[t] == 0 {
            guard let from = graph.index[transition.from] else { continue }
            let target = graph.index[transition.to].map { flow.steps[$0].kind }
            if failedAt.contains(from), transition.kind == .error || target == .fail { ways.insert(t) }
            // Several exits of one kind out of a step: the replay counts the first a way reaches.
            if stepVisits[from] > 0, let target, target.isExit,
               graph.successors[from].contains(where: { $0.to != graph.index[transition.to] && flow.steps[$0.to].kind == target }) { ways.insert(t) }
            if taken.contains([transition.from, transition.to]) { ways.insert(t) }
        }
        return ways
    }
}

/// Replays runs on one flow. Feed it each run's events (`replay(_:)`); read `trace`.
public struct Replayer: Sendable {
    public private(set) var trace: FlowTrace
    let flow: Flow
    let graph: FlowIndex
    let byName: [String: Int]
    /// The flow's successful ends (`end` steps), in step order.
    let ends: [Int]
    /// The flow's failing ends (`fail` steps), in step order.
    let fails: [Int]
    /// The flow's one entry when it is a step of kind `start` (a run off the graph from its first
    /// step leaves from there), else nil.
    let explicitStart: Int?
    /// Per transition: the step it leads to (nil: none of the flow's).
    let targets: [Int?]
    /// Per transition: the parallel split it leaves (a step of kind `parallel`, or the source of a
    /// transition of kind `parallel`), nil for any other.
    let forkAt: [Int?]
    /// The run (its number, `trace.runs`) that last arrived at each step: to count the runs that
    /// reached a step apart from its visits.
    var lastRun: [Int]
    /// The way found for each move made so far (`from` × `to`; nil: none), so that each move is
    /// searched once however many runs make it.
    var ways: [Int: [Int]?] = [:]

    /// Steps that run no code of their own and leave no record when a run passes them: the flow's
    /// start, its exits, and where branches split (without an operation of their own) or meet. A run
    /// moves through them silently; operations, groups, states and sub-flows must appear in its records.
    public static let silentKinds: Set<StepKind> = [.start, .end, .fail, .join, .branch, .parallel]

    public init(flow: Flow) {
        self.flow = flow
        trace = FlowTrace(flow: flow)
        graph = FlowIndex(flow)
        var byName: [String: Int] = [:]
        for (i, step) in flow.steps.enumerated() where byName[step.name] == nil { byName[step.name] = i }
        self.byName = byName
        ends = flow.steps.indices.filter { flow.steps[$0].kind == .end }
        fails = flow.steps.indices.filter { flow.steps[$0].kind == .fail }
        explicitStart = graph.entries.count == 1 && flow.steps[graph.entries[0]].kind == .start ? graph.entries[0] : nil
        lastRun = Array(repeating: 0, count: flow.steps.count)
        let index = graph.index
        targets = flow.transitions.map { index[$0.to] }
        forkAt = flow.transitions.map { transition in
            index[transition.from].flatMap { transition.kind == .parallel || flow.steps[$0].kind == .parallel ? $0 : nil }
        }
    }

    /// The step a record names: by id, else by name.
    func step(named name: String) -> Int? { graph.index[name] ?? byName[name] }

    /// The shortest way from `from` (nil: the flow's entries) to `to` that passes only silent steps
    /// on the way, as transition indices; nil when there is none. Ties go to the earlier transition.
    mutating func way(from: Int?, to: Int) -> [Int]? {
        let key = (from ?? flow.steps.count) * (flow.steps.count + 1) + to
        if let known = ways[key] { return known }
        let found = path(from: from, to: to)
        ways[key] = .some(found)
        return found
    }

    func path(from: Int?, to: Int) -> [Int]? {
        // Most moves follow one transition: found without a search.
        if let from, let edge = graph.successors[from].first(where: { $0.to == to }) { return [edge.transition] }
        var parent: [Int: (transition: Int, from: Int?)] = [:]
        var queue: [Int] = []
        var head = 0
        let starts = from.map { [$0] } ?? graph.entries
        if from == nil, graph.entries.contains(to) { return [] }
        queue.append(contentsOf: starts)
        var seen = Set(starts)
        while head < queue.count {
            let current = queue[head]
            head += 1
            // The run's own step is left; every other step on the way must be silent.
            if !(from != nil && current == from), !Self.silentKinds.contains(flow.steps[current].kind) { continue }
            for edge in graph.successors[current] {
                let (transition, next) = (edge.transition, edge.to)
                if next == to {
                    var path = [transition]
                    var at = current
                    while let step = parent[at] {
                        path.append(step.transition)
                        guard let previous = step.from else { break }
                        at = previous
                    }
                    return path.reversed()
                }
                if seen.insert(next).inserted {
                    parent[next] = (transition, current)
                    queue.append(next)
                }
            }
        }
        return nil
    }

    /// A run arrives at `step`.
    mutating func visit(_ step: Int) {
        trace.stepVisits[step] += 1
        if lastRun[step] != trace.runs {
            lastRun[step] = trace.runs
            trace.stepRuns[step] += 1
        }
    }

    /// Counts a way taken: its transitions, and each step it arrives at but `except` (the step the
    /// run started, counted as it starts).
    mutating func take(_ way: [Int], except: Int? = nil) {
        for transition in way {
            trace.transitionCounts[transition] += 1
            if let to = targets[transition], to != except { visit(to) }
        }
    }

    /// The way from `from`, a step that failed, to `to` that leaves it by an error transition (the
    /// way a failure goes on, when the step has one), else nil.
    mutating func wayAfterFailure(from: Int, to: Int) -> [Int]? {
        for edge in graph.successors[from] where flow.transitions[edge.transition].kind == .error {
            if edge.to == to { return [edge.transition] }
            if Self.silentKinds.contains(flow.steps[edge.to].kind), let rest = way(from: edge.to, to: to) { return [edge.transition] + rest }
        }
        return nil
    }

    /// Notes in `forks` the parallel splits a way leaves (a step of kind `parallel`, or a transition
    /// of kind `parallel`): their other branches run too.
    func noteSplits(_ way: [Int], in forks: inout [Int]) {
        for transition in way {
            if let source = forkAt[transition], !forks.contains(source) { forks.append(source) }
        }
    }

    /// Moves a token of the run (`tokens`; `forks`, the splits it passed) to `step` by the way found
    /// from a branch's step or a split passed; false when none leads there.
    mutating func move(to step: Int, tokens: inout [Int], forks: inout [Int], failed: Set<Int> = []) -> Bool {
        // The latest branch first (the only one, most of the time), then the others, then the splits passed.
        var origin = tokens.last
        var found = origin.flatMap { failed.contains($0) ? wayAfterFailure(from: $0, to: step) : nil } ?? self.way(from: origin, to: step)
        if found == nil, tokens.count + forks.count > 1 {
            for other in tokens.dropLast().reversed() + forks.reversed() {
                found = self.way(from: other, to: step)
                if found != nil { origin = other; break }
            }
        }
        if let way = found {
            // A run's first move: it entered the flow where the way begins.
            if origin == nil, tokens.isEmpty { trace.entered[way.first.flatMap { graph.index[flow.transitions[$0].from] } ?? step] += 1 }
            take(way, except: step)
            noteSplits(way, in: &forks)
            if let origin, let at = tokens.lastIndex(of: origin) { tokens.remove(at: at) }
            // Branches that meet where this way passes a join end there: their way into it is
            // taken too. Once they are one again, the splits passed have no branch left to start.
            for transition in way {
                guard let join = targets[transition], flow.steps[join].kind == .join else { continue }
                for other in tokens.reversed() {
                    guard let into = self.way(from: other, to: join) else { continue }
                    take(into, except: join)
                    tokens.removeAll { $0 == other }
                }
                if tokens.isEmpty { forks.removeAll() }
            }
            tokens.append(step)
            return true
        }
        return false
    }

    /// Replays one run's events, in order.
    ///
    /// A run is where its tokens are: one, until it passes a parallel split, whose branches then run
    /// side by side (a started step may follow any branch's last step, or start another branch of a
    /// split passed), until they meet at a join.
    public mutating func replay(_ events: [RunEvent]) {
        trace.runs += 1
        var tokens: [Int] = []     // the steps the run's branches are at, the latest last; none before its first step
        var forks: [Int] = []      // the parallel splits the run passed, whose other branches may start
        var running: Set<Int> = [] // steps started and not yet finished (a group's instances share one)
        var failed: Set<Int> = []  // steps whose latest run failed: the run goes on from them by their error way
        var ended = false
        var visited: [Int] = []
        var exitReached: Int?      // the exit a run that ended went on to, if any
        defer {
            if let last = exitReached ?? tokens.last { trace.ended[last] += 1 }
            if trace.paths[visited] != nil || trace.paths.count < FlowTrace.pathLimit { trace.paths[visited, default: 0] += 1 } else { trace.otherPaths += 1 }
        }
        for event in events {
            switch event.kind {
            case .start:
                guard let name = event.step else { continue }
                guard let step = self.step(named: name) else {
                    FlowTrace.note(.unknownStep(name), in: &trace.deviations, run: event.run, at: event.location)
                    continue
                }
                // Another instance of a step that is running, or of the group the run is at (an
                // instance that starts when another one finished, the group running a few at a
                // time), is the same visit, not a move.
                if event.instance != nil, running.contains(step) || tokens.last == step {
                    running.insert(step)
                    continue
                }
                if !move(to: step, tokens: &tokens, forks: &forks, failed: failed) {
                    // A first step no way leads to: the run entered at the start step, if the flow has one.
                    if tokens.isEmpty, let start = explicitStart { trace.entered[start] += 1 }
                    FlowTrace.note(.noTransition(from: tokens.last, to: step), in: &trace.deviations, run: event.run, at: event.location)
                    if !tokens.isEmpty { tokens.removeLast() }
                    tokens.append(step)
                }
                visit(step)
                if visited.last != step { visited.append(step) }
                running.insert(step)
                failed.remove(step)
            case .finish:
                if let name = event.step, let step = self.step(named: name) { running.remove(step) }
            case .fail:
                let failing = event.step.flatMap { self.step(named: $0) }
                if let failing { failed.insert(failing) }
                FlowTrace.note(FlowTrace.Failure(step: failing, reason: event.reason ?? RunEvent.Reason.error, key: event.key),
                               in: &trace.failures, run: event.run, at: event.location)
            case .stop:
                // A group with nothing to run stops the run as it reaches the group (its input key
                // names it): the run got there, and stopped there.
                if event.reason == RunEvent.Reason.emptyGroup,
                   let group = flow.steps.indices.first(where: { index in
                       flow.steps[index].kind == .group && (event.key == nil || flow.steps[index].group?.inputKey == event.key)
                           && (tokens.last == index || way(from: tokens.last, to: index) != nil)
                   }), tokens.last != group, move(to: group, tokens: &tokens, forks: &forks) {
                    visit(group)
                    if visited.last != group { visited.append(group) }
                }
                trace.endings[event.reason ?? "stopped", default: 0] += 1
                FlowTrace.note(FlowTrace.Stop(step: tokens.last, reason: event.reason ?? "stopped"), in: &trace.stops, run: event.run, at: event.location)
                ended = true
            case .end:
                if !ended { trace.endings[event.reason ?? RunEvent.Reason.success, default: 0] += 1 }
                ended = true
                guard let from = tokens.last else { break }
                if event.reason == RunEvent.Reason.success {
                    // A run that succeeded went on to an exit through silent steps: count the way
                    // there, to the first end, in step order, that a way reaches.
                    for end in ends {
                        guard let way = self.way(from: from, to: end) else { continue }
                        take(way)
                        if !way.isEmpty { exitReached = end }
                        break
                    }
                } else if event.reason == RunEvent.Reason.failure {
                    // A run that failed went on to a fail exit through silent steps: from a step that
                    // failed, along its error transition (a step without one ends the run where it
                    // failed); from one that did not (a completion handler after the failure), by
                    // the first way to a fail exit.
                    for exit in fails {
                        guard let way = failed.contains(from) ? wayAfterFailure(from: from, to: exit) : self.way(from: from, to: exit) else { continue }
                        take(way)
                        if !way.isEmpty { exitReached = exit }
                        break
                    }
                }
            case .write:
                break
            }
        }
        if !ended { trace.endings["no end recorded", default: 0] += 1 }
    }
}
