import FlowLensTestSupport
import FlowModel
@testable import FlowRules
import Testing

/// Shapes of flow on which a rule once did work quadratic or worse in the flow's size (issue 17: "Nothing
/// in the rules needs more than (near-)linear time per flow"). No test here is timed: each checks the
/// findings at a size the old code could not finish in any reasonable time, or checks a rewritten
/// algorithm against the simple one it replaced.
@Suite struct LinearWorkTests {
    /// A flow of these steps.
    private func flow(_ steps: [String], name: String = "Shape") -> String {
        (["version: 1", "flows:", "  - name: \(name)", "    steps:"] + steps.map { "      - " + $0 }).joined(separator: "\n") + "\n"
    }

    /// What `bottomComponents` computed before (a walk per step of a walk per step): the reference.
    private func referenceBottomComponents(of nodes: Set<Int>, successors: (Int) -> [Int]) -> [Set<Int>] {
        var components: [Set<Int>] = []
        var remaining = nodes
        while let start = remaining.min() {
            let forward = FlowAnalysis.closure(from: [start], next: { successors($0).filter(nodes.contains) })
            let component = forward.filter { node in
                FlowAnalysis.closure(from: [node], next: { successors($0).filter(nodes.contains) }).contains(start)
            }
            let leaves = component.contains { node in successors(node).contains { nodes.contains($0) && !component.contains($0) } }
            if !leaves, component.count > 1 || successors(start).contains(start) { components.append(Set(component)) }
            remaining.subtract(Set(component))
            remaining.remove(start)
        }
        return components.sorted { $0.min()! < $1.min()! }
    }

    @Test("dead-end's loops with no way out: Tarjan's components are the reference's, on 400 random graphs")
    func bottomComponentsAgreeWithTheReference() {
        var random = SplitMix64(seed: 17)
        func below(_ bound: Int) -> Int { random.below(bound) }
        var nonEmpty = 0
        for _ in 0..<400 {
            let count = 1 + below(30)
            let edges = (0..<count).map { _ in (0..<below(4)).map { _ in below(count + 2) } }  // some lead outside the graph
            let nodes = Set((0..<count).filter { _ in below(5) > 0 })
            let successors: (Int) -> [Int] = { $0 < edges.count ? edges[$0] : [] }
            let expected = referenceBottomComponents(of: nodes, successors: successors)
            #expect(DeadEndRule.bottomComponents(of: nodes, successors: successors) == expected, "\(edges) \(nodes.sorted())")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 100)  // the graphs do have such loops
    }

    @Test("a chain of 5,000 steps running into a loop with no end: one finding, at the loop")
    func longChainIntoALoop() {
        let count = 5_000
        let steps = (0..<count).map { "{id: s\($0), next: s\($0 + 1)}" } + ["{id: s\(count), next: back}", "{id: back, next: s\(count)}"]
        let found = findings("dead-end", in: flow(steps + ["{id: done, kind: end}"]))
        #expect(found.map(\.message) == ["steps 's\(count)', 'back' loop forever: no end can be reached from them"])
        // And a ring of every step, with no way out.
        let ring = (0..<count).map { "{id: r\($0), next: r\(($0 + 1) % count)}" }
        let inRing = findings("dead-end", in: flow(ring + ["{id: done, kind: end}"]))
        #expect(inRing.count == 1)
        #expect(inRing.first?.message.hasPrefix("steps 'r0', 'r1', 'r2'") == true)
    }

    @Test("unknown-step: thousands of broken names among thousands of steps, each reported; early ones with a suggestion")
    func manyBrokenTransitions() {
        let count = 3_000
        let steps = (0..<count).map { "{id: step\($0), next: [{to: step\($0 + 1), when: ok}, {to: stepp\($0), otherwise: true}]}" }
        let found = findings("unknown-step", in: flow(steps + ["{id: step\(count), kind: end}"]))
        #expect(found.count == count)
        // Every finding is there; "did you mean" comes while the comparisons stay within the budget.
        let suggested = found.filter { $0.message.contains("did you mean") }
        #expect(!suggested.isEmpty && suggested.count < count)
        #expect(found.first { $0.step == "step0" }?.message.contains("did you mean 'step0'?") == true)
        // A couple of broken names among as many steps get theirs, and the fix when it is certain.
        let few = (0..<count).map { "{id: step\($0), next: \($0 == 10 ? "steq11" : $0 == 20 ? "zzz" : "step\($0 + 1)")}" }
        let fewFound = findings("unknown-step", in: flow(few + ["{id: step\(count), kind: end}"]))
        #expect(fewFound.map(\.message) == [
            "step 'step10' goes to 'steq11', which is not a step of 'Shape'; did you mean 'step11'?",
            "step 'step20' goes to 'zzz', which is not a step of 'Shape'",
        ])
        #expect(fewFound.first?.fix != nil)
    }

    @Test("missing-data-key: a long flow whose every step reads a key nothing sets, beside thousands of keys that are set")
    func manyMissingReadsAmongManyKeys() {
        let count = 4_000
        // Step i writes key_i and reads keyy_(i-1): a typo of the key the step before wrote.
        let steps = (0..<count).map { i in
            "{id: s\(i), writes: {key_\(i): Int}, reads: {\(i == 0 ? "start" : "keyy_\(i - 1)"): Int}, next: s\(i + 1)}"
        }
        let found = findings("missing-data-key", in: flow(steps + ["{id: s\(count), kind: end}"]))
        #expect(found.count == count)
        #expect(found.first { $0.step == "s5" }?.message == "step 's5' reads 'keyy_4', but no step sets it and the flow does not start with it; did you mean 'key_4'?")
        #expect(found.first { $0.step == "s5" }?.fix != nil)
    }

    @Test("a key written on one branch of each of 1,500 diamonds in a row and read after each join: the reaching writes are not listed per read")
    func diamondsInARow() {
        func diamonds(_ count: Int, stringAt odd: Int?) -> String {
            var steps: [String] = []
            for i in 0..<count {
                steps.append("{id: a\(i), next: [{to: b\(i), when: go}, {to: c\(i), otherwise: true}]}")
                steps.append("{id: b\(i), writes: {k: Int}, next: d\(i)}")
                steps.append(i == odd ? "{id: c\(i), writes: {k: String}, next: d\(i)}" : "{id: c\(i), next: d\(i)}")
                steps.append("{id: d\(i), reads: {k: Int}, next: a\(i + 1)}")
            }
            return flow(steps + ["{id: a\(count), kind: end}"])
        }
        let count = 1_500
        let plain = diamonds(count, stringAt: nil)
        #expect(findings("type-mismatch", in: plain).isEmpty)
        // Missing on the way through the first diamond's other branch, at every read: grouped past the limit.
        let missing = findings("missing-data-key", in: plain)
        #expect(missing.count == Limits.default.findingsPerKey + 1)
        #expect(missing.first?.step == "d0")
        // One String write in the middle reaches every later read, with the Int writes.
        let odd = findings("type-mismatch", in: diamonds(count, stringAt: 700))
        #expect(odd.count == Limits.default.findingsPerKey + 1)
        #expect(odd.first?.step == "d700")
        #expect(odd.first?.message.hasPrefix("step 'd700' reads 'k' as Int, but it is written as String by") == true)
    }

    /// A chain of `count` steps with a branch every 100 steps: the `when` way goes through a step that
    /// writes that branch's key, the `otherwise` way skips it, and the step after the join reads it.
    private func skippingChain(_ count: Int) -> String {
        var steps: [String] = []
        for i in 0..<count {
            if i % 100 == 50 {
                steps.append("{id: s\(i), next: [{to: w\(i), when: go}, {to: s\(i + 1), otherwise: true}]}")
                steps.append("{id: w\(i), writes: {k\(i): Int}, next: s\(i + 1)}")
            } else if i % 100 == 51 {
                steps.append("{id: s\(i), reads: {k\(i - 1): Int}, next: s\(i + 1)}")
            } else {
                steps.append("{id: s\(i), next: s\(i + 1)}")
            }
        }
        return flow(steps + ["{id: s\(count), kind: end}"])
    }

    @Test("missing-data-key: a chain of 20,000 steps whose every 100th step skips a write: each read's path, bounded, without a search of the flow per key")
    func longChainWithSkippingBranches() {
        let count = 20_000
        let found = findings("missing-data-key", in: skippingChain(count))
        #expect(found.count == count / 100)
        let last = found.first { $0.step == "s19951" }
        #expect(last?.message == "step 's19951' reads 'k19950', but it is not set on every path: it is missing on "
                + "'s0' → 's1' → 's2' → 's3' → 's4' → 's5' → 's6' → 's7' → … 19936 more steps … → 's19944' → 's19945' → 's19946' → "
                + "'s19947' → 's19948' → 's19949' → 's19950' —[otherwise]→ 's19951'")
        // The path kept with the finding is what its message names: the first and last eight steps.
        #expect(last?.path == (0..<8).map { "s\($0)" } + (19944...19951).map { "s\($0)" })
        #expect(found.allSatisfy { $0.path.count <= FlowAnalysis.describedSteps })
    }

    @Test("missing-data-key's paths: on 600 random graphs, a shortest path avoiding the key's writers, the per-key search's when the search tree's path avoids them")
    func missingPathsAgreeWithThePerKeySearch() {
        var random = SplitMix64(seed: 49)
        func below(_ bound: Int) -> Int { random.below(bound) }
        var differentButValid = 0, compared = 0
        for _ in 0..<600 {
            let count = 2 + below(25)
            var transitions: [Transition] = []
            for from in 0..<count {
                for _ in 0..<below(4) { transitions.append(Transition(from: "n\(from)", to: "n\(below(count))")) }
            }
            let writers = Set((0..<count).filter { _ in below(4) == 0 })
            let steps = (0..<count).map { i in
                Step(id: "n\(i)", reads: [DataAccess(key: "k")], writes: writers.contains(i) ? [DataAccess(key: "k")] : [])
            }
            let entries = (0..<(1 + below(2))).map { _ in "n\(below(count))" }
            let flow = Flow(id: "g", kind: .declarative, steps: steps, transitions: transitions, entries: entries)
            let analysis = AnalysisSession(graph: FlowGraph(flows: [flow])).analysis(of: flow)
            let reference = analysis.pathsAvoidingWrites(of: "k")
            var paths = MissingPaths(analysis)
            for target in 0..<count {
                let expected = analysis.path(to: target, in: reference)
                let found = paths.path(of: "k", to: target)
                #expect((expected == nil) == (found == nil), "\(transitions) \(writers) \(entries) → \(target)")
                guard let expected, let found else { continue }
                compared += 1
                let steps = (0..<found.count).map { found.element($0) }
                #expect(steps.count == expected.count)
                // A real path: from an entry, along edges, with no writer of the key before its end.
                #expect(analysis.entries.contains(steps[0].step) && steps[0].edge == nil)
                for p in 1..<steps.count {
                    #expect(steps[p].edge?.from == steps[p - 1].step && steps[p].edge?.to == steps[p].step)
                }
                #expect(!steps.dropLast().contains { writers.contains($0.step) })
                #expect(steps.last?.step == target)
                if steps.map(\.step) != expected.map(\.step) || steps.map(\.edge) != expected.map(\.edge) {
                    differentButValid += 1
                    #expect(found.tail.count > 0, "a path from the search tree alone is the per-key search's")
                }
            }
        }
        #expect(compared > 2_000)
        #expect(differentButValid * 20 < compared)  // another shortest path is rare
    }
}
