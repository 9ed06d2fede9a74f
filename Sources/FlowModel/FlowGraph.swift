/// Where a flow definition came from, and how its readers name and picture it. FlowModel knows only
/// FlowLens's own kinds (`declarative`, `reflected`); each flow library's dialect declares its kind
/// (in `FlowLoaders/<Library>/`), with the noun every output calls its flows by and whether they are
/// state machines. Rules and renderers treat every kind alike and read only these traits.
public struct FlowKind: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stable id written in reports (`"kind"` in JSON) and compared by `==`.
    public let rawValue: String
    /// What a person calls a flow of this kind, in diagram titles and pages ("FlowLens flow").
    public let noun: String
    /// For a kind whose steps are the states of a state machine, what the diagram is to the code;
    /// nil for flows of operations.
    public let machine: MachineSemantics?

    /// A kind. `noun` defaults to "<rawValue> flow" (a kind read back from a report, which has only the id).
    public init(rawValue: String, noun: String? = nil, machine: MachineSemantics? = nil) {
        self.rawValue = rawValue
        self.noun = noun ?? "\(rawValue) flow"
        self.machine = machine
    }

    /// True when the flow's steps are states of a state machine: diagrams use the state-machine
    /// style and findings speak of states.
    public var isStateMachine: Bool { machine != nil }

    /// FlowLens's own `*.flow.yaml` / `*.flow.json` format.
    public static let declarative = FlowKind(rawValue: "declarative", noun: "FlowLens flow")
    /// A flow reflected from live objects that describe themselves (`FlowLensDescribing`).
    public static let reflected = FlowKind(rawValue: "reflected", noun: "reflected flow")

    public static func == (a: FlowKind, b: FlowKind) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { rawValue }
}

/// What a state-machine diagram is to the code that runs it; the generic state-machine checks
/// (`dead-end`, `unreachable-step`) read a machine by it.
public enum MachineSemantics: String, Hashable, Sendable, Codable {
    /// Code is generated from the diagram: every state is a handler the code must implement, an edge
    /// may not cross a composite state's boundary, and a state no transition leaves is a dead end.
    case generated
    /// The diagram describes a machine that code elsewhere runs (firmware, a backend): an edge may
    /// cross a composite's boundary, an event on a composite's edge leaves it from any inner state,
    /// and a machine with no final state runs without end on purpose (only its traps are dead ends).
    case described
}

/// What a step is. The analysis treats `end` and `fail` as ways out of a flow; everything else must lead on.
public enum StepKind: String, Sendable, CaseIterable, Codable {
    /// An explicit start node (a state diagram's initial pseudo-state, a declared `kind: start`).
    case start
    /// A successful way out of the flow.
    case end
    /// An error exit (a thrown error, a `Fail` state): a way out that is not a success.
    case fail
    /// A unit of work: an operation, a step object, a background block.
    case operation
    /// A step whose outgoing transitions are chosen by a condition (a case split's root).
    case branch
    /// Where branches meet again.
    case join
    /// One operation run for each element of an array key.
    case group
    /// Another flow run in place of this step (a composite state, a composed flow, a named sub-flow).
    case subflow
    /// A state of a state machine (a diagram's state, a case of a state enum).
    case state
    /// A parallel set of steps.
    case parallel
    /// A lifecycle callback run by the library (on start, on finish).
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
    /// For a read: a missing key is tolerated (a read declared optional, a `T?` annotation).
    public var optional: Bool
    /// Where the access is written.
    public var location: SourceLocation?
    /// For a written array whose elements are known one by one (`["a", "b", 1]`): their types, in order.
    public var elementTypes: [TypeName?]?
    /// The literal written, for diagrams and reports (initial data); nil when not a literal.
    public var value: String?
    /// The string written, when it is a plain string literal: what a case condition compares with.
    public var stringValue: String?
    /// For a write that happens only on some successful runs of its step (a write inside
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
/// Each element operation sees only
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
    /// The only key each element's operation can read.
    public var elementKey: String
    /// The key each element's operation writes its output to.
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
    /// The names the receiver is made of, as its loader splits it (`self.navigationController` →
    /// `self`, `navigationController`; an argument list or index dropped): rules read this, never the text.
    public var receiverPath: [String] = []
    /// The method (or initializer's type) called.
    public var name: String
    /// Where the call is.
    public var location: SourceLocation?

    /// Creates a call site.
    public init(receiver: String?, receiverPath: [String] = [], name: String, location: SourceLocation?) {
        self.receiver = receiver
        self.receiverPath = receiverPath
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
    /// A state that ends the flow although its kind is not `end` (a case whose `result` is non-nil).
    public var terminal: Bool
    /// The input the step is given: a step's content type, a state's context type.
    public var contentType: TypeName?
    /// What the step produces: a step's result type.
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
    /// Extra facts shown on the diagram, one a line (associated values, options).
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
    /// Taken when the key's value equals `value` (a case split on a key's value).
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
    /// The source runs again at once, with nothing changed (a branch path that leaves the state as
    /// it was and returns `nil`): taken, it spins forever. `condition` says when it is taken.
    case retry
}

/// An edge from one step to another.
public struct Transition: Hashable, Sendable, Codable {
    /// The source step id.
    public var from: String
    /// The target step id; may name no step (the `unknown-step` rule reports it).
    public var to: String
    /// Display text (an event, a diagram's edge label); when nil, the condition's text is shown.
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
    /// For an edge whose target belongs to another machine (a diagram's edge crossing a composite
    /// state's boundary): that machine's flow id. a generated machine cannot have such an edge;
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
/// progression driven by flags): said, never guessed.
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
    /// Keys the flow starts with (a data bucket set before the start, a declared `data:`), in source order.
    public var initialData: [DataAccess]
    /// Keys read by the flow's caller when it ends (finish blocks, declared `outputs:`).
    public var outputs: [DataAccess]
    /// The flow's input and output types, when it has them (a machine's Begin/End, a progression's `Result`).
    public var inputType: TypeName?
    /// See `inputType`.
    public var outputType: TypeName?
    /// The id of the flow this one is nested in (a composite state's machine), if any.
    public var parent: String?
    /// Free text from the definition.
    public var summary: String?
    /// What the loader could not read statically (reported as notes by `unanalyzable-flow`).
    public var limitations: [Limitation] = []
    /// For a state machine (`kind.isStateMachine`): the type name its code generator gives it
    /// (`Login Flow` → `LoginFlow`), before any `@file` a run appends to keep flow ids unique; types
    /// implementing the machine are linked to it by this name.
    public var typeName: String?
    /// The code types that implement the machine (one handler per state), when their sources were
    /// loaded in the same run. Empty when none were.
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
    /// Code types implementing state machines, found in the sources read (linked into the machines'
    /// `implementations` once every file is loaded).
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
