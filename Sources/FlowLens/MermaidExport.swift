import Foundation

/// The Mermaid and Markdown files of `flowlens export --format mermaid|md`.
public enum MermaidExport {
    /// The Mermaid diagrams of `flow` with the report's findings (one, unless the flow is too large).
    public static func diagrams(for flow: Flow, in report: Report) -> [MermaidDiagram] {
        MermaidBuilder().diagrams(for: flow, findings: report.findings, flows: report.graph.flows)
    }

    /// A Markdown page for `flow`: its name as the title, its kind and status, each diagram in a fenced
    /// `mermaid` block (with a heading per part when split), and its findings as a list.
    public static func markdown(for flow: Flow, in report: Report) -> String {
        let diagrams = diagrams(for: flow, in: report)
        let findings = report.findings.filter { $0.flow == flow.id }.sorted(by: Finding.reportOrder)
        var lines = ["# \(PathSentence.escapeMarkdown(flow.name))", ""]
        var status = [MermaidBuilder.kindDescription(flow.kind)]
        let errors = findings.filter { $0.severity == .error }.count, warnings = findings.filter { $0.severity == .warning }.count
        if errors > 0 { status.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { status.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        if errors + warnings == 0 { status.append("no problems found") }
        lines.append(PathSentence.escapeMarkdown(status.joined(separator: " · ")) + (flow.location.map { " — `\(code($0.description))`" } ?? ""))
        lines.append("")
        if let note = diagrams.first?.note { lines += ["> " + note, ""] }
        for diagram in diagrams {
            if let part = diagram.part { lines += ["## Part \(part.number) of \(part.of)", ""] }
            lines += ["```mermaid", diagram.text.hasSuffix("\n") ? String(diagram.text.dropLast()) : diagram.text, "```", ""]
        }
        lines.append("## Findings")
        lines.append("")
        if findings.isEmpty { lines.append("None.") }
        for finding in findings {
            let place = finding.location.map { "`\(code($0.description))`: " } ?? ""
            lines.append("- **\(finding.severity.rawValue)** \(place)\(PathSentence.escapeMarkdown(finding.message)) (`\(finding.rule)`)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for a Markdown code span: backticks and line breaks would end it early.
    static func code(_ text: String) -> String {
        String(text.map { $0 == "`" || $0.isNewline ? "'" : $0 })
    }

    /// The files of `flow`: `name.mmd` (and `name.part2.mmd` … for a flow split in parts) or
    /// `name.md`, with their text.
    static func files(for flow: Flow, in report: Report, name: String, markdown: Bool) -> [(String, String)] {
        if markdown { return [("\(name).md", Self.markdown(for: flow, in: report))] }
        return diagrams(for: flow, in: report).enumerated().map { n, diagram in
            (n == 0 ? "\(name).mmd" : "\(name).part\(n + 1).mmd", diagram.text)
        }
    }
}
