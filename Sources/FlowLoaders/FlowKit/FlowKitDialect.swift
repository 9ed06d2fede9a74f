import FlowModel
import FlowRules

// The FlowKit dialect, built on the plain PlantUML one (`../PlantUML/`): PlantUMLLoader (with its
// preprocessor) reads every PlantUML state diagram; `FlowKitDialect` decides which of them FlowKit
// generates code from, and FlowKitControllerReader reads the Swift types that implement them.

extension FlowKind {
    /// A PlantUML state diagram written for FlowKit's generator, or implemented by a Swift type that
    /// adopts its generated `<Machine>StateMachine` protocol.
    public static let flowKit = FlowKind(rawValue: "flowkit", noun: "FlowKit state machine", machine: .generated)
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
public enum FlowKitDialect: SwiftDialect {
    static let relevantWords = ["StateMachine"]
    public static let kinds: [FlowKind] = [.flowKit]
    public static let rules: [any Rule.Type] = [
        ReservedNameRule.self, MachineNameRule.self, CrossingTransitionRule.self, MissingHandlerRule.self,
        UnimplementedTransitionRule.self,
    ]
    public static let ruleExtensions: [any RuleExtension.Type] = [FlowKitHandlerStates.self, FlowKitHandlerTypes.self]

    /// Gives each FlowKit machine the Swift types that implement it (adopt `<Name>StateMachine`), and
    /// each state whose context type is a model declared in a class diagram that model's members.
    public static func link(_ graph: inout FlowGraph) {
        let byMachine = Dictionary(grouping: graph.machineImplementations, by: \.machine)
        var models: [String: ModelType] = [:]
        for model in graph.models where models[model.name] == nil { models[model.name] = model }
        guard !byMachine.isEmpty || !models.isEmpty else { return }
        defer { markImplemented(&graph.flows) }
        for i in graph.flows.indices where graph.flows[i].kind.isStateMachine {
            graph.flows[i].implementations = graph.flows[i].typeName.flatMap { byMachine[$0] } ?? []
            for s in graph.flows[i].steps.indices {
                guard let type = graph.flows[i].steps[s].contentType,
                      let model = models[type.unwrapped.spelling] ?? type.unwrapped.arrayElement.flatMap({ models[$0.spelling] }),
                      !model.members.isEmpty else { continue }
                let shown = model.members.prefix(6) + (model.members.count > 6 ? ["… \(model.members.count - 6) more"] : [])
                graph.flows[i].steps[s].details = Array(shown)
            }
        }
    }

    /// The Swift types implementing FlowKit machines (read from every Swift file of the run).
    static func read(_ files: [ParsedSwiftFile]) -> FlowGraph {
        var graph = FlowGraph()
        graph.machineImplementations = FlowKitControllerReader().implementations(in: files)
        return graph
    }

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
