import FlowModel
import FlowPresentation

/// Checkstyle XML, the format Jenkins (Warnings Next Generation), reviewdog, Danger, Codacy and
/// many code-review bots import:
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <checkstyle version="4.3">
///       <file name="Flows/checkout.flow.yaml">
///         <error line="33" column="11" severity="error" message="…" source="flowlens.missing-data-key"/>
///       </file>
///     </checkstyle>
///
/// Every checked file has a `<file>` element, in sorted order, as Checkstyle itself writes them: an
/// empty one says the file was checked and is clean. Findings keep report order within a file.
/// Severities map to Checkstyle's: error, warning, and `info` for notes. `line` and `column` are left
/// out when unknown; findings without a location are listed under the file name `flowlens`.
public struct CheckstyleReporter: Reporter {
    /// The Checkstyle format version written.
    public static let version = "4.3"

    /// Creates the reporter.
    public init() {}

    public func report(_ report: Report) -> String {
        var out = XMLEscaping.declaration
        out += "<checkstyle version=\"\(Self.version)\">\n"
        for group in FileGroup.groups(report) {
            guard !group.findings.isEmpty else {
                out += "  <file\(XMLEscaping.attribute("name", group.displayName))/>\n"
                continue
            }
            out += "  <file\(XMLEscaping.attribute("name", group.displayName))>\n"
            for finding in group.findings { out += "    " + error(finding) + "\n" }
            out += "  </file>\n"
        }
        out += "</checkstyle>\n"
        return out
    }

    /// One finding's `<error/>` element.
    func error(_ finding: Finding) -> String {
        var out = "<error"
        if let location = finding.location, location.line > 0 {
            out += XMLEscaping.attribute("line", String(location.line))
            if location.column > 0 { out += XMLEscaping.attribute("column", String(location.column)) }
        }
        out += XMLEscaping.attribute("severity", Self.severity(finding.severity))
        out += XMLEscaping.attribute("message", DisplayText.marked(finding.message))
        out += XMLEscaping.attribute("source", "flowlens.\(finding.rule)")
        return out + "/>"
    }

    /// Checkstyle's name for a severity.
    public static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "info"
        }
    }
}
