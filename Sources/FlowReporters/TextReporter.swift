import FlowModel
import FlowPresentation

/// One finding a line, in the format compilers and editors understand:
/// `file:line:col: error: message [rule-id]`; or, with `style: .source`, each such line followed by
/// the source line and a caret under the column, as actionlint shows them (see `TextReporter+Source.swift`).
public struct TextReporter: Reporter {
    /// How the findings are shown.
    public enum Style: Hashable, Sendable {
        /// `file:line:col: severity: message [rule-id]`, one finding a line: the format editors, CI log
        /// matchers and scripts parse. The default, and what `flowlens check` writes to a pipe or file.
        case lines
        /// Each finding's line, then its source line with a caret under the column; ANSI colours when
        /// `colors` is true. What `flowlens check` writes to a terminal.
        case source(colors: Bool)
    }

    /// How the findings are shown.
    public var style: Style
    /// The text of the reported files, keyed by the file as reported (`SourceLocation.file`), for
    /// the `.source` style. A file not here is shown without its source line.
    public var sources: [String: String]

    /// Creates the reporter; by default one line a finding.
    public init(style: Style = .lines, sources: [String: String] = [:]) {
        self.style = style
        self.sources = sources
    }

    public func report(_ report: Report) -> String {
        switch style {
        case .lines: return report.findings.map(line).joined()
        case let .source(colors): return sourceReport(report, colors: colors)
        }
    }

    /// One finding's line, with its newline.
    public func line(_ finding: Finding) -> String {
        // Bidirectional controls and invisible characters are written visibly (`DisplayText.marked`).
        let place = DisplayText.marked(finding.location?.description ?? FlowLensTool.name)
        return "\(place): \(finding.severity.rawValue): \(DisplayText.marked(finding.message)) [\(finding.rule)]\n"
    }

    /// `3 errors, 1 warning in 4 flows (2 files)`.
    public func summary(_ report: Report) -> String {
        var parts = [Plural.count(report.errors.count, "error"), Plural.count(report.warnings.count, "warning")]
        if !report.notes.isEmpty { parts.append(Plural.count(report.notes.count, "note")) }
        // As ESLint says which problems its --fix can fix: the ones with a located fix.
        let fixable = report.findings.filter { $0.fix?.isLocated == true }.count
        let hint = fixable == 0 ? "" : "; \(fixable) fixable with 'flowlens check --fix'"
        return "\(parts.joined(separator: ", ")) in \(Plural.count(report.graph.flows.count, "flow")) (\(Plural.count(report.graph.files.count, "file")))\(hint)\n"
    }
}
