import FlowModel
import FlowRules

/// The result of a run: what was loaded and what was found.
public struct Report: Sendable, CustomStringConvertible {
    /// The flows, files and load findings.
    public var graph: FlowGraph
    /// Every finding (load findings included), in report order.
    public var findings: [Finding]
    /// The part of a sharded run this report covers (`--shard`); nil for a whole run.
    public var shard: Shard?
    /// The analyses of the flows the findings were made from, by flow id (`Pipeline` fills it), so
    /// that what draws or explains the flows does not analyse them again; empty for a report made
    /// otherwise (a merged one), whose flows are analysed when asked (`flowAnalyses()`).
    public var analyses: [String: FlowAnalysis] = [:]

    /// Creates a report; findings are put in report order.
    public init(graph: FlowGraph, findings: [Finding]) {
        self.graph = graph
        self.findings = findings.sorted(by: Finding.reportOrder)
    }

    /// Findings of severity error.
    public var errors: [Finding] { findings.filter { $0.severity == .error } }
    /// Findings of severity warning.
    public var warnings: [Finding] { findings.filter { $0.severity == .warning } }
    /// Findings of severity note.
    public var notes: [Finding] { findings.filter { $0.severity == .note } }
    /// True when some input could not be read, said as a warning or an error (a note, such as a broken
    /// file that names no flow library, never fails a run).
    public var hasInvalidInput: Bool { findings.contains { $0.rule == RuleID.invalidInput && $0.severity != .note } }

    /// The findings as text, one a line, as `flowlens check` prints them.
    public var description: String { TextReporter().report(self) }

    /// The findings about one flow.
    public func findings(inFlow id: String) -> [Finding] { findings.filter { $0.flow == id } }

    /// The analysis of one of the report's flows: the one it carries, else made over its graph.
    public func analysis(of flow: Flow) -> FlowAnalysis {
        analyses[flow.id] ?? AnalysisSession(graph: graph).analysis(of: flow)
    }

    /// Each flow's analysis, in the order of `graph.flows`: the ones the report carries, the others
    /// (none, for a report from `Pipeline`) made by one session over the report's graph.
    public func flowAnalyses() -> [FlowAnalysis] {
        var session: AnalysisSession?
        return graph.flows.map { flow in
            if let known = analyses[flow.id] { return known }
            if session == nil { session = AnalysisSession(graph: graph) }
            return session!.analysis(of: flow)
        }
    }
}

/// A reporter turns a report into text. Reporters are pure: same report, same bytes.
public protocol Reporter: Sendable {
    /// The whole output.
    func report(_ report: Report) -> String
}

/// The formats `flowlens check --format` offers.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// `file:line:col: severity: message [rule]`, one finding a line.
    case text
    /// The JSON report (schemaVersion 1).
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::…`): annotations.
    case github
    /// Checkstyle XML (Jenkins, reviewdog, Danger, code-review bots).
    case checkstyle
    /// JUnit XML, one suite per file (CI test-report views).
    case junit
    /// A Markdown summary for a pull-request comment or a job summary.
    case markdown
    /// SARIF 2.1.0 (one run; every rule in tool.driver.rules), for GitHub code scanning.
    case sarif
    /// GitLab Code Quality (the Code Climate JSON GitLab reads), for merge requests.
    case gitlab

    /// The reporter for the format: an exhaustive switch, so a new format cannot go unregistered.
    /// `rules`: the catalogue a format that lists every rule prints (`RuleRegistry.descriptions`).
    public func reporter(rules: [RuleDescription]) -> any Reporter {
        switch self {
        case .text: return TextReporter()
        case .json: return JSONReporter()
        case .github: return GitHubReporter()
        case .checkstyle: return CheckstyleReporter()
        case .junit: return JUnitReporter()
        case .markdown: return MarkdownReporter()
        case .sarif: return SARIFReporter(rules: rules)
        case .gitlab: return GitLabReporter()
        }
    }
}
