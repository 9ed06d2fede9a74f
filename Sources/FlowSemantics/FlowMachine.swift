import FlowModel

/// What a flow graph does when it runs, executable: a run is a set of tokens over the steps and
/// one shared data bucket, and `successors(of:)` lists every state one move can lead to, with what
/// that move did (the reads that found nothing, the values of a wrong type, the steps run).
///
/// This is the semantics of FlowLens's own format and of the state machines (FlowKit, plain
/// PlantUML), written once; the analyzer's verdicts are checked against it (`FlowExplorer` runs a flow
/// over every choice and schedule), and what it says is the truth the rules must agree with:
///
/// - A run starts at one entry, with the flow's initial data (a value written only under a condition
///   may or may not be there).
/// - A step runs in one move: its reads first (a required read of a key that is not set, or set with
///   a type the read does not accept, fails the step; an optional read of a value of another type
///   finds nothing), then its writes (a write made only under a
///   condition may not happen). A step that has `error` ways may fail on any run (then it writes
///   nothing); a failed step goes on by an error way, or, without one, fails the run.
/// - The way on: the `parallel` transitions are all taken, each branch a token of its own (a fan-out).
///   Of the others, one is taken: a condition `key = value` reads the key (a key that is not set
///   matches no case); a condition in words may hold or not;
///   `otherwise` is taken when no sibling holds; a transition without a condition may always be taken.
///   With no way on, the branch stops there.
/// - A `join` waits: it runs when a branch is at it and no other branch of the run can still reach
///   it (in this round: not by a way back round a loop), and then the branches at it go on as one
///   (so it waits for every branch of a fan-out that comes its way, and passes a single branch of a
///   choice through at once).
/// - An `end` ends its branch; a branch that comes to a `fail` (or a failed step with no error way)
///   ends the whole run at once.
/// - Branches run side by side: any branch may move next, so a key one branch writes is not set
///   for another until that write has happened.
/// - A group step runs its operation once per element; each element run sees only its element key.
public struct FlowMachine: Sendable {
    /// A value in the shared data: its type, and the string it holds when that is known.
    public struct Value: Hashable, Sendable {
        public var type: TypeName?
        public var string: String?
        public init(type: TypeName?, string: String? = nil) {
            self.type = type
            self.string = string
        }
    }

    /// Where a run is: its branches (step indices, one token each, sorted), its data, and whether it is over.
    public struct State: Hashable, Sendable {
        /// One entry per branch: the step it is about to run (or, for a join, waiting at).
        public var tokens: [Int]
        /// The shared data, by key.
        public var data: [String: Value]
        /// The run failed (a `fail` step, or a failed step with no error way).
        public var failed: Bool

        public init(tokens: [Int], data: [String: Value], failed: Bool = false) {
            self.tokens = tokens.sorted()
            self.data = data
            self.failed = failed
        }

        /// A run with no branch left has ended.
        public var isOver: Bool { tokens.isEmpty }
    }

    /// Something a move did that a finding may be about.
    public enum Event: Hashable, Sendable {
        /// A step ran (or started, and failed on its reads).
        case ran(step: Int)
        /// A step's required read found the key not set.
        case missingRead(step: Int, key: String)
        /// A step's way on tested a key that is not set (`key = value`): no case on it matches.
        case testedUnset(step: Int, key: String)
        /// A step's way on tested a key that is set.
        case testedSet(step: Int, key: String)
        /// A step's required read found a value of a type it does not accept.
        case wrongType(step: Int, key: String, found: TypeName, read: TypeName)
        /// A group's element run read a key other than its element.
        case elementMissingRead(step: Int, key: String)
        /// A branch had no way on after a step that does not leave the flow.
        case noWayOn(step: Int)
        /// The run ended with success: its last branch reached an end.
        case ended
        /// The run failed.
        case failedRun
        /// Branches wait at joins that none of them can ever pass.
        case deadlock
    }

    /// One move's outcome.
    public struct Move: Sendable {
        public var state: State
        public var events: [Event]
    }

    public let flow: Flow
    public let graph: FlowIndex
    /// When true, a step whose reads fail also goes on as if they had not (beside failing), and a
    /// case on a key that is not set may also match: the runs of the flow with each such defect
    /// mended, so that a defect after another is still seen to happen. False: the library's own
    /// behaviour.
    public let mendsFailedReads: Bool
    /// Per join step: the steps from which it can be reached (without passing it).
    private let reachesJoin: [Int: Set<Int>]

    public init(flow: Flow, mendsFailedReads: Bool = false) {
        self.flow = flow
        self.mendsFailedReads = mendsFailedReads
        let graph = FlowIndex(flow)
        self.graph = graph
        // The edges that close a loop (to a step on the way to them, in a depth-first walk from the
        // entries) do not count: a join waits for the branches ahead of it, not for the next round.
        var backEdges: Set<Int> = []
        var state = Array(repeating: 0, count: flow.steps.count)  // 0 new, 1 on the way, 2 done
        for entry in graph.entries where state[entry] == 0 {
            var stack: [(step: Int, next: Int)] = [(entry, 0)]
            state[entry] = 1
            while let (step, next) = stack.last {
                if next < graph.successors[step].count {
                    stack[stack.count - 1].next += 1
                    let edge = graph.successors[step][next]
                    switch state[edge.to] {
                    case 0:
                        state[edge.to] = 1
                        stack.append((edge.to, 0))
                    case 1: backEdges.insert(edge.transition)
                    default: break
                    }
                } else {
                    state[step] = 2
                    stack.removeLast()
                }
            }
        }
        var reaches: [Int: Set<Int>] = [:]
        for j in flow.steps.indices where flow.steps[j].kind == .join && !graph.duplicates.contains(j) {
            var seen: Set<Int> = []
            var stack = graph.predecessors[j].filter { !backEdges.contains($0.transition) }.map(\.from)
            while let s = stack.popLast() {
                guard s != j, seen.insert(s).inserted else { continue }
                stack += graph.predecessors[s].filter { !backEdges.contains($0.transition) }.map(\.from)
            }
            reaches[j] = seen
        }
        reachesJoin = reaches
    }

    /// The states a run starts in: one per entry and per choice of the initial values written only
    /// under a condition.
    public func initialStates() -> [State] {
        let datas = Self.written(flow.initialData, into: [:])
        return graph.entries.flatMap { entry in datas.map { State(tokens: [entry], data: $0) } }
    }

    /// Whether a join may run: a branch is at it, and no branch elsewhere can still reach it.
    private func isReady(join j: Int, in state: State) -> Bool {
        let reaching = reachesJoin[j] ?? []
        return !state.tokens.contains { $0 != j && reaching.contains($0) }
    }

    /// Every move from `state`: any branch may move next.
    public func successors(of state: State) -> [Move] {
        guard !state.isOver, !state.failed else { return [] }
        var moves: [Move] = []
        var tried: Set<Int> = []
        for (position, step) in state.tokens.enumerated() where tried.insert(step).inserted {
            if flow.steps[step].kind == .join {
                guard isReady(join: step, in: state) else { continue }
                // The branches at the join go on as one.
                var rest = state
                rest.tokens = state.tokens.filter { $0 != step }
                moves += run(step, from: rest)
            } else {
                var rest = state
                rest.tokens.remove(at: position)
                moves += run(step, from: rest)
            }
        }
        if moves.isEmpty {
            // Every branch waits at a join that another branch could reach but never will.
            var stuck = state
            stuck.tokens = []
            moves.append(Move(state: stuck, events: [.deadlock]))
        }
        return moves
    }

    /// The moves of running `step` (its token already taken out of `rest`); a branch that comes to a
    /// `fail` step fails the run at once (nothing waits for it).
    private func run(_ step: Int, from rest: State) -> [Move] {
        runStep(step, from: rest).map { move in
            guard let failing = move.state.tokens.first(where: { flow.steps[$0].kind == .fail }) else { return move }
            var over = move.state
            over.failed = true
            over.tokens = []
            return Move(state: over, events: move.events + [.ran(step: failing), .failedRun])
        }
    }

    private func runStep(_ step: Int, from rest: State) -> [Move] {
        let s = flow.steps[step]
        var events: [Event] = [.ran(step: step)]
        var failedOnReads = false
        for read in s.reads {
            guard let value = rest.data[read.key] else {
                if !read.optional {
                    events.append(.missingRead(step: step, key: read.key))
                    failedOnReads = true
                }
                continue
            }
            // An optional read of a value of another type finds nothing (`as? T` is nil): the
            // value is lost all the same, though the step goes on.
            if let found = value.type, let wanted = read.type, !found.isCompatible(withRead: wanted) {
                events.append(.wrongType(step: step, key: read.key, found: found, read: wanted))
                if !read.optional { failedOnReads = true }
            }
        }
        if let group = s.group {
            for read in group.elementReads where !read.optional && read.key != group.elementKey {
                events.append(.elementMissingRead(step: step, key: read.key))
                if !group.allowFailure { failedOnReads = true }
            }
        }
        let leaving = graph.successors[step]
        let errorWays = leaving.filter { flow.transitions[$0.transition].kind == .error }
        var moves: [Move] = []
        func fail() {
            if errorWays.isEmpty {
                var over = rest
                over.failed = true
                over.tokens = []
                moves.append(Move(state: over, events: events + [.failedRun]))
            } else {
                for way in errorWays {
                    var next = rest
                    next.tokens.append(way.to)
                    next.tokens.sort()
                    moves.append(Move(state: next, events: events))
                }
            }
        }
        if s.kind == .fail {
            var over = rest
            over.failed = true
            over.tokens = []
            return [Move(state: over, events: events + [.failedRun])]
        }
        if failedOnReads {
            fail()
            if !mendsFailedReads { return moves }
        }
        // A step with an error way may fail on any run, before it writes.
        if !errorWays.isEmpty { fail() }
        for data in Self.written(s.writes, into: rest.data) {
            var done = rest
            done.data = data
            if s.isExit {
                moves.append(Move(state: done, events: events + (done.tokens.isEmpty ? [.ended] : [])))
                continue
            }
            let parallel = leaving.filter { flow.transitions[$0.transition].kind == .parallel }
            let choices = ways(from: step, data: data)
            if !parallel.isEmpty {
                // A fan-out: every branch is taken (with one of the other ways, if the step has any).
                for choice in choices.ways.isEmpty ? [nil] : choices.ways.map(Optional.some) {
                    var next = done
                    next.tokens += parallel.map(\.to)
                    if let choice { next.tokens.append(choice) }
                    next.tokens.sort()
                    moves.append(Move(state: next, events: events + choices.events))
                }
                continue
            }
            if choices.ways.isEmpty {
                moves.append(Move(state: done, events: events + choices.events + [.noWayOn(step: step)]
                                  + (done.tokens.isEmpty ? [.ended] : [])))
                continue
            }
            for target in choices.ways {
                var next = done
                next.tokens.append(target)
                next.tokens.sort()
                moves.append(Move(state: next, events: events + choices.events))
            }
        }
        return moves
    }

    /// The data after `writes`: one result per choice of the writes made only under a condition.
    private static func written(_ writes: [DataAccess], into data: [String: Value]) -> [[String: Value]] {
        var results = [data]
        for access in writes {
            let value = Value(type: access.type, string: access.stringValue)
            if access.condition != nil {
                results = results.flatMap { d -> [[String: Value]] in
                    var with = d
                    with[access.key] = value
                    return [d, with]
                }
            } else {
                for n in results.indices { results[n][access.key] = value }
            }
        }
        return results
    }

    /// The targets one of which the run may take after `step` (not the parallel ones), with the reads
    /// choosing them made.
    private func ways(from step: Int, data: [String: Value]) -> (ways: [Int], events: [Event]) {
        var events: [Event] = []
        var targets: [Int] = []
        var otherwise: [Int] = []
        var earlierMayFailAll = true
        for edge in graph.successors[step] {
            let transition = flow.transitions[edge.transition]
            guard transition.kind == .normal || transition.kind == .retry else { continue }
            switch transition.condition {
            case nil:
                targets.append(edge.to)
            case .otherwise?:
                otherwise.append(edge.to)
            case let .equals(key, value)?:
                let mayHold: Bool, mayFail: Bool
                if let found = data[key] {
                    let event = Event.testedSet(step: step, key: key)
                    if !events.contains(event) { events.append(event) }
                    if let known = found.string { mayHold = known == value; mayFail = known != value } else { mayHold = true; mayFail = true }
                } else {
                    let event = Event.testedUnset(step: step, key: key)
                    if !events.contains(event) { events.append(event) }
                    // Mended, the key would be set here, to any value.
                    mayHold = mendsFailedReads
                    mayFail = true
                }
                if mayHold && earlierMayFailAll { targets.append(edge.to) }
                earlierMayFailAll = earlierMayFailAll && mayFail
            case .expression?:
                if earlierMayFailAll { targets.append(edge.to) }
            }
        }
        if earlierMayFailAll { targets += otherwise }
        var seen: Set<Int> = []
        return (targets.filter { seen.insert($0).inserted }, events)
    }
}
