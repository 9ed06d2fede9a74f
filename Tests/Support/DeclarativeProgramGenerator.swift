import Foundation

/// Realistic flows of FlowLens's own format, generated from a seed by a grammar of what users write:
/// sequences of operations reading and writing shared keys, case splits on a key's value and on
/// conditions in words (merging directly or at a `join`), fan-outs whose branches meet at a join,
/// branches that end or fail early, steps with an error way, retry loops, groups, optional reads and
/// initial data. The same seed gives the same text.
public struct DeclarativeProgramGenerator {
    /// A deterministic random source (a 64-bit LCG; its own so that results do not depend on the platform).
    public struct Random {
        var state: UInt64
        public init(seed: UInt64) { state = seed &* 0x9E3779B97F4A7C15 &+ 1 }
        public mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        public mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
        public mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    /// One generated step: its YAML fields, kept apart so that a shrinker can drop or simplify each.
    public struct Step: Equatable {
        public var id: String
        public var kind: String?
        public var reads: [(key: String, type: String)]
        public var writes: [(key: String, type: String)]
        /// `next:` as YAML (a step id, a list of ids, or a list of transition objects); nil for an exit.
        public var next: String?

        public static func == (a: Step, b: Step) -> Bool {
            a.id == b.id && a.kind == b.kind && a.next == b.next
                && a.reads.map { "\($0.key):\($0.type)" } == b.reads.map { "\($0.key):\($0.type)" }
                && a.writes.map { "\($0.key):\($0.type)" } == b.writes.map { "\($0.key):\($0.type)" }
        }
    }

    /// A generated program: one flow.
    public struct Program {
        public var name: String
        public var data: [(key: String, type: String)]
        public var steps: [Step]
        /// Extra YAML lines per step id (a group's `group:` mapping).
        public var extra: [String: String] = [:]

        /// The program as a `*.flow.yaml` document.
        public var yaml: String {
            var out = "version: 1\nflows:\n  - name: \(name)\n"
            if !data.isEmpty {
                out += "    data: {" + data.map { "\($0.key): \(quoted($0.type))" }.joined(separator: ", ") + "}\n"
            }
            out += "    steps:\n"
            for step in steps {
                out += "      - id: \(step.id)\n"
                if let kind = step.kind { out += "        kind: \(kind)\n" }
                if let extra = extra[step.id] { out += extra }
                if !step.reads.isEmpty {
                    out += "        reads: {" + step.reads.map { "\($0.key): \(quoted($0.type))" }.joined(separator: ", ") + "}\n"
                }
                if !step.writes.isEmpty {
                    out += "        writes: {" + step.writes.map { "\($0.key): \(quoted($0.type))" }.joined(separator: ", ") + "}\n"
                }
                if let next = step.next { out += "        next: \(next)\n" }
            }
            return out
        }

        private func quoted(_ type: String) -> String { type.contains("[") || type.contains("?") ? "\"\(type)\"" : type }
    }

    static let verbs = ["load", "check", "price", "reserve", "charge", "notify", "pack", "ship", "verify", "score",
                        "fetch", "store", "render", "sign", "review", "audit", "merge", "split", "tag", "send"]
    static let keyNames = ["cartID", "total", "userID", "shipping", "receipt", "token", "address", "items", "status", "coupon"]
    static let types = ["String", "Int", "[String]", "Bool"]

    var random: Random
    var steps: [Step] = []
    var extra: [String: String] = [:]
    var counter = 0
    let keys: [(key: String, type: String)]
    /// Keys a case split compares with a value: never given a value, so every case may hold.
    var tested: Set<String> = []
    var depth = 0

    public init(seed: UInt64) {
        random = Random(seed: seed)
        let count = 2 + random.next(4)
        var pool = Self.keyNames
        var keys: [(String, String)] = []
        for _ in 0..<count {
            let k = pool.remove(at: random.next(pool.count))
            keys.append((k, random.pick(Self.types)))
        }
        self.keys = keys
    }

    /// The program of `seed`.
    public static func program(seed: UInt64) -> Program {
        var generator = DeclarativeProgramGenerator(seed: seed)
        return generator.generate(seed: seed)
    }

    mutating func generate(seed: UInt64) -> Program {
        let data = keys.filter { _ in random.chance(30) }
        let done = Step(id: "done", kind: "end", reads: [], writes: [], next: nil)
        let first = block(then: "done", budget: 4 + random.next(8))
        // The flow starts at its first listed step: put the block's first step first.
        var ordered = steps
        if let at = ordered.firstIndex(where: { $0.id == first }), at != 0 {
            let step = ordered.remove(at: at)
            ordered.insert(step, at: 0)
        }
        if random.chance(20) {
            // A written-out end that some late step also names, now and then listed mid-way.
            ordered.insert(done, at: 1 + random.next(ordered.count))
        } else {
            ordered.append(done)
        }
        return Program(name: "Generated \(seed)", data: data, steps: ordered, extra: extra)
    }

    mutating func freshID(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    mutating func accesses(_ percent: Int) -> [(key: String, type: String)] {
        var out: [(String, String)] = []
        for key in keys where random.chance(percent) {
            // Mostly the key's own type; now and then another (a type mismatch to find) or optional.
            var type = random.chance(8) ? random.pick(Self.types) : key.type
            if random.chance(12) { type += "?" }
            out.append((key.key, type))
        }
        return out
    }

    mutating func writes() -> [(key: String, type: String)] {
        keys.filter { _ in random.chance(28) }.map { ($0.key, random.chance(5) ? random.pick(Self.types) : $0.type) }
    }

    /// Emits a block whose runs go on to `next`; returns the id of its first step.
    mutating func block(then next: String, budget: Int) -> String {
        if budget <= 1 || depth > 3 { return operation(then: next) }
        depth += 1
        defer { depth -= 1 }
        switch random.next(10) {
        case 0, 1, 2:
            let second = block(then: next, budget: budget / 2)
            return block(then: second, budget: budget - budget / 2)
        case 3, 4: return caseSplit(then: next, budget: budget)
        case 5, 6: return fanOut(then: next, budget: budget)
        case 7: return errorWay(then: next, budget: budget)
        case 8: return retryLoop(then: next, budget: budget)
        default: return random.chance(30) ? group(then: next) : operation(then: next)
        }
    }

    mutating func operation(then next: String) -> String {
        let id = freshID(random.pick(Self.verbs))
        steps.append(Step(id: id, kind: nil, reads: accesses(30), writes: writes(), next: next))
        return id
    }

    mutating func group(then next: String) -> String {
        let id = freshID("each")
        let input = keys[random.next(keys.count)].key
        let output = random.chance(50) ? "results\(counter)" : nil
        var spec = "        group: {inputKey: \(input), elementKey: element"
        if let output { spec += ", elementOutputKey: value, outputKey: \(output)" }
        spec += "}\n"
        extra[id] = spec
        var reads: [(String, String)] = [("element", "String")]
        if random.chance(15) { reads.append((keys[random.next(keys.count)].key, "String")) }  // a read its runs cannot see
        steps.append(Step(id: id, kind: nil, reads: reads, writes: output == nil ? [] : [("value", "String")], next: next))
        return id
    }

    /// A branch step whose ways split on a key's value or on words, and meet again at `next` (directly
    /// or at a join of their own); now and then a way ends or fails instead.
    mutating func caseSplit(then next: String, budget: Int) -> String {
        let id = freshID("choose")
        var merge = next
        if random.chance(40) {
            merge = freshID("merge")
            steps.append(Step(id: merge, kind: "join", reads: random.chance(30) ? accesses(30) : [], writes: [], next: next))
        }
        let ways = 2 + random.next(2)
        var targets: [String] = []
        for _ in 0..<ways {
            if random.chance(12) {
                let exit = freshID(random.chance(50) ? "stop" : "abort")
                steps.append(Step(id: exit, kind: exit.hasPrefix("stop") ? "end" : "fail", reads: [], writes: [], next: nil))
                targets.append(exit)
            } else if random.chance(15) {
                targets.append(merge)  // a way that skips straight to the meeting point
            } else {
                targets.append(block(then: merge, budget: max(1, budget / ways)))
            }
        }
        var items: [String] = []
        let onKey = random.chance(55)
        let key = keys[random.next(keys.count)].key
        if onKey { tested.insert(key) }
        for (n, target) in targets.enumerated() {
            if n == targets.count - 1 && random.chance(80) {
                items.append("{to: \(target), otherwise: true}")
            } else if onKey {
                items.append("{to: \(target), when: {key: \(key), equals: v\(n)}}")
            } else if random.chance(15) {
                items.append("{to: \(target)}")
            } else {
                items.append("{to: \(target), when: \"\(random.pick(["card declined", "user is a guest", "stock is low", "retry allowed"]))\"}")
            }
        }
        steps.append(Step(id: id, kind: random.chance(70) ? "branch" : nil, reads: random.chance(40) ? accesses(25) : [],
                          writes: random.chance(20) ? writes() : [], next: "[" + items.joined(separator: ", ") + "]"))
        return id
    }

    /// A step whose `next` lists several steps (all taken) that meet at a join; now and then a branch
    /// ends on its own instead.
    mutating func fanOut(then next: String, budget: Int) -> String {
        let id = freshID("split")
        let join = freshID("meet")
        steps.append(Step(id: join, kind: "join", reads: random.chance(40) ? accesses(35) : [], writes: random.chance(20) ? writes() : [], next: next))
        let branches = 2 + random.next(2)
        var targets: [String] = []
        for _ in 0..<branches {
            if random.chance(10) {
                let end = freshID("finish")
                steps.append(Step(id: end, kind: "end", reads: [], writes: [], next: nil))
                targets.append(block(then: end, budget: 1))
            } else {
                targets.append(block(then: join, budget: max(1, budget / branches)))
            }
        }
        steps.append(Step(id: id, kind: nil, reads: random.chance(30) ? accesses(25) : [], writes: random.chance(30) ? writes() : [],
                          next: "[" + targets.joined(separator: ", ") + "]"))
        return id
    }

    /// A step that may fail, with an error way to a handler that recovers (goes on) or fails.
    mutating func errorWay(then next: String, budget: Int) -> String {
        let id = freshID(random.pick(Self.verbs))
        let handler: String
        if random.chance(50) {
            handler = block(then: next, budget: max(1, budget / 2))
        } else {
            let fail = freshID("failed")
            steps.append(Step(id: fail, kind: "fail", reads: [], writes: [], next: nil))
            handler = fail
        }
        steps.append(Step(id: id, kind: nil, reads: accesses(30), writes: writes(),
                          next: "[{to: \(next)}, {to: \(handler), kind: error}]"))
        return id
    }

    /// A block that may run again (a check that sends the run back while a condition in words holds).
    mutating func retryLoop(then next: String, budget: Int) -> String {
        let check = freshID("confirm")
        let body = block(then: check, budget: max(1, budget - 1))
        steps.append(Step(id: check, kind: nil, reads: random.chance(30) ? accesses(30) : [], writes: [],
                          next: "[{to: \(body), when: \"not confirmed yet\"}, {to: \(next), otherwise: true}]"))
        return body
    }
}
