import FlowModel
import FlowRules
import Testing

/// The per-key, on-demand data-flow facts of `FlowAnalysis` against the textbook dense fixpoints
/// (sets per step, iterated until nothing changes), on thousands of random flows: loops, several
/// entries, maybe-writes, unreachable steps, duplicate ids, missing targets, case conditions, steps that may read or
/// write anything, initial data. Every answer must be the same.
@Suite("Data-flow facts agree with the dense fixpoints")
struct DataFlowOracleTests {
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    static func randomFlow(_ random: inout Random) -> Flow {
        let stepCount = 1 + random.next(14)
        let keys = (0..<(1 + random.next(5))).map { "k\($0)" }
        var steps: [Step] = []
        for i in 0..<stepCount {
            // Now and then a step repeats an earlier id: only the first takes part.
            let id = i > 0 && random.chance(5) ? "s\(random.next(i))" : "s\(i)"
            var step = Step(id: id)
            for key in keys where random.chance(25) { step.reads.append(DataAccess(key: key, optional: random.chance(30))) }
            for key in keys where random.chance(20) {
                // Now and then a maybe-write (made only under a condition).
                step.writes.append(DataAccess(key: key, type: random.chance(50) ? "String" : "Int", condition: random.chance(25) ? "ok" : nil))
            }
            if random.chance(20), let key = keys.randomElement(using: &random) {
                step.writes.append(DataAccess(key: key, type: "Bool"))  // a second write of a key in one step
            }
            if random.chance(6) { step.unresolved.append(.implementationNotFound("Op")) }
            if random.chance(6) { step.unresolved.append(.dynamicWriteKey(nil)) }
            if random.chance(6) { step.unresolved.append(.dynamicReadKey(nil)) }
            steps.append(step)
        }
        var transitions: [Transition] = []
        for _ in 0..<random.next(stepCount * 2 + 1) {
            let from = "s\(random.next(stepCount))"
            let to = random.chance(5) ? "nowhere" : "s\(random.next(stepCount))"
            var transition = Transition(from: from, to: to)
            if random.chance(20), let key = keys.randomElement(using: &random) { transition.condition = .equals(key: key, value: "x") }
            transitions.append(transition)
        }
        // A chain through part of the steps, so most flows have long paths.
        for i in 0..<(stepCount - 1) where random.chance(60) { transitions.append(Transition(from: "s\(i)", to: "s\(i + 1)")) }
        var entries = ["s0"]
        if random.chance(25) { entries.append("s\(random.next(stepCount))") }
        if random.chance(5) { entries.append("missing") }
        let initial = keys.filter { _ in random.chance(20) }.map { DataAccess(key: $0, type: "String", condition: random.chance(15) ? "given" : nil) }
        return Flow(id: "f", kind: .declarative, steps: steps, transitions: transitions, entries: entries, initialData: initial)
    }

    /// The dense fixpoints, as the analysis computed them before it answered per key.
    struct Dense {
        var mustBeSet: [Set<String>] = []
        var readLater: [Set<String>] = []
        var reaching: [Set<Int>] = []

        init(_ a: FlowAnalysis) {
            let flow = a.flow
            let n = flow.steps.count
            let all = Set(a.keys)
            let writeSets = (0..<n).map {
                flow.steps[$0].mayWriteAnything ? all : Set(a.effectiveWrites[$0].filter { $0.condition == nil }.map(\.key))
            }
            var conditionKeys = Array(repeating: Set<String>(), count: n)
            for t in flow.transitions {
                if let from = a.index[t.from], case let .equals(key, _)? = t.condition { conditionKeys[from].insert(key) }
            }
            let readSets = (0..<n).map { flow.steps[$0].mayReadAnything ? all : Set(a.effectiveReads[$0].map(\.key)).union(conditionKeys[$0]) }
            let entries = Set(a.entries)
            let initial = Set(flow.initialData.filter { $0.condition == nil }.map(\.key))
            mustBeSet = (0..<n).map { a.reachable.contains($0) ? all : [] }
            var changed = true
            while changed {
                changed = false
                for i in 0..<n where a.reachable.contains(i) {
                    var value = entries.contains(i) ? initial : all
                    for e in a.predecessors[i] where a.reachable.contains(e.from) {
                        value.formIntersection(mustBeSet[e.from].union(writeSets[e.from]))
                    }
                    if value != mustBeSet[i] { mustBeSet[i] = value; changed = true }
                }
            }
            readLater = Array(repeating: [], count: n)
            changed = true
            while changed {
                changed = false
                for i in 0..<n {
                    var value = Set<String>()
                    for e in a.successors[i] { value.formUnion(readLater[e.to]); value.formUnion(readSets[e.to]) }
                    if value != readLater[i] { readLater[i] = value; changed = true }
                }
            }
            let defs = a.definitions
            var gen = Array(repeating: Set<Int>(), count: n)
            var kill = Array(repeating: Set<Int>(), count: n)
            for i in 0..<n {
                var last: [String: Int] = [:]
                for (d, def) in defs.enumerated() where def.step == i { last[def.access.key] = d }
                gen[i] = Set(last.values)
                let certain = Set(a.effectiveWrites[i].filter { $0.condition == nil }.map(\.key))
                for (d, def) in defs.enumerated() where certain.contains(def.access.key) { kill[i].insert(d) }
            }
            let initialDefs = Set(defs.indices.filter { defs[$0].step == nil })
            reaching = Array(repeating: [], count: n)
            changed = true
            while changed {
                changed = false
                for i in 0..<n where a.reachable.contains(i) {
                    var value = entries.contains(i) ? initialDefs : []
                    for e in a.predecessors[i] { value.formUnion(reaching[e.from].subtracting(kill[e.from]).union(gen[e.from])) }
                    if value != reaching[i] { reaching[i] = value; changed = true }
                }
            }
        }
    }

    @Test("must-set, read later, keys read later (after a step, after any of several) and reaching definitions on 1,500 random flows")
    func agree() {
        var random = Random(state: 0xF10E_5EED)
        for round in 0..<1500 {
            let flow = Self.randomFlow(&random)
            let analysis = FlowAnalysis(flow: flow, session: AnalysisSession(graph: FlowGraph(flows: [flow])))
            let dense = Dense(analysis)
            let keys = analysis.keys + ["unknown"]
            // Ask in a shuffled order: answers must not depend on what was asked before.
            var questions: [(Int, String)] = []
            for i in flow.steps.indices { for key in keys { questions.append((i, key)) } }
            questions.shuffle(using: &random)
            for (i, key) in questions {
                #expect(analysis.isDefinitelySet(key, before: i) == dense.mustBeSet[i].contains(key), "round \(round): must-set \(key) before step \(i)")
                #expect(analysis.isReadLater(key, after: i) == dense.readLater[i].contains(key), "round \(round): read later \(key) after step \(i)")
                let expected = dense.reaching[i].sorted().filter { analysis.definitions[$0].access.key == key }.map { analysis.definitions[$0] }
                #expect(analysis.reachingDefinitions(of: key, at: i) == expected, "round \(round): reaching \(key) at step \(i)")
            }
            for i in flow.steps.indices {
                #expect(analysis.keysReadLater(after: i) == dense.readLater[i], "round \(round): keys read later after step \(i)")
            }
            // After any of several steps (a sub-flow run at each of them): the union, in one walk.
            let some = flow.steps.indices.filter { _ in Bool.random(using: &random) }
            #expect(analysis.keysReadLater(afterAny: some) == some.reduce(into: Set<String>()) { $0.formUnion(dense.readLater[$1]) },
                    "round \(round): keys read later after any of \(some)")
        }
    }
}

extension DataFlowOracleTests.Random: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}
