import FlowModel

/// Flow-iOS's operation tree as FlowLens's steps and transitions, written once for a flow read from
/// source (`FlowBuilder`) and one reflected from a live `Flow` (`FlowIOSReflection`): the same start
/// and finish steps, the same step ids, and the same transitions, whichever way the tree was found.
///
/// At run time Flow-iOS starts at the tree's root; a node with one child takes it without checking
/// its case; a node with several takes the first child whose `FlowCase` matches; a node with none
/// finishes the flow.
public enum FlowIOSTree {
    /// One child of a node, as added to the tree.
    public struct Child {
        /// The child's index in the nodes' add order.
        public var node: Int
        /// The `FlowCase` it was added with, if any.
        public var flowCase: Case?
        /// Where it is added (the `add` call), for the transition without a case.
        public var location: SourceLocation?

        /// Creates a child.
        public init(node: Int, flowCase: Case? = nil, location: SourceLocation? = nil) {
            self.node = node
            self.flowCase = flowCase
            self.location = location
        }
    }

    /// A `FlowCase(key:value:)`: its key and value when they are known, else the expression written.
    public struct Case {
        public var key: String?
        public var value: String?
        /// The case as written in source, when key or value is not a known string.
        public var expression: String?
        /// Where the case is written.
        public var location: SourceLocation?

        /// Creates a case.
        public init(key: String?, value: String?, expression: String? = nil, location: SourceLocation? = nil) {
            self.key = key
            self.value = value
            self.expression = expression
            self.location = location
        }
    }

    /// Fills `flow` (whose id, name and data the caller sets) with the tree's steps and transitions.
    /// `count` nodes in add order; `step(i, uniqueID)` makes node `i`'s step, its id made unique by
    /// `uniqueID` (`LoginOp`, then `LoginOp#2`); `children(nil)` are the root's, `children(i)` node
    /// `i`'s; `leafLocation(i)` is where a leaf's way to the finish is written (nil for the root).
    public static func assemble(_ flow: inout Flow, start: Step, finish: Step, count: Int,
                                step: (Int, (String) -> String) -> Step,
                                children: (Int?) -> [Child], leafLocation: (Int?) -> SourceLocation?) {
        flow.steps.append(start)
        var idCounts: [String: Int] = [:]
        func uniqueID(_ base: String) -> String {
            idCounts[base, default: 0] += 1
            return idCounts[base]! == 1 ? base : "\(base)#\(idCounts[base]!)"
        }
        for i in 0..<count { flow.steps.append(step(i, uniqueID)) }
        flow.steps.append(finish)
        flow.entries = [start.id]
        // Node i is step i + 1 (the start is step 0).
        for node in [nil] + (0..<count).map(Optional.some) {
            let from = flow.steps[node.map { $0 + 1 } ?? 0].id
            let kids = children(node)
            if kids.isEmpty {
                flow.transitions.append(Transition(from: from, to: finish.id, location: leafLocation(node)))
                continue
            }
            for child in kids {
                var transition = Transition(from: from, to: flow.steps[child.node + 1].id, location: child.location)
                if let flowCase = child.flowCase {
                    transition.location = flowCase.location ?? transition.location
                    if kids.count == 1 {
                        transition.label = "\(flowCase.key ?? "?") = \(flowCase.value ?? "?") (only case: not checked)"
                    } else if let key = flowCase.key, let value = flowCase.value {
                        transition.condition = .equals(key: key, value: value)
                    } else if let expression = flowCase.expression {
                        transition.condition = .expression(expression)
                    }
                }
                flow.transitions.append(transition)
            }
        }
    }
}
