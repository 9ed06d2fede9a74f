/// What changed in one flow between two versions: steps matched by id, transitions by their ends,
/// label and kind, data accesses by key. Locations (line numbers) are never compared: moving a
/// definition is not a change.
///
/// `union` is the flow a diff diagram draws: the new flow's steps and transitions, then those only
/// the old one had, in the old order. `steps[i]` describes `union.steps[i]`, `edges[t]` describes
/// `union.transitions[t]`.
public struct FlowDiff: Sendable {
    /// Whether an item is new, gone, different, or the same.
    public enum Status: String, Sendable, Codable {
        case added, removed, changed, unchanged
    }

    /// One read or write (or initial key) that is new, gone, or read/written differently.
    public struct DataChange: Hashable, Sendable {
        /// Which list the access is in.
        public enum Access: String, Sendable, Codable {
            case read, write, initial
        }

        public var access: Access
        public var key: String
        /// nil: the access is new.
        public var old: DataAccess?
        /// nil: the access is gone.
        public var new: DataAccess?

        public var status: Status { old == nil ? .added : new == nil ? .removed : .changed }

        /// `+ needs token (String)`, `− gives total`, `needs mode: String → Int?`: what a diagram and a report show.
        public var text: String {
            let verb = access == .write ? DataVerb.gives.rawValue : access == .initial ? "starts with" : DataVerb.read(optional: (new ?? old)?.optional == true).rawValue
            switch status {
            case .added: return "+ \(verb) \(key)\(Self.typeText(new))"
            case .removed: return "− \(verb) \(key)\(Self.typeText(old))"
            default: return "\(verb) \(key): \(Self.spelling(old)) → \(Self.spelling(new))"
            }
        }

        static func typeText(_ access: DataAccess?) -> String {
            access?.type.map { " (\($0.spelling)\(access?.optional == true && !$0.spelling.hasSuffix("?") ? ", optional" : ""))" } ?? ""
        }

        static func spelling(_ access: DataAccess?) -> String {
            let type = access?.type?.spelling ?? "unknown type"
            return access?.optional == true && !type.hasSuffix("?") ? type + " (optional)" : type
        }
    }

    /// One step of the union.
    public struct StepDiff: Sendable {
        public var id: String
        public var name: String
        public var status: Status
        /// Reads and writes that changed, reads first, each in key order.
        public var data: [DataChange]
        /// Other differences, as `what: old → new` (name, kind, content and result types, group, sub-flow).
        public var other: [String]
        /// Where the step is now (the old location for a removed step).
        public var location: SourceLocation?

        /// Every change as a line of text: the other differences, then the data.
        public var changes: [String] { other + data.map(\.text) }
    }

    /// One transition of the union.
    public struct EdgeDiff: Sendable {
        public var transition: Transition
        public var status: Status
    }

    /// The flow's id.
    public let id: String
    public let old: Flow?
    public let new: Flow?
    /// Added (no old flow), removed (no new flow), changed or unchanged.
    public let status: Status
    /// The flow the diagram draws (see the type's description).
    public let union: Flow
    public let steps: [StepDiff]
    public let edges: [EdgeDiff]
    /// Changes to the data the flow starts with.
    public let initialData: [DataChange]
    /// Other differences of the flow itself (`name: A → B`, `kind: …`, `start: …`).
    public let other: [String]

    /// Compares two versions of a flow; at least one must be given.
    public init(old: Flow?, new: Flow?) {
        precondition(old != nil || new != nil, "a flow diff needs a flow")
        self.old = old
        self.new = new
        let base = (new ?? old)!
        id = base.id
        // Steps are matched by id, the first step of each id (a repeated id is `duplicate-step`'s).
        let oldIndex = old.map(FlowIndex.init), newIndex = new.map(FlowIndex.init)

        var union = base
        var steps: [StepDiff] = []
        for step in new?.steps ?? [] {
            if old == nil { steps.append(StepDiff(id: step.id, name: step.name, status: .added, data: [], other: [], location: step.location)); continue }
            guard let old, let before = oldIndex?.index[step.id].map({ old.steps[$0] }) else {
                steps.append(StepDiff(id: step.id, name: step.name, status: .added, data: [], other: [], location: step.location))
                continue
            }
            let (data, other) = Self.compare(before, step)
            steps.append(StepDiff(id: step.id, name: step.name, status: data.isEmpty && other.isEmpty ? .unchanged : .changed,
                                  data: data, other: other, location: step.location))
        }
        var removedSteps: [Step] = []
        for (i, step) in (old?.steps ?? []).enumerated() where newIndex?.index[step.id] == nil && oldIndex?.duplicates.contains(i) != true {
            removedSteps.append(step)
            steps.append(StepDiff(id: step.id, name: step.name, status: .removed, data: [], other: [], location: step.location))
        }

        // Transitions: the same ends, label and kind are the same transition; repeated ones are matched in order.
        var oldCount: [EdgeKey: Int] = [:]
        for transition in old?.transitions ?? [] { oldCount[EdgeKey(transition), default: 0] += 1 }
        var newCount: [EdgeKey: Int] = [:]
        var edges: [EdgeDiff] = []
        for transition in new?.transitions ?? [] {
            let key = EdgeKey(transition)
            newCount[key, default: 0] += 1
            edges.append(EdgeDiff(transition: transition, status: newCount[key]! <= oldCount[key, default: 0] ? .unchanged : .added))
        }
        var seen: [EdgeKey: Int] = [:]
        var removedEdges: [Transition] = []
        for transition in old?.transitions ?? [] {
            let key = EdgeKey(transition)
            seen[key, default: 0] += 1
            if seen[key]! > newCount[key, default: 0] {
                removedEdges.append(transition)
                edges.append(EdgeDiff(transition: transition, status: .removed))
            }
        }

        if let new {
            union.steps = new.steps + removedSteps
            union.transitions = new.transitions + removedEdges
        }
        self.union = union
        self.steps = steps
        self.edges = edges

        var other: [String] = []
        if let old, let new {
            initialData = Self.compare(old.initialData, new.initialData, as: .initial)
            if old.name != new.name { other.append("name: \(old.name) → \(new.name)") }
            if old.kind != new.kind { other.append("kind: \(old.kind.rawValue) → \(new.kind.rawValue)") }
            if old.effectiveEntries != new.effectiveEntries {
                other.append("start: \(old.effectiveEntries.joined(separator: ", ")) → \(new.effectiveEntries.joined(separator: ", "))")
            }
            if old.inputType != new.inputType { other.append("input: \(Self.text(old.inputType)) → \(Self.text(new.inputType))") }
            if old.outputType != new.outputType { other.append("output: \(Self.text(old.outputType)) → \(Self.text(new.outputType))") }
            let outputs = Self.compare(old.outputs, new.outputs, as: .read).map { change -> String in
                change.status == .added ? "+ output \(change.key)" : change.status == .removed ? "− output \(change.key)" : "output \(change.key): \(DataChange.spelling(change.old)) → \(DataChange.spelling(change.new))"
            }
            other += outputs
        } else {
            initialData = []
        }
        self.other = other
        let changed = !initialData.isEmpty || !other.isEmpty || steps.contains { $0.status != .unchanged } || edges.contains { $0.status != .unchanged }
        status = old == nil ? .added : new == nil ? .removed : changed ? .changed : .unchanged
    }

    /// `+1 step, −1 step, 1 step changed, +2 transitions, −1 transition`; empty when none changed.
    public var stepAndTransitionCounts: [String] {
        var parts: [String] = []
        let added = steps(.added).count, removed = steps(.removed).count, changed = steps(.changed).count
        if added > 0 { parts.append("+\(Plural.count(added, "step"))") }
        if removed > 0 { parts.append("−\(Plural.count(removed, "step"))") }
        if changed > 0 { parts.append("\(Plural.count(changed, "step")) changed") }
        let edgesAdded = edges(.added).count, edgesRemoved = edges(.removed).count
        if edgesAdded > 0 { parts.append("+\(Plural.count(edgesAdded, "transition"))") }
        if edgesRemoved > 0 { parts.append("−\(Plural.count(edgesRemoved, "transition"))") }
        return parts
    }

    /// Steps of one status.
    public func steps(_ status: Status) -> [StepDiff] { steps.filter { $0.status == status } }
    /// Transitions of one status.
    public func edges(_ status: Status) -> [EdgeDiff] { edges.filter { $0.status == status } }
    /// Every read or write that changed, step by step (steps that are only added or removed have none).
    public var dataChanges: [(step: StepDiff, change: DataChange)] { steps.flatMap { step in step.data.map { (step, $0) } } }

    // MARK: - Comparing

    struct EdgeKey: Hashable {
        var from: String, to: String, label: String?, kind: TransitionKind
        init(_ t: Transition) { (from, to, label, kind) = (t.from, t.to, t.displayLabel, t.kind) }
    }

    static func text(_ type: TypeName?) -> String { type?.spelling ?? "none" }

    /// What a step reads and writes, as its diagram shows it (a group's per-element accesses).
    static func accesses(_ step: Step) -> (reads: [DataAccess], writes: [DataAccess]) {
        (step.group?.elementReads ?? step.reads, step.group?.elementWrites ?? step.writes)
    }

    static func compare(_ old: Step, _ new: Step) -> (data: [DataChange], other: [String]) {
        var other: [String] = []
        if old.name != new.name { other.append("name: \(old.name) → \(new.name)") }
        if old.kind != new.kind { other.append("kind: \(old.kind.rawValue) → \(new.kind.rawValue)") }
        if old.terminal != new.terminal { other.append(new.terminal ? "now ends the flow" : "no longer ends the flow") }
        if old.contentType != new.contentType { other.append("type: \(text(old.contentType)) → \(text(new.contentType))") }
        if old.resultType != new.resultType { other.append("result: \(text(old.resultType)) → \(text(new.resultType))") }
        if old.subflow != new.subflow { other.append("runs: \(old.subflow ?? "none") → \(new.subflow ?? "none")") }
        if old.group?.inputKey != new.group?.inputKey { other.append("for each element of: \(old.group?.inputKey ?? "none") → \(new.group?.inputKey ?? "none")") }
        if old.group?.outputKey != new.group?.outputKey { other.append("collected into: \(old.group?.outputKey ?? "none") → \(new.group?.outputKey ?? "none")") }
        let (oldReads, oldWrites) = accesses(old), (newReads, newWrites) = accesses(new)
        return (compare(oldReads, newReads, as: .read) + compare(oldWrites, newWrites, as: .write), other)
    }

    /// Accesses compared by key (the first of each key; type and optionality compared), in key order.
    static func compare(_ old: [DataAccess], _ new: [DataAccess], as access: DataChange.Access) -> [DataChange] {
        func byKey(_ list: [DataAccess]) -> [String: DataAccess] {
            var map: [String: DataAccess] = [:]
            for item in list where map[item.key] == nil { map[item.key] = item }
            return map
        }
        let before = byKey(old), after = byKey(new)
        var changes: [DataChange] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            let a = before[key], b = after[key]
            if let a, let b, a.type == b.type, a.optional == b.optional { continue }
            changes.append(DataChange(access: access, key: key, old: a, new: b))
        }
        return changes
    }
}
