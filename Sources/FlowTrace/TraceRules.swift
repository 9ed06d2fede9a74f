import FlowModel
import FlowRules

/// The conformance rules: what recorded runs say about the code (`flowlens trace`). Their findings
/// are at the place in the flow's definition they concern, with the first record as a related
/// location. They are in the rule catalogue like every rule (`flowlens rules`, SARIF, `.flowlens.yml`
/// severities); their examples are a flow and its runs, checked by the tests.
public enum TraceRules {
    /// `run-off-graph`: runs went where the flow graph has no way.
    public static let runOffGraph = RuleDescription(
        id: "run-off-graph",
        tags: ["runs", "drift"],
        severity: .warning,
        summary: "Recorded runs started a step the flow does not have, or moved between two steps no transition joins.",
        rationale: """
            The code and what runs have drifted apart: the app runs another version of the flow, a step \
            was renamed, or the definition FlowLens reads misses a way the library takes. Every finding \
            drawn from this flow's graph may be wrong for the runs. The finding is at the step the runs \
            went to (for a step the flow does not have, at the flow), with the first record of it.
            """,
        triggeringExamples: [
            """
            # file: checkout.flow.yaml
            version: 1
            flows:
              - name: Checkout
                id: checkout
                steps:
                  - {id: cart, next: pay}
                  - {id: pay, next: ship}
                  - {id: ship, next: done} # finding
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "checkout", "run": "1", "step": "cart", "event": "start"}
            {"flow": "checkout", "run": "1", "step": "ship", "event": "start"}
            """,
            """
            # file: checkout.flow.yaml
            version: 1
            flows:
              - name: Checkout # finding
                id: checkout
                steps:
                  - {id: cart, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "checkout", "run": "7", "step": "cart", "event": "start"}
            {"flow": "checkout", "run": "7", "step": "giftWrap", "event": "start"}
            """,
        ],
        nonTriggeringExamples: [
            """
            # file: checkout.flow.yaml
            version: 1
            flows:
              - name: Checkout
                id: checkout
                data: {method: String}
                steps:
                  - {id: cart, next: route}
                  - {id: route, kind: branch, next: [{to: pay, when: {key: method, equals: card}}, {to: invoice, otherwise: true}]}
                  - {id: pay, next: done}
                  - {id: invoice, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "checkout", "run": "1", "step": "cart", "event": "start"}
            {"flow": "checkout", "run": "1", "step": "invoice", "event": "start"}
            {"flow": "checkout", "run": "1", "event": "end", "reason": "success"}
            {"flow": "checkout", "run": "2", "step": "cart", "event": "start"}
            {"flow": "checkout", "run": "2", "step": "pay", "event": "start"}
            {"flow": "checkout", "run": "2", "event": "end", "reason": "success"}
            """,
        ])

    /// `failure-not-predicted`: runs failed for a missing key or a type mismatch that static analysis missed.
    public static let failureNotPredicted = RuleDescription(
        id: "failure-not-predicted",
        tags: ["runs", "data-flow"],
        severity: .warning,
        summary: "Recorded runs failed at a step for a missing data key or a type mismatch that no static finding predicted.",
        rationale: """
            Static analysis missed a failure that happens: the key is written somewhere FlowLens cannot \
            see (a reflection, a dictionary built at run time, another module), or the flow runs with \
            data its definition does not show. Fix the flow, or the definition, so that the failure is \
            predicted; a failure `missing-data-key` or `type-mismatch` did predict is not reported again.
            """,
        triggeringExamples: [
            """
            # file: login.flow.yaml
            version: 1
            flows:
              - name: Login
                id: login
                data: {email: String}
                steps:
                  - {id: signIn, reads: {email: String}, next: done} # finding
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "login", "run": "a", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "a", "step": "signIn", "event": "fail", "reason": "missing-key", "key": "email"}
            """,
        ],
        nonTriggeringExamples: [
            """
            # file: login.flow.yaml
            version: 1
            flows:
              - name: Login
                id: login
                data: {email: String}
                steps:
                  - {id: signIn, reads: {email: String}, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "login", "run": "a", "step": "signIn", "event": "start"}
            {"flow": "login", "run": "a", "step": "signIn", "event": "fail", "reason": "error", "detail": "offline"}
            """,
        ])

    /// `no-case-matched`: every run that reached a case split stopped there, no case matching.
    public static let noCaseMatched = RuleDescription(
        id: "no-case-matched",
        tags: ["runs", "correctness"],
        severity: .warning,
        summary: "Every recorded run that reached a case split ended there because no case matched.",
        rationale: """
            A flow whose cases never match ends early, and Flow-iOS reports that as success: the work \
            after the split silently never happens. The values the cases compare with are not the ones \
            the runs carry (a renamed value, another type). The finding is at the step the runs were at \
            when they stopped.
            """,
        triggeringExamples: [
            """
            # file: export.flow.yaml
            version: 1
            flows:
              - name: Export
                id: export
                data: {format: String}
                steps:
                  - {id: prepare, next: [{to: zip, when: {key: format, equals: zip}}, {to: pdf, when: {key: format, equals: pdf}}]} # finding
                  - {id: zip, next: done}
                  - {id: pdf, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "export", "run": "1", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "1", "event": "stop", "reason": "no-case-matched"}
            {"flow": "export", "run": "2", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "2", "event": "stop", "reason": "no-case-matched"}
            """,
        ],
        nonTriggeringExamples: [
            """
            # file: export.flow.yaml
            version: 1
            flows:
              - name: Export
                id: export
                data: {format: String}
                steps:
                  - {id: prepare, next: [{to: zip, when: {key: format, equals: zip}}, {to: pdf, otherwise: true}]}
                  - {id: zip, next: done}
                  - {id: pdf, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "export", "run": "1", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "1", "step": "zip", "event": "start"}
            {"flow": "export", "run": "2", "step": "prepare", "event": "start"}
            {"flow": "export", "run": "2", "step": "pdf", "event": "start"}
            """,
        ])

    /// `never-reached`: what no recorded run reached (coverage).
    public static let neverReached = RuleDescription(
        id: "never-reached",
        tags: ["runs", "coverage"],
        severity: .note,
        summary: "No recorded run reached a step, or took one of the ways out of a step that runs did reach.",
        rationale: """
            Coverage of the flow by what really runs: work no user's run ever did, and decisions that \
            always went the same way. It may be dead in practice (a feature nobody uses, a case that \
            cannot happen with the data the app sends) or untested by the runs recorded; the static \
            findings on such steps have never been seen to matter. A step static analysis already \
            reports as unreachable is not reported again, and neither are the steps that run no code \
            (the start, exits, joins, splits without an operation). A way out is reported only when the \
            step it leaves had several ways out (not the branches of a parallel split, which all run) \
            and its target was reached by another way (otherwise the step is reported), and not when \
            runs may have taken it without their records saying so: a way to one of several exits of \
            a kind, a failing step's error way, a second way between the same two steps.
            """,
        triggeringExamples: [
            """
            # file: refund.flow.yaml
            version: 1
            flows:
              - name: Refund
                id: refund
                data: {decision: String}
                steps:
                  - {id: review, next: [{to: approve, when: {key: decision, equals: yes}}, {to: escalate, otherwise: true}]}
                  - {id: approve, next: done}
                  - {id: escalate, next: done} # finding
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "refund", "run": "1", "step": "review", "event": "start"}
            {"flow": "refund", "run": "1", "step": "approve", "event": "start"}
            {"flow": "refund", "run": "1", "event": "end", "reason": "success"}
            """,
            """
            # file: signup.flow.yaml
            version: 1
            flows:
              - name: Signup
                id: signup
                data: {invited: String}
                steps:
                  - {id: form, next: [{to: verify, when: {key: invited, equals: "false"}}, {to: welcome, otherwise: true}]} # finding
                  - {id: verify, next: welcome}
                  - {id: welcome, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "signup", "run": "1", "step": "form", "event": "start"}
            {"flow": "signup", "run": "1", "step": "verify", "event": "start"}
            {"flow": "signup", "run": "1", "step": "welcome", "event": "start"}
            {"flow": "signup", "run": "1", "event": "end", "reason": "success"}
            """,
        ],
        nonTriggeringExamples: [
            """
            # file: signup.flow.yaml
            version: 1
            flows:
              - name: Signup
                id: signup
                data: {invited: String}
                steps:
                  - {id: form, next: [{to: verify, when: {key: invited, equals: "false"}}, {to: welcome, otherwise: true}]}
                  - {id: verify, next: welcome}
                  - {id: welcome, next: done}
                  - {id: done, kind: end}
            # file: runs.jsonl
            {"flow": "signup", "run": "1", "step": "form", "event": "start"}
            {"flow": "signup", "run": "1", "step": "verify", "event": "start"}
            {"flow": "signup", "run": "1", "step": "welcome", "event": "start"}
            {"flow": "signup", "run": "1", "event": "end", "reason": "success"}
            {"flow": "signup", "run": "2", "step": "form", "event": "start"}
            {"flow": "signup", "run": "2", "step": "welcome", "event": "start"}
            {"flow": "signup", "run": "2", "event": "end", "reason": "success"}
            """,
        ])

    /// Every conformance rule, in catalogue order.
    public static let descriptions = [runOffGraph, failureNotPredicted, noCaseMatched, neverReached]

    /// The conformance findings of `report`, given the static findings of the same flows (a failure
    /// one of them predicted is not reported).
    public static func findings(of report: TraceReport, staticFindings: [Finding]) -> [Finding] {
        let byID = Dictionary(report.flows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var findings: [Finding] = []
        for trace in report.traces {
            guard let flow = byID[trace.flow] else { continue }
            let flowPlace = flow.location ?? SourceLocation(file: flow.id)
            func place(_ step: Int?) -> SourceLocation { step.flatMap { flow.steps[$0].location } ?? flowPlace }
            func name(_ step: Int?) -> String { step.map { flow.steps[$0].id } ?? "the start" }
            func first(_ example: FlowTrace.Example) -> [RelatedLocation] { [RelatedLocation(message: "first recorded here (run \(example.run))", location: example.location)] }
            for (deviation, example) in trace.deviations {
                switch deviation {
                case let .unknownStep(step):
                    findings.append(Finding(rule: runOffGraph.id, severity: runOffGraph.severity,
                                            message: "\(Plural.count(example.count, "run")) started step '\(step)', which flow '\(flow.id)' does not have",
                                            location: flowPlace, flow: flow.id, related: first(example)))
                case let .noTransition(from, to):
                    findings.append(Finding(rule: runOffGraph.id, severity: runOffGraph.severity,
                                            message: "\(Plural.count(example.count, "run")) went from \(name(from)) to \(name(to)), which no transition joins",
                                            location: place(to), flow: flow.id, step: flow.steps[to].id,
                                            edge: from.map { EdgeReference(from: flow.steps[$0].id, to: flow.steps[to].id) }, related: first(example)))
                }
            }
            for (failure, example) in trace.failures {
                let predictedBy = failure.reason == RunEvent.Reason.missingKey ? RuleID.missingDataKey
                    : failure.reason == RunEvent.Reason.typeMismatch ? RuleID.typeMismatch : nil
                guard let predictedBy, let step = failure.step, let key = failure.key else { continue }
                let predicted = staticFindings.contains { $0.rule == predictedBy && $0.flow == flow.id && $0.step == flow.steps[step].id && $0.key == key }
                guard !predicted else { continue }
                let what = failure.reason == RunEvent.Reason.missingKey ? "missing key '\(key)'" : "key '\(key)' of another type"
                findings.append(Finding(rule: failureNotPredicted.id, severity: failureNotPredicted.severity,
                                        message: "\(Plural.count(example.count, "run")) failed at \(name(step)): \(what); static analysis did not predict it",
                                        location: place(step), flow: flow.id, step: flow.steps[step].id, key: key, related: first(example)))
            }
            for (stop, example) in trace.stops where stop.reason == RunEvent.Reason.noCaseMatched {
                guard let step = stop.step, example.count == trace.stepVisits[step] else { continue }
                findings.append(Finding(rule: noCaseMatched.id, severity: noCaseMatched.severity,
                                        message: (example.count == 1 ? "the one run" : "all \(example.count) runs") + " that reached \(name(step)) ended there: no case matched",
                                        location: place(step), flow: flow.id, step: flow.steps[step].id, related: first(example)))
            }
            findings += coverage(of: trace, in: flow, staticFindings: staticFindings)
        }
        return findings.sorted { ($0.location!, $0.rule, $0.message) < ($1.location!, $1.rule, $1.message) }
    }

    /// The `never-reached` findings of one flow's runs.
    static func coverage(of trace: FlowTrace, in flow: Flow, staticFindings: [Finding]) -> [Finding] {
        guard trace.runs > 0 else { return [] }
        let graph = FlowIndex(flow)
        let unreachable = Set(staticFindings.filter { $0.rule == RuleID.unreachableStep && $0.flow == flow.id }.compactMap(\.step))
        var findings: [Finding] = []
        for index in trace.neverReached(in: flow) {
            let step = flow.steps[index]
            guard !unreachable.contains(step.id) else { continue }
            findings.append(Finding(rule: neverReached.id, severity: neverReached.severity,
                                    message: trace.runs == 1 ? "the one recorded run did not reach \(step.id)" : "none of the \(trace.runs) recorded runs reached \(step.id)",
                                    location: step.location ?? flow.location ?? SourceLocation(file: flow.id), flow: flow.id, step: step.id))
        }
        // A decision that always went one way: a way out never taken, from a step runs reached, to a
        // step they reached by another way (an unreached target is reported as a step, above).
        // Not what runs may have taken without their records saying so (`unrecordedWays`).
        let unrecorded = trace.unrecordedWays(on: flow, graph: graph)
        for (index, step) in flow.steps.enumerated() where trace.stepVisits[index] > 0 {
            let ways = graph.successors[index].filter { flow.transitions[$0.transition].kind != .parallel }
            guard ways.count > 1 else { continue }
            for way in ways where trace.transitionCounts[way.transition] == 0 && trace.stepVisits[way.to] > 0 && !unrecorded.contains(way.transition) {
                let transition = flow.transitions[way.transition]
                let when = (transition.condition?.text ?? transition.label).map { " (when \($0))" } ?? ""
                let target = flow.steps[way.to].id
                findings.append(Finding(rule: neverReached.id, severity: neverReached.severity,
                                        message: "recorded runs reached \(step.id) \(Plural.count(trace.stepVisits[index], "time")) and never went on from there to \(target)\(when)",
                                        location: transition.location ?? step.location ?? flow.location ?? SourceLocation(file: flow.id),
                                        flow: flow.id, step: step.id, edge: EdgeReference(from: step.id, to: target)))
            }
        }
        return findings
    }
}
