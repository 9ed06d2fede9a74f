import Foundation

/// `flowlens explain`: where one data key of one flow is set and read, path by path.
public struct KeyExplanation: Sendable {
    /// The flow explained.
    public let flow: Flow
    /// The key's provenance.
    public let provenance: DataProvenance
    /// The paths the provenance lists.
    public let paths: FlowPaths

    /// Why a flow or key could not be explained: what was asked, and the close matches.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No flow has this id or name.
        case unknownFlow(String, closeMatches: [String])
        /// Several flows have this name; their ids.
        case ambiguousFlow(String, ids: [String])
        /// The flow never mentions the key; the close matches among its keys, and how many it has.
        case unknownKey(String, flow: String, closeMatches: [String], keyCount: Int)

        public var description: String {
            switch self {
            case let .unknownFlow(name, matches):
                return "no flow is named '\(name)'" + Self.suggestion(matches, "flowlens check lists the flows read")
            case let .ambiguousFlow(name, ids):
                return "\(ids.count) flows are named '\(name)'; name one by its id: " + ids.map { "'\($0)'" }.joined(separator: ", ")
            case let .unknownKey(key, flow, matches, count):
                if count == 0 { return "flow '\(flow)' reads and writes no data keys, so it has no '\(key)'" }
                return "flow '\(flow)' never reads or writes '\(key)'" + Self.suggestion(matches, "it has \(Plural.count(count, "key"))")
            }
        }

        static func suggestion(_ matches: [String], _ otherwise: String) -> String {
            matches.isEmpty ? " (\(otherwise))" : "; did you mean " + matches.map { "'\($0)'" }.joined(separator: ", ") + "?"
        }
    }

    /// Explains `key` in the flow `reference` (an id, else a name; else a unique case-insensitive match).
    public init(flow reference: String, key: String, in graph: FlowGraph, limit: Int = FlowPaths.defaultLimit) throws(Failure) {
        try self.init(flow: reference, key: key, in: Report(graph: graph, findings: []), limit: limit)
    }

    /// Explains `key` in the flow `reference` of `report`'s graph, with the analysis the report
    /// carries (see `Report.analyses`).
    public init(flow reference: String, key: String, in report: Report, limit: Int = FlowPaths.defaultLimit) throws(Failure) {
        let flow = try Self.flow(reference, in: report.graph)
        let analysis = report.analysis(of: flow)
        guard analysis.keyIndex[key] != nil else {
            // With no close match, a short list of the keys is the best hint.
            var matches = Self.closeMatches(key, in: analysis.keys)
            if matches.isEmpty, analysis.keys.count <= 5 { matches = analysis.keys }
            throw .unknownKey(key, flow: flow.name, closeMatches: matches, keyCount: analysis.keys.count)
        }
        self.flow = flow
        paths = FlowPaths(flow: flow, graph: analysis.graphIndex, limit: limit)
        provenance = DataProvenance(key: key, analysis: analysis, paths: paths)
    }

    /// The flow `reference` names: by id, else by name (several with that name: ambiguous), else by a
    /// unique case-insensitive id or name.
    public static func flow(_ reference: String, in graph: FlowGraph) throws(Failure) -> Flow {
        if let flow = graph.flows.first(where: { $0.id == reference }) { return flow }
        let named = graph.flows.filter { $0.name == reference }
        if named.count == 1 { return named[0] }
        if named.count > 1 { throw .ambiguousFlow(reference, ids: named.map(\.id)) }
        let folded = graph.flows.filter { $0.id.lowercased() == reference.lowercased() || $0.name.lowercased() == reference.lowercased() }
        if folded.count == 1 { return folded[0] }
        if folded.count > 1 { throw .ambiguousFlow(reference, ids: folded.map(\.id)) }
        var candidates: [String] = []
        for flow in graph.flows {
            for name in [flow.id, flow.name] where !candidates.contains(name) { candidates.append(name) }
        }
        throw .unknownFlow(reference, closeMatches: closeMatches(reference, in: candidates))
    }

    /// Up to five candidates close to `word`: the one `Spelling` would suggest first, then those containing
    /// it or within a third of its length in edits, nearest first.
    static func closeMatches(_ word: String, in candidates: [String]) -> [String] {
        let lower = word.lowercased()
        let limit = max(2, word.count / 3)
        // A name with no distance (too far, or too long to compare) can still match by containment.
        let scored = candidates.map { ($0, Spelling.distance(lower, $0.lowercased(), limit: limit) ?? Int.max) }
            .filter { $0.1 <= limit || $0.0.lowercased().contains(lower) || (lower.count >= 4 && lower.contains($0.0.lowercased())) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        var matches = Spelling.closest(to: word, in: candidates).map { [$0] } ?? []
        for (name, _) in scored where !matches.contains(name) { matches.append(name) }
        return Array(matches.prefix(5))
    }

    /// The marks for the diagram: writers, readers, the reading step where it is missing and the path to it.
    public var highlight: DiagramHighlight {
        var marks: [Int: DiagramHighlight.Mark] = [:]
        for access in provenance.accesses {
            guard let step = access.step, !access.isPossible else { continue }
            let mark: DiagramHighlight.Mark = access.kind == .write ? .writes : .reads
            if let old = marks[step], old != mark { marks[step] = .readsAndWrites } else { marks[step] = mark }
        }
        for read in provenance.missingReads { if let step = read.step { marks[step] = .missing } }
        return DiagramHighlight(steps: marks, transitions: Set(provenance.missing?.transitions ?? []), subject: provenance.key)
    }

    /// The DOT text of the flow's diagram with `highlight` drawn over it.
    public func dot(in report: Report) -> String {
        var builder = DOTBuilder()
        builder.highlight = highlight
        return builder.dot(for: flow, findings: report.findings, flows: report.graph.flows)
    }

    // MARK: - Text

    /// The explanation as text for a person: every write and read, where the key is missing, then each
    /// path in plain language with the writes and reads on it.
    public var text: String {
        let key = provenance.key
        var lines = ["Key '\(key)' in flow '\(flow.name)'\(flow.location.map { " (\($0))" } ?? "")", ""]
        if provenance.accesses.isEmpty {
            lines.append("No step sets or reads it.")
        } else {
            lines.append("Set and read:")
            for access in provenance.accesses { lines.append("  " + Self.line(access)) }
        }
        lines.append("")
        if let missing = provenance.missing {
            let at = missing.read.location.map { "\($0): " } ?? ""
            let path = FlowAnalysis.describe(steps: missing.steps, transitions: missing.transitions, in: flow)
            let which = missing.pathNumber.map { " (path \($0 + 1))" } ?? ""
            lines.append("MISSING: \(at)step '\(missing.read.stepName)' reads '\(key)' before any step sets it, on the path \(path)\(which).")
            let others = provenance.missingReads.filter { $0 != missing.read }
            for other in others {
                lines.append("  also not set on every path to step '\(other.stepName)'\(other.location.map { " (\($0))" } ?? "").")
            }
        } else if provenance.accesses.contains(where: { $0.kind == .read }) {
            lines.append("Always set before it is read: every path sets '\(key)' before a step needs it.")
        } else {
            lines.append("No step needs it (it is only \(provenance.accesses.contains { $0.kind.isRead } ? "tested or read as optional" : "set")), so it is never missing.")
        }
        lines.append("")
        let count = provenance.pathCount
        let shown = provenance.traces.count
        lines.append(shown == count.value && count.isExact
            ? "Paths (\(shown)):"
            : "Paths (the first \(shown) of \(count)):")
        for trace in provenance.traces {
            lines.append("  \(trace.number + 1). \(paths.sentence(for: trace.path).text)")
            if trace.events.isEmpty { lines.append("       (does not touch '\(key)')") }
            for (n, event) in trace.events.enumerated() {
                let mark = n == trace.firstMissing ? "✖ MISSING " : ""
                lines.append("       \(mark)\(Self.line(event))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `file:line:col  sets    Guest name [guest]  (String)`.
    static func line(_ access: DataProvenance.Access) -> String {
        let verb: String
        switch access.kind {
        case .initial: verb = "starts with"
        case .write: verb = access.isPossible ? "may set" : "sets"
        case .read: verb = "reads"
        case .optionalRead: verb = "may read"
        case .condition: verb = "tests"
        }
        let place = access.location.map { "\($0)" } ?? "(no location)"
        let who = access.stepID.map { $0 == access.stepName ? "'\($0)'" : "'\(access.stepName)' [\($0)]" } ?? "the flow"
        let type = access.type.map { " (\($0.spelling))" } ?? ""
        return "\(place)  \(who) \(verb) it\(type)"
    }

    // MARK: - JSON

    /// The explanation as JSON (documented in docs/usage.md).
    public var json: String {
        func location(_ l: SourceLocation?) -> JSONValue {
            guard let l else { return .null }
            return .object([("file", .string(l.file)), ("line", .int(l.line)), ("column", .int(l.column))])
        }
        func access(_ a: DataProvenance.Access) -> JSONValue {
            .object([("kind", .string(a.kind.rawValue)), ("step", .string(a.stepID)), ("stepName", .string(a.stepName)),
                     ("location", location(a.location)), ("type", .string(a.type?.spelling)), ("possible", .bool(a.isPossible))])
        }
        func steps(_ list: [Int]) -> JSONValue { .array(list.map { .string(flow.steps[$0].id) }) }
        let missing: JSONValue = provenance.missing.map { m in
            .object([("read", access(m.read)), ("path", steps(m.steps)), ("pathNumber", m.pathNumber.map { .int($0 + 1) } ?? .null)])
        } ?? .null
        let traces: [JSONValue] = provenance.traces.map { t in
            .object([("number", .int(t.number + 1)), ("sentence", .string(paths.sentence(for: t.path).text)),
                     ("steps", steps(t.path.steps)), ("ending", .string(t.path.ending.rawValue)),
                     ("events", .array(t.events.map(access))), ("firstMissing", t.firstMissing.map { .int($0) } ?? .null)])
        }
        return JSONValue.object([
            ("flow", .object([("id", .string(flow.id)), ("name", .string(flow.name)), ("location", location(flow.location))])),
            ("key", .string(provenance.key)),
            ("alwaysSetBeforeRead", .bool(provenance.isAlwaysSetBeforeRead)),
            ("accesses", .array(provenance.accesses.map(access))),
            ("missing", missing),
            ("missingReads", .array(provenance.missingReads.map(access))),
            ("pathCount", .object([("value", .int(provenance.pathCount.value)), ("exact", .bool(provenance.pathCount.isExact))])),
            ("paths", .array(traces)),
        ]).serialized()
    }
}
