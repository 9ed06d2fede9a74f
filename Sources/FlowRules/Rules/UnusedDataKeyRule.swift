import FlowModel

/// `unused-data-key`: a key written or given that no later step reads.
public struct UnusedDataKeyRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unusedDataKey,
        tags: ["data-flow", "maintainability"],
        severity: .warning,
        summary: "A key is written (or given initially) but no later step reads it.",
        rationale: """
            Unused data is work for nothing, and often a sign of a misspelt key: the writer and the \
            reader disagree on the name. Keys the flow returns (`outputs:`) and keys a caller reads \
            after running the flow as a sub-flow count as read. A grouped step's writes other than \
            its element output are lost when its run ends.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Written for nobody
                steps:
                  - id: login
                    writes: {token: String, sessionID: String} # finding
                    next: use
                  - {id: use, reads: {token: String}, next: done}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Given for nobody
                data:
                  locale: String # finding
                steps:
                  - {id: a, next: done}
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Returned
                outputs: [token]
                steps:
                  - {id: login, writes: {token: String}, next: done}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Caller
                steps:
                  - {id: sub, flow: Login, next: show}
                  - {id: show, reads: {token: String}, next: done}
                  - {id: done, kind: end}
              - name: Login
                steps:
                  - {id: login, writes: {token: String}, next: ok}
                  - {id: ok, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        let flow = context.flow
        var externallyRead = Set(flow.outputs.map(\.key))
        externallyRead.formUnion(context.session.keysReadByCallers(of: flow))
        var findings: [Finding] = []

        let readAnywhere = analysis.keysReadFromStart(among: flow.initialData.map(\.key))
        for value in flow.initialData where !readAnywhere.contains(value.key) && !externallyRead.contains(value.key) {
            findings.append(context.finding(
                Self.description, "the flow starts with '\(value.key)', but no step reads it",
                at: value.location ?? flow.location, key: value.key))
        }
        var reported = KeyMarks(analysis)  // this step's keys reported so far
        for i in analysis.reachable {
            let step = analysis.step(i)
            let keys = analysis.effectiveWriteKeys[i]
            defer { reported.clear(keys) }
            // Only declared writes (the first of the effective ones): a sub-flow's outputs are
            // reported inside the sub-flow.
            for (n, write) in step.writes.enumerated() where reported.mark(keys[n]) {
                guard !analysis.isUsed(keyNumber: keys[n], afterWritesOf: i), !externallyRead.contains(write.key) else { continue }
                let at = write.location ?? step.location
                let placement = context.placement(of: step, findingAt: at)
                findings.append(context.finding(
                    Self.description, "step '\(step.name)' writes '\(write.key)', but no later step reads it\(placement.suffix)",
                    at: at, step: step.id, key: write.key, related: placement.related))
            }
            if let group = step.group {
                var reportedElements = Set<String>()
                for write in group.elementWrites where write.key != group.elementOutputKey && reportedElements.insert(write.key).inserted {
                    let kept = group.elementOutputKey.map { "only '\($0)' is kept" } ?? "nothing is kept"
                    let at = write.location ?? step.location
                    let placement = context.placement(of: step, findingAt: at)
                    findings.append(context.finding(
                        Self.description,
                        "each run of group '\(step.name)' writes '\(write.key)', which is lost when the run ends (\(kept))\(placement.suffix)",
                        at: at, step: step.id, key: write.key, related: placement.related))
                }
            }
        }
        return findings
    }
}
