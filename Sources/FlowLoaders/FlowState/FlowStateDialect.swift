import FlowModel
import FlowRules

// The FlowState dialect: FlowStateReader reads `FlowStep`s linked by `nextStep` from Swift source;
// FlowReflection reads live steps.
extension FlowKind {
    /// FlowState `FlowStep`s linked by `nextStep`.
    public static let flowState = FlowKind(rawValue: "flowstate", noun: "FlowState flow")
}

/// FlowState: `FlowStep`s with a `Content` and a `Result`, linked by `nextStep`.
public enum FlowStateDialect: SwiftDialect {
    static func read(_ files: [ParsedSwiftFile]) -> FlowGraph { FlowGraph(flows: FlowStateReader().flows(in: files)) }

    // Every step is made or typed with a name holding `FlowStep` (`FlowStep`, `ConcurentFlowStep`,
    // `FlowStepHandler`), so the reader, which finds flows only there, need not run on files that
    // only say `Flow` (a Flow-iOS app).
    static let relevantWords = [
        "FlowStep", "Startable", "nextStep", "firstStep", "setCompletion",
    ]
    public static let kinds: [FlowKind] = [.flowState]
    public static let rules: [any Rule.Type] = [ContentNeverSetRule.self]

    /// The data key under which a step's content is kept in the flow graph: `t.content = v` writes
    /// it, and a step whose `Content` is not `Any` reads it when it starts.
    public static func contentKey(_ stepID: String) -> String { "\(stepID).content" }
}
