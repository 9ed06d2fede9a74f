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
enum YAMLBudget {
    /// An `invalid-input` finding when the expanded document is over budget or nested deeper than
    /// `Limits.nesting`; nil when it is within both.
    static func check(_ root: Node, sourceBytes: Int, limits: Limits, file: String) -> Finding? {
        var budget = 3 * sourceBytes + limits.yamlAliasNodes
        func location(_ node: Node) -> SourceLocation {
            guard let mark = node.mark else { return SourceLocation(file: file, line: 1, column: 1) }
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        // Depth first, in document order. Recursive: the depth is checked before a node's children
        // are, so the recursion is at most `limits.nesting` + 1 deep; a stack of copied nodes cost
        // nearly a tenth of reading a large flow, in retains and releases.
        func walk(_ node: Node, depth: Int) -> Finding? {
            if depth > limits.nesting {
                let at = location(node)
                return .invalidInput("nested deeper than \(limits.nesting) levels at line \(at.line)", at: at)
            }
            budget -= 1
            if case let .scalar(scalar) = node { budget -= scalar.string.utf8.count }
            if budget < 0 {
                // An expanded alias keeps its anchor's position: the line names the anchor repeated.
                let at = location(node)
                return .invalidInput("aliases expand the document past \(limits.yamlAliasNodes) nodes and characters beyond what the file holds (the last expanded at line \(at.line)); limits.yamlAliasNodes raises the limit",
                                     at: at)
            }
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
}
