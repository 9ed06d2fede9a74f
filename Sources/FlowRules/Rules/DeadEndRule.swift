import FlowModel

/// `dead-end`: a step that is not an end but has no way on, or a loop from which no end can be reached.
public struct DeadEndRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.deadEnd,
        tags: ["flow-graph", "correctness"],
        severity: .error,
        summary: "A step that is not an end has no way on, or no end can be reached from it.",
        rationale: """
            A flow that reaches such a step never finishes: it stops without success or failure, or \
            loops forever. Mark real ends with `kind: end` (or `fail`), and give every other step a way on. \
            A PlantUML state machine with no `--> [*]` at all runs forever on purpose (a firmware main \
            loop): only its trap states, which no transition leaves, are reported. In a state diagram \
            that only describes its machine (no code is generated from it), an event on a composite state's own edge leaves it from any state \
            inside, and an edge out of a composite's inside is a way on.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Stops
                steps:
                  - {id: a, next: b}
                  - {id: b} # finding
            """,
            """
            version: 1
            flows:
              - name: Forever
                steps:
                  - {id: a, next: poll}
                  - {id: poll, next: wait} # finding
                  - {id: wait, next: poll}
                  - {id: done, kind: end}
            """,
            """
            ' file: vending.puml
            @startuml
            title Vending machine
            [*] --> Idle
            Idle : waiting for a coin
            Idle --> Paid : COIN
            Paid --> Vending : SELECT
            Vending --> Idle : DONE
            Vending --> OutOfOrder : JAM /' finding '/
            OutOfOrder : call the operator
            @enduml
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Retry loop with an exit
                steps:
                  - {id: poll, next: [{to: wait, when: pending}, {to: done, otherwise: true}]}
                  - {id: wait, next: poll}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Failure is an exit
                steps:
                  - {id: a, next: [{to: ok, when: valid}, {to: failed, otherwise: true}]}
                  - {id: ok, kind: end}
                  - {id: failed, kind: fail}
            """,
            """
            ' file: thermostat.puml
            @startuml
            title Thermostat
            [*] --> Idle
            Idle : heater off
            Idle --> Heating : TOO_COLD
            Heating --> Idle : WARM_ENOUGH
            @enduml
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let context = DescribedMachines.withCrossingEdges(context)
        if let forever = DescribedMachines.runsForever(context) { return forever }
        let analysis = context.analysis
        var findings: [Finding] = []
        var stuck = Set<Int>()  // steps with no way on at all
        // A transition to a missing step is still a way on; `unknown-step` reports it.
        let steps = analysis.flow.steps
        for i in analysis.uniqueSteps where analysis.transitionsLeaving[i].isEmpty && !steps[i].isExit {
            let step = analysis.step(i)
            guard !(step.kind == .start && DescribedMachines.startsNowhere(context.flow)) else { continue }
            stuck.insert(i)
            let message = context.flow.kind.machine == .generated && step.kind != .start
                ? "state '\(step.name)' is a dead end: it has no outgoing transition and is not the end, so its generated handler can only fail"
                : "step '\(step.name)' is a dead end: it has no way on and is not an end"
            findings.append(context.finding(Self.description, message, at: step.location, step: step.id))
        }
        // Steps that cannot reach an exit but also cannot reach a step reported above are trapped in
        // a loop. Report each such loop once, at its first step, instead of every step leading into it.
        let trapped = Set(analysis.reachable.lazy.filter { i in
            !analysis.reachesExit.contains(i) && !steps[i].isExit && !stuck.contains(i)
        })
        guard !trapped.isEmpty else { return findings }
        let leadsToStuck = FlowAnalysis.closure(from: Array(stuck), next: { analysis.predecessors[$0].lazy.map(\.from) })
        // A step that only leads back to itself is `stuck-step`'s, not a loop of its own here.
        let loops = trapped.subtracting(leadsToStuck).filter { !StuckStepRule.isStuck($0, in: analysis) }
        for component in Self.bottomComponents(of: loops, successors: { analysis.successors[$0].map(\.to) }) {
            let first = component.min()!
            let names = component.sorted().map { "'\(analysis.step($0).name)'" }.joined(separator: ", ")
            let step = analysis.step(first)
            let subject = component.count == 1 ? "step \(names) loops" : "steps \(names) loop"
            findings.append(context.finding(
                Self.description,
                "\(subject) forever: no end can be reached from \(component.count == 1 ? "it" : "them")",
                at: step.location, step: step.id))
        }
        return findings
    }

    /// Strongly connected components of `nodes` that no edge leaves (the loops a run cannot escape),
    /// each with more than one step or a step that leads to itself, ordered by their smallest step.
    ///
    /// Tarjan's algorithm with an explicit stack, so linear in the steps and edges of `nodes` and
    /// with no recursion: a flow whose long chain of steps runs into a loop with no end must not cost
    /// a walk per step (asking each step whether it reaches back took 35 s for 1,000 such steps).
    static func bottomComponents(of nodes: Set<Int>, successors: (Int) -> [Int]) -> [Set<Int>] {
        var order: [Int: Int] = [:]     // when each node was first seen
        var lowest: [Int: Int] = [:]    // the earliest node on the stack it reaches
        var onStack = Set<Int>()
        var stack: [Int] = []
        var components: [Set<Int>] = []
        for root in nodes.sorted() where order[root] == nil {
            // Each frame: a node and its successors within `nodes` still to visit.
            var frames: [(node: Int, next: [Int], at: Int)] = []
            func enter(_ node: Int) {
                order[node] = order.count
                lowest[node] = order[node]
                stack.append(node)
                onStack.insert(node)
                frames.append((node, successors(node).filter(nodes.contains), 0))
            }
            enter(root)
            while !frames.isEmpty {
                let top = frames.count - 1
                let node = frames[top].node
                if frames[top].at < frames[top].next.count {
                    let next = frames[top].next[frames[top].at]
                    frames[top].at += 1
                    if order[next] == nil {
                        enter(next)
                    } else if onStack.contains(next) {
                        lowest[node] = min(lowest[node]!, order[next]!)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { lowest[parent] = min(lowest[parent]!, lowest[node]!) }
                guard lowest[node] == order[node] else { continue }
                var component = Set<Int>()
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.insert(member)
                    if member == node { break }
                }
                let leaves = component.contains { member in successors(member).contains { nodes.contains($0) && !component.contains($0) } }
                if !leaves, component.count > 1 || successors(node).contains(node) { components.append(component) }
            }
        }
        return components.sorted { $0.min()! < $1.min()! }
    }
}
