import FlowLoaders
import FlowModel
import Foundation

// Simulated runs of real flows, for the replay tests (issue 19): a generator that walks a flow the way
// its library runs it, choosing outcomes with a seeded random number generator, and keeps, as its own
// ground truth, exactly what each run did. Writers (RunWriters.swift) turn the runs into the three
// record formats FlowLens reads. The truth is counted here, from what the generator did, never by
// replaying the records: the tests compare the two.

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same numbers on every platform and
/// Swift version, so generated records are the same bytes everywhere. Never the system generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (not `Int.random(in:using:)`, whose algorithm the standard library may change).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(UInt64(1) << 53) < p }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` hexadecimal digits, upper case.
    public mutating func hex(_ count: Int, upper: Bool = true) -> String {
        let digits = Array(upper ? "0123456789ABCDEF" : "0123456789abcdef")
        return String((0..<count).map { _ in digits[below(16)] })
    }
}

/// One thing a simulated run did, before it is written in a record format.
public struct SimulatedEvent: Sendable {
    public enum Kind: String, Sendable, Hashable { case start, finish, fail, write, stop, end, log }
    public var kind: Kind
    /// The step as the records name it (an operation's type, a step's id, a state).
    public var step: String?
    /// A group's instance (four hexadecimal digits, as Flow-iOS prints it).
    public var instance: String?
    public var reason: String?
    public var key: String?
    /// For a write, the value as `\(value)` prints it (may span lines); for a failure, its words.
    public var value: String?
    /// For a type mismatch: the type found and the type read.
    public var types: (found: String, expected: String)?
    /// For a write of a key the run had: its value before.
    public var previous: String?
    /// Milliseconds since the run started.
    public var at: Int
}

/// What one simulated run did: its records-to-be, and the truth about it on the flow's graph.
public struct SimulatedRun: Sendable {
    /// The run's id in the records.
    public var id: String
    /// The flow's id.
    public var flow: String
    /// What the generator set out to do (`success`, `error`, `unpredicted`, `no-case`, `empty-group`, `drift` …).
    public var scenario: String
    /// The data the run started with (`key`, `value` as printed), in the order the generator chose.
    public var initialData: [(key: String, value: String)]
    /// The data at the end (for Flow-iOS's end dump).
    public var finalData: [(key: String, value: String)]
    /// What the records say, in order.
    public var events: [SimulatedEvent]
    /// Step ids the run arrived at, in order (a group's instances are one arrival; the start every run
    /// begins on is not an arrival; a step the records cannot place on the graph is not counted).
    public var visits: [String]
    /// Transitions taken (indices into the flow's transitions), as far as the records place them.
    public var transitions: [Int]
    /// How the run ended: `success`, `failure`, `no-case-matched`, `empty-group`, `group-failure`.
    public var ending: String
    /// The step failure, if any: step id (or the recorded name of a step the flow does not have), reason, key.
    public var failure: (step: String, reason: String, key: String?)?
    /// Where the run stopped early without a step failing (step id of the last known step; nil before any), and why.
    public var stop: (step: String?, reason: String)?
    /// Moves off the graph the records show.
    public var drift: [Drift]
    /// The recorded steps the flow has, in order, a step repeated at once counted once: the run's path.
    public var path: [String]
    /// Runs of sub-flows this run started, each a run of its own in the records.
    public var children: [SimulatedRun]
    /// For a sub-flow's run: milliseconds after its parent run started that it started.
    public var offset = 0

    /// A move off the graph.
    public enum Drift: Hashable, Sendable {
        /// The records name a step the flow does not have.
        case unknownStep(String)
        /// The records go from one step (nil: the start) to another with no way between them.
        case noTransition(from: String?, to: String)
    }
}

/// What the generator did, summed over runs: what a replay of the records must find.
public struct RunTally: Sendable, Equatable {
    public var runs = 0
    public var visits: [String: Int] = [:]
    /// By transition index.
    public var transitions: [Int: Int] = [:]
    public var endings: [String: Int] = [:]
    /// `step reason key` → count and first run.
    public var failures: [String: Example] = [:]
    /// `step reason` → count and first run.
    public var stops: [String: Example] = [:]
    /// `unknown X` / `from → to` → count and first run.
    public var drift: [String: Example] = [:]
    /// `a → b → c` → runs.
    public var paths: [String: Int] = [:]

    /// How often, the first run that had it (in the order runs appear), and every run that had it.
    public struct Example: Sendable, Equatable, CustomStringConvertible {
        public var count: Int
        public var run: String
        public var runs: Set<String>
        public var description: String { "×\(count) first \(run)" }
        public init(count: Int, run: String) {
            self.count = count
            self.run = run
            runs = [run]
        }

        /// The same count, and a first run that had it: a replay names the run of the earliest record,
        /// which, runs interleaving, need not be the first run to appear.
        public static func == (a: Example, b: Example) -> Bool {
            a.count == b.count && (a.runs.contains(b.run) || b.runs.contains(a.run))
        }
    }

    public init() {}

    /// The tally of `runs` (each run's own counts, not its children's).
    public init(_ runs: [SimulatedRun]) {
        for run in runs { add(run) }
    }

    static func note(_ key: String, _ table: inout [String: Example], run: String) {
        table[key, default: Example(count: 0, run: run)].count += 1
        table[key]!.runs.insert(run)
    }

    public mutating func add(_ run: SimulatedRun) {
        runs += 1
        for step in run.visits { visits[step, default: 0] += 1 }
        for transition in run.transitions { transitions[transition, default: 0] += 1 }
        endings[run.ending, default: 0] += 1
        if let failure = run.failure { Self.note("\(failure.step) \(failure.reason) \(failure.key ?? "-")", &failures, run: run.id) }
        if let stop = run.stop { Self.note("\(stop.step ?? "the start") \(stop.reason)", &stops, run: run.id) }
        for move in run.drift {
            switch move {
            case let .unknownStep(name): Self.note("unknown \(name)", &drift, run: run.id)
            case let .noTransition(from, to): Self.note("\(from ?? "the start") → \(to)", &drift, run: run.id)
            }
        }
        paths[run.path.isEmpty ? "no step" : run.path.joined(separator: " → "), default: 0] += 1
    }
}

/// How often each kind of run happens, per flow.
public struct RunMix: Sendable {
    /// A step fails with an error of its own (offline, declined …).
    public var error = 0.08
    /// A read finds its key missing although the flow's definition writes it (a value the server did
    /// not send, a write the definition does not show): a failure static analysis cannot predict.
    public var unpredicted = 0.05
    /// The run's data matches no case of a case split.
    public var noCase = 0.05
    /// A group's input list is empty.
    public var emptyGroup = 0.06
    /// A group element fails.
    public var elementFailure = 0.05
    /// The run's records drift from the graph (a renamed step, a step skipped).
    public var drift = 0.03
    /// Per arrival at a step with several ways on and no condition (a user's choice in a state
    /// machine): the chance to take the way back the run has already taken.
    public var loopBack = 0.2

    public init() {}
}

/// Values of a flow's data that the definition does not fix (what users choose), by key.
public struct RunData: Sendable {
    /// For a key a case split reads: the values runs carry, with their weights.
    public var choices: [String: [(value: String, weight: Int)]] = [:]
    /// For a key a case split reads: a value no case has (a new option in the app's newer build).
    public var unmatched: [String: String] = [:]
    /// Names a drifted build gives a step (by step id): how the records name it when renamed.
    public var renames: [String: String] = [:]
    /// Conditions in words that hold exactly when the run had a step fail (true) or not (false):
    /// Elevate's `exception` and `no exception` after `on_completed`.
    public var whenFailed: [String: Bool] = [:]
    /// How likely a handler's return is, by `from → to` step ids (default 10).
    public var moveWeights: [String: Int] = [:]
    /// The steps (ids) a drifted build may rename or skip; nil: any.
    public var driftSteps: Set<String>?
    /// Element values of a group's input list (by input key).
    public var elements: [String: [String]] = [:]
    /// Descriptions of errors a step may fail with.
    public var errors: [String] = ["The Internet connection appears to be offline.", "The request timed out.",
                                   "Could not connect to the server."]

    public init() {}
}

/// Simulates runs of one flow by its library's run-time semantics (`flow-libraries.md`), recording
/// what each did.
///
/// - Operations, states, sub-flows and groups run code and leave records; the start, exits, case
///   splits without an operation, joins and parallel splits run none and leave none.
/// - A step first reads its non-optional keys: a key the run's data lacks fails it (`missing-key`),
///   a primitive of another type too (`type-mismatch`); then it may fail with an error; else it writes
///   its keys (a write with a condition only on some runs) and the run moves on.
/// - Where transitions have conditions, the run's data decides (`key = value`, first match in order;
///   `otherwise` when none does); a Flow-iOS case root with no match stops the run, which still reports
///   success; one with a single branch takes it unchecked. Without conditions the run chooses.
/// - A failed step takes its error transition when it has one (to a fail exit), else the run ends.
/// - A Flow-iOS group runs one operation per element, at most `maxConcurrent` at once, each seeing only
///   its element; an empty list stops the run (failure), and an element's failure stops it unless the
///   group allows failures.
/// - A sub-flow runs as a run of its own (its records name it); its failure is the step's.
/// - A parallel split runs all its branches at once up to their join (their steps here always succeed).
/// - A state whose machine has an implementation moves where its handler returns, transition or not.
/// - A long run goes home: after 12 moves it takes the way nearest an exit, so every run ends.
public struct RunSimulator: Sendable {
    public let flow: Flow
    /// Flows a sub-flow step may run, by id or name.
    public let subflows: [Flow]
    public var mix: RunMix
    public var data: RunData
    /// How the records name a step: Flow-iOS prints the operation's type (its name), the other
    /// formats the id.
    public let recordName: @Sendable (Step) -> String
    public var rng: SplitMix64
    /// Whether the run being simulated had a step fail (and went on to handle it).
    var runFailed = false

    static let recordedKinds: Set<StepKind> = [.operation, .group, .subflow, .state, .callback]

    let index: [String: Int]
    let outgoing: [[Int]]
    /// Steps from which an exit can be reached, by the fewest transitions: a run that has looped long enough goes home.
    let distanceToExit: [Int]

    public init(flow: Flow, subflows: [Flow] = [], mix: RunMix = RunMix(), data: RunData = RunData(), seed: UInt64,
                recordName: @escaping @Sendable (Step) -> String = { $0.id }) {
        self.flow = flow
        self.subflows = subflows
        self.mix = mix
        self.data = data
        self.recordName = recordName
        rng = SplitMix64(seed: seed)
        var index: [String: Int] = [:]
        for (i, step) in flow.steps.enumerated() where index[step.id] == nil { index[step.id] = i }
        self.index = index
        var outgoing = Array(repeating: [Int](), count: flow.steps.count)
        for (t, transition) in flow.transitions.enumerated() {
            if let from = index[transition.from], index[transition.to] != nil { outgoing[from].append(t) }
        }
        self.outgoing = outgoing
        // Backwards breadth-first search from the exits.
        var distance = Array(repeating: Int.max, count: flow.steps.count)
        var queue: [Int] = []
        for (i, step) in flow.steps.enumerated() where step.isExit || outgoing[i].isEmpty {
            distance[i] = 0
            queue.append(i)
        }
        var head = 0
        while head < queue.count {
            let at = queue[head]
            head += 1
            for transition in flow.transitions where index[transition.to] == at {
                guard let from = index[transition.from], distance[from] == .max, transition.kind != .error else { continue }
                distance[from] = distance[at] + 1
                queue.append(from)
            }
        }
        distanceToExit = distance
    }

    func silent(_ step: Int) -> Bool { !Self.recordedKinds.contains(flow.steps[step].kind) }

    /// The steps with a record that a run at `from` (nil: the start) can reach next without passing
    /// another step with a record.
    func silentReach(from: Int?) -> Set<Int> {
        var queue = from.map { [$0] } ?? flow.effectiveEntries.compactMap { index[$0] }
        var seen = Set(queue)
        var reach: Set<Int> = from == nil ? Set(queue.filter { !silent($0) || flow.steps[$0].isExit }) : []
        var head = 0
        while head < queue.count {
            let at = queue[head]
            head += 1
            if at != from && !silent(at) { continue }
            for t in outgoing[at] {
                let to = index[flow.transitions[t].to]!
                reach.insert(to)
                if seen.insert(to).inserted { queue.append(to) }
            }
        }
        return reach
    }

    /// A recorded step occurrence: the way that led to it from the previous one, and its records.
    struct Segment {
        var step: Int
        var way: [Int]          // transitions from the previous recorded step (or the start)
        var passed: [Int]       // silent steps arrived at on the way
        var events: [SimulatedEvent]
        var succeeded: Bool
        /// False for a step the records name so that the graph cannot place it (a renamed step).
        var placed = true
    }

    /// The run's data: each key's printed value and its type.
    typealias Bucket = [String: (value: String, type: TypeName?)]

    /// Simulates `count` runs, ids made by `id`.
    public mutating func runs(_ count: Int, id: (Int) -> String) -> [SimulatedRun] {
        (0..<count).map { simulate(id: id($0)) }
    }

    /// Simulates one run.
    public mutating func simulate(id: String) -> SimulatedRun { simulate(id: id, startingWith: nil) }

    /// Simulates one run; a sub-flow's run starts with its caller's data.
    mutating func simulate(id: String, startingWith inherited: Bucket?) -> SimulatedRun {
        runFailed = false
        var scenario = "success"
        let roll = Double(rng.next() >> 11) / Double(UInt64(1) << 53)
        var edge = 0.0
        for (name, p) in [("error", mix.error), ("unpredicted", mix.unpredicted), ("no-case", mix.noCase),
                          ("empty-group", mix.emptyGroup), ("element-failure", mix.elementFailure), ("drift", mix.drift)] {
            edge += p
            if roll < edge { scenario = name; break }
        }
        var bucket: Bucket = inherited ?? [:]
        var initial: [(key: String, value: String)] = []
        if inherited == nil {
            for access in flow.initialData where bucket[access.key] == nil {
                // `\(value)` prints a String without its quotes (an array's elements with theirs).
                var value = access.stringValue ?? access.value ?? sampleValue(access.key, access.type)
                var type = access.type
                if let choices = data.choices[access.key] {
                    value = weighted(choices)
                    type = TypeName("String")
                    if scenario == "no-case", let other = data.unmatched[access.key] { value = other }
                }
                if let group = flow.steps.first(where: { $0.group?.inputKey == access.key })?.group {
                    let pool = data.elements[group.inputKey] ?? ["a.jpg", "b.jpg", "c.jpg"]
                    let n = scenario == "empty-group" ? 0 : 1 + rng.below(6)
                    value = "[" + (0..<n).map { _ in "\"\(rng.pick(pool))\"" }.joined(separator: ", ") + "]"
                }
                bucket[access.key] = (value, type)
                initial.append((access.key, value))
            }
            // Dictionary order: Flow-iOS prints the bucket unordered.
            for i in initial.indices.reversed() where i > 0 { initial.swapAt(i, rng.below(i + 1)) }
        }
        // Which recorded step an unpredicted failure or an error happens at: chosen as the run goes.
        var segments: [Segment] = []
        var ending = "success"
        var failure: (step: String, reason: String, key: String?)?
        var stop: (step: String?, reason: String)?
        var children: [SimulatedRun] = []
        var clock = 0
        var position: Int? = nil
        var way: [Int] = []
        var passed: [Int] = []
        var moves = 0
        var entries = flow.effectiveEntries.compactMap { index[$0] }
        if entries.isEmpty { entries = [0] }
        var at = rng.pick(entries)
        var unpredictedLeft = scenario == "unpredicted"
        let initialKeys = Set(inherited == nil ? flow.initialData.map(\.key) : [])
        var errorLeft = scenario == "error"
        var visitedSteps: Set<Int> = []
        var codeDrift: [SimulatedRun.Drift] = []
        // Ways into a join from the branches of a parallel split, which lead to no recorded step of their own.
        var extra: (transitions: [Int], visits: [Int]) = ([], [])
        var exitWay: (way: [Int], passed: [Int])? = nil
        runLoop: while moves < 60 {
            moves += 1
            let step = flow.steps[at]
            if silent(at) {
                let branches = outgoing[at].filter { flow.transitions[$0].kind == .parallel }
                if step.kind == .parallel, branches.count > 1, let split = parallel(branches, way: way, passed: passed, clock: &clock) {
                    segments += split.segments
                    extra.transitions += split.tails
                    extra.visits += split.tailVisits
                    for segment in split.segments { visitedSteps.insert(segment.step) }
                    at = split.join
                    way = []
                    passed = [split.join]
                    continue
                }
                if step.isExit {
                    ending = step.kind == .fail ? "failure" : "success"
                    exitWay = (way, passed)
                    break
                }
                guard let next = choose(from: at, bucket: bucket, visited: visitedSteps, moves: moves) else {
                    // A case split without an operation and no case matching: the run ends there.
                    if flow.kind == .flowIOS || outgoing[at].contains(where: { flow.transitions[$0].condition != nil }) {
                        stop = (position.map { flow.steps[$0].id }, "no-case-matched")
                        ending = "no-case-matched"
                    }
                    exitWay = nil
                    break
                }
                way.append(next)
                at = index[flow.transitions[next].to]!
                passed.append(at)
                continue
            }
            // A step that runs code: its records.
            visitedSteps.insert(at)
            let name = recordName(step)
            var segment = Segment(step: at, way: way, passed: passed.dropLast().map { $0 }, events: [], succeeded: true)
            way = []
            passed = []
            clock += 5 + rng.below(40)
            var failed: (reason: String, key: String?, detail: String?, types: (String, String)?)? = nil
            if let group = step.group {
                segment.events.append(contentsOf: runGroup(step, group, name: name, bucket: &bucket, clock: &clock, failed: &failed,
                                                           forceFailure: scenario == "element-failure"))
                if failed == nil, let stopped = segment.events.last, stopped.kind == .stop {
                    stop = (step.id, stopped.reason!)
                    ending = stopped.reason!
                    segment.succeeded = false
                    segments.append(segment)
                    break runLoop
                }
            } else {
                segment.events.append(SimulatedEvent(kind: .start, step: name, at: clock))
                // Reads first: the library checks each before the step's work.
                for read in step.reads where !read.optional {
                    if let have = bucket[read.key] {
                        if let wanted = read.type, let found = have.type, Self.primitives.contains(found.description),
                           Self.primitives.contains(wanted.unwrapped.description), found.description != wanted.unwrapped.description {
                            failed = (RunEvent.Reason.typeMismatch, read.key, nil, (found.description, wanted.unwrapped.description))
                            break
                        }
                        if unpredictedLeft, step.kind != .subflow, !initialKeys.contains(read.key), rng.chance(0.35) {
                            // A value an earlier step was to write did not come (a server's answer without
                            // it), where the definition shows the write on every run. (Not a key the run
                            // started with: a literal initial bucket always has its keys.)
                            unpredictedLeft = false
                            bucket[read.key] = nil
                            failed = (RunEvent.Reason.missingKey, read.key, nil, nil)
                            break
                        }
                    } else {
                        failed = (RunEvent.Reason.missingKey, read.key, nil, nil)
                        break
                    }
                }
                if failed == nil, step.kind == .subflow, let target = step.subflow,
                   let child = subflows.first(where: { $0.id == target || $0.name == target }) {
                    var childSimulator = RunSimulator(flow: child, subflows: subflows, mix: mix, data: data, seed: rng.next(), recordName: recordName)
                    childSimulator.mix.drift = 0
                    var childRun = childSimulator.simulate(id: "\(id)/\(child.id)-\(children.count + 1)", startingWith: bucket)
                    childRun.offset = clock + 3
                    for (key, value) in childRun.finalData { bucket[key] = (value, bucket[key]?.type) }
                    children.append(childRun)
                    clock += (childRun.events.last?.at ?? 0) + 10
                    if childRun.ending != "success" {
                        failed = (RunEvent.Reason.error, nil, "\(child.name) failed", nil)
                    }
                }
                // A lifecycle callback (Elevate's `on_started`) is the library's, and does not fail here.
                // In a Syrup progression or an Elevate task an error is a `throw` / an exception, which the
                // graph has as the step's error transition: a step without one does not fail so.
                let mayThrow = !(flow.kind == .syrup || flow.kind == .elevate) || outgoing[at].contains { flow.transitions[$0].kind == .error }
                if failed == nil, errorLeft, mayThrow, step.kind != .subflow, step.kind != .callback, rng.chance(0.3) {
                    errorLeft = false
                    failed = (RunEvent.Reason.error, nil, rng.pick(data.errors), nil)
                }
                clock += 20 + rng.below(700)
                if let failed {
                    var event = SimulatedEvent(kind: .fail, step: name, reason: failed.reason, key: failed.key, value: failed.detail, at: clock)
                    if let types = failed.types {
                        event.types = types
                        event.value = bucket[failed.key!]?.value
                    }
                    segment.events.append(event)
                } else {
                    for write in step.writes {
                        if write.condition != nil, rng.chance(0.25) { continue }
                        let value = sampleValue(write.key, write.type)
                        let old = bucket[write.key]?.value
                        bucket[write.key] = (value, write.type)
                        segment.events.append(SimulatedEvent(kind: .write, step: name, key: write.key, value: value, previous: old, at: clock))
                    }
                    if rng.chance(0.15) {
                        // An operation's own `log(message:)`, sometimes a server's answer printed over several lines.
                        segment.events.append(SimulatedEvent(kind: .log, step: name, value: rng.pick([
                            "cache hit", "retrying once", "took the fast path",
                            "response {\n    code = 200;\n    \"request_id\" = \(rng.hex(8, upper: false));\n}",
                        ]), at: clock))
                    }
                    segment.events.append(SimulatedEvent(kind: .finish, step: name, at: clock + 1))
                }
            }
            if let failed {
                segment.succeeded = false
                failure = (step.id, failed.reason, failed.key)
                segments.append(segment)
                position = at
                // A failure whose error transition leads to a step that handles it (Elevate's task to its
                // `on_completed` with the exception): the run goes on there.
                if let error = outgoing[at].first(where: { flow.transitions[$0].kind == .error }),
                   let target = index[flow.transitions[error].to], !flow.steps[target].isExit, step.group == nil {
                    runFailed = true
                    way = [error]
                    at = target
                    passed = [target]
                    continue
                }
                // A failure takes the step's error transition when it has one, to a fail exit.
                if let error = outgoing[at].first(where: { flow.transitions[$0].kind == .error }),
                   flow.steps[index[flow.transitions[error].to]!].kind == .fail {
                    exitWay = ([error], [index[flow.transitions[error].to]!])
                } else {
                    exitWay = nil
                }
                ending = "failure"
                if step.group != nil, !(step.group!.allowFailure) {
                    ending = "group-failure"
                    stop = (step.id, "group-failure")
                }
                break
            }
            segments.append(segment)
            position = at
            if step.terminal { ending = "success"; exitWay = ([], []); break }
            if let handler = flow.implementations.first?.handler(for: step.name), !handler.opaque, !handler.returns.isEmpty {
                // The code decides: the state's handler moves to one of the states it returns, whether the
                // diagram has that transition or not (then the run leaves the graph, as the code does).
                let targets = handler.returns.compactMap { returned in
                    flow.steps.indices.first { flow.steps[$0].id.lowercased() == returned.caseName.lowercased() }
                }
                if !targets.isEmpty {
                    let home = moves > 12 ? targets.filter { distanceToExit[$0] < distanceToExit[at] } : []
                    let back = targets.filter { visitedSteps.contains($0) && !flow.steps[$0].isExit }
                    let on = targets.filter { !back.contains($0) }
                    let target = home.first ?? (!back.isEmpty && (on.isEmpty || rng.chance(mix.loopBack)) ? move(from: at, back) : move(from: at, on))
                    if let edge = outgoing[at].first(where: { index[flow.transitions[$0].to] == target }) {
                        way = [edge]
                    } else {
                        way = []
                        codeDrift.append(.noTransition(from: step.id, to: flow.steps[target].id))
                    }
                    at = target
                    passed = [at]
                    continue
                }
            }
            guard let next = choose(from: at, bucket: bucket, visited: visitedSteps, moves: moves) else {
                if outgoing[at].isEmpty {
                    // Nothing set a next step: the flow ends here.
                    ending = "success"
                    exitWay = ([], [])
                } else {
                    stop = (step.id, "no-case-matched")
                    ending = "no-case-matched"
                    exitWay = nil
                }
                break
            }
            way = [next]
            at = index[flow.transitions[next].to]!
            passed = [at]
        }
        var run = SimulatedRun(id: id, flow: flow.id, scenario: scenario, initialData: initial,
                               finalData: bucket.keys.sorted().map { ($0, bucket[$0]!.value) }, events: [], visits: [], transitions: [],
                               ending: ending, failure: failure, stop: stop, drift: codeDrift, path: [], children: children)
        if scenario == "drift", codeDrift.isEmpty { drift(&segments, exit: &exitWay, run: &run) }
        // The truth, from the segments: each recorded step's arrival and the way to it.
        // Segments of a parallel split's branches run at once: the records and the path follow their starts.
        let ordered = segments.enumerated().sorted { ($0.element.events.first?.at ?? 0, $0.offset) < ($1.element.events.first?.at ?? 0, $1.offset) }.map(\.element)
        for segment in ordered {
            run.events += segment.events
            guard segment.placed else { continue }
            run.transitions += segment.way
            // Every recorded step is an arrival (after a way to it, or off the graph), and so is
            // each step without records passed on the way.
            run.visits += segment.passed.map { flow.steps[$0].id } + [flow.steps[segment.step].id]
            if run.path.last != flow.steps[segment.step].id { run.path.append(flow.steps[segment.step].id) }
        }
        // In time order (a parallel split's branches interleave); events at the same time keep their order.
        run.events = run.events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        run.transitions += extra.transitions
        run.visits += extra.visits.map { flow.steps[$0].id }
        if let exitWay, ending == "success" || ending == "failure" {
            run.transitions += exitWay.way
            run.visits += exitWay.passed.map { flow.steps[$0].id }
        }
        clock += 10
        if let stop, !run.events.contains(where: { $0.kind == .stop }) { run.events.append(SimulatedEvent(kind: .stop, step: nil, reason: stop.reason, at: clock)) }
        run.events.append(SimulatedEvent(kind: .end, reason: ending == "failure" || ending == "group-failure" || ending == "empty-group" ? "failure" : "success", at: clock + 1))
        return run
    }

    /// One of `choices` (step indices) to move to from `from`: some returns are rare (an expired
    /// password), their weight is the data's.
    mutating func move(from: Int, _ choices: [Int]) -> Int {
        let weights = choices.map { data.moveWeights["\(flow.steps[from].id) → \(flow.steps[$0].id)"] ?? 10 }
        var roll = rng.below(weights.reduce(0, +))
        for (choice, weight) in zip(choices, weights) {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[0]
    }

    /// A parallel split (FlowState's `ConcurentFlowStep`, a declared `parallel` step): every branch runs
    /// at once, each from the same moment, up to the join, where the run goes on when all are done.
    /// The branches' steps here always succeed and touch no data. Nil when a branch does not reach one
    /// join.
    mutating func parallel(_ branches: [Int], way: [Int], passed: [Int], clock: inout Int)
        -> (segments: [Segment], tails: [Int], tailVisits: [Int], join: Int)? {
        var segments: [Segment] = []
        var tails: [Int] = [], tailVisits: [Int] = []
        var join: Int?
        let start = clock
        var end = clock
        for (n, branch) in branches.enumerated() {
            var time = start
            var bway = (n == 0 ? way : []) + [branch]
            var bpassed = n == 0 ? passed : []
            var at = index[flow.transitions[branch].to]!
            var steps = 0
            while flow.steps[at].kind != .join {
                steps += 1
                guard steps < 20 else { return nil }
                if silent(at) {
                    guard !flow.steps[at].isExit, let next = outgoing[at].first else { return nil }
                    bpassed.append(at)
                    bway.append(next)
                    at = index[flow.transitions[next].to]!
                    continue
                }
                let name = recordName(flow.steps[at])
                time += 2 + rng.below(30)
                let started = time
                time += 300 + rng.below(4000)
                segments.append(Segment(step: at, way: bway, passed: bpassed,
                                        events: [SimulatedEvent(kind: .start, step: name, at: started), SimulatedEvent(kind: .finish, step: name, at: time)],
                                        succeeded: true))
                guard let next = outgoing[at].first else { return nil }
                bway = [next]
                bpassed = []
                at = index[flow.transitions[next].to]!
            }
            guard join == nil || join == at else { return nil }
            join = at
            tails += bway
            tailVisits += bpassed
            end = max(end, time)
        }
        guard let join else { return nil }
        clock = end + 1
        // The finishes of one branch and the starts of another interleave: the records follow the clock.
        return (segments, tails, tailVisits, join)
    }

    static let primitives: Set<String> = ["String", "Int", "Bool", "Double"]

    mutating func weighted(_ choices: [(value: String, weight: Int)]) -> String {
        let total = choices.reduce(0) { $0 + $1.weight }
        var roll = rng.below(total)
        for choice in choices {
            if roll < choice.weight { return choice.value }
            roll -= choice.weight
        }
        return choices[0].value
    }

    /// A value as Swift's `\(value)` prints it, made up for a key and type.
    mutating func sampleValue(_ key: String, _ type: TypeName?) -> String {
        switch type?.unwrapped.description ?? "" {
        case "String":
            if key.lowercased().contains("url") { return "https://photoshare.example/s/\(rng.hex(8, upper: false))" }
            if key.lowercased().contains("message") { return "Look at my album!\nhttps://photoshare.example/s/\(rng.hex(8, upper: false))" }
            return "\(key)_\(rng.hex(6, upper: false))"
        case "Int": return String(rng.below(10_000))
        case "Bool": return rng.chance(0.5) ? "true" : "false"
        case "Double", "Decimal": return "\(10 + rng.below(490)).\(rng.below(90) + 10)"
        case "Date": return "2026-11-2\(rng.below(6)) \(10 + rng.below(12)):\(10 + rng.below(50)):\(10 + rng.below(50)) +0000"
        case let name where name.hasPrefix("["): return "[\"\(rng.hex(4, upper: false))\", \"\(rng.hex(4, upper: false))\"]"
        case "": return rng.hex(12, upper: false)
        case let name: return "\(name)(id: \"\(rng.hex(6, upper: false))\")"
        }
    }

    /// The next transition from step `from`: by the run's data where transitions have conditions,
    /// else chosen (a loop back less often, and none once the run is long). Nil: none can be taken.
    mutating func choose(from: Int, bucket: Bucket, visited: Set<Int>, moves: Int) -> Int? {
        let ways = outgoing[from].filter { flow.transitions[$0].kind != .error }
        guard !ways.isEmpty else { return nil }
        // Ways taken by whether the run failed so far (Elevate's `exception` / `no exception` after
        // `on_completed`), by their condition or label.
        let transitions = flow.transitions, whenFailed = data.whenFailed, failed = runFailed
        let onFailure = { (t: Int) in (transitions[t].condition?.text ?? transitions[t].label).flatMap { whenFailed[$0] } }
        if ways.contains(where: { onFailure($0) != nil }), let way = ways.first(where: { onFailure($0) == failed }) { return way }
        let conditional = ways.filter { flow.transitions[$0].condition != nil }
        if !conditional.isEmpty {
            // Flow-iOS: a case root with exactly one branch takes it without checking the case.
            if flow.kind == .flowIOS, conditional.count == 1 { return conditional[0] }
            for t in ways {
                switch flow.transitions[t].condition {
                case let .equals(key, value)?: if bucket[key]?.value == value { return t }
                case let .expression(text)?:
                    // A condition on whether the run failed so far (Elevate's `exception` / `no exception`).
                    if let onFailure = data.whenFailed[text] {
                        if onFailure == runFailed { return t }
                        continue
                    }
                    // A condition the definition states in words: the run's data decides, which the
                    // generator stands in for; a Flow-iOS case whose value FlowLens cannot see likewise.
                    if let key = data.choices.keys.sorted().first(where: { text.contains("\"\($0)\"") }), let value = bucket[key]?.value {
                        if text.contains("\"\(value)\"") { return t }
                    } else if rng.chance(0.4) { return t }
                case .otherwise?: return t
                case nil: return t
                }
            }
            // A `switch` over a step's result (FlowState's completions) covers every case: when every way on
            // has a condition in words and none was taken, one of them is.
            if flow.kind != .flowIOS, ways.allSatisfy({ if case .expression? = flow.transitions[$0].condition { true } else { false } }) {
                return rng.pick(ways)
            }
            return nil
        }
        // Home-going once the run is long, so that every run ends.
        if moves > 12 {
            return ways.min { distanceToExit[index[flow.transitions[$0].to]!] < distanceToExit[index[flow.transitions[$1].to]!] }
        }
        let back = ways.filter { visited.contains(index[flow.transitions[$0].to]!) }
        let on = ways.filter { !back.contains($0) }
        if !back.isEmpty, on.isEmpty || rng.chance(mix.loopBack) { return rng.pick(back) }
        return rng.pick(on)
    }

    /// A Flow-iOS group: one operation per element of its input list, at most `maxConcurrent` at once,
    /// each with a private bucket holding only its element.
    mutating func runGroup(_ step: Step, _ group: GroupSpec, name: String, bucket: inout Bucket, clock: inout Int,
                           failed: inout (reason: String, key: String?, detail: String?, types: (String, String)?)?, forceFailure: Bool) -> [SimulatedEvent] {
        var events: [SimulatedEvent] = []
        let list = bucket[group.inputKey]?.value ?? ""
        let elements = list.hasPrefix("[") && list.count > 2
            ? list.dropFirst().dropLast().components(separatedBy: ", ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } : []
        guard !elements.isEmpty else {
            events.append(SimulatedEvent(kind: .stop, step: nil, reason: RunEvent.Reason.emptyGroup, key: group.inputKey, at: clock))
            return events
        }
        let failing = forceFailure ? rng.below(elements.count) : -1
        var instances: [String] = []
        while instances.count < elements.count {
            let id = rng.hex(4)
            if !instances.contains(id) { instances.append(id) }
        }
        let width = max(1, group.maxConcurrent ?? 3)
        var running: [Int] = []
        var next = 0
        var outputs: [String] = []
        while next < elements.count || !running.isEmpty {
            while running.count < width, next < elements.count {
                events.append(SimulatedEvent(kind: .start, step: name, instance: instances[next], at: clock))
                running.append(next)
                next += 1
                clock += 1
            }
            // One of the running operations finishes (any of them: they run at once).
            let done = running.remove(at: rng.below(running.count))
            clock += 100 + rng.below(900)
            // The element's operation sees only its own bucket.
            let privateKeys: Set<String> = [group.elementKey]
            if let missing = group.elementReads.first(where: { !$0.optional && !privateKeys.contains($0.key) }) {
                events.append(SimulatedEvent(kind: .fail, step: name, instance: instances[done], reason: RunEvent.Reason.missingKey, key: missing.key, at: clock))
                if !group.allowFailure {
                    failed = (RunEvent.Reason.missingKey, missing.key, nil, nil)
                    events.append(SimulatedEvent(kind: .stop, step: nil, reason: RunEvent.Reason.groupFailure, at: clock))
                    return events
                }
                continue
            }
            if done == failing {
                let detail = rng.pick(data.errors)
                events.append(SimulatedEvent(kind: .fail, step: name, instance: instances[done], reason: RunEvent.Reason.error, value: detail, at: clock))
                if !group.allowFailure {
                    failed = (RunEvent.Reason.error, nil, detail, nil)
                    events.append(SimulatedEvent(kind: .stop, step: nil, reason: RunEvent.Reason.groupFailure, at: clock))
                    return events
                }
                continue
            }
            events.append(SimulatedEvent(kind: .finish, step: name, instance: instances[done], at: clock))
            outputs.append("https://photoshare.example/i/\(rng.hex(8, upper: false))")
        }
        if let output = group.outputKey {
            let value = "[" + outputs.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            bucket[output] = (value, TypeName("[String]"))
            events.append(SimulatedEvent(kind: .write, step: name, key: output, value: value, at: clock))
        }
        return events
    }

    /// Makes the run's records drift from the graph, as a newer or older build of the app would: a
    /// step renamed, or a step skipped. Only where the records show it beyond doubt: the steps before
    /// and after cannot be joined by another way (else the records would be a run on the graph).
    mutating func drift(_ segments: inout [Segment], exit: inout (way: [Int], passed: [Int])?, run: inout SimulatedRun) {
        var candidates = Array(segments.indices.filter { k in
            segments[k].succeeded && flow.steps[segments[k].step].group == nil && !segments[k].events.contains { $0.kind == .stop }
                && (data.driftSteps?.contains(flow.steps[segments[k].step].id) ?? true)
        })
        for i in candidates.indices.reversed() where i > 0 { candidates.swapAt(i, rng.below(i + 1)) }
        for k in candidates {
            let before = k > 0 ? segments[k - 1].step : nil
            let afterStep = k + 1 < segments.count ? segments[k + 1].step : nil
            let reach = silentReach(from: before)
            let rename = rng.chance(0.5)
            if let afterStep {
                guard !reach.contains(afterStep) else { continue }
            } else {
                // The run's last step: a successful end after it would otherwise be counted on a way from `before`.
                guard run.ending == "success", !reach.contains(where: { flow.steps[$0].isExit }) else { continue }
                if !rename { continue }
            }
            let step = flow.steps[segments[k].step]
            if rename {
                let name = data.renames[step.id] ?? recordName(step) + "V2"
                for e in segments[k].events.indices where segments[k].events[e].step == recordName(step) { segments[k].events[e].step = name }
                run.drift.append(.unknownStep(name))
                run.scenario = "drift-rename"
            } else {
                run.scenario = "drift-skip"
            }
            if let afterStep {
                run.drift.append(.noTransition(from: before.map { flow.steps[$0].id }, to: flow.steps[afterStep].id))
                segments[k + 1].way = []
                segments[k + 1].passed = []
            } else {
                exit = ([], [])
            }
            if rename {
                // Its records stay, under another name; the graph cannot place it.
                segments[k].placed = false
            } else {
                segments.remove(at: k)
            }
            break
        }
        if run.scenario == "drift" { run.scenario = "success" }
    }
}

