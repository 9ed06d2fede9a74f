import FlowModel

/// The graph facts every rule needs, computed once per flow: an index of steps, edges, reachability,
/// and the two data-flow analyses (keys set on every path; definitions that may reach a step).
///
/// Steps are addressed by their index in `flow.steps`. Only the first step with an id takes part;
/// later duplicates are left to `duplicate-step`, so one mistake is not reported five times.
public final class FlowAnalysis: Sendable {
    /// A definition of a key: an initial value or a step's write.
    public struct Definition: Hashable, Sendable {
        /// The writing step's index, or nil for the flow's initial data.
        public let step: Int?
        /// The access.
        public let access: DataAccess
    }

    /// An edge between two existing steps.
    public struct Edge: Hashable, Sendable {
        /// Index into `flow.transitions`.
        public let transition: Int
        /// Source step index.
        public let from: Int
        /// Target step index.
        public let to: Int
    }

    /// The flow analysed.
    public let flow: Flow
    /// Index of the first step with each id.
    public let index: [String: Int]
    /// Indices of steps that repeat an earlier id.
    public let duplicates: Set<Int>
    /// Outgoing edges per step (to existing steps only).
    public let successors: [[Edge]]
    /// Incoming edges per step.
    public let predecessors: [[Edge]]
    /// The entry steps that exist.
    public let entries: [Int]
    /// Steps reachable from an entry.
    public let reachable: Set<Int>
    /// Steps from which an exit (`end`, `fail`, a terminal state) can be reached.
    public let reachesExit: Set<Int>
    /// Per step, the flow-scope reads in effect (declared reads plus a sub-flow's inputs).
    public let effectiveReads: [[DataAccess]]
    /// Per step, the flow-scope writes in effect (declared writes plus a sub-flow's outputs).
    public let effectiveWrites: [[DataAccess]]
    /// Every key the flow mentions, numbered for the bit sets below.
    public let keys: [String]
    /// The number of each key in `keys`.
    public let keyIndex: [String: Int]
    /// Steps writing each key (effective writes), in step order.
    public let writers: [String: [Int]]
    /// Every definition: the initial data first, then each step's effective writes in step order.
    public let definitions: [Definition]
    private let definitionsByKey: [String: [Int]]
    /// Keys set on every path from an entry to (before) each step; empty for unreachable steps.
    private let mustBeSet: [BitSet]
    /// Keys read by some step reachable from each step by one transition or more.
    private let readLater: [BitSet]
    /// Definitions that may reach each step, before its own writes.
    private let reachingIn: [BitSet]
    /// Keys each step uses: its reads, its case conditions, every key when it may read anything.
    private let readSets: [BitSet]

    /// Analyses `flow`; `session` resolves sub-flows (and shares results between flows).
    public init(flow: Flow, session: AnalysisSession) {
        self.flow = flow
        var index: [String: Int] = [:]
        var duplicates = Set<Int>()
        for (i, step) in flow.steps.enumerated() {
            if index[step.id] == nil { index[step.id] = i } else { duplicates.insert(i) }
        }
        self.index = index
        self.duplicates = duplicates

        var successors = Array(repeating: [Edge](), count: flow.steps.count)
        var predecessors = successors
        for (t, transition) in flow.transitions.enumerated() {
            guard let from = index[transition.from], let to = index[transition.to] else { continue }
            let edge = Edge(transition: t, from: from, to: to)
            successors[from].append(edge)
            predecessors[to].append(edge)
        }
        self.successors = successors
        self.predecessors = predecessors
        entries = flow.effectiveEntries.compactMap { index[$0] }

        reachable = Self.closure(from: entries, next: { successors[$0].map(\.to) })
        let exits = flow.steps.indices.filter { flow.steps[$0].isExit && !duplicates.contains($0) }
        reachesExit = Self.closure(from: exits, next: { predecessors[$0].map(\.from) })

        var reads: [[DataAccess]] = []
        var writes: [[DataAccess]] = []
        for (i, step) in flow.steps.enumerated() {
            var r = step.reads, w = step.writes
            if !duplicates.contains(i), let name = step.subflow, let interface = session.interface(of: name) {
                let at = step.location
                r += interface.inputs.map { DataAccess(key: $0.key, type: $0.type, optional: $0.optional, location: at) }
                w += interface.outputs.map { DataAccess(key: $0.key, type: $0.type, location: at) }
            }
            if duplicates.contains(i) { r = []; w = [] }
            reads.append(r)
            writes.append(w)
        }
        effectiveReads = reads
        effectiveWrites = writes

        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        func number(_ key: String) -> Int {
            if let n = keyIndex[key] { return n }
            keyIndex[key] = keys.count
            keys.append(key)
            return keys.count - 1
        }
        for access in flow.initialData { _ = number(access.key) }
        for transition in flow.transitions { if case let .equals(key, _)? = transition.condition { _ = number(key) } }
        for list in reads + writes { for access in list { _ = number(access.key) } }
        self.keys = keys
        self.keyIndex = keyIndex

        var writers: [String: [Int]] = [:]
        var definitions: [Definition] = flow.initialData.map { Definition(step: nil, access: $0) }
        for (i, list) in writes.enumerated() {
            for access in list {
                if writers[access.key]?.last != i { writers[access.key, default: []].append(i) }
                definitions.append(Definition(step: i, access: access))
            }
        }
        self.writers = writers
        self.definitions = definitions
        var byKey: [String: [Int]] = [:]
        for (d, definition) in definitions.enumerated() { byKey[definition.access.key, default: []].append(d) }
        definitionsByKey = byKey

        let order = Self.order(entries: entries, successors: successors)
        let keyCount = keys.count
        func keySet(_ accesses: [DataAccess]) -> BitSet {
            var set = BitSet(count: keyCount)
            for access in accesses { set.insert(keyIndex[access.key]!) }
            return set
        }
        // A step that may write anything (an operation whose class is not in the sources) sets every
        // key as far as the must-analysis knows: unknown never produces a finding.
        // A write made only under a condition never makes its key certain.
        let writeSets = writes.indices.map {
            flow.steps[$0].mayWriteAnything ? BitSet.full(count: keyCount) : keySet(writes[$0].filter { $0.condition == nil })
        }
        // For "is it read later": a case condition uses its key (a missing key just matches no case),
        // and a step that may read anything uses every key.
        var conditionKeys = Array(repeating: [DataAccess](), count: flow.steps.count)
        for transition in flow.transitions {
            guard let from = index[transition.from], case let .equals(key, _)? = transition.condition else { continue }
            conditionKeys[from].append(DataAccess(key: key, optional: true))
        }
        testedKeys = conditionKeys.map { Set($0.map(\.key)) }
        let readSets = reads.indices.map { i in
            flow.steps[i].mayReadAnything ? BitSet.full(count: keyCount) : keySet(reads[i] + conditionKeys[i])
        }
        self.readSets = readSets

        // Must-set keys: intersection over predecessors; a path may start at an entry with only the
        // initial data. Solved in reverse post-order until nothing changes.
        let initial = keySet(flow.initialData.filter { $0.condition == nil })
        let entrySet = Set(entries)
        let reachableSteps = reachable
        var setIn = flow.steps.indices.map { reachableSteps.contains($0) ? BitSet.full(count: keyCount) : BitSet(count: keyCount) }
        var changed = true
        while changed {
            changed = false
            for i in order {
                var value = entrySet.contains(i) ? initial : BitSet.full(count: keyCount)
                for edge in predecessors[i] where reachableSteps.contains(edge.from) {
                    var out = setIn[edge.from]
                    out.formUnion(writeSets[edge.from])
                    value.formIntersection(out)
                }
                if value != setIn[i] {
                    setIn[i] = value
                    changed = true
                }
            }
        }
        mustBeSet = setIn

        // Keys read later: a backward may-analysis (no kill: a read after an overwrite still reads the key).
        var later = Array(repeating: BitSet(count: keyCount), count: flow.steps.count)
        changed = true
        let backward = order.reversed() + flow.steps.indices.filter { !reachableSteps.contains($0) }
        while changed {
            changed = false
            for i in backward {
                var value = BitSet(count: keyCount)
                for edge in successors[i] {
                    value.formUnion(later[edge.to])
                    value.formUnion(readSets[edge.to])
                }
                if value != later[i] {
                    later[i] = value
                    changed = true
                }
            }
        }
        readLater = later

        // Reaching definitions: union over predecessors; a step's write of a key kills the key's other
        // definitions.
        let definitionCount = definitions.count
        var gen = Array(repeating: BitSet(count: definitionCount), count: flow.steps.count)
        var kill = gen
        for (d, definition) in definitions.enumerated() {
            guard let i = definition.step else { continue }
            gen[i].insert(d)
        }
        for i in flow.steps.indices {
            // Only a write made on every run replaces the key's earlier definitions.
            for key in Set(writes[i].filter { $0.condition == nil }.map(\.key)) { for d in byKey[key] ?? [] { kill[i].insert(d) } }
            // Of several writes of one key in a step, the last one is what leaves it.
            var lastByKey: [String: Int] = [:]
            for d in gen[i].elements { lastByKey[definitions[d].access.key] = d }
            gen[i] = BitSet(count: definitionCount)
            for d in lastByKey.values { gen[i].insert(d) }
        }
        var initialDefinitions = BitSet(count: definitionCount)
        for d in definitions.indices where definitions[d].step == nil { initialDefinitions.insert(d) }
        var reachIn = Array(repeating: BitSet(count: definitionCount), count: flow.steps.count)
        changed = true
        while changed {
            changed = false
            for i in order {
                var value = entrySet.contains(i) ? initialDefinitions : BitSet(count: definitionCount)
                for edge in predecessors[i] {
                    var out = reachIn[edge.from]
                    out.subtract(kill[edge.from])
                    out.formUnion(gen[edge.from])
                    value.formUnion(out)
                }
                if value != reachIn[i] {
                    reachIn[i] = value
                    changed = true
                }
            }
        }
        reachingIn = reachIn
    }

    /// The step at `index`.
    public func step(_ index: Int) -> Step { flow.steps[index] }

    /// Indices of all non-duplicate steps, in definition order.
    public var uniqueSteps: [Int] { flow.steps.indices.filter { !duplicates.contains($0) } }

    /// Whether `key` is set on every path from the start to step `index` (before the step runs).
    public func isDefinitelySet(_ key: String, before index: Int) -> Bool {
        guard let k = keyIndex[key] else { return false }
        return mustBeSet[index].contains(k)
    }

    /// Whether some step reachable from step `index` by one transition or more reads `key`.
    public func isReadLater(_ key: String, after index: Int) -> Bool {
        guard let k = keyIndex[key] else { return false }
        return readLater[index].contains(k)
    }

    /// Per step, the keys its outgoing transitions test (`FlowCase(key:value:)`, a declared `when`):
    /// tested after the step's own writes, as the way on is chosen.
    public let testedKeys: [Set<String>]

    /// Whether what step `index` writes to `key` is used afterwards: tested by the step's own way on,
    /// or read by a later step.
    public func isUsed(_ key: String, afterWritesOf index: Int) -> Bool {
        testedKeys[index].contains(key) || isReadLater(key, after: index)
    }

    /// Keys read by steps reachable from step `index` by one transition or more.
    public func keysReadLater(after index: Int) -> Set<String> {
        Set(readLater[index].elements.map { keys[$0] })
    }

    /// Keys used by any step reachable from the start (entries included): read, tested by a case,
    /// or possibly read by a step whose reads are not all known.
    public var keysReadFromStart: Set<String> {
        var used = BitSet(count: keys.count)
        for i in reachable { used.formUnion(readSets[i]) }
        return Set(used.elements.map { keys[$0] })
    }

    /// The definitions of `key` that may reach step `index` (before its own writes), in definition order.
    public func reachingDefinitions(of key: String, at index: Int) -> [Definition] {
        (definitionsByKey[key] ?? []).filter { reachingIn[index].contains($0) }.map { definitions[$0] }
    }

    /// For `key`, the steps reachable from an entry without passing a step that writes it, each with
    /// the edge it was first reached by: the paths on which `key` is missing. One search per key.
    public func pathsAvoidingWrites(of key: String) -> [Int: Edge?] {
        let writing = Set((writers[key] ?? []).filter { i in effectiveWrites[i].contains { $0.key == key && $0.condition == nil } })
        var parent: [Int: Edge?] = [:]
        var queue: [Int] = []
        for entry in entries where parent[entry] == nil {
            parent[entry] = .some(nil)
            queue.append(entry)
        }
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if writing.contains(current) { continue }  // the key is set here: paths through it do not count
            for edge in successors[current] where parent[edge.to] == nil {
                parent[edge.to] = .some(edge)
                queue.append(edge.to)
            }
        }
        return parent
    }

    /// The path to `target` in a map from `pathsAvoidingWrites`, entry first.
    public func path(to target: Int, in parents: [Int: Edge?]) -> [(edge: Edge?, step: Int)]? {
        guard parents[target] != nil else { return nil }
        var path: [(edge: Edge?, step: Int)] = []
        var cursor: Int? = target
        while let c = cursor, path.count <= flow.steps.count {
            let edge = parents[c] ?? nil
            path.append((edge, c))
            cursor = edge?.from
        }
        return path.reversed()
    }

    /// A path as a person reads it: `'Validate' → 'Choose mode' —[guest]→ 'Guest name'`.
    public func describe(_ path: [(edge: Edge?, step: Int)]) -> String {
        var text = ""
        for (position, element) in path.enumerated() {
            if position > 0 {
                if let edge = element.edge, let label = flow.transitions[edge.transition].displayLabel {
                    text += " —[\(label)]→ "
                } else {
                    text += " → "
                }
            }
            text += "'\(step(element.step).name)'"
        }
        return text
    }

    // MARK: - Algorithms

    static func closure(from starts: [Int], next: (Int) -> [Int]) -> Set<Int> {
        var seen = Set(starts)
        var stack = starts
        while let current = stack.popLast() {
            for n in next(current) where seen.insert(n).inserted { stack.append(n) }
        }
        return seen
    }

    /// Reverse post-order from the entries: the order in which forward data flow converges fastest.
    static func order(entries: [Int], successors: [[Edge]]) -> [Int] {
        var visited = Set<Int>()
        var post: [Int] = []
        for entry in entries where !visited.contains(entry) {
            // Iterative DFS: flows of thousands of steps must not exhaust the stack.
            var stack: [(node: Int, next: Int)] = [(entry, 0)]
            visited.insert(entry)
            while !stack.isEmpty {
                let (node, nextIndex) = stack[stack.count - 1]
                if nextIndex < successors[node].count {
                    stack[stack.count - 1].next += 1
                    let to = successors[node][nextIndex].to
                    if visited.insert(to).inserted { stack.append((to, 0)) }
                } else {
                    post.append(node)
                    stack.removeLast()
                }
            }
        }
        return post.reversed()
    }
}

/// What a flow needs from and gives to a caller that runs it as a sub-flow.
public struct FlowInterface: Sendable {
    /// Keys the flow starts with: the caller must have set them.
    public var inputs: [DataAccess]
    /// Keys set on every path to the flow's exits, with their type when every definition agrees.
    public var outputs: [DataAccess]
}

/// Analyses of all flows of one graph, shared so that sub-flows are resolved once and cycles of
/// sub-flows (A runs B runs A) terminate. Not for concurrent use: one session per analysing thread.
public final class AnalysisSession {
    /// The graph analysed.
    public let graph: FlowGraph
    private var analyses: [String: FlowAnalysis] = [:]
    private var interfaces: [String: FlowInterface?] = [:]
    private var inProgress = Set<String>()

    /// Creates a session over `graph`.
    public init(graph: FlowGraph) { self.graph = graph }

    /// The analysis of `flow` (computed once).
    public func analysis(of flow: Flow) -> FlowAnalysis {
        if let done = analyses[flow.id] { return done }
        inProgress.insert(flow.id)
        let result = FlowAnalysis(flow: flow, session: self)
        inProgress.remove(flow.id)
        analyses[flow.id] = result
        return result
    }

    /// The interface of the flow named `reference` (id or name); nil when it does not exist or is
    /// being analysed further up the stack (a recursive sub-flow contributes no keys).
    public func interface(of reference: String) -> FlowInterface? {
        guard let flow = graph.flow(named: reference) else { return nil }
        if let known = interfaces[flow.id] { return known }
        guard !inProgress.contains(flow.id) else { return nil }
        let analysis = analysis(of: flow)
        let exits = analysis.uniqueSteps.filter { analysis.step($0).kind == .end || analysis.step($0).terminal }
            .filter { analysis.reachable.contains($0) }
        var outputs: [DataAccess] = []
        if !exits.isEmpty {
            var keys: Set<String>? = nil
            for exit in exits {
                var set = Set(analysis.keys.filter { analysis.isDefinitelySet($0, before: exit) })
                set.formUnion(analysis.effectiveWrites[exit].map(\.key))
                keys = keys.map { $0.intersection(set) } ?? set
            }
            let inputKeys = Set(flow.initialData.map(\.key))
            for key in (keys ?? []).subtracting(inputKeys).sorted() {
                var types = Set(exits.flatMap { analysis.reachingDefinitions(of: key, at: $0) }.map(\.access.type))
                types.formUnion(exits.flatMap { analysis.effectiveWrites[$0].filter { $0.key == key }.map(\.type) })
                outputs.append(DataAccess(key: key, type: types.count == 1 ? types.first! : nil))
            }
        }
        let interface = FlowInterface(inputs: flow.initialData.map { DataAccess(key: $0.key, type: $0.type) }, outputs: outputs)
        interfaces[flow.id] = interface
        return interface
    }

    /// Keys read by a caller of `flow` after the sub-flow step that runs it (or returned by the
    /// caller as outputs): a sub-flow's write of such a key is used.
    public func keysReadByCallers(of flow: Flow) -> Set<String> {
        var keys = Set<String>()
        for caller in graph.flows where caller.id != flow.id {
            let callSteps = caller.steps.indices.filter {
                guard let ref = caller.steps[$0].subflow else { return false }
                return graph.flow(named: ref)?.id == flow.id
            }
            guard !callSteps.isEmpty else { continue }
            let analysis = analysis(of: caller)
            for call in callSteps { keys.formUnion(analysis.keysReadLater(after: call)) }
            keys.formUnion(caller.outputs.map(\.key))
        }
        return keys
    }
}
