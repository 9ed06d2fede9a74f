import FlowModel

/// `unused-suppression`: a suppression comment that suppresses nothing (or names no rule).
/// Raised by `SuppressionFilter`; listed here to be documented, configurable and tested like every rule.
public struct UnusedSuppressionRule: Rule {
    public static let description = RuleDescription(
        id: "unused-suppression",
        severity: .warning,
        summary: "A flowlens:disable comment suppresses nothing, or names no rule.",
        rationale: """
            A suppression that outlived its finding hides the next real problem on that line. Remove \
            it; a misspelt rule id is reported the same way.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Clean already
                steps:
                  # flowlens:disable-next-line missing-data-key -- the token comes from the push handler # finding
                  - {id: a, next: b}
                  - {id: b, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Misspelt
                steps:
                  # flowlens:disable-next-line unused-data-kye -- exported to analytics # finding
                  - {id: a, writes: {x: Int}, next: b}
                  - {id: b, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Needed
                steps:
                  # flowlens:disable-next-line unused-data-key -- exported to analytics
                  - {id: a, writes: {x: Int}, next: b}
                  - {id: b, kind: end}
            """,
            """
            version: 1
            flows:
              - name: A region
                steps:
                  # flowlens:disable unused-data-key -- these keys feed the analytics export
                  - {id: a, writes: {x: Int}, next: b}
                  - {id: b, writes: {y: Int}, next: c}
                  # flowlens:enable unused-data-key
                  - {id: c, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] { [] }
}

/// `suppression-without-reason`: a suppression comment without `-- reason`.
public struct SuppressionWithoutReasonRule: Rule {
    public static let description = RuleDescription(
        id: "suppression-without-reason",
        severity: .warning,
        summary: "A flowlens:disable comment does not say why the finding is suppressed.",
        rationale: """
            A hidden finding with no reason cannot be reviewed: write `-- why` after the rule ids, \
            as in `flowlens:disable-next-line missing-data-key -- set by the push handler`.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Unexplained
                steps:
                  # flowlens:disable-next-line unused-data-key # finding
                  - {id: a, writes: {x: Int}, next: b}
                  - {id: b, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Explained
                steps:
                  # flowlens:disable-next-line unused-data-key -- exported to analytics
                  - {id: a, writes: {x: Int}, next: b}
                  - {id: b, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] { [] }
}
