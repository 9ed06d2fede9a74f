import FlowModel
import Yams

/// Bounds the size of a composed document before anything walks it.
///
/// YAML aliases are expanded when a document is composed (`Node` is a value: each `*name` is a copy
/// of its anchor), so a few hundred bytes of aliases nested in one another stand for billions of
/// nodes, and every walk over them (type inference, display, the flow reader) would run for hours.
/// A document without aliases has at most three units (one per node, one per byte of scalar text)
/// per byte of the file; aliases may add `Limits.yamlAliasNodes` units beyond that. The walk stops as
/// soon as the budget is spent, so checking costs at most the budget.
///
/// The same count runs over a tree Yams composed (`check(_:sourceBytes:limits:file:)`, before it is
/// converted to `YAMLNodes`: converting expands the aliases) and over nodes composed from libyaml's
/// events (`check(_ nodes:…)`, which hold no aliases); both visit the nodes in document order.
enum YAMLBudget {
    /// The count, node by node in document order.
    private struct Meter {
        var budget: Int
        let limits: Limits

        init(sourceBytes: Int, limits: Limits) {
            budget = 3 * sourceBytes + limits.yamlAliasNodes
            self.limits = limits
        }

        /// The finding for a node at `depth` (1 for the root) holding `scalarBytes` bytes of text, at
        /// `location`; nil while the document is within both bounds.
        mutating func visit(depth: Int, scalarBytes: Int, at location: () -> SourceLocation) -> Finding? {
            if depth > limits.nesting {
                let at = location()
                return .invalidInput("nested deeper than \(limits.nesting) levels at line \(at.line)", at: at)
            }
            budget -= 1 + scalarBytes
            if budget < 0 {
                // An expanded alias keeps its anchor's position: the line names the anchor repeated.
                let at = location()
                return .invalidInput("aliases expand the document past \(limits.yamlAliasNodes) nodes and characters beyond what the file holds (the last expanded at line \(at.line)); limits.yamlAliasNodes raises the limit",
                                     at: at)
            }
            return nil
        }
    }

    /// An `invalid-input` finding when the expanded tree is over budget or nested deeper than
    /// `Limits.nesting`; nil when it is within both.
    static func check(_ root: Node, sourceBytes: Int, limits: Limits, file: String) -> Finding? {
        var meter = Meter(sourceBytes: sourceBytes, limits: limits)
        func location(_ node: Node) -> SourceLocation {
            guard let mark = node.mark else { return SourceLocation(file: file, line: 1, column: 1) }
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        // Depth first, in document order. Recursive: the depth is checked before a node's children
        // are, so the recursion is at most `limits.nesting` + 1 deep; a stack of copied nodes cost
        // nearly a tenth of reading a large flow, in retains and releases.
        func walk(_ node: Node, depth: Int) -> Finding? {
            var scalarBytes = 0
            if case let .scalar(scalar) = node { scalarBytes = scalar.string.utf8.count }
            if let problem = meter.visit(depth: depth, scalarBytes: scalarBytes, at: { location(node) }) { return problem }
            switch node {
            case let .sequence(items):
                for item in items { if let problem = walk(item, depth: depth + 1) { return problem } }
            case let .mapping(mapping):
                for (key, value) in mapping {
                    if let problem = walk(key, depth: depth + 1) ?? walk(value, depth: depth + 1) { return problem }
                }
            case .scalar, .alias: break
            }
            return nil
        }
        return walk(root, depth: 1)
    }

    /// The same for nodes composed from libyaml's events, whose nodes are in document order.
    static func check(_ nodes: YAMLNodes, sourceBytes: Int, limits: Limits, file: String) -> Finding? {
        var meter = Meter(sourceBytes: sourceBytes, limits: limits)
        for node in 0..<nodes.count {
            let problem = meter.visit(depth: nodes.depth(node), scalarBytes: nodes.string(node)?.utf8.count ?? 0) {
                let (line, column) = nodes.position(node)
                return SourceLocation(file: file, line: line, column: column)
            }
            if let problem { return problem }
        }
        return nil
    }
}
