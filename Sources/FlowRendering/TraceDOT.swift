import FlowModel
import FlowPresentation

// A traced diagram (`flowlens export --trace`): the usual drawing of a flow (operation flows and state
// machines alike) with `DOTBuilder.trace` set, read from the one `TraceOverlay`:
//
// - each transition runs took carries its count ("128 runs") and a line that grows with it;
// - transitions and steps no run went through are faded;
// - a step where runs failed gets a red border and a line per failure: how many, why, the first run;
// - runs that moved where the graph has no way are a dashed edge with their count ("off the graph: 1
//   run"), runs entering at a step are counted on the start's edge, and a step (not an exit) where
//   runs ended says how many: the runs into each step are the runs out of it plus those that ended there;
// - the title says how many runs were recorded, or "no recorded runs".
// Without `trace` nothing of this is drawn: the diagram's bytes are those of an untraced export.

extension DOTBuilder {
    /// The title's row for the runs: "1,000 recorded runs", and failures at steps the flow does not have.
    var traceTitleRow: String {
        guard let trace else { return "" }
        var text = trace.titleText
        let elsewhere = trace.failures.filter { $0.step == nil }.reduce(0) { $0 + $1.count }
        if elsewhere > 0 { text += " · \(TraceOverlay.runs(elsewhere)) failed at a step the flow does not have" }
        return "<BR/><FONT POINT-SIZE=\"9\" COLOR=\"\(style.muted)\">\(Escaping.graphvizLabel(text))</FONT>"
    }

    /// The rows step `i` gets under its own: a line per failure there, in red.
    func traceRows(step i: Int) -> [String] {
        guard let trace else { return [] }
        return trace.failures(at: i).map {
            "<FONT POINT-SIZE=\"9\" COLOR=\"\(TraceOverlay.failureColour)\">\(Escaping.graphvizLabel(TraceOverlay.failureMark($0)))</FONT>"
        }
    }

    /// The row step `i` of `flow` gets when runs ended there: "■ 3 runs ended here" (not at an exit,
    /// where every run ends).
    func traceEndedRows(step i: Int, of flow: Flow) -> [String] {
        guard let trace, trace.runs > 0, !flow.steps[i].isExit, trace.endings(at: i) > 0 else { return [] }
        return ["<FONT POINT-SIZE=\"9\" COLOR=\"\(style.muted)\">\(Escaping.graphvizLabel(TraceOverlay.endedText(trace.endings(at: i))))</FONT>"]
    }

    /// The attributes of the start dot's edge to entry `i`: how many runs entered there.
    func traceStartEdge(entry i: Int) -> String {
        guard let trace, trace.runs > 0, trace.entries(at: i) > 0 else { return "" }
        return "label=<<B>\(Escaping.graphvizLabel(TraceOverlay.runs(trace.entries(at: i))))</B>>, penwidth=\(TraceOverlay.widthText(TraceOverlay.width(forCount: trace.entries(at: i))))"
    }

    /// The edges of the moves runs made that the graph has no way for, dashed, with their counts;
    /// `start` is the node a move from the flow's start leaves from.
    func traceOffGraphEdges(start: String, kindsShown: inout Set<String>) -> [String] {
        guard let trace, trace.runs > 0 else { return [] }
        let moves = trace.offGraphMoves.sorted { ($0.from ?? -1, $0.to) < ($1.from ?? -1, $1.to) }
        if !moves.isEmpty { kindsShown.insert("trace-off-graph") }
        let colour = TraceOverlay.offGraphColour
        return moves.map { move in
            "  \(move.from.map { "s\($0)" } ?? start) -> s\(move.to) [style=dashed, constraint=false, color=\"\(colour)\", fontcolor=\"\(colour)\", "
                + "penwidth=\(TraceOverlay.widthText(TraceOverlay.width(forCount: move.count))), label=<<B>\(Escaping.graphvizLabel(TraceOverlay.offGraphText(move.count)))</B>>];"
        }
    }

    /// `attributes` of step `i` with the runs drawn over them (later attributes win in DOT): a red
    /// border where runs failed; faded where none went (its findings' border kept).
    func traceStep(_ i: Int, _ attributes: String, hasFindings: Bool, kindsShown: inout Set<String>) -> String {
        guard let trace, trace.runs > 0 else { return attributes }
        var extra: [String] = []
        if !trace.failures(at: i).isEmpty {
            extra += ["color=\"\(TraceOverlay.failureColour)\"", "penwidth=2.2"]
            kindsShown.insert("trace-failure")
        } else if trace.unreachedSteps.contains(i) {
            extra += ["fontcolor=\"\(TraceOverlay.fadedText)\"", "fillcolor=\"\(TraceOverlay.fadedFill)\""]
            if !hasFindings { extra.append("color=\"\(TraceOverlay.fadedLine)\"") }
            kindsShown.insert("trace-faded")
        }
        return ([attributes] + extra).joined(separator: ", ")
    }

    /// The label rows transition `t` gets after its own: its count, in bold.
    func traceRows(transition t: Int) -> [String] {
        trace?.edgeText(t).map { ["<B>\(Escaping.graphvizLabel($0))</B>"] } ?? []
    }

    /// `attributes` of the edge drawing `transitions` with the runs drawn over them: a line as wide as
    /// their runs make it, or faded when no run took any of them.
    func traceEdge(_ transitions: [Int], _ attributes: String, kindsShown: inout Set<String>) -> String {
        guard let trace, trace.runs > 0 else { return attributes }
        let count = transitions.reduce(0) { $0 + (trace.transitionCounts.indices.contains($1) ? trace.transitionCounts[$1] : 0) }
        var extra: [String] = []
        if count > 0 {
            extra.append("penwidth=\(TraceOverlay.widthText(TraceOverlay.width(forCount: count)))")
            kindsShown.insert("trace-thickness")
        } else if transitions.allSatisfy({ trace.untakenTransitions.contains($0) }) {
            // An edge with findings keeps their colour.
            if !attributes.contains("penwidth=") { extra.append("color=\"\(TraceOverlay.fadedLine)\"") }
            extra.append("fontcolor=\"\(TraceOverlay.fadedText)\"")
            kindsShown.insert("trace-faded")
        }
        return ([attributes] + extra).filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The legend's colour for each mark of a traced diagram (see `DOTBuilder.legend`).
    static let traceLegendColours = ["trace-thickness": "#2B3340", "trace-faded": TraceOverlay.fadedText, "trace-failure": TraceOverlay.failureColour,
                                     "trace-off-graph": TraceOverlay.offGraphColour]
}
