import FlowModel

/// The documentation of a rule, which is also its test: every triggering example must produce a
/// finding of the rule (on the line marked `# finding`, when marked) and every non-triggering
/// example must produce none. `flowlens rules` prints it.
public struct RuleDescription: Sendable {
    /// Stable id; part of the public API (reports, configuration, suppressions).
    public let id: String
    /// What the rule looks at (`flow-graph`, `data-flow`, `input` …) and, for a defect, the quality
    /// it protects (`correctness`, `maintainability`): SARIF's `properties.tags`, after `flowlens`.
    public let tags: [String]
    /// Default severity.
    public let severity: Severity
    /// One line.
    public let summary: String
    /// Why it matters, in a few sentences.
    public let rationale: String
    /// Declarative flow files (version 1) that must trigger the rule.
    public let triggeringExamples: [String]
    /// Declarative flow files that must not trigger it.
    public let nonTriggeringExamples: [String]
    /// The file name the examples are read as, which chooses their loader: `example.flow.yaml` for the
    /// declarative format, `Example.swift` for Swift sources. An example made of several files
    /// (a diagram and the Swift code implementing it) starts each with a line `' file: Name.puml`,
    /// `// file: Name.swift` or `# file: name.flow.yaml`; see `files(of:)`.
    public let exampleFileName: String
    /// True for a rule that still runs on a flow its loader could not read whole: none of its
    /// findings can come from the part that is missing (the rule reads only what was read, such as
    /// names). Every other rule skips such flows.
    public let runsOnPartlyReadFlows: Bool

    /// Creates a description.
    public init(id: String, tags: [String] = [], severity: Severity, summary: String, rationale: String,
                triggeringExamples: [String], nonTriggeringExamples: [String],
                exampleFileName: String = "example.flow.yaml", runsOnPartlyReadFlows: Bool = false) {
        self.id = id
        self.tags = tags
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.exampleFileName = exampleFileName
        self.runsOnPartlyReadFlows = runsOnPartlyReadFlows
    }
}

extension RuleDescription {
    /// The files of one example: a line `// file: Name.swift` (or `' file:`, `# file:`) starts a
    /// file; an example without such lines is one file named `exampleFileName`.
    public func files(of example: String) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        var current: (name: String, lines: [Substring])?
        for line in example.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let marker = ["// file: ", "' file: ", "# file: "].first(where: { trimmed.hasPrefix($0) }) {
                if let current { files.append((current.name, current.lines.joined(separator: "\n"))) }
                current = (String(trimmed.dropFirst(marker.count)).trimmingSpaces, [])
            } else if current != nil {
                current!.lines.append(line)
            }
        }
        guard let current else { return [(exampleFileName, example)] }
        files.append((current.name, current.lines.joined(separator: "\n")))
        return files
    }
}

extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// Everything a rule may look at for one flow.
public struct RuleContext {
    /// The flow's analysis (graph facts and data flow).
    public let analysis: FlowAnalysis
    /// The session, for questions about other flows (sub-flows and their callers).
    public let session: AnalysisSession

    /// The file and lines the flow's own definition covers: computed once, since `placement` asks for
    /// it on every finding (per finding, it made a flow of 5,000 missing reads quadratic).
    let flowSpan: (file: String, lines: ClosedRange<Int>)?

    /// The context for the flow `analysis` is of.
    init(analysis: FlowAnalysis, session: AnalysisSession) {
        self.analysis = analysis
        self.session = session
        flowSpan = Self.span(of: analysis.flow)
    }

    /// The flow.
    public var flow: Flow { analysis.flow }

    /// For a finding located outside the flow's own definition (in an operation class shared by
    /// several flows), a suffix naming the flow and where the step is added, and that place as a
    /// related location; otherwise nothing.
    public func placement(of step: Step, findingAt location: SourceLocation?) -> (suffix: String, related: [RelatedLocation]) {
        guard let location, let stepLocation = step.location, !flowSpan.contains(location) else { return ("", []) }
        let related = [RelatedLocation(message: "step '\(step.name)' of flow '\(flow.name)'", location: stepLocation)]
        return (" (flow '\(flow.name)', step at \(stepLocation))", related)
    }

    private static func span(of flow: Flow) -> (file: String, lines: ClosedRange<Int>)? {
        guard let file = flow.location?.file else { return nil }
        var low = Int.max, high = Int.min
        func include(_ location: SourceLocation?) {
            guard let location, location.file == file else { return }
            low = min(low, location.line)
            high = max(high, location.line)
        }
        include(flow.location)
        // By index: each step's and transition's location read in place, not a copy of each.
        for i in flow.steps.indices { include(flow.steps[i].location) }
        for i in flow.transitions.indices { include(flow.transitions[i].location) }
        return low <= high ? (file, low...high) : nil
    }

    /// A finding of `rule` about this flow.
    public func finding(_ rule: RuleDescription, _ message: String, at location: SourceLocation?, step: String? = nil,
                        key: String? = nil, edge: EdgeReference? = nil, related: [RelatedLocation] = [],
                        path: [String] = []) -> Finding {
        Finding(rule: rule.id, severity: rule.severity, message: message, location: location ?? flow.location,
                flow: flow.id, step: step, key: key, edge: edge, related: related, path: path)
    }
}

/// One check. A rule never parses and never throws: it reads the IR and returns findings.
public protocol Rule: Sendable {
    /// The rule's documentation and examples.
    static var description: RuleDescription { get }
    /// Creates the rule.
    init()
    /// The findings for one flow.
    func check(_ context: RuleContext) -> [Finding]
}

/// A dialect's part of a core rule: the check for something only that dialect's flows carry (the
/// code implementing a generated state machine). Its findings are the host rule's (same id,
/// severity, configuration and suppressions), and it runs exactly when the host rule runs, so the
/// core rule stays library-neutral and the library's conventions stay in its dialect.
public protocol RuleExtension: Sendable {
    /// The rule whose findings it adds to.
    static var host: any Rule.Type { get }
    /// Creates the extension.
    init()
    /// The findings for one flow, made with `host`'s description.
    func check(_ context: RuleContext) -> [Finding]
}

extension Optional where Wrapped == (file: String, lines: ClosedRange<Int>) {
    func contains(_ location: SourceLocation) -> Bool {
        guard let span = self else { return false }
        return span.file == location.file && span.lines.contains(location.line)
    }
}

extension Rule {
    /// The rule's id.
    public var id: String { Self.description.id }
}

/// Runs rules over a graph.
public struct Analyzer: Sendable {
    /// The rules to run.
    public let rules: [any Rule]
    /// The dialects' parts of those rules, by the host rule's id.
    let extensions: [String: [any RuleExtension]]
    /// At most this many findings of one rule on one data key in one flow are listed; the rest are
    /// one summary finding (`Limits.findingsPerKey`).
    public var findingsPerKey = Limits.default.findingsPerKey

    /// The ids an inline suppression may name without being reported as unknown.
    public let knownRules: Set<String>

    /// An analyzer running `rules` (`RuleRegistry`, in FlowLoaders, lists every rule FlowLens has:
    /// these core ones and each dialect's own). `knownRules`: every rule id a suppression may name
    /// (default: those of `rules`).
    /// `extensions`: the dialects' parts of rules; those whose host is not among `rules` do not run.
    public init(rules: [any Rule], extensions: [any RuleExtension] = [], knownRules: Set<String>? = nil) {
        self.rules = rules
        let running = Set(rules.map(\.id))
        self.extensions = Dictionary(grouping: extensions.filter { running.contains(type(of: $0).host.description.id) }) {
            type(of: $0).host.description.id
        }
        self.knownRules = knownRules ?? running
    }

    /// The flows a loader could not read whole (an `invalid-input` finding carries their id), with the
    /// machines nested in them and those they are nested in: the text of one is the text of all. No
    /// other rule runs on them, so a truncated file is one `invalid-input`, never a `dead-end` or an
    /// `unreachable-step` on what was half read.
    static func halfRead(_ graph: FlowGraph) -> Set<String> {
        let broken = Set(graph.loadFindings.filter { $0.rule == RuleID.invalidInput }.compactMap(\.flow))
        guard !broken.isEmpty else { return [] }
        let parents = Dictionary(graph.flows.map { ($0.id, $0.parent) }, uniquingKeysWith: { a, _ in a })
        func root(_ id: String) -> String {
            var id = id
            var seen = Set<String>()
            while let parent = parents[id] ?? nil, seen.insert(id).inserted { id = parent }
            return id
        }
        let brokenRoots = Set(broken.map(root))
        return Set(graph.flows.map(\.id).filter { brokenRoots.contains(root($0)) })
    }

    /// The load findings of `graph` plus every rule's findings for every flow, inline suppressions
    /// applied, in report order.
    public func analyze(_ graph: FlowGraph) -> [Finding] {
        suppressing(findings(of: graph, session: AnalysisSession(graph: graph)), in: graph)
    }

    /// The load findings of `graph` plus every rule's findings for every flow, before inline
    /// suppressions; `session` keeps each flow's analysis (every flow is analysed).
    public func findings(of graph: FlowGraph, session: AnalysisSession) -> [Finding] {
        let halfRead = Self.halfRead(graph)
        // 1. Every flow's analysis, before any rule runs: those of the flows that run no sub-flow,
        //    which ask nothing of another flow, on all cores; then the others one at a time in the
        //    graph's order: in a cycle of sub-flows the flow analysed first decides what the others
        //    see (see `AnalysisSession.analysis(of:)`), so that order must not depend on timing.
        session.analyseOnAllCores(graph.flows)
        let analyses = graph.flows.map { session.analysis(of: $0) }
        // 2. The rules, flows spread over the cores. A flow's findings depend only on the analyses
        //    fixed above and on session caches whose values do not depend on who asks first; they are
        //    joined in the graph's order, so the result is the same on any number of cores.
        let perFlow = graph.flows.indices.parallelMap { f -> [Finding] in
            let flow = graph.flows[f]
            let context = RuleContext(analysis: analyses[f], session: session)
            var findings: [Finding] = []
            for rule in rules where !halfRead.contains(flow.id) || type(of: rule).description.runsOnPartlyReadFlows {
                let parts = extensions[rule.id, default: []].flatMap { $0.check(context) }
                findings += Self.grouped(rule.check(context) + parts, perKey: findingsPerKey)
            }
            return findings
        }
        return graph.loadFindings + perFlow.joined()
    }

    /// `findings` under the inline suppressions of `graph` and `more` (comments in files that are no
    /// flow's, such as `.flowlens.yml`), deduplicated, in report order.
    public func suppressing(_ findings: [Finding], in graph: FlowGraph, more: [Suppression] = []) -> [Finding] {
        let halfRead = Self.halfRead(graph)
        // They apply to every finding, load findings included.
        var findings = SuppressionFilter.apply(findings, graph.suppressions + more, knownRules: knownRules)
        // A suppression in a flow whose rules did not run is not known to be unused.
        let halfReadFiles = Set(graph.flows.filter { halfRead.contains($0.id) }.compactMap(\.location?.file))
        findings.removeAll { $0.rule == UnusedSuppressionRule.description.id && halfReadFiles.contains($0.location?.file ?? "") }
        // Deduplicate (two rules never emit the same finding, but a shared sub-flow can repeat one)
        // and sort, so the report never depends on the order of rules or flows.
        return Finding.uniqueInReportOrder(findings)
    }

    /// One rule's findings for one flow, with those on a key beyond the first `limit` (in report
    /// order) replaced by one finding that counts them and names their steps: a flow whose 5,000
    /// steps all read a missing key gets a report that grows with the flow, not with its paths.
    static func grouped(_ findings: [Finding], perKey limit: Int) -> [Finding] {
        let byKey = Dictionary(grouping: findings.indices.filter { findings[$0].key != nil }) { findings[$0].key! }
        guard byKey.values.contains(where: { $0.count > limit }) else { return findings }
        var dropped = Set<Int>()
        var summaries: [Finding] = []
        for key in byKey.keys.sorted() {
            let group = byKey[key]!.sorted { Finding.reportOrder(findings[$0], findings[$1]) }
            guard group.count > limit else { continue }
            let rest = Array(group.dropFirst(limit))
            dropped.formUnion(rest)
            var summary = findings[rest[0]]
            let steps = rest.compactMap { findings[$0].step }
            let named = steps.prefix(10).map { "'\($0)'" }.joined(separator: ", ") + (steps.count > 10 ? " …" : "")
            summary.message = "\(rest.count) more like the \(limit) above on '\(key)' in this flow (FlowLens lists \(limit) a key; limits.findingsPerKey)"
                + (steps.isEmpty ? "" : ", at steps \(named)")
            summary.related = []
            summary.path = []
            summary.edge = nil
            summaries.append(summary)
        }
        return findings.indices.filter { !dropped.contains($0) }.map { findings[$0] } + summaries
    }
}
