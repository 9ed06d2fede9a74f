import FlowModel
import FlowRules

/// `nested-case`: a Flow-iOS case written inside a branch, which becomes a sibling at the root.
public struct NestedCaseRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.nestedCase,
        tags: ["flow-graph", "correctness"],
        severity: .warning,
        summary: "A flowCase added inside a branch is not nested: Flow-iOS makes it another branch of the case root.",
        rationale: """
            Flow-iOS does not support nested cases: every `add(operation:flowCase:)` until `combine()` \
            becomes a branch of the same root, tested in order. A case on a different key than the \
            root's first case was meant to be nested in the branch before it; at run time it competes \
            with the root's cases instead. Reported for Flow-iOS flows.
            """,
        triggeringExamples: [
            """
            class StepOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Billing {
                func open() {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": "pro", "region": "eu"])
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .add(operation: StepOp(), flowCase: FlowCase(key: "region", value: "eu")) // finding
                        .combine()
                        .start()
                }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            class StepOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Billing {
                func open() {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": "pro", "region": "eu"])
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "region", value: "eu"))
                        .add(operation: StepOp(), flowCase: FlowCase(key: "region", value: "us"))
                        .combine()
                        .start()
                }
            }
            """,
        ],
        exampleFileName: "Example.swift")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        guard context.flow.kind == .flowIOS else { return [] }
        let analysis = context.analysis
        var findings: [Finding] = []
        // Two cases at least: a step with one way on has nothing to nest.
        for i in analysis.reachable where analysis.successors[i].count > 1 {
            let transitions = analysis.successors[i].map { context.flow.transitions[$0.transition] }
            var rootKey: String?
            for transition in transitions {
                guard case let .equals(key, value)? = transition.condition else { continue }
                guard let first = rootKey else { rootKey = key; continue }
                guard key != first else { continue }
                let step = analysis.step(i)
                let target = context.flow.step(transition.to)?.name ?? transition.to
                findings.append(context.finding(
                    Self.description,
                    "the case \(key) = \(value) ('\(target)') is not nested in the branch before it: it is another branch of '\(step.name)', tested after the cases on '\(first)'",
                    at: transition.location ?? step.location, step: step.id, key: key,
                    edge: EdgeReference(from: transition.from, to: transition.to)))
            }
        }
        return findings
    }
}
