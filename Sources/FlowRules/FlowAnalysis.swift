import FlowModel
import Foundation

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
        /// The number of the access's key in `keys`.
        public let key: Int
    }

    /// An edge between two existing steps.
    public typealias Edge = FlowIndex.Edge

    /// The flow analysed.
    public let flow: Flow
    /// The flow's graph (steps by id, edges, entries), built once: the fields below are its own.
    public let graphIndex: FlowIndex
    /// Index of the first step with each id.
    public let index: [String: Int]
    /// Indices of steps that repeat an earlier id.
    public let duplicates: StepSet
    /// Indices of all non-duplicate steps, in definition order.
    public let uniqueSteps: [Int]
    /// Per step, every transition leaving its id (into existing steps or not), as indices into
    /// `flow.transitions` in their order.
    public let transitionsLeaving: [[Int]]
    /// Outgoing edges per step (to existing steps only).
    public let successors: [[Edge]]
    /// Incoming edges per step.
    public let predecessors: [[Edge]]
    /// The entry steps that exist.
    public let entries: [Int]
    /// Steps reachable from an entry, in ascending order: never a duplicate (a transition names its
    /// target by id, which is the first step's).
    public let reachable: StepSet
    /// Steps from which an exit (`end`, `fail`, a terminal state) can be reached.
    public let reachesExit: StepSet
    /// Per step, the flow-scope reads in effect (declared reads plus a sub-flow's inputs).
    public let effectiveReads: [[DataAccess]]
    /// Per step, the flow-scope writes in effect (declared writes plus a sub-flow's outputs).
    public let effectiveWrites: [[DataAccess]]
    /// Per step, the numbers (in `keys`) of the keys of `effectiveReads`, in their order: a rule that
    /// asks about every read of a long flow asks by number, without hashing each key's name.
    public let effectiveReadKeys: [[Int]]
    /// Per step, the numbers of the keys of `effectiveWrites`, in their order.
    public let effectiveWriteKeys: [[Int]]
    /// Every key the flow mentions, numbered for the bit sets below.
    public let keys: [String]
    /// The number of each key in `keys`.
    public let keyIndex: [String: Int]
    /// Steps writing `key` (effective writes), in step order.
    public func writers(of key: String) -> [Int] { keyIndex[key].map { writerLists[$0] } ?? [] }
    /// Per key number, the steps writing the key.
    private let writerLists: [[Int]]
    /// Every definition: the initial data first, then each step's effective writes in step order.
    public let definitions: [Definition]
    /// The data-flow facts (keys set on every path, keys read later, reaching definitions), answered
    /// per key on demand: dense sets of steps × keys grow quadratically with a flow's size.
    private let facts: KeyFacts

    /// Analyses `flow`; `session` resolves sub-flows (and shares results between flows).
    public init(flow: Flow, session: AnalysisSession) {
        self.flow = flow
        let graph = FlowIndex(flow)
        graphIndex = graph
        let index = graph.index, duplicates = graph.duplicates
        let successors = graph.successors, predecessors = graph.predecessors
        self.index = index
        self.duplicates = duplicates
        transitionsLeaving = graph.transitionsLeaving
        let uniqueSteps = flow.steps.indices.filter { !duplicates.contains($0) }
        self.uniqueSteps = uniqueSteps
        self.successors = successors
        self.predecessors = predecessors
        entries = graph.entries

        let reachable = Self.closure(from: entries, capacity: flow.steps.count, next: { successors[$0].lazy.map(\.to) })
        self.reachable = reachable
        let exits = uniqueSteps.filter { flow.steps[$0].isExit }
        reachesExit = Self.closure(from: exits, capacity: flow.steps.count, next: { predecessors[$0].lazy.map(\.from) })

        var reads: [[DataAccess]] = []
        var writes: [[DataAccess]] = []
        reads.reserveCapacity(flow.steps.count)
        writes.reserveCapacity(flow.steps.count)
        // By index: a copy of each `Step` (a dozen reference-counted fields) costs more than the loop.
        for i in flow.steps.indices {
            var r = flow.steps[i].reads, w = flow.steps[i].writes
            if !duplicates.contains(i), let name = flow.steps[i].subflow, let interface = session.interface(of: name) {
                let at = flow.steps[i].location
                r += interface.inputs.map { DataAccess(key: $0.key, type: $0.type, optional: $0.optional, location: at) }
                w += interface.outputs.map { DataAccess(key: $0.key, type: $0.type, location: at) }
            }
            if duplicates.contains(i) { r = []; w = [] }
            reads.append(r)
            writes.append(w)
        }
        effectiveReads = reads
        effectiveWrites = writes

        // Every key gets a number, and what the data-flow facts need of it is gathered by that
        // number in one pass over the accesses (a dictionary by key name per table hashed each key
        // string several times per access).
        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        var perKey: [KeyFacts.Key] = []
        var writerLists: [[Int]] = []
        func number(_ key: String) -> Int {
            if let n = keyIndex[key] { return n }
            keyIndex[key] = keys.count
            keys.append(key)
            perKey.append(KeyFacts.Key())
            writerLists.append([])
            return keys.count - 1
        }
        var definitions: [Definition] = []
        for (d, access) in flow.initialData.enumerated() {
            let k = number(access.key)
            definitions.append(Definition(step: nil, access: access, key: k))
            perKey[k].initialDefinitions = perKey[k].initialDefinitions ?? []
            perKey[k].initialDefinitions!.append(d)
            if access.condition == nil { perKey[k].initial = true }
        }
        // What each step reads for "is it read later": its reads, and its case conditions' keys (a
        // missing key just matches no case); a step that may read anything uses every key.
        var readKeys = Array(repeating: [Int](), count: flow.steps.count)
        var tested = Array(repeating: [Int](), count: flow.steps.count)
        for transition in flow.transitions {
            guard case let .equals(key, _)? = transition.condition else { continue }
            let k = number(key)
            guard let from = index[transition.from] else { continue }
            tested[from].append(k)
        }
        testedKeys = tested
        var readNumbers = Array(repeating: [Int](), count: flow.steps.count)
        for (i, list) in reads.enumerated() {
            readNumbers[i] = list.map { number($0.key) }
            readKeys[i] = tested[i].isEmpty ? readNumbers[i] : readNumbers[i] + tested[i]
        }
        effectiveReadKeys = readNumbers
        var writeNumbers = Array(repeating: [Int](), count: flow.steps.count)
        for (i, list) in writes.enumerated() {
            for access in list {
                let k = number(access.key)
                writeNumbers[i].append(k)
                if writerLists[k].last != i { writerLists[k].append(i) }
                // Of several writes of one key in a step, the last one is what leaves it; definitions
                // come in step order, so each key's list is by ascending step.
                let d = definitions.count
                definitions.append(Definition(step: i, access: access, key: k))
                if perKey[k].lastDefinition.last?.step == i {
                    perKey[k].lastDefinition[perKey[k].lastDefinition.count - 1].definition = d
                } else {
                    perKey[k].lastDefinition.append((i, d))
                }
                if perKey[k].initialDefinitions == nil { perKey[k].initialDefinitions = [] }
                // A write made only under a condition (a maybe-write) never makes its key certain, and
                // does not replace the key's earlier definitions: it reaches later steps beside them.
                if access.condition == nil, perKey[k].certainWriters.last != i { perKey[k].certainWriters.append(i) }
            }
        }
        effectiveWriteKeys = writeNumbers
        for (i, list) in readKeys.enumerated() {
            for k in list where perKey[k].readers.last != i { perKey[k].readers.append(i) }
        }
        self.keys = keys
        self.keyIndex = keyIndex
        self.writerLists = writerLists
        self.definitions = definitions
        var isReachable = Array(repeating: false, count: flow.steps.count)
        for s in reachable { isReachable[s] = true }
        self.facts = KeyFacts(
            names: keys, keys: perKey, successors: successors.map { $0.map(\.to) },
            predecessors: predecessors.map { $0.map(\.from) }, entries: entries, order: graph.reversePostOrder(),
            reachable: isReachable, readKeys: readKeys,
            readsAnything: flow.steps.indices.filter { flow.steps[$0].mayReadAnything },
            writesAnything: flow.steps.indices.filter { flow.steps[$0].mayWriteAnything },
            joins: ParallelJoins(flow: flow, graph: graph), failingPredecessors: Self.failingPredecessors(flow, graph, writes: writes))
    }

    /// Per step, the steps that write something and reach it by an error way (taken when they fail,
    /// having written nothing), each with whether a way taken on success leads there too: kept only
    /// for steps that go on (not an exit).
    private static func failingPredecessors(_ flow: Flow, _ graph: FlowIndex, writes: [[DataAccess]]) -> [Int: [Int: Bool]] {
        var result: [Int: [Int: Bool]] = [:]
        for s in flow.steps.indices where !flow.steps[s].isExit {
            for edge in graph.predecessors[s] where flow.transitions[edge.transition].kind == .error
                && (!writes[edge.from].isEmpty || flow.steps[edge.from].mayWriteAnything) {
                let alsoOnSuccess = graph.successors[edge.from].contains { $0.to == s && flow.transitions[$0.transition].kind != .error }
                result[s, default: [:]][edge.from] = alsoOnSuccess
            }
        }
        return result
    }

    /// The step at `index`.
    public func step(_ index: Int) -> Step { flow.steps[index] }

    /// The first step with `id` (what `Flow.step(_:)` finds, without a scan of every step).
    public func step(id: String) -> Step? { index[id].map { flow.steps[$0] } }

    /// Whether `key` is set on every path from the start to step `index` (before the step runs);
    /// false for unreachable steps.
    public func isDefinitelySet(_ key: String, before index: Int) -> Bool {
        keyIndex[key].map { isDefinitelySet(keyNumber: $0, before: index) } ?? false
    }

    /// `isDefinitelySet(_:before:)` for the key numbered `key` in `keys`.
    public func isDefinitelySet(keyNumber key: Int, before index: Int) -> Bool {
        facts.isDefinitelySet(key, before: index)
    }

    /// Whether some step reachable from step `index` by one transition or more reads `key`.
    public func isReadLater(_ key: String, after index: Int) -> Bool {
        keyIndex[key].map { facts.isReadLater($0, after: index) } ?? false
    }

    /// Per step, the numbers of the keys its outgoing transitions test (`FlowCase(key:value:)`, a
    /// declared `when`): tested after the step's own writes, as the way on is chosen.
    private let testedKeys: [[Int]]

    /// Whether what step `index` writes to `key` is used afterwards: tested by the step's own way on,
    /// or read by a later step.
    public func isUsed(_ key: String, afterWritesOf index: Int) -> Bool {
        keyIndex[key].map { isUsed(keyNumber: $0, afterWritesOf: index) } ?? false
    }

    /// `isUsed(_:afterWritesOf:)` for the key numbered `key` in `keys`.
    public func isUsed(keyNumber key: Int, afterWritesOf index: Int) -> Bool {
        testedKeys[index].contains(key) || facts.isReadLater(key, after: index)
    }

    /// Keys read by steps reachable from step `index` by one transition or more.
    public func keysReadLater(after index: Int) -> Set<String> {
        facts.keysReadLater(after: [index])
    }

    /// Keys read by steps reachable from any of `steps` by one transition or more: one walk, where a
    /// walk per step made a flow that runs one sub-flow at each of its thousands of steps quadratic.
    public func keysReadLater(afterAny steps: [Int]) -> Set<String> {
        facts.keysReadLater(after: steps)
    }

    /// Of `keys`, those used by any step reachable from the start (entries included): read, tested
    /// by a case, or possibly read by a step whose reads are not all known. One walk of the steps,
    /// answered by key number: a set of every key's name cost a long flow more than the walk.
    public func keysReadFromStart(among keys: [String]) -> Set<String> {
        guard let read = facts.keyNumbersRead(by: reachable) else { return Set(keys) }
        return Set(keys.filter { key in keyIndex[key].map { read[$0] } ?? false })
    }

    /// The definitions of `key` that may reach step `index` (before its own writes), in definition order.
    public func reachingDefinitions(of key: String, at index: Int) -> [Definition] {
        keyIndex[key].map { reachingDefinitions(ofKeyNumber: $0, at: index) } ?? []
    }

    /// `reachingDefinitions(of:at:)` for the key numbered `key` in `keys`.
    public func reachingDefinitions(ofKeyNumber key: Int, at index: Int) -> [Definition] {
        facts.reachingDefinitions(of: key, at: index).map { definitions[$0] }
    }

    /// For `key`, the steps reachable from an entry without passing a step that writes it, each with
    /// the edge it was first reached by: the paths on which `key` is missing. One search per key.
    public func pathsAvoidingWrites(of key: String) -> [Int: Edge?] {
        let writing = Set(writers(of: key).filter { i in effectiveWrites[i].contains { $0.key == key && $0.condition == nil } })
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
    /// A path of more than `describedSteps` steps is described by its first and last steps around
    /// "… N more steps …": a message stays short however long the flow.
    public static let describedSteps = 16

    public func describe(_ path: [(edge: Edge?, step: Int)]) -> String {
        Self.describe(steps: path.map(\.step), transitions: path.dropFirst().map { $0.edge?.transition }, in: flow)
    }

    /// `describe(_:)` for a path given as step indices and the transitions taken between them (one
    /// fewer; nil where none is known): every output that names a path as arrows writes it this way.
    public static func describe(steps: [Int], transitions: [Int?], in flow: Flow) -> String {
        describe(count: steps.count, step: { steps[$0] },
                 transition: { $0 - 1 < transitions.count ? transitions[$0 - 1] : nil }, in: flow)
    }

    /// `describe(_:)` for a path kept without its middle (`MissingPath`): only the steps shown are asked for.
    func describe(_ path: MissingPath) -> String {
        var elements: [Int: (edge: Edge?, step: Int)] = [:]
        for position in path.shownPositions { elements[position] = path.element(position) }
        return Self.describe(count: path.count, step: { elements[$0]!.step }, transition: { elements[$0]!.edge?.transition }, in: flow)
    }

    /// The description of a path of `count` steps: `step(position)` and `transition(position)` (the
    /// transition into the step at `position`, from 1) are asked only for the steps shown.
    static func describe(count: Int, step: (Int) -> Int, transition: (Int) -> Int?, in flow: Flow) -> String {
        var text = ""
        let half = describedSteps / 2
        let shown = count > describedSteps ? Array(0..<half) + Array((count - half)..<count) : Array(0..<count)
        for position in shown {
            if count > describedSteps, position == count - half { text += " → … \(count - 2 * half) more steps …" }
            let stepIndex = step(position)
            if position > 0 {
                if let transition = transition(position), let label = flow.transitions[transition].displayLabel {
                    text += " —[\(label)]→ "
                } else {
                    text += " → "
                }
            }
            // A plain join on the way is drawn as an unlabelled dot in every picture: its name would
            // send the reader looking for a step nobody sees.
            let step = flow.steps[stepIndex]
            let plainJoin = step.kind == .join && step.reads.isEmpty && step.writes.isEmpty && position > 0 && position < count - 1
            text += plainJoin ? Self.branchesMeet : "'\(step.name)'"
        }
        return text
    }

    /// How a path names a plain join (no reads, no writes) it passes: what pictures draw as a dot.
    public static let branchesMeet = "(where the branches meet)"

    // MARK: - Algorithms

    /// `keys` without repeats (in no particular order): a step's few keys are compared directly, as
    /// a `Set` per step would allocate for every step of a large flow.
    static func distinct(_ keys: [String]) -> [String] {
        if keys.count <= 1 { return keys }
        guard keys.count > 8 else {
            return keys.indices.filter { i in !keys[..<i].contains(keys[i]) }.map { keys[$0] }
        }
        return Array(Set(keys))
    }

    /// The steps reached from `starts` (themselves included) by following `next` from each.
    static func closure<Next: Sequence<Int>>(from starts: [Int], capacity: Int = 0, next: (Int) -> Next) -> StepSet {
        var seen = StepSet(capacity: capacity)
        var stack: [Int] = []
        for start in starts where seen.insert(start) { stack.append(start) }
        while let current = stack.popLast() {
            for n in next(current) where seen.insert(n) { stack.append(n) }
        }
        return seen
    }
}

/// The keys (by number) a rule has met at the step it is at, so that it looks at each key once a
/// step: one array of flags for the whole flow, cleared step by step (a set of names per step cost a
/// long flow an allocation and a hash per read).
struct KeyMarks {
    private var marked: [Bool]

    /// No key marked, for the keys of `analysis`.
    init(_ analysis: FlowAnalysis) { marked = Array(repeating: false, count: analysis.keys.count) }

    /// Marks `key`; true when it was not marked since the last `clear`.
    mutating func mark(_ key: Int) -> Bool {
        guard !marked[key] else { return false }
        marked[key] = true
        return true
    }

    /// Unmarks `keys`, which hold every key marked since the last `clear` (the step's own keys).
    mutating func clear(_ keys: [Int]) {
        for key in keys { marked[key] = false }
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
/// sub-flows (A runs B runs A) terminate.
///
/// Safe to share between threads (`Analyzer.findings` runs the rules of several flows at once):
/// every cache below is read and filled under `lock`. The lock is recursive because an analysis asks
/// for its sub-flows' interfaces, and an interface for its flow's analysis. What a cache holds never
/// depends on which thread asked first, with one exception that the caller orders: in a cycle of
/// sub-flows, the flow analysed first sees the others without it (see `analysis(of:)`).
public final class AnalysisSession: @unchecked Sendable {
    /// The graph analysed.
    public let graph: FlowGraph
    /// Guards every `var` of the session.
    private let lock = NSRecursiveLock()
    private var analyses: [String: FlowAnalysis] = [:]
    private var interfaces: [String: FlowInterface?] = [:]
    private var inProgress = Set<String>()

    /// Flow indices by id, and by name for names that are no flow's id: `FlowGraph.flow(named:)`
    /// in constant time.
    private lazy var flowIndex: [String: Int] = {
        var index: [String: Int] = [:]
        for (i, flow) in graph.flows.enumerated() where index[flow.id] == nil { index[flow.id] = i }
        var byName: [String: Int] = [:]
        for (i, flow) in graph.flows.enumerated() where byName[flow.name] == nil { byName[flow.name] = i }
        for (name, i) in byName where index[name] == nil { index[name] = i }
        return index
    }()
    /// For each flow id, the flows that run it as a sub-flow and the steps that do: built in one pass,
    /// so asking for every flow's callers is linear in the number of flows, not quadratic.
    private lazy var callers: [String: [(caller: Int, steps: [Int])]] = {
        var callers: [String: [(caller: Int, steps: [Int])]] = [:]
        for (c, caller) in graph.flows.enumerated() {
            var stepsByCallee: [String: [Int]] = [:]
            for (i, step) in caller.steps.enumerated() {
                guard let ref = step.subflow, let callee = flow(named: ref), callee.id != caller.id else { continue }
                stepsByCallee[callee.id, default: []].append(i)
            }
            for (callee, steps) in stepsByCallee { callers[callee, default: []].append((c, steps)) }
        }
        return callers
    }()

    private lazy var describedMachineIndex = DescribedMachines.Index(graph)
    /// The graph's state machines as `DescribedMachines` looks them up, found once.
    var describedMachines: DescribedMachines.Index { locked { describedMachineIndex } }
    /// Per described machine's id, the analysis of the machine with the edges that cross its
    /// composites' boundaries (`DescribedMachines.withCrossingEdges`); nil inside when it has none.
    private var crossingAnalyses: [String: FlowAnalysis?] = [:]

    /// The analysis of described machine `id` with its crossing edges: the one kept, else `make`'s,
    /// kept. (`make` runs outside the lock; two threads making it at once make the same analysis,
    /// and the first one kept is the one both get.)
    func crossingAnalysis(of id: String, make: () -> FlowAnalysis?) -> FlowAnalysis? {
        if let done = locked({ crossingAnalyses[id] }) { return done }
        let made = make()
        return locked {
            if let done = crossingAnalyses[id] { return done }
            crossingAnalyses[id] = .some(made)
            return made
        }
    }

    /// Per source location of a declared read, the steps (flow and step index) that declare it:
    /// a read written once and run by several flows, found without a scan of the graph per read.
    private lazy var readSteps: [SourceLocation: [(flow: Int, step: Int)]] = {
        var steps: [SourceLocation: [(flow: Int, step: Int)]] = [:]
        for (f, flow) in graph.flows.enumerated() {
            for (i, step) in flow.steps.enumerated() {
                var seen = Set<SourceLocation>()
                for read in step.reads { if let at = read.location, seen.insert(at).inserted { steps[at, default: []].append((f, i)) } }
            }
        }
        return steps
    }()

    /// The steps (flow and step index, in the graph's order) with a declared read at `location`.
    func stepsReading(at location: SourceLocation) -> [(flow: Int, step: Int)] { locked { readSteps[location] ?? [] } }

    /// Values worked out once per graph, by their type (`shared(_:)`).
    private var sharedValues: [ObjectIdentifier: Any] = [:]

    /// A value a rule works out from the whole graph and then looks up for each flow, made by `make`
    /// on the first call for its type and kept for the session (a scan of the graph for each flow is
    /// quadratic in the flows). Give each such value a type of its own.
    public func shared<Value>(_ make: (FlowGraph) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(Value.self)
        if let known = sharedValues[key] as? Value { return known }
        let value = make(graph)
        sharedValues[key] = value
        return value
    }

    /// Creates a session over `graph`.
    public init(graph: FlowGraph) { self.graph = graph }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The flow with this id, else the first with this name (as `FlowGraph.flow(named:)`).
    public func flow(named reference: String) -> Flow? { locked { flowIndex[reference] }.map { graph.flows[$0] } }

    /// The analysis of `flow` (computed once).
    ///
    /// A flow's analysis needs its sub-flows' interfaces, which need their analyses in turn: done
    /// recursively, a chain of a thousand sub-flows (A runs B runs C …) overflowed the stack. So the
    /// sub-flows are analysed first, deepest first, by a loop with its own stack that asks for them in
    /// the order `FlowAnalysis.init` does and keeps the same flows "in progress": the results are
    /// those of the recursion, and each `init` finds what it asks for already done.
    ///
    /// In a cycle of sub-flows the flow asked for first sees the others without itself (it is in
    /// progress: it contributes no keys), and they keep what they saw: so the order of the first
    /// questions decides those analyses. `Analyzer.findings` asks for every flow's in the graph's
    /// order before any rule runs.
    public func analysis(of flow: Flow) -> FlowAnalysis {
        lock.lock()
        defer { lock.unlock() }
        if let done = analyses[flow.id] { return done }
        // Per flow on the stack: the next step to look at, and (made at its first step that runs a
        // sub-flow) the index of the first step with each id.
        var stack: [(flow: Flow, next: Int, firsts: [String: Int]?)] = [(flow, 0, nil)]
        inProgress.insert(flow.id)
        while let (current, next, knownFirsts) = stack.last {
            let steps = current.steps
            var position = next
            var child: Flow?
            var firsts = knownFirsts
            while position < steps.count, child == nil {
                let p = position
                position += 1
                // Only a step that runs a sub-flow is looked at, in place: copying every step and
                // hashing every id into a set was nearly all this loop's time for 100,000 steps.
                guard let name = steps[p].subflow else { continue }
                if firsts == nil {
                    var made: [String: Int] = Dictionary(minimumCapacity: steps.count)
                    for i in steps.indices where made[steps[i].id] == nil { made[steps[i].id] = i }
                    firsts = made
                }
                // Duplicate step ids are not analysed (as in `FlowAnalysis.init`).
                guard firsts![steps[p].id] == p, let callee = self.flow(named: name),
                      interfaces[callee.id] == nil, !inProgress.contains(callee.id) else { continue }
                if analyses[callee.id] != nil {
                    _ = interface(of: name)  // analysed already: only its interface is missing
                    continue
                }
                child = callee
            }
            stack[stack.count - 1].next = position
            stack[stack.count - 1].firsts = firsts
            if let child {
                inProgress.insert(child.id)
                stack.append((child, 0, nil))
                continue
            }
            stack.removeLast()
            analyses[current.id] = FlowAnalysis(flow: current, session: self)
            inProgress.remove(current.id)
            // A sub-flow's interface, as `interface(of:)` would have computed it on return.
            if !stack.isEmpty { _ = interface(of: current.id) }
        }
        return analyses[flow.id]!
    }

    /// Analyses those of `flows` that run no sub-flow, on all cores (`analysis(of:)` then finds them
    /// done); the others are left to `analysis(of:)`, in the caller's order. Such a flow's analysis
    /// asks the session nothing (only a sub-flow step asks for an interface), so it is the same
    /// whenever it is made; one already made is kept.
    public func analyseOnAllCores(_ flows: [Flow]) {
        let flows = flows.filter { !$0.steps.contains { $0.subflow != nil } }
        let made = flows.parallelMap { FlowAnalysis(flow: $0, session: self) }
        locked {
            for (flow, analysis) in zip(flows, made) where analyses[flow.id] == nil { analyses[flow.id] = analysis }
        }
    }

    /// The interface of the flow named `reference` (id or name); nil when it does not exist or is
    /// being analysed further up the stack (a recursive sub-flow contributes no keys).
    public func interface(of reference: String) -> FlowInterface? {
        lock.lock()
        defer { lock.unlock() }
        guard let flow = flow(named: reference) else { return nil }
        if let known = interfaces[flow.id] { return known }
        guard !inProgress.contains(flow.id) else { return nil }
        let analysis = analysis(of: flow)
        let exits = analysis.uniqueSteps.filter { analysis.step($0).kind == .end || analysis.step($0).terminal }
            .filter { analysis.reachable.contains($0) }
        var outputs: [DataAccess] = []
        if !exits.isEmpty {
            // Set on the way to every exit: what the first exit has, kept while each next exit has it
            // too. Only the keys still in the running are asked about (asking every key at every exit
            // made a sub-flow with thousands of failure exits and keys quadratic).
            var keys: Set<String>? = nil
            for exit in exits {
                let written = Set(analysis.effectiveWrites[exit].map(\.key))
                if let kept = keys {
                    keys = kept.filter { written.contains($0) || analysis.isDefinitelySet($0, before: exit) }
                } else {
                    keys = Set(analysis.keys.filter { analysis.isDefinitelySet($0, before: exit) }).union(written)
                }
                if keys!.isEmpty { break }
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
        for (index, callSteps) in locked({ callers[flow.id] ?? [] }) {
            let caller = graph.flows[index]
            guard caller.id != flow.id else { continue }
            let analysis = analysis(of: caller)
            keys.formUnion(analysis.keysReadLater(afterAny: callSteps))
            keys.formUnion(caller.outputs.map(\.key))
        }
        return keys
    }
}
