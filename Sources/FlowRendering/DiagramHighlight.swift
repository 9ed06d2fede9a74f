import FlowModel
import FlowPresentation

/// Marks drawn over a diagram for one question about it (`flowlens explain`): the steps that set and
/// read a data key, and a path on which it is missing. Only the flow the diagram is about is marked,
/// not the sub-machines drawn inside its composite states.
public struct DiagramHighlight: Hashable, Sendable {
    /// How a step is marked.
    public enum Mark: String, Hashable, Sendable {
        /// The step sets the key: a green border.
        case writes
        /// The step reads the key: a blue border.
        case reads
        /// The step sets and reads it.
        case readsAndWrites
        /// The step reads the key where it may be missing: a thick red border.
        case missing
    }

    /// Marks by step index (into `flow.steps`).
    public var steps: [Int: Mark]
    /// Transitions (indices into `flow.transitions`) drawn bold red: the path where the key is missing.
    public var transitions: Set<Int>
    /// What the marks are about, written in the legend (a key name); user text, escaped when drawn.
    public var subject: String

    /// Creates a highlight.
    public init(steps: [Int: Mark] = [:], transitions: Set<Int> = [], subject: String = "") {
        self.steps = steps
        self.transitions = transitions
        self.subject = subject
    }

    /// No marks.
    public var isEmpty: Bool { steps.isEmpty && transitions.isEmpty }

    static let writeColour = "#2E7D32", readColour = "#1565C0", missingColour = "#C62828"

    /// Attributes appended to step `index`'s node (Graphviz keeps the last of a repeated attribute).
    func nodeAttributes(_ index: Int) -> String {
        guard let mark = steps[index] else { return "" }
        switch mark {
        case .writes: return ", color=\"\(Self.writeColour)\", penwidth=3"
        case .reads: return ", color=\"\(Self.readColour)\", penwidth=3"
        case .readsAndWrites: return ", color=\"\(Self.readColour):\(Self.writeColour)\", penwidth=3"
        case .missing: return ", color=\"\(Self.missingColour)\", penwidth=4"
        }
    }

    /// Attributes appended to transition `index`'s edge.
    func edgeAttributes(_ index: Int) -> String {
        transitions.contains(index) ? "color=\"\(Self.missingColour)\", penwidth=3, fontcolor=\"\(Self.missingColour)\"" : ""
    }

    /// A legend line for the marks shown, as an HTML-like label row.
    func legend() -> String {
        let shown = Set(steps.values)
        var cells: [(String, String)] = []
        let about = subject.isEmpty ? "" : " ‘\(Escaping.graphvizLabel(subject))’"
        if shown.contains(.writes) || shown.contains(.readsAndWrites) { cells.append((Self.writeColour, "▢ green: sets\(about)")) }
        if shown.contains(.reads) || shown.contains(.readsAndWrites) { cells.append((Self.readColour, "▢ blue: reads\(about)")) }
        if shown.contains(.missing) || !transitions.isEmpty { cells.append((Self.missingColour, "━ red: a path where\(about) is missing")) }
        return cells.map { "<TD><FONT POINT-SIZE=\"9\" COLOR=\"\($0.0)\">\($0.1)</FONT></TD>" }.joined()
    }
}
