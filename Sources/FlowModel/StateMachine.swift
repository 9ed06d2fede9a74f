/// A code type that implements a state machine generated from a diagram: it adopts the protocol the
/// generator makes and writes one handler per state (the dialect says how handlers are named). Read
/// from the sources; linked to the machine of the same `typeName` when both are loaded in one run,
/// so rules can compare the implementation with the diagram.
public struct MachineImplementation: Hashable, Sendable, Codable {
    /// The machine's name: the protocol's name without `StateMachine` (`LoginFlow`).
    public var machine: String
    /// The type that adopts the protocol (`LoginFlowController`).
    public var typeName: String
    /// Where the protocol is named in the type's inheritance clause.
    public var location: SourceLocation?
    /// The handlers found in the type and its extensions, in source order.
    public var handlers: [StateHandler]

    /// Creates an implementation.
    public init(machine: String, typeName: String, location: SourceLocation?, handlers: [StateHandler] = []) {
        self.machine = machine
        self.typeName = typeName
        self.location = location
        self.handlers = handlers
    }

    /// The first handler for `state` (a state's name as the generator spells it: `Prompt`, `Begin`).
    public func handler(for state: String) -> StateHandler? { handlers.first { $0.state == state } }
}

/// One state's handler in a machine's implementation.
public struct StateHandler: Hashable, Sendable, Codable {
    /// The state it handles: the function name without `on` (`Prompt` for `onPrompt`).
    public var state: String
    /// The declared type of its `context` parameter (`()` is spelled `Void`).
    public var contextType: TypeName?
    /// Where the function's name is written.
    public var location: SourceLocation?
    /// Where the context parameter's type is written.
    public var contextLocation: SourceLocation?
    /// The states the handler moves to, in source order: each `.prompt(...)` it returns or resolves
    /// its promise with. Case names are as written (`prompt`, `end`).
    public var returns: [ReturnedState]
    /// True when some value the handler returns could not be read as a state (`return helper()`):
    /// then a declared transition missing from `returns` may still be taken, and is not reported.
    public var opaque: Bool

    /// Creates a handler.
    public init(state: String, contextType: TypeName?, location: SourceLocation?, contextLocation: SourceLocation? = nil,
                returns: [ReturnedState] = [], opaque: Bool = false) {
        self.state = state
        self.contextType = contextType
        self.location = location
        self.contextLocation = contextLocation
        self.returns = returns
        self.opaque = opaque
    }
}

/// A state a handler moves to: `.authenticate(creds)` in `return .authenticate(creds)`.
public struct ReturnedState: Hashable, Sendable, Codable {
    /// The case name as written (`authenticate`, `end`).
    public var caseName: String
    /// Where it is written.
    public var location: SourceLocation?

    /// Creates a returned state.
    public init(caseName: String, location: SourceLocation?) {
        self.caseName = caseName
        self.location = location
    }
}

/// A model type declared in a PlantUML class diagram next to the machines (`class User { +name: String }`,
/// `enum R { login: Credentials }`): what a state's context type is made of. The machine's code
/// generator makes a struct or enum of it.
public struct ModelType: Hashable, Sendable, Codable {
    /// `class` or `enum`.
    public enum Kind: String, Hashable, Sendable, Codable { case `class`, `enum` }
    /// The type's name.
    public var name: String
    /// What it is.
    public var kind: Kind
    /// Its fields (`name: String`) or cases (`login(Credentials)`, `register`), as a person reads them.
    public var members: [String]
    /// Where it is declared.
    public var location: SourceLocation?

    /// Creates a model.
    public init(name: String, kind: Kind, members: [String], location: SourceLocation?) {
        self.name = name
        self.kind = kind
        self.members = members
        self.location = location
    }
}

extension String {
    /// A generated type's name for a title, file or state name: `-`, `_` and spaces removed, the
    /// first letter raised (`Login Flow` → `LoginFlow`, `app` → `App`).
    public var generatedTypeName: String {
        let kept = filter { $0 != "-" && $0 != "_" && $0 != " " }
        return kept.prefix(1).uppercased() + kept.dropFirst()
    }

    /// A generated case name for a state: the first letter lowered (`ForgotPass` → `forgotPass`).
    public var generatedCaseName: String { prefix(1).lowercased() + dropFirst() }
}
