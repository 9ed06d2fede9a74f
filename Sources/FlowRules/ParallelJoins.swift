import FlowModel

/// The joins where branches of a fan-out meet, each with its ways in grouped by branch: what makes
/// a join wait for every branch (`FlowMachine`'s semantics, which `DeclarativeDifferentialTests`
/// checks this against), so that a key one branch sets is set after the join, while inside the
/// branches it is not set for the others. Used by `KeyFacts` only for flows with a fan-out or a
/// writing step with an error way; other flows keep its faster path.
struct ParallelJoins {
    /// How a join is entered.
    struct Join {
        /// Per branch of the fan-out that reaches the join, the predecessors through which it comes:
        /// the branch's ways in, any one of which it takes.
        var branches: [[Int]]
        /// Predecessors in no single branch (a way in from before the fan-out, or shared by branches):
        /// each a way in of its own.
        var others: [Int]
        /// Per branch (as `branches`): its first step, and the steps only it reaches.
        var starts: [Int]
        var regions: [Set<Int>]
        /// Per branch (as `branches`): where it may leave the join's reach other than by coming to it
        /// (a way to an end, or to steps that cannot come to the join; a stop with no way on), each
        /// with whether that way is taken on failure: the join waits for the branch until then, so
        /// what the branch brings is what it has set there too. Empty for a branch with a fan-out of
        /// its own, which `nested` answers for instead.
        var exits: [[(step: Int, failing: Bool)]]
        /// Per branch with a fan-out of its own: its steps that can still come to the join, each with
        /// its ways (where to, whether taken on failure, whether a branch of a fan-out); nil for the others.
        var nested: [[Nested]?]
    }

    /// A step of a branch with a fan-out of its own (see `Join.nested`).
    struct Nested {
        var step: Int
        var isFail: Bool
        var ways: [(to: Int, error: Bool, parallel: Bool, inReach: Bool, toFail: Bool)]
    }

    /// By join step index; empty for a flow without fan-outs that meet.
    let joins: [Int: Join]
    /// Per step in a branch of a fan-out: the steps of its other branches, which may run before or after it.
    let concurrent: [Int: Set<Int>]

    init(flow: Flow, graph: FlowIndex) {
        var joins: [Int: Join] = [:]
        let candidates = flow.steps.indices.filter { flow.steps[$0].kind == .join && !graph.duplicates.contains($0) }
        var concurrent: [Int: Set<Int>] = [:]
        for fork in flow.steps.indices where !graph.duplicates.contains(fork) {
            let targets = graph.successors[fork].filter { flow.transitions[$0.transition].kind == .parallel }.map(\.to)
            guard Set(targets).count > 1 else { continue }
            // What each branch reaches before the run comes back to the fan-out.
            let regions: [Set<Int>] = targets.map { target in
                var seen: Set<Int> = []
                var stack = [target]
                while let s = stack.popLast() {
                    guard s != fork, seen.insert(s).inserted else { continue }
                    stack += graph.successors[s].map(\.to)
                }
                return seen
            }
            let exclusive: [Set<Int>] = regions.indices.map { n in
                regions[n].filter { s in !regions.indices.contains { $0 != n && regions[$0].contains(s) } }
            }
            // A step runs beside what the branches that do not reach it reach (until they meet a
            // branch that does: a join that waits for it is after it).
            var holders: [Int: [Int]] = [:]
            for n in regions.indices { for s in regions[n] { holders[s, default: []].append(n) } }
            var besides: [[Int]: Set<Int>] = [:]
            for (s, holding) in holders where holding.count < regions.count {
                if besides[holding] == nil {
                    let reached = holding.reduce(into: Set<Int>()) { $0.formUnion(regions[$1]) }
                    besides[holding] = regions.indices.filter { !holding.contains($0) }
                        .reduce(into: Set<Int>()) { $0.formUnion(regions[$1].subtracting(reached)) }
                }
                concurrent[s, default: []].formUnion(besides[holding]!)
            }
            for join in candidates where joins[join] == nil {
                var branches = Array(repeating: [Int](), count: regions.count)
                var others: [Int] = []
                for edge in graph.predecessors[join] {
                    let p = edge.from
                    let holding = exclusive.indices.filter { exclusive[$0].contains(p) }
                    if holding.count == 1 { branches[holding[0]].append(p) } else { others.append(p) }
                }
                let meeting = branches.indices.filter { !branches[$0].isEmpty }
                guard meeting.count > 1 else { continue }
                let canReach = Self.reaching(join, fork: fork, graph: graph)
                let exits = meeting.map { Self.exits(from: targets[$0], at: join, fork: fork, canReach: canReach, flow: flow, graph: graph) }
                let nested = meeting.map { Self.nested(from: targets[$0], at: join, fork: fork, canReach: canReach, flow: flow, graph: graph) }
                joins[join] = Join(branches: meeting.map { branches[$0] }, others: others,
                                   starts: meeting.map { targets[$0] }, regions: meeting.map { exclusive[$0] }, exits: exits, nested: nested)
            }
        }
        self.joins = joins
        self.concurrent = concurrent
    }

    /// The steps that can still come to `join` (without passing the fan-out again).
    static func reaching(_ join: Int, fork: Int, graph: FlowIndex) -> Set<Int> {
        var canReach: Set<Int> = [join]
        var stack = [join]
        while let s = stack.popLast() {
            for edge in graph.predecessors[s] where edge.from != fork && canReach.insert(edge.from).inserted { stack.append(edge.from) }
        }
        return canReach
    }

    /// For a branch from `start` with a fan-out of its own, its steps that can still come to `join`
    /// with their ways (see `Join.nested`); nil for a branch without one.
    /// `canReach`: `reaching(join, fork:)`, shared by the join's branches.
    static func nested(from start: Int, at join: Int, fork: Int, canReach: Set<Int>, flow: Flow, graph: FlowIndex) -> [Nested]? {
        var steps: [Nested] = []
        var hasFanOut = false
        var seen: Set<Int> = [start]
        var stack = [start]
        while let s = stack.popLast() {
            guard s != join, s != fork, canReach.contains(s) else { continue }
            let ways = graph.successors[s].map { edge -> (to: Int, error: Bool, parallel: Bool, inReach: Bool, toFail: Bool) in
                let kind = flow.transitions[edge.transition].kind
                return (edge.to, kind == .error, kind == .parallel, canReach.contains(edge.to) && edge.to != fork, flow.steps[edge.to].kind == .fail)
            }
            if ways.contains(where: \.parallel) { hasFanOut = true }
            steps.append(Nested(step: s, isFail: flow.steps[s].kind == .fail, ways: ways))
            for way in ways where seen.insert(way.to).inserted { stack.append(way.to) }
        }
        return hasFanOut ? steps : nil
    }

    /// Whether a branch with a fan-out of its own (its `nested` steps, the first its start) has set
    /// the key by the time the join runs: a step's writes count while its branch can still come to
    /// the join (the join waits for it until then); of a fan-out, one branch that sets it is enough,
    /// of a choice, every way must (a greatest fixpoint: a loop going round does not stop it).
    static func brings(_ nested: [Nested], join: Int, isReachable: [Bool], before: [Bool], after: [Bool]) -> Bool {
        var value: [Int: Bool] = [:]
        for n in nested { value[n.step] = true }
        var changed = true
        while changed {
            changed = false
            for n in nested where value[n.step]! && isReachable[n.step] && !n.isFail {
                func way(_ w: (to: Int, error: Bool, parallel: Bool, inReach: Bool, toFail: Bool)) -> Bool {
                    if w.error ? before[n.step] : after[n.step] { return true }
                    if w.to == join { return false }
                    if !w.inReach { return w.toFail }
                    return value[w.to] ?? false
                }
                let parallel = n.ways.filter(\.parallel)
                let holds = n.ways.isEmpty ? after[n.step] : parallel.isEmpty ? n.ways.allSatisfy(way) : parallel.contains(where: way)
                if !holds {
                    value[n.step] = false
                    changed = true
                }
            }
        }
        guard let start = nested.first else { return true }
        return value[start.step] ?? true
    }

    /// The ways a branch from `start` leaves `join`'s reach without coming to it (see `Join.exits`).
    /// `canReach`: `reaching(join, fork:)`, shared by the join's branches.
    static func exits(from start: Int, at join: Int, fork: Int, canReach: Set<Int>, flow: Flow, graph: FlowIndex) -> [(step: Int, failing: Bool)] {
        var exits: [(step: Int, failing: Bool)] = []
        var seen: Set<Int> = [start]
        var stack = [start]
        while let s = stack.popLast() {
            guard s != join, s != fork, canReach.contains(s) else { continue }
            let ways = graph.successors[s]
            if ways.contains(where: { flow.transitions[$0.transition].kind == .parallel }) { return [] }
            if ways.isEmpty && !flow.steps[s].isExit { exits.append((s, false)) }
            for edge in ways {
                if !canReach.contains(edge.to) && flow.steps[edge.to].kind != .fail {
                    exits.append((s, flow.transitions[edge.transition].kind == .error))
                }
                if seen.insert(edge.to).inserted { stack.append(edge.to) }
            }
        }
        return exits
    }

    /// Whether `key` is set on every run before each step, for the flow's reachable steps: the
    /// greatest fixpoint of "set before a step" = set on every way in, where a join of branches has
    /// it when one of its branches brings it (the join waits for all of them).
    ///
    /// `writes(step)`: the step sets the key on every run (or may write anything).
    /// `failing(p, s)`: the way from `p` to `s` is taken when `p` fails, which then wrote nothing.
    static func mustSet(stepCount: Int, order: [Int], predecessors: [[Int]], isEntry: [Bool], isReachable: [Bool],
                        initial: Bool, joins: [Int: Join], writes: (Int) -> Bool,
                        failing: (Int, Int) -> Bool = { _, _ in false }) -> [Bool] {
        var before = Array(repeating: true, count: stepCount)
        var after = Array(repeating: true, count: stepCount)
        for s in 0..<stepCount where !isReachable[s] { before[s] = false; after[s] = false }
        var changed = true
        while changed {
            changed = false
            for s in order {
                var value: Bool
                func leaves(_ p: Int) -> Bool { !isReachable[p] || (failing(p, s) ? before[p] : after[p]) }
                if isEntry[s] {
                    value = initial
                } else if let join = joins[s] {
                    func leavesBy(_ exit: (step: Int, failing: Bool)) -> Bool {
                        !isReachable[exit.step] || (exit.failing ? before[exit.step] : after[exit.step])
                    }
                    let fromBranches = join.branches.indices.contains { n in
                        if let nested = join.nested[n] {
                            return brings(nested, join: s, isReachable: isReachable, before: before, after: after)
                        }
                        return join.branches[n].allSatisfy(leaves) && join.exits[n].allSatisfy(leavesBy)
                    }
                    value = fromBranches && join.others.allSatisfy(leaves)
                } else {
                    value = predecessors[s].allSatisfy(leaves)
                }
                let out = value || writes(s)
                if value != before[s] || out != after[s] {
                    before[s] = value
                    after[s] = out
                    changed = true
                }
            }
        }
        return before
    }
}

extension ParallelJoins {
    /// The definitions of a key that may reach each reachable step (before its own writes), as a
    /// forward fixpoint that knows fan-outs: a step in a branch may see what the other branches
    /// write (they run beside it), and after a join, a branch that writes the key on every way
    /// through it has replaced what the key held before the fan-out.
    ///
    /// `last(step)`: the step's last definition of the key; `certain(step)`: it writes the key on
    /// every run; `initial`: the flow's initial definitions of it; `failing(p, s)`: nil when `p`
    /// reaches `s` only on success, else whether it also does on success (it does on failure).
    static func reachingDefinitions(stepCount: Int, order: [Int], predecessors: [[Int]], isEntry: [Bool], isReachable: [Bool],
                                    initial: [Int], joins: [Int: Join], concurrent: [Int: Set<Int>],
                                    last: (Int) -> Int?, certain: (Int) -> Bool, failing: (Int, Int) -> Bool?) -> [Set<Int>] {
        var before = Array(repeating: Set<Int>(), count: stepCount)
        var after = before
        // A branch's writes of the key on every way to the join, per join and branch.
        var branchWrites: [Int: [Bool]] = [:]
        for (j, join) in joins {
            branchWrites[j] = join.branches.indices.map { n in
                let region = join.regions[n]
                var isStart = Array(repeating: false, count: stepCount)
                isStart[join.starts[n]] = true
                let set = mustSet(stepCount: stepCount, order: order.filter { region.contains($0) }, predecessors: predecessors,
                                  isEntry: isStart, isReachable: (0..<stepCount).map { region.contains($0) },
                                  initial: false, joins: joins, writes: certain, failing: { failing($0, $1) != nil })
                return join.branches[n].allSatisfy { set[$0] || certain($0) }
                    && join.exits[n].allSatisfy { set[$0.step] || (!$0.failing && certain($0.step)) }
            }
        }
        var changed = true
        while changed {
            changed = false
            for s in order {
                var value = Set<Int>()
                if isEntry[s] { value.formUnion(initial) }
                func leaving(_ p: Int) -> Set<Int> {
                    // By an error way, what reached the failed step; by a way on success, what left it.
                    switch failing(p, s) {
                    case nil: return after[p]
                    case false?: return before[p]
                    case true?: return before[p].union(after[p])
                    }
                }
                if let join = joins[s] {
                    // Each branch brings what it holds, less what it saw of the other branches while
                    // they ran beside it: they bring their own last word themselves.
                    let madeIn = join.regions.map { region in Set(region.compactMap(last)) }
                    for (n, way) in join.branches.enumerated() {
                        var brought = Set<Int>()
                        for p in way where isReachable[p] { brought.formUnion(leaving(p)) }
                        for k in madeIn.indices where k != n { brought.subtract(madeIn[k].subtracting(madeIn[n])) }
                        value.formUnion(brought)
                    }
                    for p in join.others where isReachable[p] { value.formUnion(leaving(p)) }
                } else {
                    for p in predecessors[s] where isReachable[p] { value.formUnion(leaving(p)) }
                }
                if let others = concurrent[s] {
                    for o in others where isReachable[o] { if let d = last(o) { value.insert(d) } }
                }
                if let join = joins[s], branchWrites[s]!.contains(true) {
                    // What the key held before the fan-out was replaced in one of the branches: only
                    // what the branches wrote is left (and what runs beside the join).
                    var made = Set<Int>()
                    for region in join.regions { for step in region { if let d = last(step) { made.insert(d) } } }
                    for step in concurrent[s] ?? [] { if let d = last(step) { made.insert(d) } }
                    value.formIntersection(made)
                }
                var out = certain(s) ? Set<Int>() : value
                if let d = last(s) { out.insert(d) }
                if value != before[s] || out != after[s] {
                    before[s] = value
                    after[s] = out
                    changed = true
                }
            }
        }
        return before
    }
}
