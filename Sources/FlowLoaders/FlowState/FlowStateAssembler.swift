import FlowModel

/// FlowState's steps, groups and `nextStep` links as FlowLens's steps and transitions, written once
/// for a flow read from source (`FlowStateBuilder`) and one reflected from live objects
/// (`FlowStateCollector` in FlowReflection): the same step kinds, content keys, join and end steps
/// and transitions, whichever way the steps were found.
///
/// At run time (flow-libraries.md §2) a `FlowStep` reads its `content` when it starts and, once it
/// completes, starts its `nextStep` (none: the flow ends); a `ConcurentFlowStep` starts all its steps,
/// overwriting their `nextStep` with its own completer, and starts its own `nextStep` once all are
/// done. So a group is a `parallel` step, a `join` step (`<group>.join`) its steps lead to, and its
/// own way on leaves from the join; a group's step never goes anywhere else.
///
/// The caller sets what only it can know: the flow's id, name and location before, its entries and
/// limitations after.
public enum FlowStateAssembler {
    /// One step as read: a `FlowStep`, a `ConcurentFlowStep`, or another `Startable`.
    public struct Part {
        /// What the step is at run time.
        public enum Kind: Sendable { case flowStep, group, startable }

        /// Its id, unique in the flow: the name it is bound to, else its identifier.
        public var id: String
        /// Its `identifier` (the id when there is none).
        public var name: String
        public var kind: Kind
        /// Where it is made.
        public var location: SourceLocation?
        /// A `FlowStep`'s `Content` and `Result` type arguments.
        public var contentType: TypeName?
        public var resultType: TypeName?
        /// Where its `Content` type is written.
        public var contentLocation: SourceLocation?
        /// What runs it (the view controller or handler its intent returns; a `Startable`'s type).
        public var implementation: String?
        /// Facts shown besides those its kind implies.
        public var details: [String]
        /// The content it sets on other steps (keys from `FlowStateDialect.contentKey`).
        public var writes: [DataAccess]
        /// True when its closures may set any step's content (what they do is not read).
        public var mayWriteAnyContent: Bool
        /// A group's steps, by id, in order, with where each is listed.
        public var members: [(id: String, location: SourceLocation?)]

        /// Creates a part.
        public init(id: String, name: String, kind: Kind, location: SourceLocation? = nil, contentType: TypeName? = nil,
                    resultType: TypeName? = nil, contentLocation: SourceLocation? = nil, implementation: String? = nil,
                    details: [String] = [], writes: [DataAccess] = [], mayWriteAnyContent: Bool = false,
                    members: [(id: String, location: SourceLocation?)] = []) {
            self.id = id
            self.name = name
            self.kind = kind
            self.location = location
            self.contentType = contentType
            self.resultType = resultType
            self.contentLocation = contentLocation
            self.implementation = implementation
            self.details = details
            self.writes = writes
            self.mayWriteAnyContent = mayWriteAnyContent
            self.members = members
        }
    }

    /// One way on from a step once it is done (from a group: once all its steps are done).
    public struct Way {
        /// The step started next, or the end of the flow (no `nextStep`).
        public enum Target: Sendable { case step(String), end }

        public var target: Target
        public var condition: Condition?
        public var label: String?
        /// Where the way is written (its `nextStep =`).
        public var location: SourceLocation?

        /// Creates a way.
        public init(to target: Target, condition: Condition? = nil, label: String? = nil, location: SourceLocation? = nil) {
            self.target = target
            self.condition = condition
            self.label = label
            self.location = location
        }
    }

    /// Fills `flow` with the parts' steps and transitions, the content set before the flow starts
    /// (`initialData`) and the flow's outputs. `ways(id)` gives the ways on from a part that is no
    /// group's step, asked once a part in order (a group's step only ever goes to the group's join);
    /// `endLocation` is where the flow's end is written, if anywhere.
    public static func assemble(_ flow: inout Flow, parts: [Part], initialData: [DataAccess],
                                endLocation: SourceLocation?, ways: (String) -> [Way]) {
        var ids = Set(parts.map(\.id))
        func unique(_ base: String) -> String {
            var candidate = base
            var n = 1
            while ids.contains(candidate) {
                n += 1
                candidate = "\(base)#\(n)"
            }
            ids.insert(candidate)
            return candidate
        }
        let endID = unique("end")
        var joinIDs: [String: String] = [:]
        for part in parts where part.kind == .group { joinIDs[part.id] = unique("\(part.id).join") }
        // A step listed by two groups is run by the first that starts it; the ids of parts only.
        let known = Set(parts.map(\.id))
        var groupOf: [String: String] = [:]
        for part in parts where part.kind == .group {
            for member in part.members where groupOf[member.id] == nil && known.contains(member.id) {
                groupOf[member.id] = part.id
            }
        }

        for part in parts {
            var step = Step(id: part.id, name: part.name, kind: part.kind == .group ? .parallel : .operation,
                            location: part.location, contentType: part.contentType, resultType: part.resultType,
                            implementation: part.implementation, details: kindDetails(part.kind) + part.details)
            if part.kind == .flowStep {
                // A step whose Content is `Any` takes anything: there is nothing to check (or show).
                if part.contentType?.isAny != true {
                    step.reads = [DataAccess(key: FlowStateDialect.contentKey(part.id), type: part.contentType, optional: true,
                                             location: part.contentLocation)]
                }
                step.writes = part.writes
                if part.mayWriteAnyContent { step.unresolved = [.dynamicWriteKey(nil)] }
            }
            flow.steps.append(step)
            if let join = joinIDs[part.id] {
                flow.steps.append(Step(id: join, name: "\(part.name) done", kind: .join, location: part.location))
            }
        }

        var usesEnd = false
        for part in parts {
            for member in part.kind == .group ? part.members : [] {
                flow.transitions.append(Transition(from: part.id, to: member.id, kind: .parallel, location: member.location))
            }
            if let group = groupOf[part.id], let join = joinIDs[group] {
                // The group sets this step's `nextStep` to its own completer: its other settings never run.
                flow.transitions.append(Transition(from: part.id, to: join, location: part.location))
                continue
            }
            let source = joinIDs[part.id] ?? part.id
            for way in ways(part.id) {
                var transition = Transition(from: source, to: endID, label: way.label, condition: way.condition, location: way.location)
                switch way.target {
                case let .step(id): transition.to = id
                case .end: usesEnd = true
                }
                flow.transitions.append(transition)
            }
        }
        if usesEnd { flow.steps.append(Step(id: endID, name: "end", kind: .end, location: endLocation)) }

        flow.initialData = initialData
        // A step's content is a live property that updates a step already shown: a write is never unused.
        var outputKeys = Set<String>()
        // The first flow step of each content key, found once (not a scan of the parts per write).
        var contentOwner: [String: Int] = [:]
        for (p, part) in parts.enumerated() where part.kind == .flowStep {
            let key = FlowStateDialect.contentKey(part.id)
            if contentOwner[key] == nil { contentOwner[key] = p }
        }
        for write in initialData + parts.flatMap(\.writes) where outputKeys.insert(write.key).inserted {
            let target = contentOwner[write.key].map { parts[$0] }
            flow.outputs.append(DataAccess(key: write.key, type: target?.contentType, optional: true, location: target?.contentLocation))
        }
    }

    /// What a step's kind says about it on a diagram.
    static func kindDetails(_ kind: Part.Kind) -> [String] {
        switch kind {
        case .flowStep: return []
        case .group: return ["runs its steps at the same time, then goes on when all are done"]
        case .startable: return ["a Startable that is not a FlowStep: what it runs is not read here"]
        }
    }
}
