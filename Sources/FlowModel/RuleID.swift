/// Rule ids that more than one module needs. Every id is part of FlowLens's public API.
public enum RuleID {
    /// A file, or part of one, that cannot be read or parsed.
    public static let invalidInput = "invalid-input"
    /// A configuration file with an unknown key, rule id or value.
    public static let invalidConfiguration = "invalid-configuration"
}

extension Finding {
    /// An `invalid-input` finding: the input at `location` could not be read.
    public static func invalidInput(_ message: String, at location: SourceLocation, flow: String? = nil) -> Finding {
        Finding(rule: RuleID.invalidInput, severity: .error, message: message, location: location, flow: flow)
    }
}
