import FlowModel
import FlowPresentation

/// `flowlens diff` output: text for a terminal or a log, JSON for tools, Markdown for a pull-request
/// comment. Pure: the same diff gives the same bytes.
public struct DiffReporter: Sendable {
    /// The formats of `flowlens diff --format`.
    public enum Format: String, CaseIterable, Sendable {
        case text, json, markdown
    }

    /// The hidden first line of the Markdown output, so a bot can find and update its comment.
    public static let marker = "<!-- flowlens-diff -->"

    public var format: Format

    /// Creates the reporter.
    public init(format: Format = .text) { self.format = format }

    /// The whole output; `oldName` and `newName` say what was compared (`main:Flows`, `Flows`).
    public func report(_ diff: GraphDiff, oldName: String, newName: String) -> String {
        switch format {
        case .text: return text(diff, oldName: oldName, newName: newName)
        case .json: return json(diff, oldName: oldName, newName: newName).serialized()
        case .markdown: return markdown(diff, oldName: oldName, newName: newName)
        }
    }

    // MARK: - Summary

    /// `+1 step, −1 step, 1 step changed, +2 transitions, −1 transition, 3 reads/writes changed`.
    public static func counts(_ flow: FlowDiff) -> String {
        var parts = flow.stepAndTransitionCounts
        let data = flow.dataChanges.count + flow.initialData.count
        if data > 0 { parts.append("\(data) \(Plural.noun(data, "read"))/\(Plural.noun(data, "write")) changed") }
        return parts.isEmpty ? "no change to its steps" : parts.joined(separator: ", ")
    }

    /// `2 flows changed, 1 added, 0 removed, 12 unchanged; 1 new finding (1 error), 2 fixed`.
    public static func summary(_ diff: GraphDiff) -> String {
        let changed = diff.flows.filter { $0.status == .changed || $0.status == .unchanged }.count
        let added = diff.flows.filter { $0.status == .added }.count, removed = diff.flows.filter { $0.status == .removed }.count
        var findings = Plural.count(diff.newFindings.count, "new finding")
        let errors = diff.newFindings.filter { $0.severity == .error }.count, warnings = diff.newFindings.filter { $0.severity == .warning }.count
        var kinds: [String] = []
        if errors > 0 { kinds.append(Plural.count(errors, "error")) }
        if warnings > 0 { kinds.append(Plural.count(warnings, "warning")) }
        if !kinds.isEmpty { findings += " (\(kinds.joined(separator: ", ")))" }
        return "\(Plural.count(changed, "flow")) changed, \(added) added, \(removed) removed, \(diff.unchangedFlows) unchanged; \(findings), \(diff.fixedFindings.count) fixed"
    }

    static func edgeText(_ transition: Transition) -> String {
        let label = transition.displayLabel.map { " [\($0)]" } ?? ""
        let kind = transition.kind == .normal ? "" : " (\(transition.kind.rawValue))"
        return "\(transition.from) → \(transition.to)\(label)\(kind)"
    }

    static func flowWord(_ status: FlowDiff.Status) -> String {
        switch status {
        case .added: return "added"
        case .removed: return "removed"
        default: return "changed"
        }
    }

    /// Findings about no flow (a file that cannot be read) and about flows not listed.
    static func otherFindings(_ findings: [Finding], _ diff: GraphDiff) -> [Finding] {
        let listed = Set(diff.flows.map(\.id))
        return findings.filter { $0.flow.map { !listed.contains($0) } ?? true }
    }

    // MARK: - Text

    func text(_ diff: GraphDiff, oldName: String, newName: String) -> String {
        let lines = TextReporter()
        var out = "flowlens diff \(oldName) → \(newName)\n"
        for flow in diff.flows {
            let base = (flow.new ?? flow.old)!
            out += "\n\(flow.status == .added ? "+" : flow.status == .removed ? "-" : "~") flow \(base.name) (\(Self.flowWord(flow.status))"
            if flow.status == .changed || flow.status == .unchanged { out += ": \(Self.counts(flow))" }
            out += ")\(base.location.map { " at \($0)" } ?? "")\n"
            for other in flow.other { out += "    ~ \(other)\n" }
            for change in flow.initialData { out += "    ~ \(change.text)\n" }
            if flow.status == .changed || flow.status == .unchanged {
                for step in flow.steps where step.status != .unchanged {
                    let mark = step.status == .added ? "+" : step.status == .removed ? "-" : "~"
                    let name = step.name == step.id ? "" : " '\(step.name)'"
                    let changes = step.changes.isEmpty ? "" : ": " + step.changes.joined(separator: "; ")
                    let place = step.status == .removed ? "" : step.location.map { " at \($0)" } ?? ""
                    out += "    \(mark) step \(step.id)\(name)\(changes)\(place)\n"
                }
                for edge in flow.edges where edge.status != .unchanged {
                    out += "    \(edge.status == .added ? "+" : "-") transition \(Self.edgeText(edge.transition))\n"
                }
            }
            for finding in diff.newFindings(inFlow: flow.id) { out += "    new: " + lines.line(finding) }
            for finding in diff.fixedFindings(inFlow: flow.id) { out += "    fixed: " + lines.line(finding) }
        }
        let newOther = Self.otherFindings(diff.newFindings, diff), fixedOther = Self.otherFindings(diff.fixedFindings, diff)
        if !newOther.isEmpty || !fixedOther.isEmpty {
            out += "\nfindings about no flow\n"
            for finding in newOther { out += "    new: " + lines.line(finding) }
            for finding in fixedOther { out += "    fixed: " + lines.line(finding) }
        }
        if diff.flows.isEmpty && diff.newFindings.isEmpty && diff.fixedFindings.isEmpty { out += "\nno differences in flows or findings\n" }
        return out + "\n" + Self.summary(diff) + "\n"
    }

    // MARK: - JSON

    func json(_ diff: GraphDiff, oldName: String, newName: String) -> JSONValue {
        let findings = JSONReporter()
        func data(_ change: FlowDiff.DataChange) -> JSONValue {
            .object([("access", .string(change.access.rawValue)), ("key", .string(change.key)), ("status", .string(change.status.rawValue)),
                     ("oldType", .string(change.old?.type?.spelling)), ("newType", .string(change.new?.type?.spelling)),
                     ("oldOptional", change.old.map { .bool($0.optional) } ?? .null), ("newOptional", change.new.map { .bool($0.optional) } ?? .null)])
        }
        func flow(_ flow: FlowDiff) -> JSONValue {
            let base = (flow.new ?? flow.old)!
            return .object([
                ("id", .string(flow.id)), ("name", .string(base.name)), ("kind", .string(base.kind.rawValue)),
                ("status", .string(flow.status == .unchanged ? "changed" : flow.status.rawValue)),
                ("location", findings.location(base.location)),
                ("changes", .array(flow.other.map(JSONValue.string))),
                ("initialData", .array(flow.initialData.map(data))),
                ("steps", .array(flow.steps.filter { $0.status != .unchanged }.map { step in
                    .object([("id", .string(step.id)), ("name", .string(step.name)), ("status", .string(step.status.rawValue)),
                             ("changes", .array(step.other.map(JSONValue.string))), ("data", .array(step.data.map(data))),
                             ("location", findings.location(step.location))])
                })),
                ("transitions", .array(flow.edges.filter { $0.status != .unchanged }.map { edge in
                    .object([("from", .string(edge.transition.from)), ("to", .string(edge.transition.to)),
                             ("label", .string(edge.transition.displayLabel)), ("kind", .string(edge.transition.kind.rawValue)),
                             ("status", .string(edge.status.rawValue))])
                })),
                ("newFindings", .array(diff.newFindings(inFlow: flow.id).map(findings.finding))),
                ("fixedFindings", .array(diff.fixedFindings(inFlow: flow.id).map(findings.finding))),
            ])
        }
        return .object([
            ("schemaVersion", .int(JSONReporter.schemaVersion)),
            ("tool", .object([("name", .string(FlowLensTool.name)), ("version", .string(FlowLensTool.version))])),
            ("old", .string(oldName)),
            ("new", .string(newName)),
            ("flows", .array(diff.flows.map(flow))),
            ("newFindings", .array(diff.newFindings.map(findings.finding))),
            ("fixedFindings", .array(diff.fixedFindings.map(findings.finding))),
            ("summary", .object([
                ("flowsChanged", .int(diff.flows.filter { $0.status == .changed || $0.status == .unchanged }.count)),
                ("flowsAdded", .int(diff.flows.filter { $0.status == .added }.count)),
                ("flowsRemoved", .int(diff.flows.filter { $0.status == .removed }.count)),
                ("flowsUnchanged", .int(diff.unchangedFlows)),
                ("newFindings", .int(diff.newFindings.count)),
                ("newErrors", .int(diff.newFindings.filter { $0.severity == .error }.count)),
                ("newWarnings", .int(diff.newFindings.filter { $0.severity == .warning }.count)),
                ("fixedFindings", .int(diff.fixedFindings.count)),
            ])),
        ])
    }

    // MARK: - Markdown

    func markdown(_ diff: GraphDiff, oldName: String, newName: String) -> String {
        let icon = diff.newFindings.contains { $0.severity == .error } ? "❌" : diff.newFindings.isEmpty ? "✅" : "⚠️"
        var out = Self.marker + "\n### \(icon) FlowLens diff: \(Escaping.markdownTableCell(Self.summary(diff)))\n\n"
        out += "Comparing \(Escaping.markdownCodeSpan(oldName)) with \(Escaping.markdownCodeSpan(newName)).\n"
        if !diff.flows.isEmpty {
            out += "\n| Flow | Status | Changes | New findings | Fixed |\n|---|---|---|---:|---:|\n"
            for flow in diff.flows {
                let base = (flow.new ?? flow.old)!
                let changes = flow.status == .added || flow.status == .removed ? "—" : Escaping.markdownTableCell(Self.counts(flow))
                out += "| \(Escaping.markdownTableCell(base.name)) | \(Self.flowWord(flow.status)) | \(changes) | \(diff.newFindings(inFlow: flow.id).count) | \(diff.fixedFindings(inFlow: flow.id).count) |\n"
            }
            for flow in diff.flows where flow.status == .changed || flow.status == .unchanged {
                // Words, not +/- marks: a list item starting with "+ " would be a nested list.
                var items = flow.other.map { "changed: " + $0 } + flow.initialData.map { "changed data: " + $0.text }
                for step in flow.steps where step.status != .unchanged {
                    let changes = step.changes.isEmpty ? "" : ": " + step.changes.joined(separator: "; ")
                    items.append("\(step.status.rawValue): step \(step.name)\(changes)")
                }
                for edge in flow.edges where edge.status != .unchanged {
                    items.append("\(edge.status.rawValue): transition \(Self.edgeText(edge.transition))")
                }
                guard !items.isEmpty else { continue }
                out += "\n<details><summary>\(Escaping.markdownTableCell((flow.new ?? flow.old)!.name))</summary>\n\n"
                out += items.map { "- " + Escaping.markdownTableCell($0) + "\n" }.joined() + "\n</details>\n"
            }
        }
        for (title, findings) in [("New findings", diff.newFindings), ("Fixed findings", diff.fixedFindings)] where !findings.isEmpty {
            out += "\n**\(title)**\n\n| Severity | Rule | Location | Message |\n|---|---|---|---|\n"
            for finding in findings {
                out += "| \(finding.severity.rawValue) | \(Escaping.markdownCodeSpan(finding.rule)) | \(MarkdownReporter.location(finding.location)) | \(Escaping.markdownTableCell(finding.message)) |\n"
            }
        }
        return out
    }
}
