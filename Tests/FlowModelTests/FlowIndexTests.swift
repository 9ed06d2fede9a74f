import FlowModel
import Testing

@Suite("FlowIndex")
struct FlowIndexTests {
    /// A checkout with a repeated step id, a transition to a step that does not exist, a self-loop
    /// and a loop back: what every consumer of the index relies on.
    func checkout() -> Flow {
        let steps = ["cart", "address", "payment", "address", "confirm", "done"].map { Step(id: $0) }
        let transitions = [
            Transition(from: "cart", to: "address"),
            Transition(from: "address", to: "payment"),
            Transition(from: "payment", to: "payment", label: "retry"),
            Transition(from: "payment", to: "cart", label: "edit cart"),
            Transition(from: "payment", to: "confirm"),
            Transition(from: "confirm", to: "receipt"),  // no such step
            Transition(from: "confirm", to: "done"),
            Transition(from: "gone", to: "done"),  // from no step
        ]
        return Flow(id: "checkout", kind: .declarative, steps: steps, transitions: transitions, entries: ["cart", "nowhere"])
    }

    @Test("steps by id: the first of each id; later ones are duplicates")
    func index() {
        let graph = FlowIndex(checkout())
        #expect(graph.index == ["cart": 0, "address": 1, "payment": 2, "confirm": 4, "done": 5])
        #expect(graph.duplicates == [3])
        #expect(graph.entries == [0])  // an entry naming no step is left out
    }

    @Test("edges join existing steps only; transitionsLeaving keeps every transition by source step")
    func edges() {
        let graph = FlowIndex(checkout())
        #expect(graph.successors[2].map(\.transition) == [2, 3, 4])
        #expect(graph.successors[2].map(\.to) == [2, 0, 4])
        #expect(graph.successors[4].map(\.to) == [5])
        #expect(graph.successors[3].isEmpty)  // the duplicate has no edges of its own
        #expect(graph.predecessors[0] == [FlowIndex.Edge(transition: 3, from: 2, to: 0)])
        #expect(graph.predecessors[5].map(\.from) == [4])
        #expect(graph.transitionsLeaving[4] == [5, 6])  // the one into no step too
        #expect(graph.transitionsLeaving[1] == [1])
        #expect(graph.transitionsLeaving[3] == [1])  // a duplicate: its id's, as the first step's
        #expect(graph.transitionsLeaving[5].isEmpty)
        #expect(!graph.transitionsLeaving.joined().contains(7))  // from no step: no step's
    }

    @Test("unknown targets: every transition into no step, in order, whatever its source")
    func unknownTargets() {
        var flow = checkout()
        #expect(FlowIndex(flow).unknownTargets == [5])
        flow.transitions.append(Transition(from: "gone", to: "elsewhere"))  // neither end a step
        flow.transitions.append(Transition(from: "cart", to: "Cart"))  // ids are compared exactly
        #expect(FlowIndex(flow).unknownTargets == [5, 8, 9])
        #expect(FlowIndex(Flow(id: "empty", kind: .declarative)).unknownTargets.isEmpty)
    }

    @Test("a step set: membership, growth, and its steps in ascending order")
    func stepSet() {
        var set = StepSet(capacity: 4)
        #expect(set.isEmpty && !set.contains(0) && !set.contains(-1) && !set.contains(99))
        let inserted = [set.insert(9), set.insert(2), set.insert(9), set.insert(0)]  // 9: past the capacity, it grows
        #expect(inserted == [true, true, false, true])
        #expect(Array(set) == [0, 2, 9])
        #expect(set.count == 3 && set.contains(9) && !set.contains(8) && !set.contains(10))
        #expect(set == [9, 0, 2])
        #expect(set != [0, 2])
        #expect(StepSet(capacity: 100) == StepSet())  // the same steps, whatever the room
    }

    @Test("back edges and reverse post-order of a flow with loops")
    func order() {
        let graph = FlowIndex(checkout())
        #expect(graph.reversePostOrder() == [0, 1, 2, 4, 5])
        #expect(graph.backEdges(from: graph.entries) == [2, 3])
        #expect(graph.backEdges(from: graph.entries, selfLoops: false) == [3])
        #expect(!graph.isAcyclicFromEntries)
        var straight = checkout()
        straight.transitions.removeAll { $0.label != nil }
        #expect(FlowIndex(straight).isAcyclicFromEntries)
    }

    /// Random graphs (several entries, loops, self-loops, unreachable parts) against definitions
    /// checked directly: a back edge closes a cycle and removing them leaves none; reverse
    /// post-order puts every other edge between reached steps forwards.
    @Test("random graphs agree with the definitions")
    func random() {
        var generator = SplitMix(seed: 17)
        for _ in 0..<300 {
            let count = Int(generator.next() % 12) + 1
            let steps = (0..<count).map { Step(id: "s\($0)") }
            var transitions: [Transition] = []
            for _ in 0..<Int(generator.next() % UInt64(2 * count + 1)) {
                transitions.append(Transition(from: "s\(generator.next() % UInt64(count))", to: "s\(generator.next() % UInt64(count))"))
            }
            let entries = (0..<Int(generator.next() % 3) + 1).map { _ in "s\(generator.next() % UInt64(count))" }
            let graph = FlowIndex(Flow(id: "f", kind: .declarative, steps: steps, transitions: transitions, entries: entries))

            // Reached steps, by a plain search.
            var reached = Set(graph.entries), work = graph.entries
            while let s = work.popLast() { for e in graph.successors[s] where reached.insert(e.to).inserted { work.append(e.to) } }
            let order = graph.reversePostOrder()
            #expect(Set(order) == reached && order.count == reached.count)
            let back = graph.backEdges(from: graph.entries)
            let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            for (t, transition) in transitions.enumerated() {
                let from = graph.index[transition.from]!, to = graph.index[transition.to]!
                guard reached.contains(from) else { continue }
                if back.contains(t) {
                    // Closes a cycle: its target reaches its source.
                    var seen: Set<Int> = [to], stack = [to]
                    while let s = stack.popLast() { for e in graph.successors[s] where seen.insert(e.to).inserted { stack.append(e.to) } }
                    #expect(seen.contains(from))
                } else {
                    #expect(position[from]! < position[to]!)
                }
            }
            // Without its back edges the reached graph has no cycle: a topological sort takes every step.
            var indegree = Dictionary(uniqueKeysWithValues: reached.map { ($0, 0) })
            for s in reached { for e in graph.successors[s] where !back.contains(e.transition) { indegree[e.to]! += 1 } }
            var ready = indegree.filter { $0.value == 0 }.map(\.key), sorted = 0
            while let s = ready.popLast() {
                sorted += 1
                for e in graph.successors[s] where !back.contains(e.transition) {
                    indegree[e.to]! -= 1
                    if indegree[e.to] == 0 { ready.append(e.to) }
                }
            }
            #expect(sorted == reached.count)
            #expect(graph.isAcyclicFromEntries == back.isEmpty)
        }
    }
}

/// SplitMix64, a small deterministic generator for this module's random tests: the same inputs on
/// every run, so that a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
