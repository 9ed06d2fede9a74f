import Foundation

/// The Mermaid and Markdown files of `flowlens export --format mermaid|md`.
public enum MermaidExport {
    /// The Mermaid diagrams of `flow` with the report's findings (one, unless the flow is too large),
    /// and what recorded runs did on it when `trace` is given (`flowlens export --trace`).
    public static func diagrams(for flow: Flow, in report: Report, trace: TraceOverlay? = nil) -> [MermaidDiagram] {
        var builder = MermaidBuilder()
        builder.trace = trace
        return builder.diagrams(for: flow, findings: report.findings, flows: report.graph.flows)
    }

    /// A Markdown page for `flow`: its name as the title, its kind and status, each diagram in a fenced
    /// `mermaid` block (with a heading per part when split), and its findings as a list.
    public static func markdown(for flow: Flow, in report: Report, trace: TraceOverlay? = nil) -> String {
        markdown(for: flow, counted: FlowStatus.findings(of: flow, in: report.findings, flows: report.graph.flows), in: report, trace: trace)
    }

    /// `markdown(for:in:trace:)`, given the findings that count for `flow` (`FlowFindings.counted`):
    /// an export of every flow groups them once, rather than read every flow again for each.
    static func markdown(for flow: Flow, counted: [Finding], in report: Report, trace: TraceOverlay?) -> String {
        let diagrams = diagrams(for: flow, in: report, trace: trace)
        let findings = counted.sorted(by: Finding.reportOrder)
        var lines = ["# \(Escaping.markdown(DisplayText.visible(flow.name, limit: nil)))", ""]
        let status = [flow.kind.noun, FlowStatus(counting: counted).text]
        lines.append(Escaping.markdown(status.joined(separator: " · ")) + (flow.location.map { " — `\(code($0.description))`" } ?? ""))
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
            let inOther = finding.flow != flow.id ? report.graph.flows.first { $0.id == finding.flow }.map { "in \(Escaping.markdown(DisplayText.visible($0.name, limit: nil))): " } : nil
            lines.append("- \(SeverityStyle.of(finding.severity).glyph) **\(finding.severity.rawValue)** \(place)\(inOther ?? "")\(Escaping.markdown(DisplayText.visible(finding.message, limit: nil))) (`\(finding.rule)`)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The index of the Markdown pages (`README.md`): a row per flow, linked to its page, with its kind,
    /// status and where it is defined, in the order of the pages.
    static func index(_ pages: [(flow: Flow, file: String, counted: [Finding])]) -> String {
        var lines = ["# Flows", "", "| flow | kind | status | defined in |", "|---|---|---|---|"]
        for page in pages {
            let name = Escaping.markdownTableCell(DisplayText.visible(page.flow.name, limit: nil))
            let place = page.flow.location.map { "`\(code($0.description).replacingOccurrences(of: "|", with: "\\|"))`" } ?? ""
            lines.append("| [\(name)](\(page.file)) | \(page.flow.kind.noun) | \(FlowStatus(counting: page.counted).text) | \(place) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for a Markdown code span: backticks and line breaks would end it early; hidden characters
    /// (a file name may hold any but `/` and NUL) are written visibly, as everywhere else on the page.
    static func code(_ text: String) -> String {
        String(DisplayText.visible(text, limit: nil).map { $0 == "`" || $0.isNewline ? "'" : $0 })
    }

    /// The files of `flow`: `name.mmd` (and `name.part2.mmd` … for a flow split in parts) or
    /// `name.md`, with their text. `report` holds the findings that count for `flow` and no others
    /// (`FlowFindings.counted`).
    static func files(for flow: Flow, in report: Report, name: String, markdown: Bool, trace: TraceOverlay? = nil) -> [(String, String)] {
        if markdown { return [("\(name).md", Self.markdown(for: flow, counted: report.findings, in: report, trace: trace))] }
        return diagrams(for: flow, in: report, trace: trace).enumerated().map { n, diagram in
            (n == 0 ? "\(name).mmd" : "\(name).part\(n + 1).mmd", diagram.text)
        }
    }
}
