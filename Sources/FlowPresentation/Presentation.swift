import FlowModel

/// How a severity is shown, in every output (SVG, Mermaid, Markdown, the review page): one glyph, one
/// colour, one fill and one word, so that a mark means the same thing wherever a reader meets it.
public struct SeverityStyle: Hashable, Sendable {
    /// The mark written before a finding: ✖, ▲ or ◆. Each differs from every shape a diagram's legend
    /// names (● is a start dot and where branches meet, ◉ an end), so a mark is never read as a node.
    public let glyph: String
    /// Line and text colour.
    public let colour: String
    /// Fill of a step carrying the finding.
    public let fill: String
    /// "error", "warning", "note".
    public let word: String

    /// The style of `severity`.
    public static func of(_ severity: Severity) -> SeverityStyle {
        switch severity {
        case .error: return SeverityStyle(glyph: "✖", colour: "#C62828", fill: "#FDECEA", word: "error")
        case .warning: return SeverityStyle(glyph: "▲", colour: "#B26A00", fill: "#FFF4E0", word: "warning")
        case .note: return SeverityStyle(glyph: "◆", colour: "#546E7A", fill: "#ECEFF1", word: "note")
        }
    }

    /// The style of the worst of `findings`; nil for none.
    public static func worst(_ findings: [Finding]) -> SeverityStyle? {
        findings.map(\.severity).max().map(of)
    }

    /// The legend entry of `severity` ("✖ red: error").
    public static func legendText(_ severity: Severity) -> String {
        switch severity {
        case .error: return "✖ red: error"
        case .warning: return "▲ orange: warning"
        case .note: return "◆ blue-grey: note"
        }
    }
}

/// A flow's status (errors, warnings, notes, or no problems), computed once and read by every output:
/// a diagram's subtitle, the review page's header, index and filter, the Markdown pages.
///
/// It counts every finding of the flow and of the sub-machines it contains (composite states,
/// found by `SubMachines`), an `invalid-input` finding whose flow is set included.
public struct FlowStatus: Hashable, Sendable {
    /// How many findings of each severity.
    public var errors = 0, warnings = 0, notes = 0

    /// The status of `findings` as they are.
    public init(counting findings: [Finding]) {
        for finding in findings {
            switch finding.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
    }

    /// The status of `flow`: its findings and its sub-machines' (see `findings(of:in:flows:)`).
    public init(of flow: Flow, findings: [Finding], flows: [Flow]) {
        self.init(counting: Self.findings(of: flow, in: findings, flows: flows))
    }

    /// The findings that count for `flow`: those of the flow and of every sub-machine it contains.
    /// (For every flow of a run, group them once: `FlowFindings`.)
    public static func findings(of flow: Flow, in findings: [Finding], flows: [Flow]) -> [Finding] {
        // Findings of no other flow (what an export hands each diagram) need no scope: finding it
        // reads every flow, which made drawing every flow of a run quadratic in the flows.
        if !findings.contains(where: { $0.flow != nil && $0.flow != flow.id }) { return findings.filter { $0.flow == flow.id } }
        let ids = SubMachines.scope(of: flow, flows: flows)
        return findings.filter { $0.flow.map(ids.contains) ?? false }
    }

    /// The worst severity present; nil when there is no finding.
    public var worst: Severity? { errors > 0 ? .error : warnings > 0 ? .warning : notes > 0 ? .note : nil }

    /// Each severity present with its count, worst first: `[(.error, 2), (.note, 1)]`.
    public var counts: [(severity: Severity, count: Int)] {
        [(Severity.error, errors), (.warning, warnings), (.note, notes)].filter { $0.1 > 0 }
    }

    /// Each severity present, counted, worst first: `["2 errors", "1 note"]`.
    public var phrases: [String] { counts.map { Plural.count($0.count, SeverityStyle.of($0.severity).word) } }

    /// What every output says of a status with no finding.
    public static let clean = "no problems found"

    /// "2 errors · 1 note" (the phrases joined by `separator`), or "no problems found".
    public func text(separator: String) -> String { phrases.isEmpty ? Self.clean : phrases.joined(separator: separator) }

    /// "2 errors · 1 note", or "no problems found": a diagram's subtitle, the review page's index.
    public var text: String { text(separator: " · ") }

    /// `status-error`, `status-warning`, `status-note` or `status-clean`: the review page's class.
    public var cssClass: String { "status-" + (worst.map { SeverityStyle.of($0).word } ?? "clean") }
}

/// A run's findings grouped by flow once, for an output that asks about each of its flows (the review
/// page, the Mermaid and Markdown files): asking `FlowStatus.findings(of:in:flows:)` flow by flow reads
/// every finding of the run for each flow, which for 2,000 flows and 10,000 findings was half the time
/// of making the review page.
public struct FlowFindings: Sendable {
    private let findings: [Finding]
    private let machines: SubMachines.Index
    /// By flow id: where its findings are in `findings`, in order.
    private let positions: [String: [Int]]

    /// `findings` (a run's, in its order) grouped by the flows of `flows`.
    public init(_ findings: [Finding], flows: [Flow]) {
        self.findings = findings
        self.machines = SubMachines.Index(flows)
        var positions: [String: [Int]] = [:]
        for (i, finding) in findings.enumerated() {
            if let flow = finding.flow { positions[flow, default: []].append(i) }
        }
        self.positions = positions
    }

    /// The findings of `flow` itself, in the run's order.
    public func own(_ flow: Flow) -> [Finding] { (positions[flow.id] ?? []).map { findings[$0] } }

    /// The findings that count for `flow`: its own and every sub-machine's (`SubMachines.scope`), in
    /// the run's order.
    public func counted(_ flow: Flow) -> [Finding] {
        let ids = machines.scope(of: flow)
        if ids.count == 1 { return own(flow) }
        return ids.flatMap { positions[$0] ?? [] }.sorted().map { findings[$0] }
    }

    /// The status of `flow`: what `counted` holds.
    public func status(of flow: Flow) -> FlowStatus { FlowStatus(counting: counted(flow)) }
}

/// The machines a composite state runs, found the same way by every diagram.
public enum SubMachines {
    /// The machine a composite step runs: by id, else by name, preferring one nested in `parent`.
    public static func machine(_ reference: String, in parent: Flow, flows: [Flow]) -> Flow? {
        preferred(flows.lazy.filter { $0.id == reference }, in: parent) ?? preferred(flows.lazy.filter { $0.name == reference }, in: parent)
    }

    /// The ids of `flow` and of every machine nested in it (by `parent`, or run by one of its composite
    /// states), recursively. (For many flows of one run, `Index` finds each flow's without reading
    /// every flow.)
    public static func scope(of flow: Flow, flows: [Flow]) -> Set<String> {
        scope(of: flow, nested: { parent in flows.filter { $0.parent == parent.id } }, machine: { machine($0, in: $1, flows: flows) })
    }

    /// `scope(of:flows:)`, given the flows whose parent is a flow and the machine a reference names.
    private static func scope(of flow: Flow, nested: (Flow) -> [Flow], machine: (String, Flow) -> Flow?) -> Set<String> {
        var ids: Set<String> = [flow.id]
        var queue = [flow]
        while let current = queue.popLast() {
            var inner = nested(current)
            if current.kind.isStateMachine {
                inner += current.steps.compactMap { step in
                    step.kind == .subflow ? step.subflow.flatMap { machine($0, current) } : nil
                }.filter { $0.kind.isStateMachine }
            }
            for sub in inner where ids.insert(sub.id).inserted { queue.append(sub) }
        }
        return ids
    }

    /// The first of `candidates` nested in `parent`, else the first.
    private static func preferred(_ candidates: some Sequence<Flow>, in parent: Flow) -> Flow? {
        var first: Flow?
        for candidate in candidates {
            if candidate.parent == parent.id { return candidate }
            if first == nil { first = candidate }
        }
        return first
    }

    /// A run's flows by id, name and parent: `machine` and `scope` for each of many flows without
    /// reading every flow each time (which made the findings of every flow quadratic in the flows).
    public struct Index: Sendable {
        private let flows: [Flow]
        /// Positions in `flows`, in order.
        private let byID: [String: [Int]], byName: [String: [Int]], byParent: [String: [Int]]

        /// Indexes `flows`.
        public init(_ flows: [Flow]) {
            self.flows = flows
            var byID: [String: [Int]] = [:], byName: [String: [Int]] = [:], byParent: [String: [Int]] = [:]
            for (i, flow) in flows.enumerated() {
                byID[flow.id, default: []].append(i)
                byName[flow.name, default: []].append(i)
                if let parent = flow.parent { byParent[parent, default: []].append(i) }
            }
            (self.byID, self.byName, self.byParent) = (byID, byName, byParent)
        }

        /// `SubMachines.machine(reference, in: parent, flows:)`.
        public func machine(_ reference: String, in parent: Flow) -> Flow? {
            preferred((byID[reference] ?? []).lazy.map { flows[$0] }, in: parent)
                ?? preferred((byName[reference] ?? []).lazy.map { flows[$0] }, in: parent)
        }

        /// `SubMachines.scope(of: flow, flows:)`.
        public func scope(of flow: Flow) -> Set<String> {
            SubMachines.scope(of: flow, nested: { (byParent[$0.id] ?? []).map { flows[$0] } }, machine: { machine($0, in: $1) })
        }
    }
}

/// A finding in a few plain words, as a diagram shows it: "✖ may be missing: deliverySlot".
public enum FindingPhrase {
    /// The words for a rule (without its key); the rule id for a rule not listed. `stateMachine`: the
    /// finding is in a state machine (`FlowKind.isStateMachine`), whose readers know its steps as states.
    public static func words(forRule rule: String, stateMachine: Bool = false) -> String {
        switch rule {
        case RuleID.missingDataKey: return "may be missing"
        case RuleID.typeMismatch: return "type does not match"
        case RuleID.unusedDataKey: return "set but never read"
        case RuleID.contentNeverSet: return "content never set"
        case RuleID.unreachableStep: return "never reached"
        case RuleID.duplicateStep: return "defined twice"
        case RuleID.deadEnd: return "goes nowhere"
        case RuleID.stuckStep: return "can get stuck"
        case RuleID.unknownStep: return stateMachine ? "no such state" : "no such step"
        case RuleID.unknownOperation: return "unknown operation"
        case RuleID.crossingTransition: return "crosses a composite's border"
        case RuleID.missingHandler: return "no handler"
        case RuleID.unimplementedTransition: return "not implemented in code"
        case RuleID.unmatchedCase: return "case not handled"
        case RuleID.nestedCase: return "nested case"
        case RuleID.reservedName: return "reserved name"
        case RuleID.uiAccessInTask: return "UI used off the main thread"
        case RuleID.unanalyzableFlow: return "could not be read fully"
        case RuleID.invalidInput: return "could not be read"
        // The conformance rules of recorded runs (`flowlens trace`, `export --trace`).
        case "run-off-graph": return "runs went off the graph"
        case "failure-not-predicted": return "runs failed, not predicted"
        case "never-reached": return "no recorded run"
        case "no-case-matched": return "no case matched in any run"
        default: return rule
        }
    }

    /// `✖ may be missing: deliverySlot` (the glyph of the finding's severity); `stateMachine` as for
    /// `words(forRule:stateMachine:)`.
    public static func text(_ finding: Finding, stateMachine: Bool = false) -> String {
        var words = words(forRule: finding.rule, stateMachine: stateMachine)
        // On a state rather than an edge, `unknown-step` is a handler that moves where the diagram
        // draws no transition (to a state that exists, or to none): "no such state" would be false
        // when the state is drawn right there.
        if stateMachine, finding.rule == RuleID.unknownStep, finding.edge == nil { words = "no such transition" }
        // A key no step sets and the flow does not start with is missing on every path, not "may be".
        if finding.rule == RuleID.missingDataKey, finding.message.contains("no step sets it") { words = "never set" }
        return "\(SeverityStyle.of(finding.severity).glyph) \(words)" + (finding.key.map { ": \($0)" } ?? "")
    }

    /// Whether a step with `findings` is drawn as never reached (grey, dashed): no path reaches it, or
    /// it is the second definition of a step id, which the flow never runs.
    public static func meansNeverReached(_ findings: [Finding]) -> Bool {
        findings.contains { $0.rule == RuleID.unreachableStep || $0.rule == RuleID.duplicateStep }
    }

    /// The phrase of every distinct finding on one element, worst first, with its severity: for an
    /// edge's label.
    public static func texts(_ findings: [Finding], stateMachine: Bool = false) -> [(severity: Severity, text: String)] {
        var seen = Set<String>()
        return findings.sorted { ($0.severity, $1.rule, $1.key ?? "") > ($1.severity, $0.rule, $0.key ?? "") }
            .map { ($0.severity, text($0, stateMachine: stateMachine)) }.filter { seen.insert($0.text).inserted }
    }
}
