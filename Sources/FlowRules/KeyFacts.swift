import FlowModel
import Foundation

/// The data-flow facts of one flow, answered per key on demand and remembered: whether a key is set
/// on every path to a step (must-set), whether a step after another reads it (read later), and which
/// definitions of it may reach a step (reaching definitions).
///
/// Dense sets of steps × keys make a flow of n steps that mentions ~n keys cost n² in time and memory
/// (a 100,000-step flow: gigabytes). Here each question walks only the part of the graph between the
/// step asked about and the key's writers (or readers), and what a walk learns is kept for the next
/// question on the same key, so the cost follows the flow's accesses, not steps × keys.
///
/// Must-set uses the dominator tree of the reachable steps: a step that dominates every writer of a
/// key is reached, on its first visit, by a path that has not set the key yet, so a backward walk that
/// meets such a step stops there (otherwise it would walk back to the entry every time).
///
/// Keys are asked about by their number in `FlowAnalysis.keys`, and every per-key table is an array
/// by that number; sets of steps are arrays of flags by step. A large flow asks hundreds of thousands
/// of questions: hashing a key's string, or a step's number, for each of them was a tenth of checking it.
final class KeyFacts: @unchecked Sendable {  // the caches and the scratch marks are guarded by `lock`
    /// What `FlowAnalysis` knows of each key, by the key's number.
    struct Key {
        /// The flow's initial data sets it on every run.
        var initial = false
        /// Steps that read it (or test it in a case), ascending.
        var readers: [Int] = []
        /// Steps that write it on every run (a maybe-write does not make a key certain), ascending.
        var certainWriters: [Int] = []
        /// Each step writing it with its last definition of the key, by ascending step.
        var lastDefinition: [(step: Int, definition: Int)] = []
        /// Its initial definitions; nil when the key has no definition at all.
        var initialDefinitions: [Int]?
    }

    private let names: [String]
    private let keys: [Key]
    private let successors: [[Int]]
    private let predecessors: [[Int]]
    private let isEntry: [Bool]
    private let isReachable: [Bool]
    /// Per step, the numbers of the keys it reads or tests.
    private let readKeys: [[Int]]
    private let readsAnything: [Int]
    private let isReadingAnything: [Bool]
    private let writesAnything: [Int]
    private let isWritingAnything: [Bool]
    /// Each reachable step's position in a depth-first walk of the dominator tree (entry and exit
    /// times): `a` dominates `b` when `a`'s interval holds `b`'s.
    private let enter: [Int]
    private let exit: [Int]
    /// Per key whose writers are all reachable: the writers, by entry time in the dominator tree.
    private let writersInTreeOrder: [[Int]?]
    /// Per key: its reachable certain writers by entry time in the dominator tree, each with the
    /// largest exit time of it and the writers before it (see `isDominatedByCertainWriter`).
    private let certainWritersInTreeOrder: [[(enter: Int, exitSoFar: Int)]]

    /// The joins where branches of a fan-out meet (empty for most flows), and the steps in
    /// reverse post-order, for `ParallelJoins.mustSet`.
    private let joins: [Int: ParallelJoins.Join]
    private let concurrent: [Int: Set<Int>]
    private let order: [Int]
    /// Per step, its predecessors from which it is reached only when they fail (by error ways only):
    /// a failed step wrote nothing.
    private let failingPredecessors: [Int: [Int: Bool]]
    /// The data-flow facts come from the fixpoints (`ParallelJoins`), which know fan-outs and error
    /// ways, when the flow has a fan-out or a step that writes and may fail into a step that goes on.
    private let usesFixpoints: Bool
    /// Per key, for a flow with such joins: the definitions that may reach each step.
    private var reachingByKey: [Int: [Set<Int>]] = [:]
    /// Per key, for a flow with such joins: whether it is set before each step.
    private var mustSetByKey: [Int: [Bool]] = [:]

    private let lock = NSLock()
    /// Per key, per step: whether a path from an entry reaches the step (inclusive) without a write
    /// of the key.
    private var unsetReaches: [[Int: Bool]]
    /// Per key, per step: whether the step, or a step after it, reads the key.
    private var readFrom: [[Int: Bool]]
    /// Per key: the smallest entry time and the largest exit time of its reachable writers (nil: none).
    private var writerBounds: [(enter: Int, exit: Int)??]
    /// Scratch for one walk at a time: a step is marked in the current walk when its mark equals
    /// `walk` (so no walk clears the marks of the last one), with the step it was reached from.
    private var mark: [UInt32]
    private var parent: [Int]
    private var walk: UInt32 = 0

    init(names: [String], keys: [Key], successors: [[Int]], predecessors: [[Int]], entries: [Int], order: [Int],
         reachable: [Bool], readKeys: [[Int]], readsAnything: [Int], writesAnything: [Int],
         joins: ParallelJoins? = nil, failingPredecessors: [Int: [Int: Bool]] = [:]) {
        let stepCount = successors.count
        self.failingPredecessors = failingPredecessors
        usesFixpoints = !(joins?.joins.isEmpty ?? true) || !(joins?.concurrent.isEmpty ?? true) || !failingPredecessors.isEmpty
        self.joins = joins?.joins ?? [:]
        concurrent = joins?.concurrent ?? [:]
        self.order = order
        self.names = names
        self.keys = keys
        self.successors = successors
        self.predecessors = predecessors
        var isEntry = Array(repeating: false, count: stepCount)
        for e in entries { isEntry[e] = true }
        self.isEntry = isEntry
        isReachable = reachable
        self.readKeys = readKeys
        self.readsAnything = readsAnything
        var flags = Array(repeating: false, count: stepCount)
        for s in readsAnything { flags[s] = true }
        isReadingAnything = flags
        self.writesAnything = writesAnything
        flags = Array(repeating: false, count: stepCount)
        for s in writesAnything { flags[s] = true }
        isWritingAnything = flags
        let (enter, exit) = Self.dominatorIntervals(stepCount: stepCount, predecessors: predecessors, isEntry: isEntry, order: order)
        self.enter = enter
        self.exit = exit
        writersInTreeOrder = keys.map { key in
            key.lastDefinition.allSatisfy { reachable[$0.step] } ? key.lastDefinition.map(\.step).sorted { enter[$0] < enter[$1] } : nil
        }
        certainWritersInTreeOrder = keys.map { key in
            var exitSoFar = Int.min
            return key.certainWriters.filter { reachable[$0] }.sorted { enter[$0] < enter[$1] }.map { w in
                exitSoFar = max(exitSoFar, exit[w])
                return (enter[w], exitSoFar)
            }
        }
        unsetReaches = Array(repeating: [:], count: keys.count)
        readFrom = Array(repeating: [:], count: keys.count)
        writerBounds = Array(repeating: nil, count: keys.count)
        mark = Array(repeating: 0, count: stepCount)
        parent = Array(repeating: -1, count: stepCount)
    }

    // MARK: - Must-set

    func isDefinitelySet(_ key: Int, before step: Int) -> Bool {
        guard isReachable[step] else { return false }
        if keys[key].initial { return true }
        if isEntry[step] { return false }  // a run starts here with the initial data only
        // Most reads follow a step that sets the key on every run and that every way to them passes:
        // answered from the dominator tree, with no walk (and no lock: nothing here changes).
        if !usesFixpoints, isDominatedByCertainWriter(key, step) { return true }
        lock.lock()
        defer { lock.unlock() }
        guard let bounds = bounds(of: key) else { return false }  // no reachable step writes it
        if usesFixpoints {
            // Branches of a fan-out meet at a join that waits for them all: a key one of them sets
            // is set after it, which no single path says. Answered by the fixpoint over the flow.
            if mustSetByKey[key] == nil {
                mustSetByKey[key] = ParallelJoins.mustSet(
                    stepCount: successors.count, order: order, predecessors: predecessors, isEntry: isEntry,
                    isReachable: isReachable, initial: keys[key].initial, joins: joins, writes: { self.writes(key, $0) },
                    failing: { self.failingPredecessors[$1]?[$0] != nil })
            }
            return mustSetByKey[key]![step]
        }
        return !predecessors[step].contains { isReachable[$0] && reachesUnset(key, $0, bounds) }
    }

    /// Whether a step that writes `key` on every run strictly dominates `step` (every way from an
    /// entry to `step` passes it first; nothing unsets a key, so it is set there). In the dominator
    /// tree's walk, that is a writer entered before `step` and left after it: among the writers
    /// entered before `step`, the largest exit time tells (intervals of the tree nest or are apart).
    private func isDominatedByCertainWriter(_ key: Int, _ step: Int) -> Bool {
        let writers = certainWritersInTreeOrder[key]
        // The writers entered strictly before `step` (an unreachable step has none: it has no interval).
        var low = 0, high = writers.count
        while low < high {
            let middle = (low + high) / 2
            if writers[middle].enter < enter[step] { low = middle + 1 } else { high = middle }
        }
        return low > 0 && writers[low - 1].exitSoFar >= exit[step]
    }

    private func writes(_ key: Int, _ step: Int) -> Bool {
        isWritingAnything[step] || isCertainWriter(key, step)
    }

    private func isCertainWriter(_ key: Int, _ step: Int) -> Bool {
        let writers = keys[key].certainWriters
        return Self.position(of: step, in: writers.count, at: { writers[$0] }) != nil
    }

    /// The definition step `step` leaves of a key, from that key's `lastDefinition` list.
    private static func definition(at step: Int, in list: [(step: Int, definition: Int)]) -> Int? {
        position(of: step, in: list.count, at: { list[$0].step }).map { list[$0].definition }
    }

    /// Binary search for `step` among `count` ascending values.
    private static func position(of step: Int, in count: Int, at value: (Int) -> Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let v = value(middle)
            if v == step { return middle }
            if v < step { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private func bounds(of key: Int) -> (enter: Int, exit: Int)? {
        if let known = writerBounds[key] { return known }
        var result: (enter: Int, exit: Int)?
        // Over both lists (a step in both counts once either way: only the extremes matter).
        for list in [keys[key].certainWriters, writesAnything] {
            for w in list where isReachable[w] {
                result = (min(result?.enter ?? .max, enter[w]), max(result?.exit ?? .min, exit[w]))
            }
        }
        writerBounds[key] = .some(result)
        return result
    }

    /// Starts a walk: no step is marked in it yet.
    private func newWalk() {
        if walk == .max {
            for i in mark.indices { mark[i] = 0 }
            walk = 0
        }
        walk += 1
    }

    /// Marks `step` as reached from `from` in this walk; false when it was marked already.
    private func reach(_ step: Int, from: Int) -> Bool {
        guard mark[step] != walk else { return false }
        mark[step] = walk
        parent[step] = from
        return true
    }

    /// Whether a path from an entry reaches `step` (a reachable step) with no step on it, `step`
    /// included, writing `key`.
    private func reachesUnset(_ key: Int, _ step: Int, _ bounds: (enter: Int, exit: Int)) -> Bool {
        // Taken out while it grows, so that it is changed in place, not copied on every question.
        var memo = [Int: Bool]()
        swap(&memo, &unsetReaches[key])
        defer { swap(&memo, &unsetReaches[key]) }
        func decided(_ s: Int) -> Bool? {
            if let known = memo[s] { return known }
            if writes(key, s) { return false }
            // An entry, or a step that dominates every writer: reached first with the key unset.
            if isEntry[s] || (enter[s] <= bounds.enter && bounds.exit <= exit[s]) { return true }
            return nil
        }
        if let known = decided(step) { memo[step] = known; return known }
        newWalk()
        _ = reach(step, from: step)
        var queue = [step]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for p in predecessors[current] where isReachable[p] && reach(p, from: current) {
                switch decided(p) {
                case true?:
                    // Every step on the way back from `p` to `step` is reached unset too.
                    var cursor = p
                    memo[cursor] = true
                    while cursor != step { cursor = parent[cursor]; memo[cursor] = true }
                    return true
                case false?:
                    continue
                case nil:
                    queue.append(p)
                }
            }
        }
        // Every way back from the steps seen ends at a write: none of them is reached unset.
        for s in queue { memo[s] = false }
        return false
    }

    // MARK: - Read later

    func isReadLater(_ key: Int, after step: Int) -> Bool {
        let readers = keys[key].readers
        guard !readers.isEmpty || !readsAnything.isEmpty else { return false }
        lock.lock()
        defer { lock.unlock() }
        var memo = [Int: Bool]()  // changed in place (see `reachesUnset`)
        swap(&memo, &readFrom[key])
        defer { swap(&memo, &readFrom[key]) }
        func reads(_ s: Int) -> Bool {
            isReadingAnything[s] || Self.position(of: s, in: readers.count, at: { readers[$0] }) != nil
        }
        for start in successors[step] {
            if let known = memo[start] {
                if known { return true }
                continue
            }
            newWalk()
            _ = reach(start, from: start)
            var queue = [start]
            var head = 0
            var found: Int?
            search: while head < queue.count {
                let current = queue[head]
                head += 1
                if memo[current] == true || reads(current) { found = current; break search }
                if memo[current] == false { continue }
                for s in successors[current] where reach(s, from: current) { queue.append(s) }
            }
            if var cursor = found {
                memo[cursor] = true
                while cursor != start { cursor = parent[cursor]; memo[cursor] = true }
                return true
            }
            for s in queue { memo[s] = false }
        }
        return false
    }

    /// The names of the keys read by steps reachable from any of `starts` by one transition or more.
    func keysReadLater(after starts: [Int]) -> Set<String> {
        var seen = Array(repeating: false, count: successors.count)
        var steps: [Int] = []
        var stack = starts.flatMap { successors[$0] }
        while let s = stack.popLast() {
            guard !seen[s] else { continue }
            seen[s] = true
            steps.append(s)
            stack += successors[s]
        }
        return keysRead(by: steps)
    }

    /// The names of the keys read by `steps` (each step once).
    func keysRead<Steps: Sequence<Int>>(by steps: Steps) -> Set<String> {
        guard let read = keyNumbersRead(by: steps) else { return Set(names) }
        return Set(names.indices.lazy.filter { read[$0] }.map { self.names[$0] })
    }

    /// Per key number, whether one of `steps` reads it; nil when one of them may read anything.
    func keyNumbersRead<Steps: Sequence<Int>>(by steps: Steps) -> [Bool]? {
        var read = Array(repeating: false, count: names.count)
        for s in steps {
            if isReadingAnything[s] { return nil }
            for k in readKeys[s] { read[k] = true }
        }
        return read
    }

    // MARK: - Reaching definitions

    /// The numbers of the definitions of `key` that may reach `step` before its own writes, ascending.
    func reachingDefinitions(of key: Int, at step: Int) -> [Int] {
        // Keys with no definition at all have none to reach anywhere.
        guard isReachable[step], let initial = keys[key].initialDefinitions else { return [] }
        let lastDefinitions = keys[key].lastDefinition
        // No step writes the key: what the flow starts with reaches every reachable step.
        if lastDefinitions.isEmpty { return initial }
        if usesFixpoints {
            lock.lock()
            defer { lock.unlock() }
            if reachingByKey[key] == nil {
                reachingByKey[key] = ParallelJoins.reachingDefinitions(
                    stepCount: successors.count, order: order, predecessors: predecessors, isEntry: isEntry,
                    isReachable: isReachable, initial: initial, joins: joins, concurrent: concurrent,
                    last: { Self.definition(at: $0, in: lastDefinitions) }, certain: { self.isCertainWriter(key, $0) },
                    failing: { self.failingPredecessors[$1]?[$0] })
            }
            return reachingByKey[key]![step].sorted()
        }
        if let only = dominatingWriter(of: key, over: step), isCertainWriter(key, only) {
            return [Self.definition(at: only, in: lastDefinitions)!]
        }
        lock.lock()
        defer { lock.unlock() }
        var found = Set<Int>()
        if isEntry[step] { found.formUnion(initial) }
        // What leaves a predecessor: its own last write of the key, else what reached it (nothing for
        // an unreachable step, which no run enters).
        newWalk()
        var stack = predecessors[step]
        while let p = stack.popLast() {
            guard reach(p, from: p) else { continue }
            if let d = Self.definition(at: p, in: lastDefinitions) { found.insert(d) }
            // A step that writes the key on every run replaces what reached it; a maybe-write does not.
            if !isCertainWriter(key, p), isReachable[p] {
                if isEntry[p] { found.formUnion(initial) }
                stack += predecessors[p]
            }
        }
        return found.sorted()
    }

    /// The writer of `key` that every path to `step` passes last, when the dominator tree shows one:
    /// the nearest writer that strictly dominates `step` with no other writer in its subtree (every
    /// step on a way from it to `step` that does not pass it again lies in its subtree). Nil when
    /// that cannot be told this way; the caller then walks back.
    private func dominatingWriter(of key: Int, over step: Int) -> Int? {
        guard let writers = writersInTreeOrder[key] else { return nil }
        // The last writer entered before `step` in the walk of the tree.
        var low = 0, high = writers.count
        while low < high {
            let middle = (low + high) / 2
            if enter[writers[middle]] <= enter[step] { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = writers[low - 1]
        guard candidate != step, exit[step] <= exit[candidate] else { return nil }  // not above `step`
        if low < writers.count, enter[writers[low]] <= exit[candidate] { return nil }  // another writer below it
        return candidate
    }

    // MARK: - Dominators

    /// The dominator tree of the reachable steps (a virtual root above the entries), by Cooper,
    /// Harvey and Kennedy's iterative algorithm over reverse post-order, as entry and exit times of a
    /// walk of the tree. Unreachable steps get an empty interval.
    private static func dominatorIntervals(stepCount: Int, predecessors: [[Int]], isEntry: [Bool], order: [Int]) -> ([Int], [Int]) {
        let root = stepCount
        var postNumber = Array(repeating: -1, count: stepCount + 1)
        for (position, s) in order.enumerated() { postNumber[s] = order.count - 1 - position }
        postNumber[root] = order.count
        var idom = Array(repeating: -1, count: stepCount + 1)
        idom[root] = root
        func intersect(_ a: Int, _ b: Int) -> Int {
            var a = a, b = b
            while a != b {
                while postNumber[a] < postNumber[b] { a = idom[a] }
                while postNumber[b] < postNumber[a] { b = idom[b] }
            }
            return a
        }
        var changed = true
        while changed {
            changed = false
            for s in order {
                var candidate = isEntry[s] ? root : -1
                for p in predecessors[s] where postNumber[p] >= 0 && idom[p] >= 0 {
                    candidate = candidate < 0 ? p : intersect(p, candidate)
                }
                if candidate >= 0, idom[s] != candidate {
                    idom[s] = candidate
                    changed = true
                }
            }
        }
        var children = Array(repeating: [Int](), count: stepCount + 1)
        for s in order where idom[s] >= 0 { children[idom[s]].append(s) }
        var enter = Array(repeating: 0, count: stepCount + 1)
        var exit = Array(repeating: -1, count: stepCount + 1)
        var clock = 0
        var stack: [(node: Int, next: Int)] = [(root, 0)]
        enter[root] = clock
        while !stack.isEmpty {
            let (node, next) = stack[stack.count - 1]
            if next < children[node].count {
                stack[stack.count - 1].next += 1
                let child = children[node][next]
                clock += 1
                enter[child] = clock
                stack.append((child, 0))
            } else {
                exit[node] = clock
                stack.removeLast()
            }
        }
        return (Array(enter.dropLast()), Array(exit.dropLast()))
    }
}
