import FlowModel

/// Where one data key of a flow comes from and where it is used: every write and read, the order in
/// which they happen along each path, and the first path on which the key is read before anything set it.
///
/// "Missing" means what the `missing-data-key` rule means: a required (not optional) read at a step
/// reachable from the start, where the key is not set on every path to the step. A step that may write
/// keys nobody can name (its code was not read) counts as setting the key. The flow's initial data
/// counts as set from the start. A case condition testing the key is listed as a read, but a missing key
/// only makes no case match, so it is never "missing".
public struct DataProvenance: Sendable {
    /// What an access does with the key.
    public enum AccessKind: String, Hashable, Sendable, Codable {
        /// The flow starts with the key (a data bucket set before the start, a declared `data:`).
        case initial
        /// A step sets the key.
        case write
        /// A step needs the key: it fails when the key is missing.
        case read
        /// A step uses the key when it is there (`optional: true`, `T?`).
        case optionalRead
        /// A transition's condition tests the key (`FlowCase(key:value:)`).
        case condition

        /// True for `read`, `optionalRead` and `condition`.
        public var isRead: Bool { self != .initial && self != .write }
    }

    /// One write or read of the key.
    public struct Access: Hashable, Sendable {
        /// What it does.
        public var kind: AccessKind
        /// The step's index in `flow.steps`; nil for the flow's initial data.
        public var step: Int?
        /// The step's id, nil for the initial data.
        public var stepID: String?
        /// The step's name (what a person reads), or the flow's name for the initial data.
        public var stepName: String
        /// Where the access is written (the step's location when the access has none).
        public var location: SourceLocation?
        /// The type read or written, when known.
        public var type: TypeName?
        /// For a `condition`: the transition's index in `flow.transitions`.
        public var transition: Int?
        /// For a write by a step that may write any key: true (the key is not named, but may be set).
        public var isPossible: Bool = false
    }

    /// What happens to the key along one path.
    public struct Trace: Hashable, Sendable {
        /// The path.
        public var path: FlowPath
        /// The path's number in `FlowPaths.paths`, from 0.
        public var number: Int
        /// The accesses in the order they happen on the path (the initial data first; a step's reads
        /// before its writes; a condition when its transition is taken). A step visited twice appears twice.
        public var events: [Access]
        /// The index in `events` of the first required read that happens before any write, if any.
        public var firstMissing: Int?
    }

    /// The first place the key is missing.
    public struct Missing: Hashable, Sendable {
        /// The read that fails.
        public var read: Access
        /// Step indices from an entry to the reading step on which no step sets the key.
        public var steps: [Int]
        /// The transitions taken between them (one fewer).
        public var transitions: [Int]
        /// The index (from 0) in `traces` of the listed path it is on, when it is one of them.
        public var pathNumber: Int?
    }

    /// The key.
    public let key: String
    /// The flow.
    public let flow: Flow
    /// Every write and read, in order: the initial data, then each step's reads and writes in step order,
    /// then the conditions in transition order.
    public let accesses: [Access]
    /// What happens to the key on each listed path (the first `FlowPaths.defaultLimit`, or the limit given).
    public let traces: [Trace]
    /// How many paths the flow has in all.
    public let pathCount: PathCount
    /// Where the key is first found missing: on the first listed path where a required read comes before
    /// any write; else (when no listed path shows it) on the shortest path the `missing-data-key` rule
    /// reports. Nil when the key is always set before it is needed.
    public let missing: Missing?
    /// Every required read at a reachable step that the key is not set on every path to, in step order.
    public let missingReads: [Access]

    /// The provenance of `key` in `analysis.flow`, listing `paths` (computed when not given).
    public init(key: String, analysis: FlowAnalysis, paths: FlowPaths? = nil) {
        let flow = analysis.flow
        let paths = paths ?? FlowPaths(flow: flow, graph: analysis.graphIndex)
        self.key = key
        self.flow = flow
        pathCount = paths.count

        // Accesses per step, reads first.
        var byStep = Array(repeating: [Access](), count: flow.steps.count)
        for i in analysis.uniqueSteps {
            let step = flow.steps[i]
            for read in analysis.effectiveReads[i] where read.key == key {
                byStep[i].append(Access(kind: read.optional ? .optionalRead : .read, step: i, stepID: step.id, stepName: step.name,
                                        location: read.location ?? step.location, type: read.type))
            }
            for write in analysis.effectiveWrites[i] where write.key == key {
                byStep[i].append(Access(kind: .write, step: i, stepID: step.id, stepName: step.name,
                                        location: write.location ?? step.location, type: write.type))
            }
            if step.mayWriteAnything, !analysis.effectiveWrites[i].contains(where: { $0.key == key }) {
                var access = Access(kind: .write, step: i, stepID: step.id, stepName: step.name, location: step.location, type: nil)
                access.isPossible = true
                byStep[i].append(access)
            }
        }
        var conditions: [Int: Access] = [:]
        for (t, transition) in flow.transitions.enumerated() {
            guard case let .equals(k, _)? = transition.condition, k == key, let from = analysis.index[transition.from] else { continue }
            let step = flow.steps[from]
            conditions[t] = Access(kind: .condition, step: from, stepID: step.id, stepName: step.name,
                                   location: transition.location ?? step.location, type: nil, transition: t)
        }
        let initial = flow.initialData.filter { $0.key == key }.map {
            Access(kind: .initial, step: nil, stepID: nil, stepName: flow.name, location: $0.location ?? flow.location, type: $0.type)
        }
        accesses = initial + byStep.flatMap { $0 } + conditions.keys.sorted().map { conditions[$0]! }

        // Along each listed path.
        var traces: [Trace] = []
        for (number, path) in paths.paths.enumerated() {
            var events = initial
            var set = !initial.isEmpty
            var firstMissing: Int?
            for (position, step) in path.steps.enumerated() {
                if position > 0, let condition = conditions[path.transitions[position - 1]] { events.append(condition) }
                for access in byStep[step] {
                    if access.kind == .read, !set, firstMissing == nil { firstMissing = events.count }
                    if access.kind == .write { set = true }
                    events.append(access)
                }
            }
            traces.append(Trace(path: path, number: number, events: events, firstMissing: firstMissing))
        }
        self.traces = traces

        // The rule's view: required reads where the key is not definitely set.
        let missingReads = analysis.uniqueSteps.filter { analysis.reachable.contains($0) && !analysis.isDefinitelySet(key, before: $0) }
            .flatMap { byStep[$0].filter { $0.kind == .read }.prefix(1) }
        self.missingReads = missingReads
        if let trace = traces.first(where: { $0.firstMissing != nil }), let at = trace.firstMissing {
            let read = trace.events[at]
            // The path up to the first visit of the reading step.
            let end = trace.path.steps.firstIndex(of: read.step!)!
            missing = Missing(read: read, steps: Array(trace.path.steps[...end]), transitions: Array(trace.path.transitions[..<end]),
                              pathNumber: trace.number)
        } else if let read = missingReads.first, let step = read.step,
                  let path = analysis.path(to: step, in: analysis.pathsAvoidingWrites(of: key)) {
            missing = Missing(read: read, steps: path.map(\.step), transitions: path.compactMap { $0.edge?.transition }, pathNumber: nil)
        } else {
            missing = nil
        }
    }

    /// The provenance of `key` in `flow`, analysed on its own (its sub-flows resolved in `graph`).
    public init(key: String, flow: Flow, graph: FlowGraph = FlowGraph()) {
        var graph = graph
        if graph.flow(named: flow.id)?.id != flow.id { graph.flows.append(flow) }
        self.init(key: key, analysis: AnalysisSession(graph: graph).analysis(of: flow))
    }

    /// True when no required read of the key can happen before it is set.
    public var isAlwaysSetBeforeRead: Bool { missing == nil && missingReads.isEmpty }
}

/// One row of a flow's data-key table: a key, who sets it, who reads it, and its types.
public struct DataKeySummary: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The initial data and the steps that set it, in order (not the steps that only may set it because
    /// their code was not read: see `DataProvenance.Access.isPossible`).
    public var writers: [DataProvenance.Access]
    /// The steps that read or test it, in order.
    public var readers: [DataProvenance.Access]
    /// The distinct type spellings written or read, in order of first appearance.
    public var types: [String]
    /// True when some required read can happen before the key is set (`missing-data-key`).
    public var isMissingSomewhere: Bool
    /// The first read that can happen before the key is set, and the path to it (`DataProvenance.missing`).
    public var missing: DataProvenance.Missing?

    /// One row per key the flow mentions, in order of first mention (initial data, conditions, then the
    /// steps in order). `paths` are shared by every key (pass those you already computed).
    public static func table(for analysis: FlowAnalysis, paths: FlowPaths? = nil) -> [DataKeySummary] {
        let paths = paths ?? FlowPaths(flow: analysis.flow, graph: analysis.graphIndex, limit: 0)
        return analysis.keys.map { key in
            let provenance = DataProvenance(key: key, analysis: analysis, paths: paths)
            var types: [String] = []
            for access in provenance.accesses {
                if let spelling = access.type?.spelling, !types.contains(spelling) { types.append(spelling) }
            }
            return DataKeySummary(key: key, writers: provenance.accesses.filter { !$0.kind.isRead && !$0.isPossible },
                                  readers: provenance.accesses.filter(\.kind.isRead), types: types,
                                  isMissingSomewhere: !provenance.isAlwaysSetBeforeRead, missing: provenance.missing)
        }
    }
}
