import FlowModel
import FlowPresentation

/// The XML reporters' (checkstyle, JUnit) writing helpers; the escaping itself is `Escaping.xml`.
enum XMLEscaping {
    /// `text` escaped for element content: line feeds and tabs are kept as they are (element content
    /// preserves them), so multi-line text stays readable in the file.
    static func escapeText(_ text: String) -> String { Escaping.xml(text, keepingLineBreaks: true) }

    /// ` name="value"`, escaped.
    static func attribute(_ name: String, _ value: String) -> String { " \(name)=\"\(Escaping.xml(value))\"" }

    /// The XML declaration every report starts with.
    static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
}

/// Findings grouped by the file they are in, for the formats that are organised by file.
struct FileGroup {
    /// The file as reported, or "" for findings without a location.
    var file: String
    /// Its findings, in report order.
    var findings: [Finding]

    /// The name to print: the file, or `flowlens` for findings that have no location (as the text
    /// format prints them).
    var displayName: String { file.isEmpty ? FlowLensTool.name : file }

    /// Every file of the report (checked files without findings included, so a consumer sees them
    /// as clean) with its findings, sorted by path; findings without a location come first, as they
    /// do in report order.
    static func groups(_ report: Report) -> [FileGroup] {
        var byFile: [String: [Finding]] = [:]
        for file in report.graph.files { byFile[file, default: []] += [] }
        for finding in report.findings { byFile[finding.location?.file ?? "", default: []].append(finding) }
        return byFile.keys.sorted().map { FileGroup(file: $0, findings: byFile[$0] ?? []) }
    }
}
