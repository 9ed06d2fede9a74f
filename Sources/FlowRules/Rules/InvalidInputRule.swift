import FlowModel

/// `invalid-input`: a file, or a part of one, that FlowLens cannot read. Raised by the loaders (a rule
/// never parses); listed here so that it is documented, configurable and tested like every rule.
public struct InvalidInputRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.invalidInput,
        tags: ["input"],
        severity: .error,
        summary: "A file, or part of one, cannot be read or parsed.",
        rationale: """
            A flow FlowLens cannot read is a flow nobody checked. The finding names the file, line and \
            column; everything else in the run is still analysed, and the run exits with status 2.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Broken
                steps: [{id: a, kind: end}
              - name: Next # finding
                steps: []
            """,
            """
            version: 2 # finding
            flows: []
            """,
            """
            version: 1
            flows:
              - name: Typo
                steps:
                  - id: a
                    nxt: b # finding
                  - {id: b, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Fine
                steps:
                  - {id: a, next: b}
                  - {id: b, kind: end}
            """,
        ],
        runsOnPartlyReadFlows: true)

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] { [] }
}
