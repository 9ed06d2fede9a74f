import FlowModel
import FlowPresentation

/// How many paths a flow has: exact, or a lower bound when there were too many to count.
public struct PathCount: Hashable, Sendable, CustomStringConvertible {
    /// Counts stop here: a flow with more paths has `value == saturation` and is "more than 10^18"
    /// (a long chain of decisions doubles the count at each one and would overflow any integer).
    public static let saturation = 1_000_000_000_000_000_000

    /// The number counted; `saturation` when there were more.
    public var value: Int
    /// False when `value` is only a lower bound ("at least").
    public var isExact: Bool

    /// Creates a count.
    public init(value: Int, isExact: Bool) {
        self.value = value
        self.isExact = isExact
    }

    /// Whether the count reached `saturation`: there are more paths than any count shown.
    public var isSaturated: Bool { value >= Self.saturation }

    /// `12`, `at least 100000` when not exact, `more than 10^18` when saturated.
    public var description: String {
        if isSaturated { return "more than 10^18" }
        return isExact ? "\(value)" : "at least \(value)"
    }
}

/// One way through a flow, from an entry step to where it stops.
///
/// `steps` and `transitions` are indices into the flow's `steps` and `transitions`;
/// `transitions[i]` leads from `steps[i]` to `steps[i + 1]`.
public struct FlowPath: Hashable, Sendable {
    /// Why the path stops where it does.
    public enum Ending: String, Hashable, Sendable, Codable {
        /// At a way out: an `end` or `fail` step, or a terminal state.
        case exit
        /// At a step with no transition out that is not a way out (a `dead-end`, or the last step of
        /// a flow whose end is implicit).
        case noWayOn
        /// Every step after the last one is already on this path twice (the loop bound).
        case loopBound
    }

    /// The steps, entry first.
    public var steps: [Int]
    /// The transitions taken, one fewer than the steps.
    public var transitions: [Int]
    /// Why the path stops.
    public var ending: Ending

    /// Creates a path.
    public init(steps: [Int], transitions: [Int], ending: Ending) {
        self.steps = steps
        self.transitions = transitions
        self.ending = ending
    }
}

/// Every path through a flow, from each of its entries to where it stops, first ones first.
///
/// **What a path is.** A path follows transitions (in definition order) from an entry (in the order of
/// `Flow.effectiveEntries`) until it reaches a way out (`end`, `fail`, a terminal state), a step with no
/// transition out, or a step all of whose next steps are already on the path twice. Each step appears
/// **at most twice on a path** (`maxVisits`): a loop is gone round at most once, so a flow with loops
/// still has finitely many paths. Only the first step with an id takes part, and a transition to a
/// step that does not exist is not followed (as in `FlowAnalysis`). Error and parallel transitions are
/// followed like the others: each is a way the flow can go.
///
/// **Order and cap.** Paths are listed depth first, in entry then transition order, and only the first
/// `limit` are kept. The count is exact for a flow without loops (counted without listing the paths,
/// saturating at `Int.max`); with loops the paths are counted by listing them, up to a budget of search
/// steps, past which the count is a lower bound (`PathCount.isExact` is false).
public struct FlowPaths: Sendable {
    /// The default number of paths kept.
    public static let defaultLimit = 50
    /// How many times a step may appear on one path: twice, so that a loop is gone round once.
    public static let maxVisits = 2
    /// The search steps spent counting the paths of a flow with loops, past which the count is a lower bound.
    public static let countingBudget = 200_000

    /// The flow.
    public let flow: Flow
    /// The first `limit` paths.
    public let paths: [FlowPath]
    /// How many paths there are in all.
    public let count: PathCount
    /// Outgoing edges per step, to existing first-of-their-id steps.
    let successors: [[FlowIndex.Edge]]

    /// Finds the paths of `flow`, keeping the first `limit`. `graph` is the flow's index when the
    /// caller has it already (an analysis's), else it is built here.
    public init(flow: Flow, graph: FlowIndex? = nil, limit: Int = FlowPaths.defaultLimit) {
        self.flow = flow
        let graph = graph ?? FlowIndex(flow)
        let successors = graph.successors
        self.successors = successors
        let entries = graph.entries
        let isExit = flow.steps.map(\.isExit)

        var paths: [FlowPath] = []
        var leaves = 0
        var budget = Self.countingBudget
        var completed = true
        let acyclic = graph.isAcyclicFromEntries
        // Depth first, iteratively: (step, next outgoing to try, transition that led here); `visits` counts the steps on the path.
        search: for entry in entries {
            var stack: [(step: Int, next: Int, via: Int?)] = [(entry, 0, nil)]
            var visits = Array(repeating: 0, count: flow.steps.count)
            visits[entry] = 1
            func open(_ option: FlowIndex.Edge) -> Bool { visits[option.to] < Self.maxVisits }
            while let top = stack.last {
                budget -= 1
                if paths.count >= limit && (acyclic || budget <= 0) {
                    completed = false
                    break search
                }
                let options = isExit[top.step] ? [] : successors[top.step]
                if top.next == 0 {
                    // First visit: is this where the path stops?
                    if !options.contains(where: open) {
                        leaves += 1
                        if paths.count < limit {
                            let ending: FlowPath.Ending = isExit[top.step] ? .exit : options.isEmpty ? .noWayOn : .loopBound
                            paths.append(FlowPath(steps: stack.map(\.step), transitions: stack.compactMap(\.via), ending: ending))
                        }
                        visits[top.step] -= 1
                        stack.removeLast()
                        continue
                    }
                }
                var next = top.next
                while next < options.count, !open(options[next]) { next += 1 }
                if next < options.count {
                    stack[stack.count - 1].next = next + 1
                    visits[options[next].to] += 1
                    stack.append((options[next].to, 0, options[next].transition))
                } else {
                    visits[top.step] -= 1
                    stack.removeLast()
                }
            }
        }
        self.paths = paths
        if acyclic {
            let counted = Self.countAcyclic(entries: entries, successors: successors, isExit: isExit)
            count = PathCount(value: counted, isExact: counted < PathCount.saturation)
        } else {
            count = PathCount(value: leaves, isExact: completed)
        }
    }

    /// The number of paths of a flow without loops, by dynamic programming, saturating at
    /// `PathCount.saturation`.
    static func countAcyclic(entries: [Int], successors: [[FlowIndex.Edge]], isExit: [Bool]) -> Int {
        var memo: [Int: Int] = [:]
        // Post-order, iteratively.
        for root in entries where memo[root] == nil {
            var stack = [(step: root, expanded: false)]
            while let (step, expanded) = stack.popLast() {
                if memo[step] != nil { continue }
                let options = isExit[step] ? [] : successors[step]
                if options.isEmpty { memo[step] = 1; continue }
                if !expanded {
                    stack.append((step, true))
                    for option in options where memo[option.to] == nil { stack.append((option.to, false)) }
                } else {
                    var total = 0
                    for option in options { total = min(total + (memo[option.to] ?? 0), PathCount.saturation) }
                    memo[step] = total
                }
            }
        }
        // Each term is at most `saturation` (10^18), so a sum of two cannot overflow before the cap.
        var total = 0
        for entry in entries { total = min(total + (memo[entry] ?? 0), PathCount.saturation) }
        return total
    }

    /// The sentence that tells `path` to a person who does not read code.
    public func sentence(for path: FlowPath) -> PathSentence { PathSentence(path: path, flow: flow) }
}

/// A path told in plain language: "Choose mode. If *mode* is *guest*: Guest name, then Welcome, then it ends."
///
/// The sentence is a list of parts, so that a page can emphasise the names of steps, keys and values;
/// `text` joins them plainly and `markdown` puts keys, values and conditions in italics.
public struct PathSentence: Hashable, Sendable, CustomStringConvertible {
    /// One piece of the sentence.
    public enum Part: Hashable, Sendable {
        /// Connecting words ("If ", ", then ", ".").
        case text(String)
        /// A step's name, as a person reads it on the diagram.
        case step(String)
        /// A data key a condition tests.
        case key(String)
        /// A value a condition compares with.
        case value(String)
        /// A condition or transition label, as written in the definition.
        case condition(String)
    }

    /// The pieces, in order.
    public var parts: [Part]

    /// Creates a sentence from parts.
    public init(parts: [Part]) { self.parts = parts }

    /// The sentence as plain text.
    public var text: String {
        parts.map { part in
            switch part {
            case let .text(s), let .step(s), let .key(s), let .value(s), let .condition(s): return s
            }
        }.joined()
    }

    /// The sentence as Markdown: keys, values and conditions in italics, user text escaped.
    public var markdown: String {
        parts.map { part in
            switch part {
            case let .text(s), let .step(s): return Escaping.markdown(s)
            case let .key(s), let .value(s), let .condition(s): return "*" + Escaping.markdown(s) + "*"
            }
        }.joined()
    }

    public var description: String { text }

    /// The sentence for `path` through `flow`. Each transition with a condition or label opens a clause
    /// ("If *mode* is *guest*:"); the steps in a clause are joined by ", then ". Connecting steps with
    /// nothing to say (an unnamed start, a join) are left out; an end says "it ends" (or its name, when
    /// it has one of its own).
    init(path: FlowPath, flow: Flow) {
        var parts: [Part] = []
        var clauseHasStep = false
        var clauseOpen = false
        func addStep(_ words: [Part]) {
            if clauseHasStep { parts.append(.text(", then ")) }
            parts += words
            clauseHasStep = true
        }
        for (position, stepIndex) in path.steps.enumerated() {
            if position > 0 {
                let t = path.transitions[position - 1]
                let clause = Self.clause(for: flow.transitions[t], index: t, in: flow)
                if !clause.isEmpty {
                    if clauseHasStep || clauseOpen { parts.append(.text(". ")) }
                    parts += clause
                    parts.append(.text(": "))
                    clauseHasStep = false
                    clauseOpen = true
                }
            }
            let step = flow.steps[stepIndex]
            let isLast = position == path.steps.count - 1
            switch step.kind {
            case .start where Self.isGeneric(step.name, kind: step.kind):
                continue
            case .join where step.reads.isEmpty && step.writes.isEmpty:
                continue
            case .end where Self.isGeneric(step.name, kind: step.kind):
                addStep([.text("it ends")])
            case .end:
                addStep([.step(step.name)])
            case .fail:
                addStep([.text("it fails at "), .step(step.name)])
            case .group:
                let input = step.group.map { [Part.text(" (once for each element of "), .key($0.inputKey), .text(")")] } ?? []
                addStep([.step(step.name)] + input)
            case .subflow:
                addStep([.step(step.name)] + (step.subflow.map { $0 == step.name ? [] : [.text(" (runs the flow "), .step($0), .text(")")] } ?? []))
            default:
                addStep([.step(step.name)])
                if isLast && step.terminal { parts.append(.text(", where it ends")) }
            }
            if isLast {
                switch path.ending {
                case .exit: break
                case .noWayOn: if step.kind != .end && !step.terminal { parts.append(.text(clauseHasStep ? ", and stops there" : "it stops")) }
                case .loopBound: parts.append(.text(" (and would go round again)"))
                }
            }
        }
        if parts.isEmpty { parts = [.text("It ends at once")] }
        // Capitalise a clause's first word when it is connecting text or a label, and end with a full stop.
        for n in parts.indices {
            guard case let .condition(label) = parts[n], n == 0 || parts[n - 1] == .text(". ") || parts[n - 1] == .text(""),
                  let c = label.first, c.isLowercase else { continue }
            parts[n] = .condition(c.uppercased() + label.dropFirst())
        }
        if case let .text(first) = parts[0], let c = first.first {
            parts[0] = .text(c.uppercased() + first.dropFirst())
        }
        parts.append(.text("."))
        self.parts = Self.merged(parts)
    }

    /// Whether a start or end step's name says nothing more than its kind (`Begin`, `start`, `End`, `done`).
    static func isGeneric(_ name: String, kind: StepKind) -> Bool {
        let generic: Set<String> = kind == .start ? ["start", "begin", "[*]", "entry"] : ["end", "done", "finish", "finished", "[*]", "exit"]
        return generic.contains(name.lowercased()) || name.isEmpty
    }

    /// The words that open a clause for `transition`: "If *mode* is *guest*", "Otherwise", "If it
    /// fails", "On *login*"; empty for an unconditional, unlabelled transition.
    static func clause(for transition: Transition, index: Int, in flow: Flow) -> [Part] {
        if transition.kind == .error {
            let source = flow.step(transition.from)?.name ?? transition.from
            var parts: [Part] = [.text("If "), .step(source), .text(" fails")]
            if let label = transition.label, !label.isEmpty, label.lowercased() != "on error", label.lowercased() != "error" {
                parts += [.text(" ("), .condition(label), .text(")")]
            }
            return parts
        }
        var parts: [Part] = []
        switch transition.condition {
        case let .equals(key, value)?:
            parts = [.text("If "), .key(key), .text(" is "), .value(value)]
        case .otherwise?:
            // "Otherwise" names what the sibling cases test, when they all test one key.
            let siblings = flow.transitions.enumerated().filter { $0.offset != index && $0.element.from == transition.from }
            var keys: [String] = [], values: [String] = []
            for sibling in siblings {
                guard case let .equals(key, value)? = sibling.element.condition else { continue }
                if !keys.contains(key) { keys.append(key) }
                if !values.contains(value) { values.append(value) }
            }
            if keys.count == 1, !values.isEmpty {
                parts = [.text("If "), .key(keys[0]), .text(values.count == 1 ? " is not " : " is none of ")]
                for (n, value) in values.enumerated() {
                    if n > 0 { parts.append(.text(n == values.count - 1 ? " or " : ", ")) }
                    parts.append(.value(value))
                }
            } else {
                parts = [.text("Otherwise")]
            }
        case let .expression(text)?:
            parts = [.text("If "), .condition(text)]
        case nil:
            if let label = transition.label, !label.allSatisfy(\.isWhitespace) {
                // A label that already opens a clause ("while X runs", "when X finishes") is said as is.
                let first = label.split(separator: " ").first.map { $0.lowercased() } ?? ""
                let opens = ["when", "while", "if", "on", "after", "before", "once", "unless", "until"].contains(first)
                parts = opens ? [.condition(label)] : [.text("On "), .condition(label)]
            }
        }
        if transition.kind == .parallel {
            parts = parts.isEmpty ? [.text("At the same time")] : parts + [.text(", at the same time")]
        }
        return parts
    }

    /// Adjacent text parts joined, so that equal sentences have equal parts.
    static func merged(_ parts: [Part]) -> [Part] {
        var out: [Part] = []
        for part in parts {
            if case let .text(b) = part, case let .text(a)? = out.last {
                out[out.count - 1] = .text(a + b)
            } else if part != .text("") {
                out.append(part)
            }
        }
        return out
    }
}
