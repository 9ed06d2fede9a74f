import FlowModel
import FlowRules

// The Syrup dialect: SyrupReader reads a `Progression` enum and its cases from Swift source.
extension FlowKind {
    /// A Syrup `Progression`: its cases are the steps, `next` the transitions.
    public static let syrup = FlowKind(rawValue: "syrup", noun: "Syrup progression")
}

/// Syrup: a `Progression` enum whose cases are the steps.
public enum SyrupDialect: SwiftDialect {
    static func read(_ files: [ParsedSwiftFile]) -> FlowGraph { FlowGraph(flows: SyrupReader().flows(in: files)) }

    static let relevantWords = [
        "Progression", "StageProtocol", "Deferred", "updateOrDeferNext",
    ]
    public static let kinds: [FlowKind] = [.syrup]
    public static let rules: [any Rule.Type] = [BusyRetryRule.self]
}
