import FlowModel

/// `unmatched-case`: a case branch that can match nothing, so the flow silently ends with success.
public struct UnmatchedCaseRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unmatchedCase,
        tags: ["flow-graph", "correctness"],
        severity: .warning,
        summary: "A value the flow can see matches no case, or no case is a fallback: the flow silently ends with success.",
        rationale: """
            A case split runs the first case whose value equals the key's value compared as a \
            String. When none does, the flow ends early and still reports success, so the skipped \
            work fails silently. Reported when a value set for the key (a literal in the data bucket or \
            a write) matches no case, or is not a String; otherwise, when the value is not visible (it \
            comes from run time), because none of its cases is a fallback. Not reported when every value \
            that can reach the branch is a visible string a case matches. A root with a single case \
            takes it without checking, so it is never reported.
            """,
        triggeringExamples: [
            """
            class OpenBillingOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Billing {
                func open() {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": "enterprise"])
                        .add(operation: OpenBillingOp())
                        .add(operation: OpenBillingOp(), flowCase: FlowCase(key: "plan", value: "free")) // finding
                        .add(operation: OpenBillingOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .start()
                }
            }
            """,
            """
            class StepOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Screen {
                func run(plan: String) {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": 2])
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "2")) // finding
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "3"))
                        .start()
                }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            class StepOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": "pro"])
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .start()
                }
            }
            """,
            """
            class StepOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Screen {
                func run() {
                    // A root with one case takes it without checking the value.
                    Flow()
                        .add(operation: StepOp())
                        .add(operation: StepOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .start()
                }
            }
            """,
        ],
        exampleFileName: "Example.swift")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        var findings: [Finding] = []
        // Only steps with two ways on or more: gathering every step's transitions first cost an allocation per step.
        for i in analysis.reachable where analysis.successors[i].count >= 2 {
            let outgoing = analysis.successors[i].map { context.flow.transitions[$0.transition] }
            guard !outgoing.contains(where: { $0.condition == .otherwise }) else { continue }
            var cases: [(key: String, value: String, transition: Transition)] = []
            for transition in outgoing {
                guard case let .equals(key, value)? = transition.condition else { break }
                cases.append((key, value, transition))
            }
            // Only a step whose every way on is a match on a key: any other condition may be a fallback.
            guard cases.count == outgoing.count, let first = cases.first else { continue }
            let step = analysis.step(i)
            let keys = Array(Set(cases.map(\.key))).sorted()
            var problems: [(String, RelatedLocation?)] = []
            var everyValueSeenMatches = true
            for key in keys {
                let values = Set(cases.filter { $0.key == key }.map(\.value))
                // The cases test the value after the root's own writes: a write of the root replaces
                // what reached it.
                let own = analysis.effectiveWrites[i].filter { $0.key == key }
                let ownDefinite = own.contains { $0.condition == nil }
                let definitions = (ownDefinite ? [] : analysis.reachingDefinitions(of: key, at: i).map(\.access)) + own
                // When every value that can reach the branch is a visible literal that a case matches,
                // and the key is set on every path, no run can fall through.
                // A value known to be one of a few (`c ? "a" : "b"`, a String enum's raw value) is
                // matched when a case covers each of them.
                func known(_ access: DataAccess) -> [String]? { access.possibleValues ?? access.stringValue.map { [$0] } }
                let matched = !definitions.isEmpty && (ownDefinite || analysis.isDefinitelySet(key, before: i))
                    && definitions.allSatisfy { known($0).map { $0.allSatisfy(values.contains) } ?? false }
                if !matched { everyValueSeenMatches = false }
                for access in definitions {
                    let place = access.location.map { RelatedLocation(message: "'\(key)' set here", location: $0) }
                    if let possible = access.possibleValues, let value = possible.first(where: { !values.contains($0) }) {
                        problems.append(("'\(key)' can be \"\(value)\" here, which no case matches", place))
                    } else if let value = access.stringValue, !values.contains(value) {
                        problems.append(("'\(key)' is \"\(value)\" here, which no case matches", place))
                    } else if let type = access.type, access.stringValue == nil, access.possibleValues == nil, !type.isAny, type.unwrapped != "String" {
                        problems.append(("'\(key)' is \(type) here, and cases compare Strings", place))
                    }
                }
            }
            if problems.isEmpty, everyValueSeenMatches { continue }
            let summary = cases.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
            let message: String
            if problems.isEmpty {
                message = "the cases after '\(step.name)' (\(summary)) have no fallback: any other value ends the flow early, reported as success"
            } else {
                message = problems.map(\.0).joined(separator: "; ") + ": after '\(step.name)' the flow ends early, reported as success (cases: \(summary))"
            }
            findings.append(context.finding(Self.description, message, at: first.transition.location ?? step.location,
                                            step: step.id, key: keys.count == 1 ? keys[0] : nil,
                                            related: problems.compactMap(\.1)))
        }
        return findings
    }
}
