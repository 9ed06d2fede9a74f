import FlowModel
import FlowRules

// The FlowKit dialect and the plain PlantUML one it builds on. PlantUMLLoader (with its preprocessor)
// reads every PlantUML state diagram; `FlowKitDialect` decides which of them FlowKit generates code
// from, and FlowKitControllerReader reads the Swift types that implement them.

extension FlowKind {
    /// A PlantUML state diagram written for FlowKit's generator, or implemented by a Swift type that
    /// adopts its generated `<Machine>StateMachine` protocol.
    public static let flowKit = FlowKind(rawValue: "flowkit", noun: "FlowKit state machine", machine: .generated)
    /// Any other PlantUML state diagram (firmware, backends): generic state-machine checks only.
    public static let plantUML = FlowKind(rawValue: "plantuml", noun: "PlantUML state machine", machine: .described)
}

/// Plain PlantUML state diagrams: generic state-machine checks only (`MachineSemantics.described`).
public enum PlantUMLDialect: Dialect {
    public static let kinds: [FlowKind] = [.plantUML]
    public static let rules: [any Rule.Type] = []
}

/// What makes a PlantUML state machine a FlowKit machine, decided here and nowhere else:
///
/// - its diagram says so: at least one state has a body line (`State: Type`), and every body line
///   of every state in the block is a type name (`String?`, `[Item]`, `Credentials`) — a FlowKit
///   author types states, anyone else describes them (`Idle : waiting for a card`, `do: EVENT_2`);
/// - or a Swift type in the same run adopts its generated `<Machine>StateMachine` protocol (then
///   it and the composite machines inside it are FlowKit's, whatever the diagram says).
///
/// Only FlowKit machines get FlowKit's typing (context, input and output types), naming
/// (`machine-name`, `reserved-name`), handler and composite-boundary rules, and the
/// "not supported by FlowKit" reports for choice, fork, join, history and concurrent regions. Any
/// other state diagram is still checked for unreachable states, dead ends and trap states.
public enum FlowKitDialect: Dialect {
    public static let kinds: [FlowKind] = [.flowKit]
    public static let rules: [any Rule.Type] = [
        ReservedNameRule.self, MachineNameRule.self, CrossingTransitionRule.self, MissingHandlerRule.self,
        UnimplementedTransitionRule.self,
    ]
    public static let ruleExtensions: [any RuleExtension.Type] = [FlowKitHandlerStates.self, FlowKitHandlerTypes.self]

    /// Whether a diagram's state body lines (all of them, in every machine of the block) make it a
    /// FlowKit machine.
    static func writtenForFlowKit(bodyLines: [String]) -> Bool {
        !bodyLines.isEmpty && bodyLines.allSatisfy { PlantUMLTypes.type($0) != nil }
    }

    /// Marks the machines a Swift type implements (and the composites inside them) as FlowKit
    /// machines; called once every file of a run is loaded.
    static func markImplemented(_ flows: inout [Flow]) {
        var implemented = Set(flows.indices.filter { !flows[$0].implementations.isEmpty && flows[$0].kind.isStateMachine }.map { flows[$0].id })
        guard !implemented.isEmpty else { return }
        // Composites name their parent; parents come first in a file.
        for flow in flows where flow.parent.map(implemented.contains) == true { implemented.insert(flow.id) }
        for i in flows.indices where implemented.contains(flows[i].id) { flows[i].kind = .flowKit }
    }
}
