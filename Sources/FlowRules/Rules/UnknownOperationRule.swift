import FlowModel

/// `unknown-operation`: a step whose implementing class is not in the sources read.
public struct UnknownOperationRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unknownOperation,
        tags: ["analysis-coverage"],
        severity: .warning,
        summary: "An operation added to a flow is not defined in the sources read, so its data keys are unknown.",
        rationale: """
            FlowLens checks a flow's data keys through the classes its operations are made of. A class \
            it cannot find (a typo, a file not given, a class from a library) may read and write any \
            key, so nothing around it can be checked fully. Give FlowLens the folder that defines it.
            """,
        triggeringExamples: [
            """
            class Sync {
                func run() {
                    Flow()
                        .add(operation: LegacySyncOp()) // finding
                        .start()
                }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            class LegacySyncOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Sync {
                func run() {
                    Flow()
                        .add(operation: LegacySyncOp())
                        .start()
                }
            }
            """,
        ],
        exampleFileName: "Example.swift")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        context.analysis.uniqueSteps.compactMap { i in
            let step = context.analysis.step(i)
            for case let .implementationNotFound(name) in step.unresolved {
                return context.finding(
                    Self.description,
                    "'\(name)' is not defined in the sources read: what it reads and writes is unknown, so keys around it are not fully checked",
                    at: step.location, step: step.id)
            }
            return nil
        }
    }
}
