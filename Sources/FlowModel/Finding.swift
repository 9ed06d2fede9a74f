/// How serious a finding is. Ordered from least to most serious.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    /// Information worth knowing; never fails a run.
    case note
    /// Probably a mistake; fails a run only with `--strict`.
    case warning
    /// A defect that will fail at run time, or input FlowLens cannot read.
    case error

    private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A second place a finding concerns (the step that writes the other type, the first duplicate).
public struct RelatedLocation: Hashable, Sendable, Codable {
    /// What the place is.
    public var message: String
    /// The place.
    public var location: SourceLocation

    /// Creates a related location.
    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// The related location `message` at `location`, as a finding's list: empty when the place is unknown.
    public static func list(_ location: SourceLocation?, _ message: String) -> [RelatedLocation] {
        location.map { [RelatedLocation(message: message, location: $0)] } ?? []
    }
}

/// A transition a finding is about, for drawing it on the diagram.
public struct EdgeReference: Hashable, Sendable, Codable {
    /// Source step id.
    public var from: String
    /// Target step id.
    public var to: String

    /// Creates a reference.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// One defect found in a flow, or one input that could not be read.
///
/// Findings are values, never thrown: a run collects them all. The ids (`flow`, `step`, `key`) are
/// stable across edits, so a baseline survives code moving; `location` is where to look now.
public struct Finding: Hashable, Sendable, Codable {
    /// The rule id (`missing-data-key`); part of the public API.
    public var rule: String
    /// How serious it is.
    public var severity: Severity
    /// One sentence a person can act on; at most `Excerpt.messageBytes` bytes (longer text is cut).
    public var message: String {
        didSet { if message.utf8.count > Excerpt.messageBytes { message = Excerpt.bounded(message) } }
    }
    /// Where to look; nil only when the source has no location at all.
    public var location: SourceLocation?
    /// The flow id.
    public var flow: String?
    /// The step id.
    public var step: String?
    /// The data key.
    public var key: String?
    /// The transition concerned, if the finding is about an edge.
    public var edge: EdgeReference?
    /// Other places that explain the finding.
    public var related: [RelatedLocation]
    /// Step ids of a path that shows the problem (for `missing-data-key`: a path on which the key is never set).
    /// A path of more than 16 steps keeps its first and last 8, as the message names it: a finding
    /// stays small however long the flow.
    public var path: [String]
    /// The change that fixes it, when the finding knows it for certain (one "did you mean"), and its
    /// text was found exactly where the loader recorded it.
    public var fix: Fix?

    /// Creates a finding.
    public init(rule: String, severity: Severity, message: String, location: SourceLocation?, flow: String? = nil,
                step: String? = nil, key: String? = nil, edge: EdgeReference? = nil,
                related: [RelatedLocation] = [], path: [String] = [], fix: Fix? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = Excerpt.bounded(message)
        self.location = location
        self.flow = flow
        self.step = step
        self.key = key
        self.edge = edge
        self.related = related
        self.path = path
        self.fix = fix
    }
}

extension Finding {
    /// The order every report uses: by file, line, column, then rule, flow, step, key and message, so
    /// output never depends on the order in which rules or threads produced findings.
    public static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let la = a.location ?? SourceLocation(file: ""), lb = b.location ?? SourceLocation(file: "")
        if la != lb { return la < lb }
        if a.rule != b.rule { return a.rule < b.rule }
        if (a.flow ?? "") != (b.flow ?? "") { return (a.flow ?? "") < (b.flow ?? "") }
        if (a.step ?? "") != (b.step ?? "") { return (a.step ?? "") < (b.step ?? "") }
        if (a.key ?? "") != (b.key ?? "") { return (a.key ?? "") < (b.key ?? "") }
        return a.message < b.message
    }

    /// `findings` in report order, each once (the first of equal findings). Sorted stably (ties keep
    /// the given order), then a finding is dropped when an equal one is already among its neighbours
    /// that `reportOrder` cannot tell apart: equal findings are always such neighbours, so nothing is
    /// hashed. (A `Set<Finding>` hashed every text of every finding, normalising a non-ASCII one as it
    /// went: a seventh of the time of the writer fuzz targets, whose names are 100,000 characters.)
    public static func uniqueInReportOrder(_ findings: [Finding]) -> [Finding] {
        let order = findings.indices.sorted { i, j in
            reportOrder(findings[i], findings[j]) || (!reportOrder(findings[j], findings[i]) && i < j)
        }
        var unique: [Finding] = []
        unique.reserveCapacity(findings.count)
        var runStart = 0  // where the current run of neighbours reportOrder cannot tell apart starts
        // A long run (findings differing only in severity, path or related places) is hashed once it
        // passes `longRun`, so that comparing within it stays linear.
        let longRun = 16
        var runSeen = Set<Finding>()
        for index in order {
            let finding = findings[index]
            if runStart < unique.count, !reportOrder(unique[runStart], finding) {
                let run = unique[runStart...]
                if run.count < longRun {
                    if run.contains(finding) { continue }
                } else {
                    if runSeen.isEmpty { runSeen = Set(run) }
                    if !runSeen.insert(finding).inserted { continue }
                }
            } else {
                runStart = unique.count
                runSeen = []
            }
            unique.append(finding)
        }
        return unique
    }
}
