import FlowModel
import FlowRules

// The Flow-iOS dialect: its loader (FlowIOSReader, FlowBuilder, OperationIndex, MaybeWrites) reads
// `Flow()` chains and their operations from Swift source; FlowReflection reads live `Flow` objects.
extension FlowKind {
    /// A Flow-iOS `Flow()` chain of operations, read from Swift source or reflected from a live object.
    public static let flowIOS = FlowKind(rawValue: "flow-ios", noun: "Flow-iOS flow")
}

/// Flow-iOS: `Flow()` chains of `FlowOperation`s sharing a data bucket.
public enum FlowIOSDialect: SwiftDialect {
    static func read(_ files: [ParsedSwiftFile]) -> FlowGraph { FlowGraph(flows: FlowIOSReader().flows(in: files)) }

    static let relevantWords = [
        "Flow", "getData", "setData", "dataBucket", "addGrouped", "primaryInputParamKey", "primaryOutputParamKey",
        "mainLogic",
    ]
    public static let kinds: [FlowKind] = [.flowIOS]
    public static let rules: [any Rule.Type] = [NestedCaseRule.self]
}
