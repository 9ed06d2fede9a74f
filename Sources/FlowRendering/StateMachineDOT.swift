import FlowModel
import FlowPresentation

// The state-machine style, for state machines (`FlowKind.isStateMachine`).
//
// - A state is a rounded box: its name in bold, its context type in grey under it (not when `Void`),
//   then its details (model fields) and data, as in the other diagrams.
// - `Begin` is UML's initial state, a small black dot; `End` its final state, a ringed dot ("bullseye");
//   a failure exit is a red ringed dot. Their input and output types are written beside them, unless `Void`.
// - A composite state is a cluster (`subgraph cluster_<n>`, numbered depth first) holding its own
//   machine, Begin and End included, recursively. Its name and context type are the cluster's label.
//   A transition to the composite is drawn to the inner Begin and clipped at the cluster's border
//   (`lhead`); a transition from the composite leaves from the inner End, clipped at the border
//   (`ltail`): the arrows touch the cluster, and the layout puts them at its top and bottom, as a reader
//   expects of "enter at the start, leave when done". A sub-machine without an End is left from its
//   first other exit, else from its entry. A composite whose machine is not among the flows given (or
//   that would contain itself) is drawn as one box with a double border.
// - Transitions show their label as written (the carried type only when there is no label). A
//   transition that goes back up the machine (found by a depth-first walk from Begin) is written
//   reversed with `dir=back`: dot ranks a cluster as one block and would otherwise sometimes draw a
//   composite above the state that leads into it.
// - The sub-machine's findings (`Finding.flow` is its id) are drawn inside the cluster exactly as in
//   its own diagram; findings about the composite step itself colour the cluster's border and are
//   listed in its label.
//
// Node names and SVG ids stay generated: `s<i>`/`step-<i>` for the machine drawn, `c<n>_s<i>`/
// `cluster-<n>-step-<i>` inside cluster n. Every edge is written at the top level, after all nodes, so
// that naming a node in an edge never moves it into another cluster.

extension DOTBuilder {
    /// The DOT text of a state machine, its composite states drawn with the machines in `flows`.
    func stateMachineDiagram(for flow: Flow, findings: [Finding], flows: [Flow]) -> Diagram {
        var builder = self
        builder.drawsStates = true
        var writer = MachineWriter(builder: builder, flows: flows, findings: findings)
        _ = writer.draw(flow, scope: MachineScope(cluster: nil), indent: "  ", depth: 0, stack: [flow.id], outer: [:])

        let title = self.title(of: flow, status: FlowStatus(of: flow, findings: findings, flows: flows)) + (marks?.titleRow ?? "") + traceTitleRow

        var lines = ["digraph flow {"]
        lines.append("  graph [rankdir=TB, labelloc=t, labeljust=l, fontname=\"\(style.font)\", fontsize=13, fontcolor=\"\(style.ink)\", nodesep=0.35, ranksep=0.45, pad=0.2, compound=true, label=<\(title)>];")
        lines.append("  node [fontname=\"\(style.font)\", fontsize=11, fontcolor=\"\(style.ink)\", shape=box, style=\"rounded,filled\", fillcolor=\"\(style.stepFill)\", color=\"\(style.stepLine)\", penwidth=1.2, margin=\"0.14,0.06\"];")
        lines.append("  edge [fontname=\"\(style.font)\", fontsize=9, fontcolor=\"\(style.muted)\", color=\"\(style.stepLine)\", arrowsize=0.7];")
        lines += writer.nodes
        lines += writer.edges
        if !writer.kindsShown.isEmpty {
            lines.append("  subgraph legend { rank=sink; legend [id=\"legend\", shape=plaintext, style=\"\", margin=0, label=<\(legend(writer.kindsShown))>]; }")
        }
        lines.append("}")
        return Diagram(dot: lines.joined(separator: "\n") + "\n", marks: writer.findingMarks, steps: writer.stepElements, transitions: writer.transitionElements)
    }

    // MARK: - Nodes

    /// Attributes of a step drawn as a node (every step but a composite drawn as a cluster).
    func stateAttributes(_ step: Step, id: String, findings: [Finding], kindsShown: inout Set<String>, extraRows: [String] = []) -> String {
        let unreachable = FindingPhrase.meansNeverReached(findings)
        let findingRows = findings.sorted(by: Finding.reportOrder).map(findingRow)
        markKinds(findings, into: &kindsShown)
        if unreachable { kindsShown.insert("unreachable") }

        switch step.kind {
        case .start, .end, .fail:
            // A dot, its type (and for a failure, its name) written beside it.
            var attributes = ["id=\"\(id)\""]
            var rows: [String] = []
            var fillColour = style.ink, lineColour = style.ink
            switch step.kind {
            case .start:
                attributes += ["shape=circle", "width=0.22"]
                if let type = StepRows.shownType(step.contentType) { rows.append(typeRow(type)) }
                kindsShown.insert("initial")
            case .end:
                attributes += ["shape=doublecircle", "width=0.16"]
                if let type = StepRows.shownType(step.contentType) { rows.append(typeRow(type)) }
                kindsShown.insert("final")
            default:
                attributes += ["shape=doublecircle", "width=0.16"]
                fillColour = style.error
                lineColour = style.error
                rows.append("<B>\(Escaping.graphvizLabel(step.name))</B>")
                if let type = StepRows.shownType(step.contentType) { rows.append(typeRow(type)) }
                kindsShown.insert("final-fail")
            }
            if unreachable { fillColour = style.unreachableFill }
            if !findings.isEmpty { lineColour = color(for: findings) }
            attributes += ["fixedsize=true", unreachable ? "style=\"dashed,filled\"" : "style=filled",
                           "fillcolor=\"\(fillColour)\"", "color=\"\(lineColour)\""]
            if !findings.isEmpty { attributes.append("penwidth=2.2") }
            attributes.append("label=\"\"")
            rows += extraRows + findingRows
            if !rows.isEmpty { attributes.append("xlabel=<\(table(rows))>") }
            return attributes.joined(separator: ", ")
        case .branch, .join, .group:
            return nodeAttributes(step, id: id, findings: findings, kindsShown: &kindsShown, extraRows: extraRows)
        default:
            break
        }

        // A state: a rounded box.
        var attributes = ["id=\"\(id)\""]
        var rows = ["<B>\(Escaping.graphvizLabel(step.name))</B>"]
        // A composite whose machine is not drawn here says so.
        rows += StepRows.rows(of: step, flows: [], nesting: .ownDiagram).map { row($0, mutedTypes: true) }
        if step.kind == .subflow {
            attributes += ["peripheries=2", "fillcolor=\"\(style.subflowFill)\""]
            kindsShown.insert("composite")
        } else if step.terminal {
            attributes += ["peripheries=2", "fillcolor=\"\(style.endFill)\""]
            kindsShown.insert("final")
        } else {
            kindsShown.insert("state")
        }
        rows += extraRows + findingRows
        if !findings.isEmpty {
            attributes += ["color=\"\(color(for: findings))\"", "penwidth=2.2"]
            if !unreachable { attributes.append("fillcolor=\"\(fill(for: findings))\"") }
        }
        if unreachable {
            attributes += ["style=\"rounded,dashed,filled\"", "fillcolor=\"\(style.unreachableFill)\""]
        }
        attributes.append("label=<\(table(rows))>")
        return attributes.joined(separator: ", ")
    }

    /// The attribute statement of a composite's cluster: its name and context type as the label.
    func clusterAttributes(_ step: Step, id: String, depth: Int, findings: [Finding], kindsShown: inout Set<String>, extraRows: [String] = []) -> String {
        let unreachable = FindingPhrase.meansNeverReached(findings)
        var rows = ["<B>\(Escaping.graphvizLabel(step.name))</B>"]
        rows += StepRows.rows(of: step, flows: [], nesting: .drawnInside).map { row($0, mutedTypes: true) }
        rows += extraRows
        rows += findings.sorted(by: Finding.reportOrder).map(findingRow)
        kindsShown.insert("composite")
        var fillColour = style.compositeFills[(depth - 1) % style.compositeFills.count]
        var lineColour = style.compositeLine
        var penwidth = "1.2"
        if !findings.isEmpty {
            markKinds(findings, into: &kindsShown)
            lineColour = color(for: findings)
            penwidth = "2.2"
        }
        if unreachable {
            kindsShown.insert("unreachable")
            fillColour = style.unreachableFill
        }
        let cells = rows.map { "<TR><TD ALIGN=\"LEFT\">\($0)</TD></TR>" }.joined()
        return "graph [id=\"\(id)\", style=\"\(unreachable ? "rounded,dashed,filled" : "rounded,filled")\", fillcolor=\"\(fillColour)\", color=\"\(lineColour)\", penwidth=\(penwidth), fontsize=11, labeljust=l, margin=12, "
            + "label=<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">\(cells)</TABLE>>];"
    }

    /// `Credentials`, small and grey: the type a start or end dot carries.
    private func typeRow(_ type: TypeName) -> String { row(.types(type, result: nil), mutedTypes: true) }
}

/// The generated names of one machine's nodes: `s3` and `step-3` for the machine drawn, `c1_s3` and
/// `cluster-1-step-3` inside cluster 1.
struct MachineScope {
    /// The cluster number, nil for the machine the diagram is about.
    let cluster: Int?

    private var node: String { cluster.map { "c\($0)_" } ?? "" }
    private var id: String { cluster.map { "cluster-\($0)-" } ?? "" }

    func stepNode(_ index: Int) -> String { node + "s\(index)" }
    func stepID(_ index: Int) -> String { id + "step-\(index)" }
    var startNode: String { node + "start" }
    var startID: String { cluster == nil ? "flow-start" : id + "start" }
    var dataNode: String { node + "data" }
    var dataID: String { cluster == nil ? "flow-data" : id + "data" }
    func missingNode(_ n: Int) -> String { node + "m\(n)" }
    func missingID(_ n: Int) -> String { id + "missing-\(n)" }
}

/// Writes a machine's nodes (clusters nested) and collects every edge for the top level.
struct MachineWriter {
    let builder: DOTBuilder
    let flows: [Flow]
    let findings: [Finding]
    var nodes: [String] = []
    var edges: [String] = []
    var kindsShown = Set<String>()
    /// Where each drawn finding is marked.
    var findingMarks: [Finding: DiagramElement] = [:]
    /// The elements of the machine the diagram is about (not of those drawn inside its clusters).
    var stepElements: [Int: DiagramElement] = [:], transitionElements: [Int: DiagramElement] = [:]
    private var clusters = 0

    init(builder: DOTBuilder, flows: [Flow], findings: [Finding]) {
        self.builder = builder
        self.flows = flows
        self.findings = findings
    }

    /// Where edges attach to a step: a node, or a composite's inner entry and exit in its cluster.
    private struct Anchor {
        var entry: String
        var exit: String
        var cluster: String?
    }

    /// Draws `flow` at `indent`; returns the nodes its entering and leaving edges attach to. `outer`:
    /// the nodes of the states of the machines around this one, by step id, for a transition that
    /// crosses out of a composite (drawn to that state, not to a "no such state" ghost).
    mutating func draw(_ flow: Flow, scope: MachineScope, indent: String, depth: Int, stack: [String], outer: [String: String]) -> (entry: String, exit: String) {
        let style = builder.style
        let findings = self.findings.filter { $0.flow == flow.id }
        let places = FindingPlaces(findings)
        // Diff marks apply to the machine drawn, not to the sub-machines inside its composites.
        let marks = scope.cluster == nil ? builder.marks : nil
        // So do the recorded runs: the overlay counts this machine's steps and transitions only.
        var traced = builder
        if scope.cluster != nil { traced.trace = nil }
        // This machine's edges go before those of its sub-machines, which are drawn (recursively) first.
        let edgeStart = edges.count
        var own: [String] = []
        let graph = FlowIndex(flow)
        let firstIndex = graph.index

        // Findings about the machine as a whole, or about a step that does not exist, go on a note.
        let entries = graph.entries
        let flowFindings = places.aboutTheFlow(firstIndex: firstIndex)
        let hasData = !flow.initialData.isEmpty || !flowFindings.isEmpty
        for finding in flowFindings { findingMarks[finding] = .node(id: scope.dataID) }
        if hasData {
            nodes.append("\(indent)\(scope.dataNode) [id=\"\(scope.dataID)\", shape=note, style=filled, fillcolor=\"\(flowFindings.isEmpty ? style.stepFill : builder.fill(for: flowFindings))\", color=\"\(flowFindings.isEmpty ? style.stepLine : builder.color(for: flowFindings))\", label=<\(builder.dataLabel(flow, flowFindings))>];")
            builder.markKinds(flowFindings, into: &kindsShown)
        }
        let explicitStart = entries.count == 1 && flow.steps[entries[0]].kind == .start
        if !explicitStart {
            nodes.append("\(indent)\(scope.startNode) [id=\"\(scope.startID)\", shape=circle, style=filled, fillcolor=\"\(style.ink)\", color=\"\(style.ink)\", width=0.22, fixedsize=true, label=\"\"];")
            kindsShown.insert("initial")
        }

        func subMachine(_ step: Step) -> Flow? {
            guard step.kind == .subflow, let reference = step.subflow, let sub = SubMachines.machine(reference, in: flow, flows: flows),
                  !stack.contains(sub.id), stack.count <= DOTBuilder.maximumNestedMachines else { return nil }
            return sub
        }
        // The states drawn as nodes, seen from the machines nested in this one.
        var visible = outer
        for (i, step) in flow.steps.enumerated().reversed() where subMachine(step) == nil { visible[step.id] = scope.stepNode(i) }

        var anchors: [Int: Anchor] = [:]
        for (i, step) in flow.steps.enumerated() {
            let stepFindings = places.on(step, at: i, firstIndex: firstIndex)
            if let sub = subMachine(step) {
                let n = clusters
                for finding in stepFindings { findingMarks[finding] = .node(id: "cluster-\(n)") }
                if scope.cluster == nil { stepElements[i] = .node(id: "cluster-\(n)") }
                clusters += 1
                let inner = MachineScope(cluster: n)
                nodes.append("\(indent)subgraph cluster_\(n) {")
                nodes.append("\(indent)  " + builder.clusterAttributes(step, id: "cluster-\(n)", depth: depth + 1, findings: stepFindings, kindsShown: &kindsShown,
                                                                    extraRows: (marks?.rows(step: i) ?? []) + traced.traceRows(step: i)))
                if let overrides = marks?.cluster(i, kindsShown: &kindsShown) { nodes.append("\(indent)  graph [\(overrides)];") }
                let (entry, exit) = draw(sub, scope: inner, indent: indent + "  ", depth: depth + 1, stack: stack + [sub.id], outer: visible)
                nodes.append("\(indent)}")
                anchors[i] = Anchor(entry: entry, exit: exit, cluster: "cluster_\(n)")
            } else {
                for finding in stepFindings { findingMarks[finding] = .node(id: scope.stepID(i)) }
                if scope.cluster == nil { stepElements[i] = .node(id: scope.stepID(i)) }
                let highlighted = scope.cluster == nil ? builder.highlight.nodeAttributes(i) : ""
                let attributes = builder.stateAttributes(step, id: scope.stepID(i), findings: stepFindings, kindsShown: &kindsShown,
                                                         extraRows: (marks?.rows(step: i) ?? []) + traced.traceRows(step: i))
                let marked = traced.traceStep(i, marks?.step(i, attributes, hasFindings: !stepFindings.isEmpty, kindsShown: &kindsShown) ?? attributes,
                                              hasFindings: !TraceOverlay.besidesFading(stepFindings).isEmpty, kindsShown: &kindsShown)
                nodes.append("\(indent)\(scope.stepNode(i)) [\(marked)\(highlighted)];")
            }
        }
        func head(_ i: Int) -> (node: String, cluster: String?) { anchors[i].map { ($0.entry, $0.cluster) } ?? (scope.stepNode(i), nil) }
        func tail(_ i: Int) -> (node: String, cluster: String?) { anchors[i].map { ($0.exit, $0.cluster) } ?? (scope.stepNode(i), nil) }

        let entry = explicitStart ? head(entries[0]).node : scope.startNode
        if hasData { own.append("  \(scope.dataNode) -> \(entry) [style=dotted, arrowhead=none];") }
        if !explicitStart {
            for i in entries {
                let (node, cluster) = head(i)
                own.append("  \(scope.startNode) -> \(node)\(cluster.map { " [lhead=\($0)]" } ?? "");")
            }
        }

        let backwards = Self.backEdges(graph)
        var missing = MissingTargets()
        for (t, transition) in flow.transitions.enumerated() {
            guard let from = firstIndex[transition.from] else { continue }
            let tailNode = tail(from).node
            var tailCluster = tail(from).cluster
            var headNode: String, headCluster: String?
            if let to = firstIndex[transition.to] {
                (headNode, headCluster) = head(to)
            } else if let node = outer[transition.to] {
                // Out of this composite, to a state of a machine around it.
                headNode = node
            } else {
                // A transition to a state that does not exist still gets drawn, to a marked ghost node.
                let n = missing.number(for: transition.to) { n in
                    nodes.append("\(indent)\(scope.missingNode(n)) [id=\"\(scope.missingID(n))\", style=\"dashed,filled\", fillcolor=\"\(style.errorFill)\", color=\"\(style.error)\", fontcolor=\"\(style.error)\", label=<<I>no such state</I><BR/>\(Escaping.graphvizLabel(transition.to))>];")
                    kindsShown.insert("error")
                }
                headNode = scope.missingNode(n)
            }
            if tailCluster != nil, tailCluster == headCluster {
                // A composite's transition to itself: from its End back to its Begin, inside.
                tailCluster = nil
                headCluster = nil
            }
            let edgeFindings = places.on(transition)
            // A final state shows its result type beside it: the edge into it whose label is that very
            // type (a machine's label that is a type, or the carried type) does not say it again.
            var shown = transition
            if let to = firstIndex[transition.to], flow.steps[to].kind == .end, anchors[to] == nil,
               let result = StepRows.shownType(flow.steps[to].contentType)?.spelling,
               (shown.displayLabel ?? shown.carriedType?.spelling) == result, shown.condition == nil {
                shown.label = nil
                shown.carriedType = nil
            }
            var plain = traced.traceEdge([t], builder.edgeAttributes(shown, findings: edgeFindings, kindsShown: &kindsShown, stateMachine: true,
                                                                     extraRows: traced.traceRows(transition: t)), kindsShown: &kindsShown)
            // An edge cut at a composite's border has its label placed on the uncut line, inside the
            // composite, far from what is drawn: it goes beside the line's end at the state instead.
            if tailCluster != nil || headCluster != nil {
                let end = (backwards.contains(t) ? tailCluster != nil : headCluster != nil) ? "taillabel" : "headlabel"  // the state's end
                plain = plain.replacingOccurrences(of: #"(^|, )label=<"#, with: "$1\(end)=<", options: .regularExpression)
                if plain.contains("\(end)=<") { plain += ", labeldistance=4, labelangle=-35" }
            }
            let attributes = [marks?.transition(t, plain, kindsShown: &kindsShown) ?? plain,
                              scope.cluster == nil ? builder.highlight.edgeAttributes(t) : ""].filter { !$0.isEmpty }.joined(separator: ", ")
            if backwards.contains(t) {
                // Written head to tail, the arrow drawn at the head: see `backEdges`.
                let list = (["dir=back", attributes] + [headCluster.map { "ltail=\($0)" }, tailCluster.map { "lhead=\($0)" }].compactMap { $0 })
                    .filter { !$0.isEmpty }.joined(separator: ", ")
                own.append("  \(headNode) -> \(tailNode) [\(list)];")
                for finding in edgeFindings where findingMarks[finding] == nil { findingMarks[finding] = .edge(tail: headNode, head: tailNode) }
                if scope.cluster == nil { transitionElements[t] = .edge(tail: headNode, head: tailNode) }
            } else {
                let list = ([attributes] + [tailCluster.map { "ltail=\($0)" }, headCluster.map { "lhead=\($0)" }].compactMap { $0 })
                    .filter { !$0.isEmpty }.joined(separator: ", ")
                own.append("  \(tailNode) -> \(headNode)\(list.isEmpty ? "" : " [\(list)]");")
                for finding in edgeFindings where findingMarks[finding] == nil { findingMarks[finding] = .edge(tail: tailNode, head: headNode) }
                if scope.cluster == nil { transitionElements[t] = .edge(tail: tailNode, head: headNode) }
            }
        }
        edges.insert(contentsOf: own, at: edgeStart)

        // Where a transition leaving this machine starts: its End, else another exit, else its entry.
        let exitIndex = flow.steps.indices.first { flow.steps[$0].kind == .end && anchors[$0] == nil }
            ?? flow.steps.indices.first { flow.steps[$0].isExit && anchors[$0] == nil }
        return (entry, exitIndex.map { scope.stepNode($0) } ?? entry)
    }

    /// The transitions (by index) that go back up the machine: those a depth-first walk from the
    /// entries (then from every other step, in order), following transitions in order, finds leading
    /// to a step it is still inside. They are written reversed with `dir=back`, as dot would lay them
    /// out anyway; doing it here keeps the machine's order from Begin down when composites are
    /// clusters, which dot ranks as one block and would otherwise turn the other way round when a
    /// transition leaves a composite for an earlier state. A transition to its own step is left alone.
    static func backEdges(_ graph: FlowIndex) -> Set<Int> {
        graph.backEdges(from: graph.entries + Array(graph.successors.indices), selfLoops: false)
    }
}
