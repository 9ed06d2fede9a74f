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
final class KeyFacts: @unchecked Sendable {  // the caches are guarded by `lock`
    private let successors: [[Int]]
    private let predecessors: [[Int]]
    private let entrySet: Set<Int>
    private let reachable: Set<Int>
    private let initialKeys: Set<String>
    private let readKeys: [[String]]
    private let readers: [String: [Int]]
    private let readsAnything: Set<Int>
    /// Steps that write each key on every run (a maybe-write does not make a key certain), ascending:
    /// looked up by binary search, as a set per key would be allocated for each of a large flow's keys.
    private let certainWriters: [String: [Int]]
    private let writesAnything: Set<Int>
    /// Per key, each step writing it with its last definition of the key, by ascending step.
    private let lastDefinition: [String: [(step: Int, definition: Int)]]
    private let initialDefinitions: [String: [Int]]
    /// Each reachable step's position in a depth-first walk of the dominator tree (entry and exit
    /// times): `a` dominates `b` when `a`'s interval holds `b`'s.
    private let enter: [Int]
    private let exit: [Int]
    /// Per key whose writers are all reachable: the writers, by entry time in the dominator tree.
    private let writersInTreeOrder: [String: [Int]]

    private let lock = NSLock()
    /// Per key, per step: whether a path from an entry reaches the step (inclusive) without a write
    /// of the key.
    private var unsetReaches: [String: [Int: Bool]] = [:]
    /// Per key, per step: whether the step, or a step after it, reads the key.
    private var readFrom: [String: [Int: Bool]] = [:]
    /// Per key: the smallest entry time and the largest exit time of its reachable writers (nil: none).
    private var writerBounds: [String: (enter: Int, exit: Int)?] = [:]

    init(stepCount: Int, successors: [[Int]], predecessors: [[Int]], entries: [Int], order: [Int], reachable: Set<Int>,
         initialKeys: Set<String>, readKeys: [[String]], readers: [String: [Int]], readsAnything: [Int],
         certainWriters: [String: [Int]], writesAnything: [Int], lastDefinition: [String: [(step: Int, definition: Int)]],
         initialDefinitions: [String: [Int]]) {
        self.successors = successors
        self.predecessors = predecessors
        self.entrySet = Set(entries)
        self.reachable = reachable
        self.initialKeys = initialKeys
        self.readKeys = readKeys
        self.readers = readers
        self.readsAnything = Set(readsAnything)
        self.certainWriters = certainWriters
        self.writesAnything = Set(writesAnything)
        self.lastDefinition = lastDefinition
        self.initialDefinitions = initialDefinitions
        let (enter, exit) = Self.dominatorIntervals(stepCount: stepCount, predecessors: predecessors, entries: entries, order: order)
        self.enter = enter
        self.exit = exit
        writersInTreeOrder = lastDefinition.compactMapValues { byStep in
            byStep.allSatisfy { reachable.contains($0.step) } ? byStep.map(\.step).sorted { enter[$0] < enter[$1] } : nil
        }
    }

    // MARK: - Must-set

    func isDefinitelySet(_ key: String, before step: Int) -> Bool {
        guard reachable.contains(step) else { return false }
        if initialKeys.contains(key) { return true }
        if entrySet.contains(step) { return false }  // a run starts here with the initial data only
        lock.lock()
        defer { lock.unlock() }
        guard let bounds = bounds(of: key) else { return false }  // no reachable step writes it
        return !predecessors[step].contains { reachable.contains($0) && reachesUnset(key, $0, bounds) }
    }

    private func writes(_ key: String, _ step: Int) -> Bool {
        isCertainWriter(key, step) || writesAnything.contains(step)
    }

    private func isCertainWriter(_ key: String, _ step: Int) -> Bool {
        guard let writers = certainWriters[key] else { return false }
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

    private func bounds(of key: String) -> (enter: Int, exit: Int)? {
        if let known = writerBounds[key] { return known }
        var result: (enter: Int, exit: Int)?
        // Over both lists (a step in both counts once either way: only the extremes matter).
        for w in (certainWriters[key] ?? []) + writesAnything where reachable.contains(w) {
            result = (min(result?.enter ?? .max, enter[w]), max(result?.exit ?? .min, exit[w]))
        }
        writerBounds[key] = .some(result)
        return result
    }

    /// Whether a path from an entry reaches `step` (a reachable step) with no step on it, `step`
    /// included, writing `key`.
    private func reachesUnset(_ key: String, _ step: Int, _ bounds: (enter: Int, exit: Int)) -> Bool {
        // Taken out while it grows, so that it is changed in place, not copied on every question.
        var memo = unsetReaches.removeValue(forKey: key) ?? [:]
        defer { unsetReaches[key] = memo }
        func decided(_ s: Int) -> Bool? {
            if let known = memo[s] { return known }
            if writes(key, s) { return false }
            // An entry, or a step that dominates every writer: reached first with the key unset.
            if entrySet.contains(s) || (enter[s] <= bounds.enter && bounds.exit <= exit[s]) { return true }
            return nil
        }
        if let known = decided(step) { memo[step] = known; return known }
        var parent: [Int: Int] = [step: step]
        var queue = [step]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for p in predecessors[current] where reachable.contains(p) && parent[p] == nil {
                parent[p] = current
                switch decided(p) {
                case true?:
                    // Every step on the way back from `p` to `step` is reached unset too.
                    var cursor = p
                    memo[cursor] = true
                    while cursor != step { cursor = parent[cursor]!; memo[cursor] = true }
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

    func isReadLater(_ key: String, after step: Int) -> Bool {
        guard readers[key] != nil || !readsAnything.isEmpty else { return false }
        lock.lock()
        defer { lock.unlock() }
        var memo = readFrom.removeValue(forKey: key) ?? [:]  // changed in place (see `reachesUnset`)
        defer { readFrom[key] = memo }
        let reads = readsAnything.union(readers[key] ?? [])
        for start in successors[step] {
            if let known = memo[start] {
                if known { return true }
                continue
            }
            var parent: [Int: Int] = [start: start]
            var queue = [start]
            var head = 0
            var found: Int?
            search: while head < queue.count {
                let current = queue[head]
                head += 1
                if memo[current] == true || reads.contains(current) { found = current; break search }
                if memo[current] == false { continue }
                for s in successors[current] where parent[s] == nil {
                    parent[s] = current
                    queue.append(s)
                }
            }
            if var cursor = found {
                memo[cursor] = true
                while cursor != start { cursor = parent[cursor]!; memo[cursor] = true }
                return true
            }
            for s in queue { memo[s] = false }
        }
        return false
    }

    func keysReadLater(after step: Int, allKeys: [String]) -> Set<String> {
        var seen = Set<Int>()
        var stack = successors[step]
        while let s = stack.popLast() {
            guard seen.insert(s).inserted else { continue }
            stack += successors[s]
        }
        return keysRead(by: seen, allKeys: allKeys)
    }

    func keysRead(by steps: Set<Int>, allKeys: [String]) -> Set<String> {
        if !readsAnything.isDisjoint(with: steps) { return Set(allKeys) }
        var keys = Set<String>()
        for s in steps { keys.formUnion(readKeys[s]) }
        return keys
    }

    // MARK: - Reaching definitions

    /// The numbers of the definitions of `key` that may reach `step` before its own writes, ascending.
    func reachingDefinitions(of key: String, at step: Int) -> [Int] {
        // Keys with no definition at all have none to reach anywhere.
        guard reachable.contains(step), let initial = initialDefinitions[key] else { return [] }
        let lastDefinitions = lastDefinition[key] ?? []
        // No step writes the key: what the flow starts with reaches every reachable step.
        if lastDefinitions.isEmpty { return initial }
        if let only = dominatingWriter(of: key, over: step), isCertainWriter(key, only) {
            return [Self.definition(at: only, in: lastDefinitions)!]
        }
        var found = Set<Int>()
        if entrySet.contains(step) { found.formUnion(initial) }
        // What leaves a predecessor: its own last write of the key, else what reached it (nothing for
        // an unreachable step, which no run enters).
        var seen = Set<Int>()
        var stack = predecessors[step]
        while let p = stack.popLast() {
            guard seen.insert(p).inserted else { continue }
            if let d = Self.definition(at: p, in: lastDefinitions) { found.insert(d) }
            // A step that writes the key on every run replaces what reached it; a maybe-write does not.
            if !isCertainWriter(key, p), reachable.contains(p) {
                if entrySet.contains(p) { found.formUnion(initial) }
                stack += predecessors[p]
            }
        }
        return found.sorted()
    }

    /// The writer of `key` that every path to `step` passes last, when the dominator tree shows one:
    /// the nearest writer that strictly dominates `step` with no other writer in its subtree (every
    /// step on a way from it to `step` that does not pass it again lies in its subtree). Nil when
    /// that cannot be told this way; the caller then walks back.
    private func dominatingWriter(of key: String, over step: Int) -> Int? {
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
    private static func dominatorIntervals(stepCount: Int, predecessors: [[Int]], entries: [Int], order: [Int]) -> ([Int], [Int]) {
        let root = stepCount
        var postNumber = Array(repeating: -1, count: stepCount + 1)
        for (position, s) in order.enumerated() { postNumber[s] = order.count - 1 - position }
        postNumber[root] = order.count
        let entrySet = Set(entries)
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
                var candidate = entrySet.contains(s) ? root : -1
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
