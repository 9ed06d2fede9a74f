/// One flow's graph as every consumer walks it — analysis, paths, diagrams and diff — built once per
/// flow in one pass over its steps and transitions.
///
/// Steps are addressed by their index in `flow.steps`. Only the first step with an id is a node:
/// a later step repeating an id is a duplicate (reported once, by `duplicate-step`), and a transition
/// names its ends by id, so it always meets the first.
public struct FlowIndex: Sendable {
    /// A transition between two existing steps.
    public struct Edge: Hashable, Sendable {
        /// Index into `flow.transitions`.
        public let transition: Int
        /// Source step index.
        public let from: Int
        /// Target step index.
        public let to: Int

        /// An edge of transition `transition` from step `from` to step `to`.
        public init(transition: Int, from: Int, to: Int) {
            self.transition = transition
            self.from = from
            self.to = to
        }
    }

    /// Index of the first step with each id.
    public let index: [String: Int]
    /// Indices of steps that repeat an earlier id.
    public let duplicates: StepSet
    /// Per step, every transition leaving its id (into existing steps or not), as indices into
    /// `flow.transitions` in their order. A duplicate step has its id's, as the first step does.
    public let transitionsLeaving: [[Int]]
    /// Outgoing edges per step (to existing steps only), in transition order.
    public let successors: [[Edge]]
    /// Incoming edges per step, in transition order.
    public let predecessors: [[Edge]]
    /// The entry steps that exist, in `flow.effectiveEntries` order.
    public let entries: [Int]
    /// The transitions whose target is no step of the flow, as indices into `flow.transitions` in
    /// their order (whether or not their source is one): what `unknown-step` reports, found here
    /// with the one look-up of each target the edges need.
    public let unknownTargets: [Int]

    /// Indexes `flow`.
    public init(_ flow: Flow) {
        // By index, not by element: a copy of each `Step` or `Transition` (many reference-counted
        // fields) cost more than the rest of the loop.
        var index: [String: Int] = Dictionary(minimumCapacity: flow.steps.count)
        var duplicates = StepSet()
        for i in flow.steps.indices {
            if index[flow.steps[i].id] == nil { index[flow.steps[i].id] = i } else { duplicates.insert(i) }
        }
        var successors = Array(repeating: [Edge](), count: flow.steps.count)
        var predecessors = successors
        var leaving = Array(repeating: [Int](), count: flow.steps.count)
        var unknownTargets: [Int] = []
        for t in flow.transitions.indices {
            let to = index[flow.transitions[t].to]
            if to == nil { unknownTargets.append(t) }
            guard let from = index[flow.transitions[t].from] else { continue }
            leaving[from].append(t)
            guard let to else { continue }
            let edge = Edge(transition: t, from: from, to: to)
            successors[from].append(edge)
            predecessors[to].append(edge)
        }
        for i in duplicates { leaving[i] = leaving[index[flow.steps[i].id]!] }
        self.index = index
        self.duplicates = duplicates
        transitionsLeaving = leaving
        self.successors = successors
        self.predecessors = predecessors
        entries = flow.effectiveEntries.compactMap { index[$0] }
        self.unknownTargets = unknownTargets
    }

    /// Reverse post-order of a depth-first walk from the entries, following transitions in order:
    /// the order in which forward data flow converges fastest. Steps no entry reaches are left out.
    public func reversePostOrder() -> [Int] {
        var visited = Array(repeating: false, count: successors.count)
        var post: [Int] = []
        for entry in entries where !visited[entry] {
            // Iterative: flows of thousands of steps must not exhaust the stack.
            var stack: [(node: Int, next: Int)] = [(entry, 0)]
            visited[entry] = true
            while let (node, next) = stack.last {
                if next < successors[node].count {
                    stack[stack.count - 1].next += 1
                    let to = successors[node][next].to
                    if !visited[to] {
                        visited[to] = true
                        stack.append((to, 0))
                    }
                } else {
                    post.append(node)
                    stack.removeLast()
                }
            }
        }
        return post.reversed()
    }

    /// The transitions (by index) that a depth-first walk from `roots` in order, following transitions
    /// in order, finds leading to a step it is still inside: each closes a cycle. With `selfLoops`
    /// false a transition to its own step is not followed (so never counted).
    public func backEdges(from roots: [Int], selfLoops: Bool = true) -> Set<Int> {
        enum Mark { case unseen, inside, done }
        var marks = Array(repeating: Mark.unseen, count: successors.count)
        var back = Set<Int>()
        for root in roots where marks[root] == .unseen {
            var stack = [(step: root, next: 0)]
            marks[root] = .inside
            while let (step, next) = stack.last {
                let edges = successors[step]
                guard next < edges.count else {
                    marks[step] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let edge = edges[next]
                if !selfLoops && edge.to == step { continue }
                switch marks[edge.to] {
                case .inside: back.insert(edge.transition)
                case .done: break
                case .unseen:
                    marks[edge.to] = .inside
                    stack.append((edge.to, 0))
                }
            }
        }
        return back
    }

    /// Whether no cycle (a transition to its own step included) is reachable from the entries.
    public var isAcyclicFromEntries: Bool { backEdges(from: entries).isEmpty }
}
