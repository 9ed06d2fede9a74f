import FlowModel
import FlowPresentation

/// An element of a rendered diagram, named as Graphviz writes it into SVG. Names are generated, never
/// user text.
public enum DiagramElement: Hashable, Sendable {
    /// A node or a cluster, by its SVG `id`.
    case node(id: String)
    /// An edge, by the DOT names of the nodes it is written between: Graphviz's SVG `<title>` of the
    /// edge is `tail->head`.
    case edge(tail: String, head: String)
}

/// Builds the DOT text of one flow's diagram. Pure: same flow and findings, same bytes.
///
/// State machines are drawn in a state-machine style (see `StateMachineDOT.swift`): UML initial and
/// final states, composite states as clusters holding their sub-machine.
///
/// Every piece of user text goes into HTML-like labels, escaped by `Escaping.graphvizLabel`. Nothing a user
/// wrote is put into `id`, `URL`, `href` or `tooltip`, which Graphviz 2.4x writes into SVG unescaped;
/// node names are generated (`s0`, `s1` …) and SVG ids are `step-<index>`.
public struct DOTBuilder: Sendable {
    /// Composite states are drawn inside one another (DOT and Mermaid) this many levels deep at most;
    /// deeper sub-machines are states that say they have their own diagram. The drawing recurses,
    /// and a machine nested a thousand levels deep overflowed the stack.
    public static let maximumNestedMachines = 16

    /// A flow's diagram: its DOT text, and where each finding drawn on it is marked.
    public struct Diagram: Sendable {
        /// The DOT text.
        public var dot: String
        /// The element each drawn finding is marked on (a finding of a sub-machine drawn in a
        /// composite state's cluster included).
        public var marks: [Finding: DiagramElement]
        /// The element each step of the flow is drawn as, by its index in `steps` (a composite
        /// drawn as a cluster: the cluster).
        public var steps: [Int: DiagramElement] = [:]
        /// The edge each transition of the flow is drawn as, by its index in `transitions`.
        public var transitions: [Int: DiagramElement] = [:]
    }

    /// Colours and sizes of the diagram.
    public struct Style: Sendable {
        var font = "Helvetica"
        var ink = "#2B3340"
        var muted = "#5F6B7A"
        var stepFill = "#F4F7FB"
        var stepLine = "#5F6B7A"
        var branchFill = "#FFF8E6"
        var groupFill = "#EEF6EE"
        var subflowFill = "#EEF1FA"
        var endFill = "#E6F2EA"
        var failFill = "#FBEAEA"
        var error = "#C62828"
        var errorFill = "#FDECEA"
        var warning = "#B26A00"
        var warningFill = "#FFF4E0"
        var unreachableFill = "#EEEEEE"
        /// Fills of composite states (clusters), alternating with depth so that nested ones stand out.
        var compositeFills = ["#EDF1FA", "#E1E7F4"]
        var compositeLine = "#7D8BA8"
    }

    let style = Style()
    /// Marks drawn over the diagram (a data key's writers and readers, a path): none by default.
    public var highlight = DiagramHighlight()

    /// How the diagram of an operation flow is laid out.
    public enum Layout: Sendable {
        /// `standard` up to `largeFlowSteps` steps, `large` above.
        case automatic
        /// Edge labels on their edges: the best placement, but Graphviz's layout time grows steeply
        /// with long edges (a shared failure exit reached from far up a long flow).
        case standard
        /// The same nodes, edges, labels and finding marks, laid out fast: edge labels as `xlabel`
        /// (placed after layout, so they do not double the ranks) and `concentrate=true` (edges
        /// that run side by side to one target share a line). See docs/output-formats.md, "Large flows".
        case large
    }

    /// Above this many steps, `.automatic` lays a flow out as `.large`.
    public static let largeFlowSteps = 100

    /// How operation flows are laid out (state machines always use their own style).
    public var layout: Layout = .automatic

    /// What a diff diagram marks over the flow drawn (see `DiffDOT.swift`); nil for a plain diagram.
    var marks: DiagramMarks?

    /// What recorded runs did on the flow (`flowlens export --trace`, see `TraceDOT.swift`); nil for a
    /// diagram of the flow alone.
    public var trace: TraceOverlay?

    /// True while drawing a state machine: its findings speak of states ("no such state"), as its
    /// readers do (see `FindingPhrase`).
    var drawsStates = false

    /// Creates a builder.
    public init(layout: Layout = .automatic) { self.layout = layout }

    /// The DOT text for `flow`, marking `findings` (those of flows not drawn are ignored).
    ///
    /// `flows` are the other flows of the graph: a state machine's composite states are drawn with
    /// the sub-machines found there (by id, else by name), with the sub-machines' findings. Without
    /// them a composite state is drawn as a single box.
    public func dot(for flow: Flow, findings: [Finding], flows: [Flow] = []) -> String {
        diagram(for: flow, findings: findings, flows: flows).dot
    }

    /// The diagram of `flow` (as `dot(for:findings:flows:)`), with the element each finding is marked on.
    public func diagram(for flow: Flow, findings: [Finding], flows: [Flow] = []) -> Diagram {
        if flow.kind.isStateMachine { return stateMachineDiagram(for: flow, findings: findings, flows: flows) }
        let status = FlowStatus(of: flow, findings: findings, flows: flows)
        let findings = findings.filter { $0.flow == flow.id }
        let places = FindingPlaces(findings)
        var findingMarks: [Finding: DiagramElement] = [:]
        var stepElements: [Int: DiagramElement] = [:], transitionElements: [Int: DiagramElement] = [:]
        var lines: [String] = []
        let graph = FlowIndex(flow)
        let firstIndex = graph.index

        let title = self.title(of: flow, status: status) + (marks?.titleRow ?? "") + traceTitleRow
        let large = layout == .large || (layout == .automatic && flow.steps.count > Self.largeFlowSteps)

        lines.append("digraph flow {")
        lines.append("  graph [rankdir=TB, labelloc=t, labeljust=l, fontname=\"\(style.font)\", fontsize=13, fontcolor=\"\(style.ink)\", nodesep=0.35, ranksep=0.45, pad=0.2, \(large ? "concentrate=true, " : "")label=<\(title)>];")
        lines.append("  node [fontname=\"\(style.font)\", fontsize=11, fontcolor=\"\(style.ink)\", shape=box, style=\"rounded,filled\", fillcolor=\"\(style.stepFill)\", color=\"\(style.stepLine)\", penwidth=1.2, margin=\"0.14,0.06\"];")
        lines.append("  edge [fontname=\"\(style.font)\", fontsize=9, fontcolor=\"\(style.muted)\", color=\"\(style.stepLine)\", arrowsize=0.7];")

        var kindsShown = Set<String>()
        // Where the flow starts: its initial data, then a start dot unless an explicit start step exists.
        let entries = graph.entries
        // Findings about the flow as a whole, or about a step that does not exist, go on the data node.
        let flowFindings = places.aboutTheFlow(firstIndex: firstIndex)
        for finding in flowFindings { findingMarks[finding] = .node(id: "flow-data") }
        if !flow.initialData.isEmpty || !flowFindings.isEmpty {
            markKinds(flowFindings, into: &kindsShown)
            lines.append("  data [id=\"flow-data\", shape=note, style=filled, fillcolor=\"\(flowFindings.isEmpty ? style.stepFill : fill(for: flowFindings))\", color=\"\(flowFindings.isEmpty ? style.stepLine : color(for: flowFindings))\", label=<\(dataLabel(flow, flowFindings))>];")
        }
        let explicitStart = entries.count == 1 && flow.steps[entries[0]].kind == .start
        if !explicitStart {
            lines.append("  start [id=\"flow-start\", shape=circle, style=filled, fillcolor=\"\(style.ink)\", color=\"\(style.ink)\", width=0.18, fixedsize=true, label=\"\"];")
            if !flow.initialData.isEmpty || !flowFindings.isEmpty { lines.append("  data -> start [style=dotted, arrowhead=none];") }
            for entry in entries {
                let counted = traceStartEdge(entry: entry)
                lines.append("  start -> s\(entry)\(counted.isEmpty ? "" : " [\(counted)]");")
            }
        } else if !flow.initialData.isEmpty || !flowFindings.isEmpty {
            lines.append("  data -> s\(entries[0]) [style=dotted, arrowhead=none];")
        }

        for (i, step) in flow.steps.enumerated() {
            // A finding belongs to the first step with its id, except a duplicate-step finding, which
            // belongs to the later step it is located at.
            let stepFindings = places.on(step, at: i, firstIndex: firstIndex)
            for finding in stepFindings { findingMarks[finding] = .node(id: "step-\(i)") }
            stepElements[i] = .node(id: "step-\(i)")
            let attributes = nodeAttributes(step, id: "step-\(i)", findings: stepFindings, kindsShown: &kindsShown,
                                            extraRows: (marks?.rows(step: i) ?? []) + traceRows(step: i) + traceEndedRows(step: i, of: flow), flows: flows)
            let marked = traceStep(i, marks?.step(i, attributes, hasFindings: !stepFindings.isEmpty, kindsShown: &kindsShown) ?? attributes,
                                   hasFindings: !TraceOverlay.besidesFading(stepFindings).isEmpty, kindsShown: &kindsShown)
            lines.append("  s\(i) [\(marked)\(highlight.nodeAttributes(i))];")
        }

        // Where each transition is drawn to: a step, or a marked ghost node for a step that does not exist.
        var missing = MissingTargets()
        var ends: [Int: (tail: String, head: String)] = [:]
        for (t, transition) in flow.transitions.enumerated() {
            guard let from = firstIndex[transition.from] else { continue }
            if let to = firstIndex[transition.to] {
                ends[t] = ("s\(from)", "s\(to)")
            } else {
                let n = missing.number(for: transition.to) { n in
                    lines.append("  m\(n) [id=\"missing-\(n)\", style=\"dashed,filled\", fillcolor=\"\(style.errorFill)\", color=\"\(style.error)\", fontcolor=\"\(style.error)\", label=<<I>no such step</I><BR/>\(Escaping.graphvizLabel(transition.to))>];")
                    kindsShown.insert("error")
                }
                ends[t] = ("s\(from)", "m\(n)")
            }
        }
        if large {
            // `concentrate=true` merges every edge between two nodes, either way round, into one line and
            // keeps one label: so all transitions between two nodes are written as one edge carrying
            // every label (see `mergedEdge`).
            var pairs: [[Int]] = []
            var pairIndex: [Set<String>: Int] = [:]
            for t in flow.transitions.indices {
                guard let (tail, head) = ends[t] else { continue }
                let key: Set<String> = [tail, head]
                if let n = pairIndex[key] { pairs[n].append(t) } else { pairIndex[key] = pairs.count; pairs.append([t]) }
            }
            for group in pairs {
                let (tail, head) = ends[group[0]]!
                for t in group {
                    transitionElements[t] = .edge(tail: tail, head: head)
                    for finding in places.on(flow.transitions[t]) where findingMarks[finding] == nil { findingMarks[finding] = .edge(tail: tail, head: head) }
                }
                // Both ways round: each label says where it leads.
                let bothWays = group.contains { ends[$0]!.head != head }
                let attributes = mergedEdge(group.map { t in
                    let transition = flow.transitions[t]
                    let target = firstIndex[transition.to].map { flow.steps[$0].name } ?? transition.to
                    return (transition, places.on(transition), bothWays ? "to \(target): " : "", traceRows(transition: t))
                }, kindsShown: &kindsShown)
                let arrowheads = bothWays ? "dir=both" : ""
                let traced = traceEdge(group, attributes, kindsShown: &kindsShown)
                let marked = [marks.map { marks in group.reduce(traced) { marks.transition($1, $0, kindsShown: &kindsShown) } } ?? traced,
                              group.map { highlight.edgeAttributes($0) }.first { !$0.isEmpty } ?? "", arrowheads]
                lines.append("  \(tail) -> \(head) [\(marked.filter { !$0.isEmpty }.joined(separator: ", "))];")
            }
        } else {
            for (t, transition) in flow.transitions.enumerated() {
                guard let (tail, head) = ends[t] else { continue }
                let found = places.on(transition)
                for finding in found where findingMarks[finding] == nil { findingMarks[finding] = .edge(tail: tail, head: head) }
                transitionElements[t] = .edge(tail: tail, head: head)
                let plain = traceEdge([t], edgeAttributes(transition, findings: found, kindsShown: &kindsShown, extraRows: traceRows(transition: t)),
                                      kindsShown: &kindsShown)
                let attributes = [marks?.transition(t, plain, kindsShown: &kindsShown) ?? plain, highlight.edgeAttributes(t)]
                lines.append("  \(tail) -> \(head) [\(attributes.filter { !$0.isEmpty }.joined(separator: ", "))];")
            }
        }

        lines += traceOffGraphEdges(start: explicitStart ? "s\(entries[0])" : "start", kindsShown: &kindsShown)

        if !kindsShown.isEmpty {
            lines.append("  subgraph legend { rank=sink; legend [id=\"legend\", shape=plaintext, style=\"\", margin=0, label=<\(legend(kindsShown))>]; }")
        }
        lines.append("}")
        return Diagram(dot: lines.joined(separator: "\n") + "\n", marks: findingMarks, steps: stepElements, transitions: transitionElements)
    }


    /// The diagram's title: the flow's name, and under it its kind and its status (`FlowStatus`).
    func title(of flow: Flow, status: FlowStatus) -> String {
        "<B>\(Escaping.graphvizLabel(flow.name))</B><BR/><FONT POINT-SIZE=\"9\" COLOR=\"\(style.muted)\">\(Escaping.graphvizLabel(flow.kind.noun + " · " + status.text))</FONT>"
    }

    // MARK: - Nodes

    /// `extraRows` (HTML) are shown under the step's own rows, above its findings.
    func nodeAttributes(_ step: Step, id: String, findings: [Finding], kindsShown: inout Set<String>, extraRows: [String] = [], flows: [Flow] = []) -> String {
        var attributes = ["id=\"\(id)\""]
        let unreachable = FindingPhrase.meansNeverReached(findings)
        var rows: [String] = []
        // Each kind's shape and the legend entry it adds; a plain join is a dot without a label.
        let shape: (attributes: [String], legend: String)
        switch step.kind {
        case .start: shape = (["shape=oval", "fillcolor=\"\(style.ink)\"", "fontcolor=\"white\""], "start")
        case .end: shape = (["shape=oval", "peripheries=2", "fillcolor=\"\(style.endFill)\""], "end")
        case .fail: shape = (["shape=oval", "peripheries=2", "fillcolor=\"\(style.failFill)\""], "fail")
        case .branch: shape = (["shape=hexagon", "style=filled", "fillcolor=\"\(style.branchFill)\""], "branch")
        case .join where step.reads.isEmpty && step.writes.isEmpty && findings.isEmpty && extraRows.isEmpty:
            attributes += ["shape=circle", "width=0.22", "fixedsize=true", "style=filled", "fillcolor=\"\(style.stepLine)\"", "label=\"\""]
            kindsShown.insert("join")
            return attributes.joined(separator: ", ")
        case .group: shape = (["shape=box3d", "style=filled", "fillcolor=\"\(style.groupFill)\""], "group")
        case .subflow: shape = (["peripheries=2", "fillcolor=\"\(style.subflowFill)\""], "subflow")
        // A state that ends the flow (a case whose `result` is non-nil) is drawn as an end.
        default: shape = step.terminal ? (["peripheries=2", "fillcolor=\"\(style.endFill)\""], "end") : ([], "step")
        }
        attributes += shape.attributes
        kindsShown.insert(shape.legend)
        rows.append("<B>\(Escaping.graphvizLabel(step.name))</B>")
        rows += StepRows.rows(of: step, flows: flows).map { row($0) }
        rows += extraRows
        rows += findings.sorted(by: Finding.reportOrder).map(findingRow)
        if !findings.isEmpty {
            attributes += ["color=\"\(color(for: findings))\"", "penwidth=2.2"]
            if !unreachable, step.kind != .start { attributes.append("fillcolor=\"\(fill(for: findings))\"") }
            markKinds(findings, into: &kindsShown)
        }
        if unreachable {
            attributes.append(step.kind == .branch || step.kind == .group ? "style=\"dashed,filled\"" : "style=\"rounded,dashed,filled\"")
            attributes.append("fillcolor=\"\(style.unreachableFill)\"")
            kindsShown.insert("unreachable")
        }
        attributes.append("label=<\(table(rows))>")
        return attributes.joined(separator: ", ")
    }

    func dataLabel(_ flow: Flow, _ findings: [Finding]) -> String {
        var rows = ["<B>Starts with</B>"]
        for value in flow.initialData {
            var text = "<B>\(Escaping.graphvizLabel(value.key))</B>"
            if let type = value.type { text += " <FONT COLOR=\"\(style.muted)\">(\(Escaping.graphvizLabel(type.spelling)))</FONT>" }
            if let literal = value.value { text += " = \(Escaping.graphvizLabel(literal))" }
            rows.append(small(text))
        }
        if flow.initialData.isEmpty { rows = ["<B>\(Escaping.graphvizLabel(flow.name))</B>"] }
        rows += findings.sorted(by: Finding.reportOrder).map(findingRow)
        return table(rows)
    }

    // MARK: - Edges

    /// `stateMachine`: the label is shown as written (a machine's label that is a type is already the
    /// carried type's name), the carried type only when there is no label.
    /// `labelAttribute`: `xlabel` in the large layout.
    /// `extraRows` (HTML) go under the label's own rows.
    func edgeAttributes(_ transition: Transition, findings: [Finding], kindsShown: inout Set<String>, stateMachine: Bool = false,
                        labelAttribute: String = "label", extraRows: [String] = []) -> String {
        var attributes: [String] = []
        if transition.kind == .error {
            attributes += ["style=dashed", "color=\"\(style.error)\""]
            kindsShown.insert("error-edge")
        }
        if transition.kind == .parallel { attributes.append("style=bold") }
        if let worst = SeverityStyle.worst(findings) {
            attributes += ["color=\"\(worst.colour)\"", "penwidth=2", "fontcolor=\"\(worst.colour)\""]
            markKinds(findings, into: &kindsShown)
        }
        if let label = edgeLabel(transition, findings: findings, stateMachine: stateMachine, extraRows: extraRows) { attributes.append("\(labelAttribute)=<\(label)>") }
        return attributes.joined(separator: ", ")
    }

    /// The HTML label of a transition: its condition or label, its carried type, then its findings in
    /// a few words, each in its severity's colour, then `extraRows` (HTML). `prefix` (plain text) goes
    /// before the first line.
    func edgeLabel(_ transition: Transition, findings: [Finding], stateMachine: Bool, prefix: String = "", extraRows: [String] = []) -> String? {
        var label = transition.displayLabel.map(Escaping.graphvizLabel)
        if transition.kind == .error { label = label ?? "on error" }
        if stateMachine {
            if label == nil, let type = transition.carriedType { label = Escaping.graphvizLabel(type.spelling) }
        } else if let type = transition.carriedType {
            label = (label.map { $0 + " " } ?? "") + "(\(Escaping.graphvizLabel(type.spelling)))"
        }
        let marks = FindingPhrase.texts(findings, stateMachine: stateMachine || drawsStates).map { "<FONT COLOR=\"\(SeverityStyle.of($0.severity).colour)\">\(Escaping.graphvizLabel($0.text))</FONT>" } + extraRows
        // The prefix says where the label leads; a transition with nothing to say gets none.
        if !prefix.isEmpty, label != nil || !marks.isEmpty {
            label = label.map { Escaping.graphvizLabel(prefix) + $0 } ?? Escaping.graphvizLabel(String(prefix.dropLast()))
        }
        let rows = (label.map { [$0] } ?? []) + marks
        return rows.isEmpty ? nil : rows.joined(separator: "<BR/>")
    }

    /// One edge of the large layout standing for several transitions between the same two nodes (see
    /// `diagram(for:findings:flows:)`): every label, one a line (each with its `prefix`), dashed only
    /// when all are error edges, in the colour of the worst finding.
    /// `rows`: each transition's extra label rows (HTML, see `edgeLabel`).
    func mergedEdge(_ transitions: [(transition: Transition, findings: [Finding], prefix: String, rows: [String])], kindsShown: inout Set<String>) -> String {
        if transitions.count == 1, let only = transitions.first, only.prefix.isEmpty {
            return edgeAttributes(only.transition, findings: only.findings, kindsShown: &kindsShown, labelAttribute: "xlabel", extraRows: only.rows)
        }
        var attributes: [String] = []
        let all = transitions.flatMap(\.findings)
        if transitions.allSatisfy({ $0.transition.kind == .error }) {
            attributes += ["style=dashed", "color=\"\(style.error)\""]
        }
        if transitions.contains(where: { $0.transition.kind == .error }) { kindsShown.insert("error-edge") }
        if transitions.contains(where: { $0.transition.kind == .parallel }) { attributes.append("style=bold") }
        if let worst = SeverityStyle.worst(all) {
            attributes += ["color=\"\(worst.colour)\"", "penwidth=2", "fontcolor=\"\(worst.colour)\""]
            markKinds(all, into: &kindsShown)
        }
        let labels = transitions.compactMap { edgeLabel($0.transition, findings: $0.findings, stateMachine: false, prefix: $0.prefix, extraRows: $0.rows) }
        if !labels.isEmpty { attributes.append("xlabel=<\(labels.joined(separator: "<BR/>"))>") }
        return attributes.joined(separator: ", ")
    }

    // MARK: - Legend

    func legend(_ shown: Set<String>) -> String {
        let entries: [(String, String)] = [
            ("initial", "● where it begins (with its input)"), ("state", "▢ state (in grey: the data it holds)"),
            ("composite", "▭ state with its own states inside"), ("final", "◉ where it ends (with its result)"),
            ("final-fail", "◉ red: ends in failure"),
            ("start", "● start"), ("step", "▢ step"), ("branch", "⬡ decision"), ("join", "● branches meet"),
            ("group", "❒ once for each element"), ("subflow", "▣ runs another flow"), ("end", "◎ end"),
            ("fail", "◎ ends in failure"), ("error-edge", "⇢ taken on error"),
            ("unreachable", "▢ grey, dashed: never reached"),
            ("error", SeverityStyle.legendText(.error)), ("warning", SeverityStyle.legendText(.warning)), ("note", SeverityStyle.legendText(.note)),
            ("trace-thickness", TraceOverlay.legendThickness), ("trace-faded", TraceOverlay.legendFaded), ("trace-failure", TraceOverlay.legendFailure),
            ("trace-off-graph", TraceOverlay.legendOffGraph),
            ("diff-added", "green: added"), ("diff-removed", "red, dashed: removed"), ("diff-changed", "blue: changed (listed in the step)"),
        ]
        var cells = ""
        for (key, text) in entries where shown.contains(key) {
            let severity = Severity.allCases.first { SeverityStyle.of($0).word == key }
            let colour = severity.map { SeverityStyle.of($0).colour } ?? DiagramMarks.legendColours[key]
                ?? Self.traceLegendColours[key] ?? style.muted
            cells += "<TD><FONT POINT-SIZE=\"9\" COLOR=\"\(colour)\">\(Escaping.graphvizLabel(text))</FONT></TD>"
        }
        cells += highlight.legend()
        return "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"4\"><TR>\(cells)</TR></TABLE>"
    }

    // MARK: - Helpers

    /// One of a step's rows (`StepRows`) in a small font; `mutedTypes`: its types in grey, as a
    /// state diagram shows the data a state holds.
    func row(_ row: StepRows.Row, mutedTypes: Bool = false) -> String {
        let html = Escaping.graphvizLabel
        switch row {
        case let .types(content, result):
            let text = (content.map { html($0.spelling) } ?? "") + (result.map { (content == nil ? "→ " : " → ") + html($0.spelling) } ?? "")
            return small(mutedTypes ? "<FONT COLOR=\"\(style.muted)\">\(text)</FONT>" : text)
        case let .forEach(input, output): return small("for each element of <B>\(html(input))</B>" + (output.map { " → \(html($0))" } ?? ""))
        case let .runs(flow): return small("runs the flow “\(html(flow))”")
        case .ownStates: return small("<I>\(html(row.text))</I>")
        case let .detail(text): return small(html(text))
        case let .data(verb, accesses): return small(verb.rawValue + " " + accessList(accesses))
        case let .implementation(name): return small("<I>\(html(name))</I>")
        }
    }

    func accessList(_ accesses: [DataAccess]) -> String {
        accesses.map { access in
            let type = access.type.map { " <FONT COLOR=\"\(style.muted)\">(\(Escaping.graphvizLabel($0.spelling)))</FONT>" } ?? ""
            return "<B>\(Escaping.graphvizLabel(access.key))</B>\(type)"
        }.joined(separator: ", ")
    }

    /// `✖ may be missing: token`, in the finding's colour (see `FindingPhrase`).
    func findingRow(_ finding: Finding) -> String {
        "<FONT POINT-SIZE=\"9\" COLOR=\"\(SeverityStyle.of(finding.severity).colour)\">\(Escaping.graphvizLabel(FindingPhrase.text(finding, stateMachine: drawsStates)))</FONT>"
    }

    /// Records in `kindsShown` the severity of each of `findings`: the legend lists each mark drawn.
    func markKinds(_ findings: [Finding], into kindsShown: inout Set<String>) {
        for finding in findings { kindsShown.insert(SeverityStyle.of(finding.severity).word) }
    }

    func small(_ html: String) -> String { "<FONT POINT-SIZE=\"9\">\(html)</FONT>" }

    func table(_ rows: [String]) -> String {
        "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">"
            + rows.map { "<TR><TD>\($0)</TD></TR>" }.joined() + "</TABLE>"
    }

    func color(for findings: [Finding]) -> String { SeverityStyle.worst(findings)?.colour ?? style.stepLine }

    func fill(for findings: [Finding]) -> String { SeverityStyle.worst(findings)?.fill ?? style.stepFill }
}

/// One flow's findings by the step, the transition or the flow they are about, filed once: each step and each
/// transition of a diagram asks for its own, and a scan of every finding for each of them made the
/// diagram of a flow with a finding at each of its 2,000 steps quadratic (14 s for its Mermaid).
struct FindingPlaces {
    private let findings: [Finding]
    private var byStep: [String: [Int]] = [:]
    private var byEdge: [EdgeReference: [Int]] = [:]

    init(_ findings: [Finding]) {
        self.findings = findings
        for (n, finding) in findings.enumerated() {
            if let edge = finding.edge {
                byEdge[edge, default: []].append(n)
            } else if let step = finding.step {
                byStep[step, default: []].append(n)
            }
        }
    }

    /// The findings drawn at `step`, the step at `index`, in order. A finding belongs to the first step
    /// with its id, except a duplicate-step finding, which belongs to the later step it is located at.
    func on(_ step: Step, at index: Int, firstIndex: [String: Int]) -> [Finding] {
        (byStep[step.id] ?? []).map { findings[$0] }.filter { finding in
            if finding.rule == RuleID.duplicateStep { return firstIndex[step.id] != index && finding.location == step.location }
            return firstIndex[step.id] == index
        }
    }

    /// The findings about the flow as a whole, or about a step it does not have (no edge), in order:
    /// drawn on the flow's data node or note.
    func aboutTheFlow(firstIndex: [String: Int]) -> [Finding] {
        findings.filter { $0.edge == nil && ($0.step.map { firstIndex[$0] == nil } ?? true) }
    }

    /// The findings about `transition`'s edge, in order.
    func on(_ transition: Transition) -> [Finding] {
        (byEdge[EdgeReference(from: transition.from, to: transition.to)] ?? []).map { findings[$0] }
    }
}
