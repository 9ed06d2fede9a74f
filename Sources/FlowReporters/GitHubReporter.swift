import FlowModel

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
        return "::\(Self.command(for: finding.severity)) \(list)::\(Self.escapeData(finding.message))\n"
    }

    /// The command name for a severity.
    public static func command(for severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// A command's message escaped: `%` → `%25`, CR → `%0D`, LF → `%0A`; the other control characters
    /// but tab, and noncharacters, become U+FFFD, as in the XML reports: the runner has no escape for
    /// them, and written raw an ESC would start a terminal escape sequence in the log.
    public static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                let v = scalar.value
                if (v < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || (v & 0xFFFE) == 0xFFFE {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A property value escaped: as data, and `:` → `%3A`, `,` → `%2C`.
    public static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
