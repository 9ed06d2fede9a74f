import FlowModel
import FlowRules

// The Elevate dialect: ElevateLoader reads Ruby tasks (`background`, `on_started`, `on_finish` blocks).
extension FlowKind {
    /// An Elevate (Ruby) task.
    public static let elevate = FlowKind(rawValue: "elevate", noun: "Elevate task")
}

/// Elevate: Ruby tasks whose `background` blocks run off the main thread.
public enum ElevateDialect: Dialect {
    public static let kinds: [FlowKind] = [.elevate]
    public static let rules: [any Rule.Type] = [UIAccessInTaskRule.self]
}
