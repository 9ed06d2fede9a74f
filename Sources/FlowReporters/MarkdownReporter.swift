import FlowModel
import FlowPresentation

/// A Markdown summary for a pull-request comment or a GitHub Actions job summary
/// (`flowlens check --format markdown … >> "$GITHUB_STEP_SUMMARY"`):
///
///     <!-- flowlens -->
///     ### ❌ FlowLens: 2 errors, 1 warning in 3 flows (2 files)
///
///     | Severity | Rule | Location | Message |
///     |---|---|---|---|
///     | error | `missing-data-key` | `Flows/checkout.flow.yaml:33` | step 'Show summary' reads … |
///
///     | Rule | Severity | Findings |
///     |---|---|---:|
///     | `missing-data-key` | error | 2 |
///
/// The first line is an invisible marker, so a bot that updates its previous comment can find it.
/// Table cells are escaped: `|` as `\|`, line breaks as `<br>`, and the characters that would start
/// emphasis, links, code or HTML (`` \ ` * _ ~ [ ] < > & ``) with a backslash, so a message shows as
/// written. The rule table lists each rule and severity with its count, most serious first, then
/// most frequent. With no findings the whole output is the marker and `### ✅ FlowLens: No problems
/// found`, with what was checked.
///
/// A pull-request comment holds at most 65,536 characters, so the findings table stops after
/// `maxFindings` rows (200 by default) and says how many it left out; the counts are always complete.
public struct MarkdownReporter: Reporter {
    /// The hidden first line that identifies FlowLens's comment.
    public static let marker = "<!-- flowlens -->"

    /// The most findings the table lists; nil for no limit.
    public var maxFindings: Int?

    /// Creates the reporter.
    public init(maxFindings: Int? = 200) {
        self.maxFindings = maxFindings.map { max($0, 0) }
    }

    public func report(_ report: Report) -> String {
        var out = Self.marker + "\n"
        guard !report.findings.isEmpty else {
            let checked = "\(Plural.count(report.graph.flows.count, "flow")) (\(Plural.count(report.graph.files.count, "file")))"
            return out + "### ✅ FlowLens: No problems found\n\nChecked \(checked).\n"
        }
        let icon = !report.errors.isEmpty ? "❌" : !report.warnings.isEmpty ? "⚠️" : "ℹ️"
        // "7 errors, 1 warning in 2 flows (1 file)", as the text format's summary line says it.
        let summary = TextReporter().summary(report).dropLast()
        out += "### \(icon) FlowLens: \(summary)\n\n"

        out += "| Severity | Rule | Location | Message |\n|---|---|---|---|\n"
        let shown = maxFindings.map { Array(report.findings.prefix($0)) } ?? report.findings
        for finding in shown {
            out += "| \(finding.severity.rawValue) | \(Escaping.markdownCodeSpan(finding.rule)) | \(Self.location(finding.location)) | \(Escaping.markdownTableCell(DisplayText.marked(finding.message))) |\n"
        }
        let hidden = report.findings.count - shown.count
        if hidden > 0 {
            out += "\n… and \(hidden) more \(Plural.noun(hidden, "finding")), not listed here; run `flowlens check` to see them all.\n"
        }

        out += "\n| Rule | Severity | Findings |\n|---|---|---:|\n"
        for row in Self.ruleCounts(report) {
            out += "| \(Escaping.markdownCodeSpan(row.rule)) | \(row.severity.rawValue) | \(row.count) |\n"
        }
        return out
    }

    /// Findings per rule and severity: most serious first, then most frequent, then by rule id.
    static func ruleCounts(_ report: Report) -> [(rule: String, severity: Severity, count: Int)] {
        var counts: [String: [Severity: Int]] = [:]
        for finding in report.findings { counts[finding.rule, default: [:]][finding.severity, default: 0] += 1 }
        return counts.flatMap { rule, bySeverity in bySeverity.map { (rule: rule, severity: $0.key, count: $0.value) } }
            .sorted { a, b in
                if a.severity != b.severity { return a.severity > b.severity }
                if a.count != b.count { return a.count > b.count }
                return a.rule < b.rule
            }
    }

    /// `file:line` as code, or `—` when there is no location.
    static func location(_ location: SourceLocation?) -> String {
        guard let location, !location.file.isEmpty else { return "—" }
        return Escaping.markdownCodeSpan(location.line > 0 ? "\(location.file):\(location.line)" : location.file)
    }
}
