import FlowModel

/// A breadth-first forest of a flow's steps from its entries (each entry a root), the search
/// `FlowAnalysis.pathsAvoidingWrites` makes, with what answers questions about its tree paths
/// without walking them: each step's depth, its interval in a depth-first walk of the forest (a step
/// is below another when its entry time lies in the other's interval), and the steps of each depth
/// in that walk's order (the ancestor of a step at a given depth is found by a binary search).
struct BreadthFirstForest {
    /// Per step, the edge it was first reached by (nil for an entry, or a step not reached).
    let parentEdge: [FlowIndex.Edge?]
    /// Per step, its number of edges from its root; -1 when it is not reached.
    let depth: [Int]
    /// Per step, its position in the search (the order steps were reached); -1 when not reached.
    let order: [Int]
    /// Per reached step, its entry time in a pre-order walk of the forest, and the largest entry
    /// time in its subtree.
    let enter: [Int]
    let exit: [Int]
    /// Per depth, the reached steps of that depth by entry time.
    let byDepth: [[Int]]

    /// The search from `entries` along `successors`, in their order; a step for which `blocked`
    /// holds is reached but not gone through.
    init(entries: [Int], successors: [[FlowIndex.Edge]], blocked: (Int) -> Bool) {
        let count = successors.count
        var depth = Array(repeating: -1, count: count)
        var parentEdge = Array<FlowIndex.Edge?>(repeating: nil, count: count)
        var queue: [Int] = []
        for entry in entries where depth[entry] < 0 {
            depth[entry] = 0
            queue.append(entry)
        }
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if blocked(current) { continue }
            for edge in successors[current] where depth[edge.to] < 0 {
                depth[edge.to] = depth[current] + 1
                parentEdge[edge.to] = edge
                queue.append(edge.to)
            }
        }
        var order = Array(repeating: -1, count: count)
        for (position, s) in queue.enumerated() { order[s] = position }
        // Subtree sizes from the leaves up, then pre-order entry times from the roots down: a
        // parent's children, in the order they were reached, take consecutive blocks after it.
        var size = Array(repeating: 1, count: count)
        for s in queue.reversed() { if let p = parentEdge[s]?.from { size[p] += size[s] } }
        var enter = Array(repeating: -1, count: count)
        var nextFree = Array(repeating: 0, count: count)
        var clock = 0
        for s in queue {
            if let p = parentEdge[s]?.from {
                enter[s] = nextFree[p]
                nextFree[p] += size[s]
            } else {
                enter[s] = clock
                clock += size[s]
            }
            nextFree[s] = enter[s] + 1
        }
        var exit = Array(repeating: -2, count: count)
        var byEnter = Array(repeating: 0, count: queue.count)
        var deepest = -1
        for s in queue {
            exit[s] = enter[s] + size[s] - 1
            byEnter[enter[s]] = s
            deepest = max(deepest, depth[s])
        }
        var byDepth = Array(repeating: [Int](), count: deepest + 1)
        for s in byEnter { byDepth[depth[s]].append(s) }
        self.parentEdge = parentEdge
        self.depth = depth
        self.order = order
        self.enter = enter
        self.exit = exit
        self.byDepth = byDepth
    }

    /// Whether `step` was reached.
    func reaches(_ step: Int) -> Bool { depth[step] >= 0 }

    /// The step on the tree path to `step` (a reached step) at depth `d` (at most its own).
    func ancestor(of step: Int, atDepth d: Int) -> Int {
        let row = byDepth[d]
        var low = 0, high = row.count
        while low < high {  // the last step of depth d entered at or before `step`
            let middle = (low + high) / 2
            if enter[row[middle]] <= enter[step] { low = middle + 1 } else { high = middle }
        }
        return row[low - 1]
    }
}

/// A path from an entry to a step, kept without its middle: the tree path of a breadth-first forest
/// to `anchor`, then `tail`. Its steps are asked for by position, so a path of 100,000 steps is
/// described (first and last steps, and a count) in logarithmic time.
struct MissingPath {
    let forest: BreadthFirstForest
    let anchor: Int
    /// The steps after `anchor`, each with the edge it is entered by.
    let tail: [(edge: FlowIndex.Edge, step: Int)]

    /// The number of steps.
    var count: Int { forest.depth[anchor] + 1 + tail.count }

    /// The step at `position` and the edge into it (nil for the first).
    func element(_ position: Int) -> (edge: FlowIndex.Edge?, step: Int) {
        let anchored = forest.depth[anchor]
        if position > anchored { return tail[position - anchored - 1] }
        let step = forest.ancestor(of: anchor, atDepth: position)
        return (forest.parentEdge[step], step)
    }

    /// The positions a person is shown: all of them, or the first and last `FlowAnalysis.describedSteps / 2`.
    var shownPositions: [Int] {
        let half = FlowAnalysis.describedSteps / 2
        if count <= FlowAnalysis.describedSteps { return Array(0..<count) }
        return Array(0..<half) + Array((count - half)..<count)
    }
}

/// The paths on which a key is missing, for `missing-data-key`: for a read of a key, a shortest path
/// from an entry to the reading step on which no step before it sets the key for certain.
///
/// One search per key over the whole flow (`FlowAnalysis.pathsAvoidingWrites`), with a whole path
/// built per read, cost a long flow with a key skipped every hundred steps time and memory quadratic
/// in its length (100,000 steps: 152 s, 11.4 GB). Here one breadth-first forest is made for the
/// flow; a read whose tree path passes no writer of its key (an ancestor check by entry times) has
/// that path, which is the one the per-key search finds. Otherwise a backward search from the read,
/// through steps that do not write the key, stops at the steps whose tree path passes no writer, and
/// goes on, level by level, only while a shorter path may still be found. Each key's backward searches
/// share a budget of the flow's size: past it, the per-key search is made once for the key (and let
/// go by `forget`). So the work is at most linear in the steps per key, and a path is described
/// without being built.
struct MissingPaths {
    private let analysis: FlowAnalysis
    private var global: BreadthFirstForest?
    /// Per key number: its certain writers, sorted by entry time with the largest exit time so far.
    private var writers: [Int: (inTreeOrder: [(enter: Int, exitSoFar: Int)], steps: Set<Int>)] = [:]
    private var budget: [Int: Int] = [:]
    private var perKey: [Int: BreadthFirstForest] = [:]
    /// Scratch for the backward searches: a step is seen in the current search when its mark is
    /// `search`, with the step and edge it leads to towards the read.
    private var mark: [UInt32] = []
    private var toward: [FlowIndex.Edge?] = []
    private var search: UInt32 = 0

    init(_ analysis: FlowAnalysis) { self.analysis = analysis }

    /// Lets go of what was made for `key`'s paths (a search of the flow, when its reads needed one):
    /// a caller that asks for the paths one key after the other keeps one such search at a time.
    mutating func forget(_ key: String) {
        guard let k = analysis.keyIndex[key] else { return }
        perKey[k] = nil
        writers[k] = nil
        budget[k] = nil
    }

    /// A shortest path from an entry to `target` on which no step before `target` writes `key` for
    /// certain; nil when there is none.
    mutating func path(of key: String, to target: Int) -> MissingPath? {
        guard let k = analysis.keyIndex[key] else { return nil }
        if global == nil {
            global = BreadthFirstForest(entries: analysis.entries, successors: analysis.successors, blocked: { _ in false })
            mark = Array(repeating: 0, count: analysis.successors.count)
            toward = Array(repeating: nil, count: analysis.successors.count)
        }
        let forest = global!
        guard forest.reaches(target) else { return nil }
        if let known = perKey[k] { return known.reaches(target) ? MissingPath(forest: known, anchor: target, tail: []) : nil }
        if writers[k] == nil {
            let steps = analysis.writers(of: key).filter { i in analysis.effectiveWrites[i].contains { $0.key == key && $0.condition == nil } }
            var exitSoFar = Int.min
            let inTreeOrder: [(enter: Int, exitSoFar: Int)] = steps.filter { forest.reaches($0) }.sorted { forest.enter[$0] < forest.enter[$1] }.map { w in
                exitSoFar = max(exitSoFar, forest.exit[w])
                return (forest.enter[w], exitSoFar)
            }
            writers[k] = (inTreeOrder, Set(steps))
            budget[k] = analysis.successors.count + 64
        }
        let (inTreeOrder, writing) = writers[k]!
        /// Whether a writer of the key is a proper ancestor of `step` in the forest.
        func passesWriter(_ step: Int) -> Bool {
            var low = 0, high = inTreeOrder.count
            while low < high {
                let middle = (low + high) / 2
                if inTreeOrder[middle].enter < forest.enter[step] { low = middle + 1 } else { high = middle }
            }
            return low > 0 && inTreeOrder[low - 1].exitSoFar >= forest.enter[step]
        }
        if !passesWriter(target) { return MissingPath(forest: forest, anchor: target, tail: []) }

        // Backward, level by level, through reached steps that do not write the key.
        if search == .max {
            for i in mark.indices { mark[i] = 0 }
            search = 0
        }
        search += 1
        mark[target] = search
        var frontier = [target]
        var level = 0
        var best: (length: Int, anchor: Int)?
        var spent = 0
        while !frontier.isEmpty {
            var bound = Int.max  // no path through the unclean steps of this level is shorter
            var open: [Int] = []
            for s in frontier {
                if s != target, !passesWriter(s) {
                    let length = forest.depth[s] + level
                    if best == nil || length < best!.length || (length == best!.length && forest.order[s] < forest.order[best!.anchor]) {
                        best = (length, s)
                    }
                } else {
                    bound = min(bound, forest.depth[s] + level)
                    open.append(s)
                }
            }
            if let best, best.length <= bound { break }
            var next: [Int] = []
            for s in open {
                for edge in analysis.predecessors[s] where forest.reaches(edge.from) && !writing.contains(edge.from) && mark[edge.from] != search {
                    mark[edge.from] = search
                    toward[edge.from] = edge
                    next.append(edge.from)
                }
                spent += analysis.predecessors[s].count + 1
            }
            budget[k]! -= spent
            spent = 0
            if budget[k]! < 0 {
                // This key's searches have seen as many steps as the flow has: one search over the flow.
                let made = BreadthFirstForest(entries: analysis.entries, successors: analysis.successors, blocked: { writing.contains($0) })
                perKey[k] = made
                return made.reaches(target) ? MissingPath(forest: made, anchor: target, tail: []) : nil
            }
            frontier = next
            level += 1
        }
        guard let best else { return nil }
        var tail: [(edge: FlowIndex.Edge, step: Int)] = []
        var cursor = best.anchor
        while cursor != target, let edge = toward[cursor] {
            tail.append((edge, edge.to))
            cursor = edge.to
        }
        return MissingPath(forest: forest, anchor: best.anchor, tail: tail)
    }
}
