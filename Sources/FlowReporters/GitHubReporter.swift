import FlowModel
import FlowPresentation

/// GitHub Actions workflow commands, one a finding, which the runner turns into annotations on the
/// pull request's diff and the run's summary:
///
///     ::error file=Flows/checkout.flow.yaml,line=33,col=11,title=missing-data-key::step 'Show summary' reads …
///
/// `::error` for errors, `::warning` for warnings, `::notice` for notes. `file`, `line` and `col` are
/// left out when unknown (an annotation without them is shown on the run, not on a file). Paths are
/// as reported (relative to the working directory), so run FlowLens from the repository root for
/// the annotations to land on the diff.
///
/// Escaped as the Actions toolkit does: the message (`%`, CR, LF) so a newline can never start a
/// second command; property values also `:` and `,`, which would end the value early. Other control
/// characters and noncharacters, which have no escape, are replaced.
public struct GitHubReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ report: Report) -> String {
        report.findings.map(command).joined()
    }

    /// One finding's workflow command, with its newline.
    public func command(_ finding: Finding) -> String {
        var properties: [(String, String)] = []
        if let location = finding.location, !location.file.isEmpty {
            properties.append(("file", location.file))
            if location.line > 0 {
                properties.append(("line", String(location.line)))
                if location.column > 0 { properties.append(("col", String(location.column))) }
            }
        }
        properties.append(("title", finding.rule))
        let list = properties.map { "\($0.0)=\(Self.escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(Self.command(for: finding.severity)) \(list)::\(Self.escapeData(DisplayText.marked(finding.message)))\n"
    }

    /// The command name for a severity.
    public static func command(for severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// A command's message escaped (`Escaping.gitHubCommandData`).
    public static func escapeData(_ text: String) -> String { Escaping.gitHubCommandData(text) }

    /// A property value escaped (`Escaping.gitHubCommandProperty`).
    public static func escapeProperty(_ text: String) -> String { Escaping.gitHubCommandProperty(text) }
}
