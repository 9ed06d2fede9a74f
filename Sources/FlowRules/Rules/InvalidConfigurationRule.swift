import FlowModel

/// `invalid-configuration`: a `.flowlens.yml` with an unknown key, rule id or value. Raised when the
/// configuration is read; listed here to be documented and tested like every rule.
public struct InvalidConfigurationRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.invalidConfiguration,
        severity: .warning,
        summary: "A .flowlens.yml has an unknown key, rule id or value.",
        rationale: """
            A misspelt setting would otherwise be ignored without a word, and the rule it meant to \
            change would run as before. The finding names the key and the file, with a "did you \
            mean" hint; the rest of the configuration still applies.
            """,
        triggeringExamples: [
            """
            version: 1
            rules:
              unused-data-kye: off # finding
            """,
            """
            version: 1
            exlude: ["Generated/**"] # finding
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            rules:
              unused-data-key: off
              missing-data-key: warning
            exclude: ["**/Generated/**"]
            overrides:
              - paths: ["Legacy/**"]
                rules: {type-mismatch: off}
            output: {format: sarif, strict: true}
            """,
        ],
        exampleFileName: ".flowlens.yml",
        runsOnPartlyReadFlows: true)

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] { [] }
}
