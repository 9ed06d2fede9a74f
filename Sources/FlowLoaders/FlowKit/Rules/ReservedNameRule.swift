import FlowModel
import FlowRules

/// `reserved-name`: a FlowKit state named like one of the states FlowKit generates itself.
public struct ReservedNameRule: Rule {
    /// The states every generated FlowKit machine has.
    public static let reserved = ["Begin", "End", "Fail", "Terminate"]

    public static let description = RuleDescription(
        id: RuleID.reservedName,
        severity: .error,
        summary: "A FlowKit state is named Begin, End, Fail or Terminate, which FlowKit reserves.",
        rationale: """
            FlowKit generates these four states in every machine (the start, the end, the failure \
            state every rejected promise leads to, and the final state). A state of the diagram with \
            one of these names gives the generated enum two cases of that name, and the code does not \
            compile. FlowKit compares the name after removing spaces, dashes and underscores. Only \
            FlowKit machines are checked: in any other state diagram these are ordinary names.
            """,
        triggeringExamples: [
            """
            @startuml
            [*] --> Load
            Load: URL
            Load --> Fail /' finding '/
            Load --> [*]
            Fail: Error
            Fail --> [*]
            @enduml
            """,
        ],
        nonTriggeringExamples: [
            """
            @startuml
            [*] --> Load
            Load: URL
            Load --> LoadFailed
            Load --> [*]
            LoadFailed: Error
            LoadFailed --> [*]
            @enduml
            """,
            """
            ' a plain state diagram (its body lines are descriptions): FlowKit's names do not apply
            @startuml
            [*] --> Idle
            Idle : waiting for a coin
            Idle --> Fail : JAM
            Fail --> End : RESET
            End --> [*]
            @enduml
            """,
        ],
        exampleFileName: "Example.puml",
        runsOnPartlyReadFlows: true)

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        guard context.flow.kind.machine == .generated else { return [] }
        return context.flow.steps.filter { $0.kind != .start && $0.kind != .end }.compactMap { step in
            let name = step.name.generatedTypeName
            guard Self.reserved.contains(name) else { return nil }
            return context.finding(
                Self.description,
                "state '\(step.name)' uses the name \(name), which FlowKit reserves for the state it generates itself; rename it",
                at: step.location, step: step.id)
        }
    }
}
