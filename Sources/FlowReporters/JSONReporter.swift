import FlowModel

/// The JSON report: flows with their steps and transitions, the findings, and a summary.
///
/// The names documented in docs/output-formats.md are an API and never change meaning; fields may be added.
public struct JSONReporter: Reporter {
    /// The report schema version.
    public static let schemaVersion = 1

    /// Creates the reporter.
    public init() {}

    public func report(_ report: Report) -> String { value(report).serialized() }

    /// The report as a JSON value.
    public func value(_ report: Report) -> JSONValue {
        value(report, flows: report.graph.flows.map(flow), steps: report.graph.flows.reduce(0) { $0 + $1.steps.count })
    }

    /// The report with its flows already as JSON: `flowlens merge` passes the flows of the shards'
    /// reports through as they were written.
    func value(_ report: Report, flows: [JSONValue], steps: Int) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("schemaVersion", .int(Self.schemaVersion)),
            ("tool", .object([("name", .string(FlowLensTool.name)), ("version", .string(FlowLensTool.version))])),
        ]
        // Only a shard's report says so: a whole run's (and a merged one's) has no such field.
        if let shard = report.shard { fields.append(("shard", .object([("index", .int(shard.index)), ("count", .int(shard.count))]))) }
        return .object(fields + [
            ("files", .array(report.graph.files.map(JSONValue.string))),
            ("flows", .array(flows)),
            ("findings", .array(report.findings.map(finding))),
            ("summary", .object([
                ("files", .int(report.graph.files.count)),
                ("flows", .int(flows.count)),
                ("steps", .int(steps)),
                ("errors", .int(report.errors.count)),
                ("warnings", .int(report.warnings.count)),
                ("notes", .int(report.notes.count)),
            ])),
        ])
    }

    func location(_ location: SourceLocation?) -> JSONValue {
        guard let location else { return .null }
        return .object([("file", .string(location.file)), ("line", .int(location.line)), ("column", .int(location.column))])
    }

    func type(_ type: TypeName?) -> JSONValue { .string(type?.spelling) }

    func access(_ access: DataAccess, reading: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("key", .string(access.key)), ("type", type(access.type))]
        if reading { fields.append(("optional", .bool(access.optional))) }
        if let value = access.value { fields.append(("value", .string(value))) }
        if let elements = access.elementTypes { fields.append(("elementTypes", .array(elements.map(type)))) }
        fields.append(("location", location(access.location)))
        return .object(fields)
    }

    func flow(_ flow: Flow) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(flow.id)),
            ("name", .string(flow.name)),
            ("kind", .string(flow.kind.rawValue)),
            ("location", location(flow.location)),
        ]
        if let summary = flow.summary { fields.append(("description", .string(summary))) }
        fields.append(("start", .array(flow.effectiveEntries.map(JSONValue.string))))
        fields.append(("initialData", .array(flow.initialData.map { access($0, reading: false) })))
        if !flow.outputs.isEmpty { fields.append(("outputs", .array(flow.outputs.map { access($0, reading: true) }))) }
        if flow.inputType != nil || flow.outputType != nil {
            fields.append(("inputType", type(flow.inputType)))
            fields.append(("outputType", type(flow.outputType)))
        }
        if let parent = flow.parent { fields.append(("parent", .string(parent))) }
        fields.append(("steps", .array(flow.steps.map(step))))
        fields.append(("transitions", .array(flow.transitions.map(transition))))
        return .object(fields)
    }

    func step(_ step: Step) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(step.id)),
            ("name", .string(step.name)),
            ("kind", .string(step.kind.rawValue)),
            ("location", location(step.location)),
            ("reads", .array(step.reads.map { access($0, reading: true) })),
            ("writes", .array(step.writes.map { access($0, reading: false) })),
        ]
        if step.terminal { fields.append(("terminal", .bool(true))) }
        if let summary = step.summary { fields.append(("description", .string(summary))) }
        if let implementation = step.implementation { fields.append(("implementation", .string(implementation))) }
        if let content = step.contentType { fields.append(("contentType", type(content))) }
        if let result = step.resultType { fields.append(("resultType", type(result))) }
        if let subflow = step.subflow { fields.append(("subflow", .string(subflow))) }
        if let parent = step.parent { fields.append(("parent", .string(parent))) }
        if !step.details.isEmpty { fields.append(("details", .array(step.details.map(JSONValue.string)))) }
        if let group = step.group {
            var g: [(String, JSONValue)] = [
                ("inputKey", .string(group.inputKey)),
                ("outputKey", .string(group.outputKey)),
                ("elementKey", .string(group.elementKey)),
                ("elementOutputKey", .string(group.elementOutputKey)),
            ]
            if let max = group.maxConcurrent { g.append(("maxConcurrent", .int(max))) }
            g.append(("allowFailure", .bool(group.allowFailure)))
            g.append(("elementReads", .array(group.elementReads.map { access($0, reading: true) })))
            g.append(("elementWrites", .array(group.elementWrites.map { access($0, reading: false) })))
            fields.append(("group", .object(g)))
        }
        return .object(fields)
    }

    func transition(_ transition: Transition) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("from", .string(transition.from)),
            ("to", .string(transition.to)),
            ("label", .string(transition.displayLabel)),
        ]
        if let condition = transition.condition {
            switch condition {
            case let .equals(key, value):
                fields.append(("condition", .object([("kind", .string("equals")), ("key", .string(key)), ("value", .string(value))])))
            case .otherwise:
                fields.append(("condition", .object([("kind", .string("otherwise"))])))
            case let .expression(text):
                fields.append(("condition", .object([("kind", .string("expression")), ("text", .string(text))])))
            }
        }
        if transition.kind != .normal { fields.append(("kind", .string(transition.kind.rawValue))) }
        if let carried = transition.carriedType { fields.append(("type", type(carried))) }
        if let other = transition.crossesInto { fields.append(("crossesInto", .string(other))) }
        fields.append(("location", location(transition.location)))
        return .object(fields)
    }

    func finding(_ finding: Finding) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("rule", .string(finding.rule)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("flow", .string(finding.flow)),
            ("step", .string(finding.step)),
            ("key", .string(finding.key)),
            ("location", location(finding.location)),
        ]
        if let edge = finding.edge { fields.append(("edge", .object([("from", .string(edge.from)), ("to", .string(edge.to))]))) }
        if !finding.related.isEmpty {
            fields.append(("related", .array(finding.related.map {
                .object([("message", .string($0.message)), ("location", location($0.location))])
            })))
        }
        if !finding.path.isEmpty { fields.append(("path", .array(finding.path.map(JSONValue.string)))) }
        if let fix = finding.fix, fix.isLocated { fields.append(("fix", self.fix(fix))) }
        return .object(fields)
    }

    /// A located fix: its description and each replacement's exact range (UTF-8 bytes).
    func fix(_ fix: Fix) -> JSONValue {
        .object([
            ("description", .string(fix.description)),
            ("replacements", .array(fix.edits.map { edit in
                let range = edit.range!
                return .object([
                    ("file", .string(edit.at.file)), ("line", .int(range.line)), ("column", .int(range.column)),
                    ("length", .int(range.length)), ("offset", .int(range.offset)),
                    ("original", .string(edit.original)), ("replacement", .string(edit.replacement)),
                ])
            })),
        ])
    }
}
