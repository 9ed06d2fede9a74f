import FlowModel

/// A realistic large operation flow for the large-diagram tests and benchmark: a chain of segments,
/// each an operation, a decision with three labelled cases that meet again, a per-element group, and
/// an operation that reads what the cases wrote, with an error edge to a shared failure exit. Some
/// segments carry defects (a case that does not write the key read after the join: missing-data-key;
/// a write nobody reads: unused-data-key), so the diagram has finding marks. Deterministic.
public enum LargeFlow {
    /// Steps per segment.
    public static let segmentSize = 8

    /// A flow of about `steps` steps (rounded up to whole segments, plus the end and failure exits).
    /// Every `errorEvery`-th segment has an error edge to the shared failure exit at the end.
    public static func make(steps: Int = 1000, errorEvery: Int = 16) -> Flow {
        let segments = max(1, (steps - 2 + segmentSize - 1) / segmentSize)
        var flow = Flow(id: "Large", name: "Large order pipeline", kind: .declarative,
                        location: SourceLocation(file: "large.flow.yaml", line: 1, column: 1))
        flow.initialData = [DataAccess(key: "input0", type: "String"), DataAccess(key: "mode", type: "String")]
        var line = 2
        func at() -> SourceLocation { line += 1; return SourceLocation(file: "large.flow.yaml", line: line, column: 9) }
        func add(_ step: Step) { flow.steps.append(step) }
        func edge(_ from: String, _ to: String, _ condition: Condition? = nil, label: String? = nil, kind: TransitionKind = .normal) {
            flow.transitions.append(Transition(from: from, to: to, label: label, condition: condition, kind: kind, location: at()))
        }
        for n in 0..<segments {
            let p = "seg\(n)"
            let next = n + 1 < segments ? "seg\(n + 1)_prepare" : "done"
            add(Step(id: "\(p)_prepare", name: "Prepare batch \(n)", location: at(),
                     reads: [DataAccess(key: "input\(n)", type: "String", location: at())],
                     writes: [DataAccess(key: "items\(n)", type: "[String]", location: at())]
                        + (n % 15 == 7 ? [DataAccess(key: "debugTrace\(n)", type: "String", location: at())] : []),
                     implementation: "PrepareBatchOperation"))
            add(Step(id: "\(p)_route", name: "Route batch \(n)", kind: .branch, location: at(),
                     reads: [DataAccess(key: "mode", type: "String", location: at())]))
            for (c, name) in ["express", "standard", "manual"].enumerated() {
                let writes = n % 10 == 3 && c == 2 ? [] : [DataAccess(key: "route\(n)", type: "String", location: at())]
                add(Step(id: "\(p)_\(name)", name: "\(name.capitalized) handling \(n)", location: at(), writes: writes,
                         implementation: "\(name.capitalized)Operation"))
            }
            add(Step(id: "\(p)_join", name: "Routes meet \(n)", kind: .join, location: at()))
            var group = GroupSpec(inputKey: "items\(n)", outputKey: "labels\(n)", elementKey: "item", elementOutputKey: "label")
            group.elementReads = [DataAccess(key: "item", type: "String", location: at())]
            group.elementWrites = [DataAccess(key: "label", type: "String", location: at())]
            add(Step(id: "\(p)_labels", name: "Print labels \(n)", kind: .group, location: at(), reads: [group.flowRead],
                     writes: group.flowWrite.map { [$0] } ?? [], group: group, implementation: "PrintLabelOperation"))
            add(Step(id: "\(p)_ship", name: "Ship batch \(n)", location: at(),
                     reads: [DataAccess(key: "route\(n)", type: "String", location: at()), DataAccess(key: "labels\(n)", type: "[String]", location: at())],
                     writes: [DataAccess(key: "input\(n + 1)", type: "String", location: at())],
                     implementation: "ShipOperation"))
            edge("\(p)_prepare", "\(p)_route")
            edge("\(p)_route", "\(p)_express", .equals(key: "mode", value: "express"))
            edge("\(p)_route", "\(p)_standard", .equals(key: "mode", value: "standard"))
            edge("\(p)_route", "\(p)_manual", .otherwise, label: "anything else")
            for name in ["express", "standard", "manual"] { edge("\(p)_\(name)", "\(p)_join") }
            edge("\(p)_join", "\(p)_labels")
            edge("\(p)_labels", "\(p)_ship")
            edge("\(p)_ship", next)
            if n % errorEvery == 0 { edge("\(p)_ship", "failed", label: "carrier rejected", kind: .error) }
        }
        add(Step(id: "done", name: "All shipped", kind: .end, location: at()))
        add(Step(id: "failed", name: "Shipping failed", kind: .fail, location: at()))
        flow.outputs = [DataAccess(key: "input\(segments)", type: "String")]
        return flow
    }
}
