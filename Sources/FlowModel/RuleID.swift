/// Rule ids that more than one module needs (a rule, and an output that words or draws its findings
/// differently). Every id is part of FlowLens's public API; a test checks each names a registered rule.
public enum RuleID {
    /// A file, or part of one, that cannot be read or parsed.
    public static let invalidInput = "invalid-input"
    /// A configuration file with an unknown key, rule id or value.
    public static let invalidConfiguration = "invalid-configuration"
    /// The `missing-data-key` rule (its `RuleDescription` says what it finds).
    public static let missingDataKey = "missing-data-key"
    /// The `type-mismatch` rule (its `RuleDescription` says what it finds).
    public static let typeMismatch = "type-mismatch"
    /// The `unused-data-key` rule (its `RuleDescription` says what it finds).
    public static let unusedDataKey = "unused-data-key"
    /// The `content-never-set` rule (its `RuleDescription` says what it finds).
    public static let contentNeverSet = "content-never-set"
    /// The `unreachable-step` rule (its `RuleDescription` says what it finds).
    public static let unreachableStep = "unreachable-step"
    /// The `duplicate-step` rule (its `RuleDescription` says what it finds).
    public static let duplicateStep = "duplicate-step"
    /// The `dead-end` rule (its `RuleDescription` says what it finds).
    public static let deadEnd = "dead-end"
    /// The `stuck-step` rule (its `RuleDescription` says what it finds).
    public static let stuckStep = "stuck-step"
    /// The `unknown-step` rule (its `RuleDescription` says what it finds).
    public static let unknownStep = "unknown-step"
    /// The `unknown-operation` rule (its `RuleDescription` says what it finds).
    public static let unknownOperation = "unknown-operation"
    /// The `crossing-transition` rule (its `RuleDescription` says what it finds).
    public static let crossingTransition = "crossing-transition"
    /// The `missing-handler` rule (its `RuleDescription` says what it finds).
    public static let missingHandler = "missing-handler"
    /// The `unimplemented-transition` rule (its `RuleDescription` says what it finds).
    public static let unimplementedTransition = "unimplemented-transition"
    /// The `unmatched-case` rule (its `RuleDescription` says what it finds).
    public static let unmatchedCase = "unmatched-case"
    /// The `nested-case` rule (its `RuleDescription` says what it finds).
    public static let nestedCase = "nested-case"
    /// The `reserved-name` rule (its `RuleDescription` says what it finds).
    public static let reservedName = "reserved-name"
    /// The `ui-access-in-task` rule (its `RuleDescription` says what it finds).
    public static let uiAccessInTask = "ui-access-in-task"
    /// The `unanalyzable-flow` rule (its `RuleDescription` says what it finds).
    public static let unanalyzableFlow = "unanalyzable-flow"
}

extension Finding {
    /// An `invalid-input` finding: the input at `location` could not be read.
    public static func invalidInput(_ message: String, at location: SourceLocation, flow: String? = nil) -> Finding {
        Finding(rule: RuleID.invalidInput, severity: .error, message: message, location: location, flow: flow)
    }
}
