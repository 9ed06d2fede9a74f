/// Where a flow definition came from. Each loader produces flows of its own kind; rules and renderers
/// treat every kind alike and use the kind only for wording and diagram style.
public enum FlowKind: String, Sendable, CaseIterable, Codable {
    /// FlowLens's own `*.flow.yaml` / `*.flow.json` format.
    case declarative
    /// A Flow-iOS `Flow()` chain in Swift source.
    case flowIOS = "flow-ios"
    /// FlowState `FlowStep`s linked by `nextStep`.
    case flowState = "flowstate"
    /// A Syrup `Progression`.
    case syrup
    /// An Elevate (Ruby) task.
    case elevate
    /// A PlantUML state machine: one written for FlowKit's generator, or any other PlantUML state
    /// diagram (`Flow.stateMachine` says which).
    case flowKit = "flowkit"
    /// A flow reflected from live objects.
    case reflected
}

/// What a step is. The analysis treats `end` and `fail` as ways out of a flow; everything else must lead on.
public enum StepKind: String, Sendable, CaseIterable, Codable {
    /// An explicit start node (FlowKit's `[*]` as a source, a declared `kind: start`).
    case start
    /// A successful way out of the flow.
    case end
    /// An error exit (Syrup `throw`, FlowKit `Fail`): a way out that is not a success.
    case fail
    /// A unit of work: a Flow-iOS operation, a FlowState step, an Elevate background block.
    case operation
    /// A step whose outgoing transitions are chosen by a condition (Flow-iOS case root).
    case branch
    /// Where branches meet again (Flow-iOS `combine()`).
    case join
    /// One operation run for each element of an array key (Flow-iOS `addGrouped`).
    case group
    /// Another flow run in place of this step (FlowKit composite, Syrup `compose`, a named sub-flow).
    case subflow
    /// A state of a state machine (FlowKit state, Syrup case).
    case state
    /// A parallel set of steps (FlowState `ConcurentFlowStep`).
    case parallel
    /// A lifecycle callback run by the library (Elevate `on_started`, `on_finish`).
    case callback

    /// True for the kinds that leave the flow.
    public var isExit: Bool { self == .end || self == .fail }
}

/// One read or write of a key in the flow's shared data.
public struct DataAccess: Hashable, Sendable, Codable {
    /// The key, with string constants already resolved to their literal.
    public var key: String
    /// The type read or written; nil when it cannot be known (never a finding).
    public var type: TypeName?
    /// For a read: a missing key is tolerated (Flow-iOS `isOptional: true`, a `T?` annotation).
    public var optional: Bool
    /// Where the access is written.
    public var location: SourceLocation?
    /// For a written array whose elements are known one by one (`["a", "b", 1]`): their types, in order.
    public var elementTypes: [TypeName?]?
    /// The literal written, for diagrams and reports (initial data); nil when not a literal.
    public var value: String?
    /// The string written, when it is a plain string literal: what a case condition compares with.
    public var stringValue: String?
    /// For a write that happens only on some successful runs of its step (a Flow-iOS `setData` inside
    /// an `if`, a `catch`, a closure that may not run): when it happens, as a person reads it. Such a
    /// write never makes a key certain to be set. Nil for a write on every run.
    public var condition: String?
    /// For a write of one of a few known strings (`c ? "a" : "b"`, a String enum's `rawValue`): all of
    /// them, in order. Nil when the value is one known string (`stringValue`) or not known.
    public var possibleValues: [String]?

    /// Creates an access.
    public init(key: String, type: TypeName? = nil, optional: Bool = false, location: SourceLocation? = nil,
                elementTypes: [TypeName?]? = nil, value: String? = nil, stringValue: String? = nil, condition: String? = nil) {
        self.key = key
        self.condition = condition
        self.type = type
        self.optional = optional
        self.location = location
        self.elementTypes = elementTypes
        self.value = value
        self.stringValue = stringValue
    }
}

/// A step that runs one operation per element of an array key, each with a private data bucket.
///
/// Mirrors Flow-iOS `addGrouped(operationCreator:dispatcher:)`: the element operation sees only
/// `{elementKey: element}`; its output at `elementOutputKey` is collected, in order, into `outputKey`.
public struct GroupSpec: Hashable, Sendable, Codable {
    /// The flow key holding the array.
    public var inputKey: String
    /// Where `inputKey` is named.
    public var inputLocation: SourceLocation?
    /// The flow key the collected outputs are written to, if any.
    public var outputKey: String?
    /// Where `outputKey` is named.
    public var outputLocation: SourceLocation?
    /// The only key each element's operation can read (Flow-iOS `primaryInputParamKey`).
    public var elementKey: String
    /// The key each element's operation writes its output to (Flow-iOS `primaryOutputParamKey`).
    public var elementOutputKey: String?
    /// Reads of the per-element operation, checked against its private bucket.
    public var elementReads: [DataAccess]
    /// Writes of the per-element operation; only `elementOutputKey` leaves the element.
    public var elementWrites: [DataAccess]
    /// How many elements run at once, when declared.
    public var maxConcurrent: Int?
    /// Whether a failed element is left out (true) or fails the whole group (false).
    public var allowFailure: Bool

    /// Creates a group.
    public init(inputKey: String, inputLocation: SourceLocation? = nil, outputKey: String? = nil,
                outputLocation: SourceLocation? = nil, elementKey: String, elementOutputKey: String? = nil,
                elementReads: [DataAccess] = [], elementWrites: [DataAccess] = [], maxConcurrent: Int? = nil,
                allowFailure: Bool = false) {
        self.inputKey = inputKey
        self.inputLocation = inputLocation
        self.outputKey = outputKey
        self.outputLocation = outputLocation
        self.elementKey = elementKey
        self.elementOutputKey = elementOutputKey
        self.elementReads = elementReads
        self.elementWrites = elementWrites
        self.maxConcurrent = maxConcurrent
        self.allowFailure = allowFailure
    }

    /// The type of one collected output: the type the element operation writes at `elementOutputKey`.
    public var elementOutputType: TypeName? {
        guard let k = elementOutputKey else { return nil }
        return elementWrites.last(where: { $0.key == k })?.type
    }
}

/// Something a loader could not know about a step. Unknown never produces a finding: a step that may
/// write keys nobody can name is treated as possibly writing every key.
public enum Unresolved: Hashable, Sendable, Codable {
    /// The code implementing the step (an operation class) is not among the sources read.
    case implementationNotFound(String)
    /// A write whose key is not a constant: the step may write any key.
    case dynamicWriteKey(SourceLocation?)
    /// A read whose key is not a constant: it is not checked.
    case dynamicReadKey(SourceLocation?)

    /// True when the step may write keys that are not in its `writes`.
    public var mayWriteAnything: Bool {
        switch self {
        case .implementationNotFound, .dynamicWriteKey: return true
        case .dynamicReadKey: return false
        }
    }

    /// True when the step may read keys that are not in its `reads`.
    public var mayReadAnything: Bool {
        switch self {
        case .implementationNotFound, .dynamicReadKey: return true
        case .dynamicWriteKey: return false
        }
    }
}

/// A call a step's code makes, recorded by loaders for rules about what a step touches (a background
/// task that updates the UI). Rules never parse: this is the fact they read.
public struct CallSite: Hashable, Sendable, Codable {
    /// What the method is called on, as written (`view`, `self.navigationController`, `UIAlertView`);
    /// nil for a call without a receiver.
    public var receiver: String?
    /// The method (or initializer's type) called.
    public var name: String
    /// Where the call is.
    public var location: SourceLocation?

    /// Creates a call site.
    public init(receiver: String?, name: String, location: SourceLocation?) {
        self.receiver = receiver
        self.name = name
        self.location = location
    }
}

/// A node of a flow.
public struct Step: Hashable, Sendable, Codable {
    /// Stable within its flow: a declared id, a variable name, a state name. Baselines key on it.
    public var id: String
    /// What a person reads on the diagram.
    public var name: String
    /// What the step is.
    public var kind: StepKind
    /// Where the step is defined.
    public var location: SourceLocation?
    /// Keys read from the flow's data, in source order. Reads happen before the step's writes.
    public var reads: [DataAccess]
    /// Keys written to the flow's data, in source order.
    public var writes: [DataAccess]
    /// A state that ends the flow although its kind is not `end` (a Syrup case whose `result` is non-nil).
    public var terminal: Bool
    /// The input the step is given: a FlowState `Content`, a FlowKit state's context type.
    public var contentType: TypeName?
    /// What the step produces: a FlowState `Result`.
    public var resultType: TypeName?
    /// For `group` steps: the per-element operation.
    public var group: GroupSpec?
    /// For `subflow` steps: the id or name of the flow run in its place.
    public var subflow: String?
    /// Where `subflow` is written (the name itself), when the loader knows: where a fix renames it.
    public var subflowLocation: SourceLocation?
    /// The id of the step this one is nested in (a composite state drawn as a cluster), if any.
    public var parent: String?
    /// The code that implements the step (an operation class, a handler), shown small on diagrams.
    public var implementation: String?
    /// Free text from the definition (a declared description, a doc comment).
    public var summary: String?
    /// Extra facts shown on the diagram, one a line (Syrup associated values, Elevate options).
    public var details: [String]
    /// What the loader could not know about the step's data accesses.
    public var unresolved: [Unresolved] = []
    /// Calls the step's code makes, where a loader records them.
    public var calls: [CallSite] = []

    /// Creates a step; `name` defaults to the id.
    public init(id: String, name: String? = nil, kind: StepKind = .operation, location: SourceLocation? = nil,
                reads: [DataAccess] = [], writes: [DataAccess] = [], terminal: Bool = false,
                contentType: TypeName? = nil, resultType: TypeName? = nil, group: GroupSpec? = nil,
                subflow: String? = nil, parent: String? = nil, implementation: String? = nil,
                summary: String? = nil, details: [String] = []) {
        self.id = id
        self.name = name ?? id
        self.kind = kind
        self.location = location
        self.reads = reads
        self.writes = writes
        self.terminal = terminal
        self.contentType = contentType
        self.resultType = resultType
        self.group = group
        self.subflow = subflow
        self.parent = parent
        self.implementation = implementation
        self.summary = summary
        self.details = details
    }

    /// True when reaching this step leaves the flow.
    public var isExit: Bool { kind.isExit || terminal }

    /// True when the step may write keys that are not listed in `writes`.
    public var mayWriteAnything: Bool { unresolved.contains { $0.mayWriteAnything } }

    /// True when the step may read keys that are not listed in `reads`.
    public var mayReadAnything: Bool { unresolved.contains { $0.mayReadAnything } }
}

/// How a transition is chosen.
public enum Condition: Hashable, Sendable, Codable {
    /// Taken when the key's value equals `value` (Flow-iOS `FlowCase(key:value:)`).
    case equals(key: String, value: String)
    /// Taken when no sibling condition holds.
    case otherwise
    /// Any other condition, as written (`if` text, a `switch` case, a declared `when:`).
    case expression(String)

    /// The condition as a person reads it.
    public var text: String {
        switch self {
        case let .equals(key, value): return "\(key) = \(value)"
        case .otherwise: return "otherwise"
        case let .expression(text): return text
        }
    }
}

/// What a transition means at run time.
public enum TransitionKind: String, Sendable, Codable {
    /// The usual way on.
    case normal
    /// Taken when the source fails (a `throw`, a rejected promise).
    case error
    /// One of several branches run at the same time.
    case parallel
    /// The source runs again at once, with nothing changed (a Syrup branch path that leaves `self` as
    /// it was and returns `nil`): taken, it spins forever. `condition` says when it is taken.
    case retry
}

/// An edge from one step to another.
public struct Transition: Hashable, Sendable, Codable {
    /// The source step id.
    public var from: String
    /// The target step id; may name no step (the `unknown-step` rule reports it).
    public var to: String
    /// Display text (an event, a FlowKit label); when nil, the condition's text is shown.
    public var label: String?
    /// When the transition is taken; nil for an unconditional one.
    public var condition: Condition?
    /// The type of the value handed to the target, when the definition says (a declared `type:`; never a
    /// PlantUML label, which is an event).
    public var carriedType: TypeName?
    /// What the transition means.
    public var kind: TransitionKind
    /// Where the transition is written.
    public var location: SourceLocation?
    /// For an edge whose target belongs to another machine (a FlowKit edge crossing a composite
    /// state's boundary): that machine's flow id. FlowKit cannot generate such an edge;
    /// `crossing-transition` reports it, and `to` names a step of that flow, not of this one.
    public var crossesInto: String?

    /// Creates a transition.
    public init(from: String, to: String, label: String? = nil, condition: Condition? = nil,
                carriedType: TypeName? = nil, kind: TransitionKind = .normal, location: SourceLocation? = nil) {
        self.from = from
        self.to = to
        self.label = label
        self.condition = condition
        self.carriedType = carriedType
        self.kind = kind
        self.location = location
    }

    /// What a diagram and a report show on the edge.
    public var displayLabel: String? { label ?? condition?.text }
}

/// Something about a flow that its loader recognised but could not read from the source alone (a
/// Syrup progression driven by flags): said, never guessed.
public struct Limitation: Hashable, Sendable, Codable {
    /// What could not be read, and why, in a sentence.
    public var message: String
    /// Where.
    public var location: SourceLocation?

    /// Creates a limitation.
    public init(message: String, location: SourceLocation?) {
        self.message = message
        self.location = location
    }
}

/// One flow: steps, transitions, and the data it starts with.
public struct Flow: Hashable, Sendable, Codable {
    /// Unique within a graph; stable across runs (baselines and file names derive from it).
    public var id: String
    /// What a person reads.
    public var name: String
    /// The source kind.
    public var kind: FlowKind
    /// Where the flow is defined.
    public var location: SourceLocation?
    /// The steps in definition order. Ids should be unique; the `duplicate-step` rule reports those
    /// that are not, and the other rules consider only the first step with an id.
    public var steps: [Step]
    /// The edges, in definition order.
    public var transitions: [Transition]
    /// The step ids the flow starts at. Empty means the first step.
    public var entries: [String]
    /// Where the entries are named (a declared `start:`), for `unknown-step`.
    public var entryLocation: SourceLocation?
    /// Keys the flow starts with (Flow-iOS `setDataBucket`, a declared `data:`), in source order.
    public var initialData: [DataAccess]
    /// Keys read by the flow's caller when it ends (Flow-iOS finish blocks, declared `outputs:`).
    public var outputs: [DataAccess]
    /// The flow's input and output types, when it has them (FlowKit Begin/End, Syrup `Result`).
    public var inputType: TypeName?
    /// See `inputType`.
    public var outputType: TypeName?
    /// The id of the flow this one is nested in (a FlowKit composite's machine), if any.
    public var parent: String?
    /// Free text from the definition.
    public var summary: String?
    /// What the loader could not read statically (reported as notes by `unanalyzable-flow`).
    public var limitations: [Limitation] = []
    /// For a PlantUML state machine (`kind == .flowKit`): its FlowKit type name and whether FlowKit
    /// generates code from it. Nil for every other kind.
    public var stateMachine: PlantUMLMachine?
    /// For a FlowKit machine: the Swift types that implement it (adopt `<Name>StateMachine`), when
    /// their sources were loaded in the same run. Empty when none were.
    public var implementations: [MachineImplementation] = []

    /// Creates a flow.
    public init(id: String, name: String? = nil, kind: FlowKind, location: SourceLocation? = nil,
                steps: [Step] = [], transitions: [Transition] = [], entries: [String] = [],
                entryLocation: SourceLocation? = nil, initialData: [DataAccess] = [], outputs: [DataAccess] = [],
                inputType: TypeName? = nil, outputType: TypeName? = nil, parent: String? = nil, summary: String? = nil) {
        self.id = id
        self.name = name ?? id
        self.kind = kind
        self.location = location
        self.steps = steps
        self.transitions = transitions
        self.entries = entries
        self.entryLocation = entryLocation
        self.initialData = initialData
        self.outputs = outputs
        self.inputType = inputType
        self.outputType = outputType
        self.parent = parent
        self.summary = summary
    }

    /// The entry step ids in effect: the declared ones, else the steps of kind `start`, else the first step.
    public var effectiveEntries: [String] {
        if !entries.isEmpty { return entries }
        let starts = steps.filter { $0.kind == .start }.map(\.id)
        if !starts.isEmpty { return starts }
        return steps.first.map { [$0.id] } ?? []
    }

    /// The first step with `id`.
    public func step(_ id: String) -> Step? { steps.first { $0.id == id } }

    /// True for a PlantUML state machine that FlowKit generates code from (see `PlantUMLMachine`).
    public var isFlowKitMachine: Bool { stateMachine?.isFlowKit ?? false }
}

/// What FlowLens knows of a PlantUML state machine beyond its graph.
public struct PlantUMLMachine: Hashable, Sendable, Codable {
    /// The type name FlowKit's generator would give the machine (`Login Flow` → `LoginFlow`), before
    /// any `@file` a run appends to keep flow ids unique.
    public var typeName: String
    /// True when FlowKit generates code from the machine, so that its typing, naming and handler rules
    /// apply; false for any other state diagram (firmware, backends), whose body lines are descriptions.
    /// Decided by `FlowKitDialect` in FlowLoaders, in one place.
    public var isFlowKit: Bool

    /// Creates the description of a machine.
    public init(typeName: String, isFlowKit: Bool) {
        self.typeName = typeName
        self.isFlowKit = isFlowKit
    }
}

/// Everything loaded in one run: the flows, the files read, and what the loaders could not read.
public struct FlowGraph: Sendable, Codable {
    /// All flows, in a deterministic order (files sorted, flows in file order).
    public var flows: [Flow]
    /// The files read, as reported (relative paths where possible), sorted.
    public var files: [String]
    /// Findings raised while loading (`invalid-input`): files or parts of files that could not be read.
    public var loadFindings: [Finding]
    /// The inline suppression comments in the files read, in file order.
    public var suppressions: [Suppression] = []
    /// Swift types implementing FlowKit machines, found in the Swift sources read (linked into the
    /// machines' `implementations` once every file is loaded).
    public var machineImplementations: [MachineImplementation] = []
    /// Model types declared in PlantUML class diagrams, in file order.
    public var models: [ModelType] = []

    /// Creates a graph.
    public init(flows: [Flow] = [], files: [String] = [], loadFindings: [Finding] = []) {
        self.flows = flows
        self.files = files
        self.loadFindings = loadFindings
    }

    /// Adds another graph's flows, files and findings after these.
    public mutating func merge(_ other: FlowGraph) {
        flows += other.flows
        files += other.files
        loadFindings += other.loadFindings
        suppressions += other.suppressions
        machineImplementations += other.machineImplementations
        models += other.models
    }

    /// The flow with this id, else the first with this name.
    public func flow(named reference: String) -> Flow? {
        flows.first { $0.id == reference } ?? flows.first { $0.name == reference }
    }
}

extension GroupSpec {
    /// The group's read of its input array in the flow's data (`bucket[inputKey] as? [Any]`).
    public var flowRead: DataAccess {
        let elementType = elementReads.first(where: { $0.key == elementKey })?.type
        return DataAccess(key: inputKey, type: TypeName.array(of: elementType?.unwrapped ?? .any), location: inputLocation)
    }

    /// The group's write of the collected outputs, an array of the element output type.
    public var flowWrite: DataAccess? {
        guard let outputKey else { return nil }
        return DataAccess(key: outputKey, type: TypeName.array(of: elementOutputType?.unwrapped ?? .any), location: outputLocation)
    }
}
