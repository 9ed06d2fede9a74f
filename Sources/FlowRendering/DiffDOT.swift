import FlowModel
import FlowPresentation

// The diff diagram: one drawing of the union of two versions of a flow (`FlowDiff.union`), made by
// the usual builders (operation flows and state machines alike) with `DOTBuilder.marks` set.
//
// - Added steps and transitions: green border or line, thicker (an added step without findings is
//   filled light green).
// - Removed ones: red and dashed, the step's text grey.
// - Changed steps: a blue border, and what changed listed in the step (`+ needs token (String)` in
//   green, `− gives total` in red, `needs mode: String → Int` in blue).
// - Unchanged ones as usual. The new version's findings are drawn as in its own diagram; the title
//   says what changed and how many findings are new and fixed, and the legend explains the colours.

extension DOTBuilder {
    /// The DOT text of `diff`'s union flow with its changes marked, and `findings` (the new run's)
    /// drawn as usual. `newFindings` and `fixedFindings` are counted in the title.
    public func dot(for diff: FlowDiff, findings: [Finding], flows: [Flow] = [], newFindings: Int = 0, fixedFindings: Int = 0) -> String {
        var builder = self
        builder.marks = DiagramMarks(diff, newFindings: newFindings, fixedFindings: fixedFindings)
        // A removed flow's findings are gone with it; its diagram shows only what was there.
        return builder.dot(for: diff.union, findings: diff.new == nil ? [] : findings, flows: flows)
    }
}

/// What a diff diagram marks, by index into the union flow's steps and transitions.
struct DiagramMarks: Sendable {
    enum Kind: Sendable { case added, removed, changed }

    static let added = "#2E7D32", addedFill = "#E8F5E9"
    static let removed = "#C62828", removedFill = "#FBF3F3", removedText = "#8A8F98"
    static let changed = "#1565C0"
    /// The legend's colour for each mark (see `DOTBuilder.legend`).
    static let legendColours = ["diff-added": added, "diff-removed": removed, "diff-changed": changed]

    var steps: [Int: Kind] = [:]
    var changes: [Int: [FlowDiff.DataChange]] = [:]
    var otherChanges: [Int: [String]] = [:]
    var transitions: [Int: Kind] = [:]
    /// A line under the diagram's title: what changed.
    var titleRow: String

    init(_ diff: FlowDiff, newFindings: Int, fixedFindings: Int) {
        for (i, step) in diff.steps.enumerated() {
            switch step.status {
            case .added: steps[i] = .added
            case .removed: steps[i] = .removed
            case .changed:
                steps[i] = .changed
                changes[i] = step.data
                otherChanges[i] = step.other
            case .unchanged: break
            }
        }
        for (t, edge) in diff.edges.enumerated() {
            if edge.status == .added { transitions[t] = .added }
            if edge.status == .removed { transitions[t] = .removed }
        }
        var parts: [String] = []
        switch diff.status {
        case .added: parts.append("a new flow")
        case .removed: parts.append("removed")
        default:
            parts += diff.stepAndTransitionCounts + diff.other + diff.initialData.map(\.text)
        }
        if newFindings > 0 { parts.append(Plural.count(newFindings, "new finding")) }
        if fixedFindings > 0 { parts.append("\(fixedFindings) fixed") }
        let text = Escaping.graphvizLabel("changes: " + (parts.isEmpty ? "none" : parts.joined(separator: " · ")))
        titleRow = "<BR/><FONT POINT-SIZE=\"9\" COLOR=\"\(Self.changed)\">\(text)</FONT>"
    }

    /// The rows listing what changed in step `i`, coloured by kind of change.
    func rows(step i: Int) -> [String] {
        let other = (otherChanges[i] ?? []).map { (Self.changed, $0) }
        let data = (changes[i] ?? []).map { change in
            (change.status == .added ? Self.added : change.status == .removed ? Self.removed : Self.changed, change.text)
        }
        return (other + data).map { colour, text in "<FONT POINT-SIZE=\"9\" COLOR=\"\(colour)\">\(Escaping.graphvizLabel(text))</FONT>" }
    }

    /// `attributes` of step `i` with its mark drawn over them (later attributes win in DOT).
    func step(_ i: Int, _ attributes: String, hasFindings: Bool, kindsShown: inout Set<String>) -> String {
        guard let kind = steps[i] else { return attributes }
        // Every node that is not a box names its shape; boxes are rounded.
        let box = !attributes.contains("shape=")
        var extra: [String]
        switch kind {
        case .added:
            extra = ["color=\"\(Self.added)\"", "penwidth=2.6"]
            if !hasFindings, box || attributes.contains("shape=hexagon") || attributes.contains("shape=box3d") {
                extra.append("fillcolor=\"\(Self.addedFill)\"")
            }
            kindsShown.insert("diff-added")
        case .removed:
            extra = ["color=\"\(Self.removed)\"", "penwidth=1.6", "fontcolor=\"\(Self.removedText)\"",
                     box ? "style=\"rounded,dashed,filled\"" : "style=\"dashed,filled\""]
            if box { extra.append("fillcolor=\"\(Self.removedFill)\"") }
            kindsShown.insert("diff-removed")
        case .changed:
            extra = ["color=\"\(Self.changed)\"", "penwidth=2.6"]
            kindsShown.insert("diff-changed")
        }
        return ([attributes] + extra).joined(separator: ", ")
    }

    /// Attributes that mark a composite state's cluster (step `i`), or nil when it is unchanged.
    func cluster(_ i: Int, kindsShown: inout Set<String>) -> String? {
        guard let kind = steps[i] else { return nil }
        switch kind {
        case .added:
            kindsShown.insert("diff-added")
            return "color=\"\(Self.added)\", penwidth=2.6"
        case .removed:
            kindsShown.insert("diff-removed")
            return "color=\"\(Self.removed)\", penwidth=1.6, style=\"rounded,dashed,filled\""
        case .changed:
            kindsShown.insert("diff-changed")
            return "color=\"\(Self.changed)\", penwidth=2.6"
        }
    }

    /// `attributes` of transition `t` with its mark drawn over them.
    func transition(_ t: Int, _ attributes: String, kindsShown: inout Set<String>) -> String {
        guard let kind = transitions[t] else { return attributes }
        let extra: String
        switch kind {
        case .added:
            kindsShown.insert("diff-added")
            extra = "color=\"\(Self.added)\", fontcolor=\"\(Self.added)\", penwidth=2.2"
        default:
            kindsShown.insert("diff-removed")
            extra = "color=\"\(Self.removed)\", fontcolor=\"\(Self.removed)\", style=dashed, penwidth=1.4"
        }
        return attributes.isEmpty ? extra : attributes + ", " + extra
    }
}
