import FlowModel

/// One finding a line, in the format compilers and editors understand:
/// `file:line:col: error: message [rule-id]`.
public struct TextReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ report: Report) -> String {
        report.findings.map(line).joined()
    }

    /// One finding's line, with its newline.
    public func line(_ finding: Finding) -> String {
        let place = finding.location?.description ?? FlowLensTool.name
        return "\(place): \(finding.severity.rawValue): \(finding.message) [\(finding.rule)]\n"
    }

    /// `3 errors, 1 warning in 4 flows (2 files)`.
    public func summary(_ report: Report) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var parts = [count(report.errors.count, "error"), count(report.warnings.count, "warning")]
        if !report.notes.isEmpty { parts.append(count(report.notes.count, "note")) }
        return "\(parts.joined(separator: ", ")) in \(count(report.graph.flows.count, "flow")) (\(count(report.graph.files.count, "file")))\n"
    }
}
