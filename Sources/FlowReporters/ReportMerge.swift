import FlowModel

/// Why JSON reports cannot be merged: the merged output would not be what one run prints.
public struct ReportMergeError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the report.
    public let description: String
}

/// The JSON reports of the shards of one run (`flowlens check --shard I/N --format json`), combined
/// into what one unsharded run reports: files in run order, flows in run order (file, then position),
/// findings in report order, the summary counted again.
///
/// Shards split the files by flow (`ShardPlanner`), so a file, and every flow and finding of it, is in
/// exactly one report; a report read twice, a shard missing, or reports of another FlowLens version are
/// errors, never a silently different result.
public struct MergedReport: Sendable {
    /// The merged report, as the reporters take it. Its flows carry their id, name, kind, location
    /// and steps' ids (what the non-JSON reporters read); the JSON output keeps every flow as written.
    public let report: Report
    /// Each flow as its shard's report wrote it, in run order.
    let flowValues: [JSONValue]
    /// The steps of every flow.
    let stepCount: Int

    /// Merges the reports; `names` name them in errors (file names).
    public init(reports texts: [(name: String, text: String)]) throws {
        struct Part {
            var name: String
            var shard: Shard?
            var files: [String]
            var flows: [(value: JSONValue, flow: Flow)]
            var findings: [Finding]
        }
        var parts: [Part] = []
        for (name, text) in texts {
            func fail(_ what: String) -> ReportMergeError { ReportMergeError(description: "\(name): \(what)") }
            let json: JSONValue
            do { json = try JSONValue.parse(text) } catch { throw fail("not JSON (\(error))") }
            guard json["schemaVersion"]?.intValue == JSONReporter.schemaVersion else {
                throw fail("not a FlowLens JSON report (schemaVersion \(JSONReporter.schemaVersion); 'flowlens check --format json' writes one)")
            }
            guard let version = json["tool"]?["version"]?.stringValue, version == FlowLensTool.version else {
                throw fail("written by FlowLens \(json["tool"]?["version"]?.stringValue ?? "(unknown)"), not \(FlowLensTool.version): merge the reports of one FlowLens version")
            }
            var shard: Shard?
            if let value = json["shard"] {
                guard let index = value["index"]?.intValue, let count = value["count"]?.intValue,
                      let parsed = Shard(index: index, count: count) else { throw fail("a malformed shard field") }
                shard = parsed
            }
            do {
                let files = try Self.array(json["files"], "files").map { try Self.string($0, "a file") }
                let flows = try Self.array(json["flows"], "flows").map { ($0, try Self.flow($0)) }
                let findings = try Self.array(json["findings"], "findings").map(Self.finding)
                parts.append(Part(name: name, shard: shard, files: files, flows: flows, findings: findings))
            } catch let error as ReportMergeError {
                throw fail(error.description)
            }
        }
        guard !parts.isEmpty else { throw ReportMergeError(description: "no report to merge") }
        // Either one whole run, or every shard of one run exactly once.
        let whole = parts.filter { $0.shard == nil }
        if !whole.isEmpty {
            guard parts.count == 1 else {
                throw ReportMergeError(description: "\(whole[0].name): a whole run's report (not checked with --shard) cannot be merged with others")
            }
        } else {
            let count = parts[0].shard!.count
            if let other = parts.first(where: { $0.shard!.count != count }) {
                throw ReportMergeError(description: "\(other.name): shard \(other.shard!) of another split than \(parts[0].name)'s \(parts[0].shard!)")
            }
            var byIndex: [Int: String] = [:]
            for part in parts {
                if let earlier = byIndex[part.shard!.index] {
                    throw ReportMergeError(description: "\(part.name): shard \(part.shard!) is also \(earlier)")
                }
                byIndex[part.shard!.index] = part.name
            }
            let missing = (1...count).filter { byIndex[$0] == nil }
            guard missing.isEmpty else {
                throw ReportMergeError(description: "\(Plural.noun(missing.count, "shard")) \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: merge every shard's report")
            }
        }
        var owner: [String: String] = [:]
        for part in parts {
            for file in part.files {
                if let other = owner[file] {
                    throw ReportMergeError(description: "\(part.name): '\(file)' is also in \(other): the reports are not the shards of one split")
                }
                owner[file] = part.name
            }
        }
        // The run's order: files sorted as discovery sorts them; flows by file, then position (as
        // `SourceLoader` orders them); within a shard, the order it wrote.
        let files = owner.keys.sorted()
        let fileOrder = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($0.element, $0.offset) })
        let ordered = parts.sorted { ($0.shard?.index ?? 0) < ($1.shard?.index ?? 0) }
        let flows = ordered.enumerated().flatMap { part in
            part.element.flows.enumerated().map { (key: (part.offset, $0.offset), value: $0.element) }
        }.sorted { a, b in
            let la = a.value.flow.location, lb = b.value.flow.location
            let fa = la.flatMap { fileOrder[$0.file] } ?? Int.max, fb = lb.flatMap { fileOrder[$0.file] } ?? Int.max
            if fa != fb { return fa < fb }
            let pa = (la?.line ?? 0, la?.column ?? 0), pb = (lb?.line ?? 0, lb?.column ?? 0)
            if pa != pb { return pa < pb }
            return a.key < b.key
        }.map(\.value)
        flowValues = flows.map(\.value)
        stepCount = flows.reduce(0) { $0 + $1.flow.steps.count }
        report = Report(graph: FlowGraph(flows: flows.map(\.flow), files: files), findings: ordered.flatMap(\.findings))
    }

    /// The merged report in `format`: the bytes one unsharded `flowlens check` prints.
    public func output(_ reporter: any Reporter) -> String {
        guard reporter is JSONReporter else { return reporter.report(report) }
        return JSONReporter().value(report, flows: flowValues, steps: stepCount).serialized()
    }

    // MARK: Reading the report's fields back

    private static func array(_ value: JSONValue?, _ what: String) throws -> [JSONValue] {
        guard let items = value?.arrayValue else { throw ReportMergeError(description: "'\(what)' is not an array") }
        return items
    }

    private static func string(_ value: JSONValue?, _ what: String) throws -> String {
        guard let text = value?.stringValue else { throw ReportMergeError(description: "\(what) is not a string") }
        return text
    }

    private static func optionalString(_ value: JSONValue?, _ what: String) throws -> String? {
        if value == nil || value == .null { return nil }
        return try string(value, what)
    }

    private static func location(_ value: JSONValue?) throws -> SourceLocation? {
        if value == nil || value == .null { return nil }
        guard let line = value?["line"]?.intValue, let column = value?["column"]?.intValue else {
            throw ReportMergeError(description: "a malformed location")
        }
        return SourceLocation(file: try string(value?["file"], "a location's file"), line: line, column: column)
    }

    private static func flow(_ value: JSONValue) throws -> Flow {
        let kindName = try string(value["kind"], "a flow's kind")
        // Only the id is written in a report; what the merged reports print needs nothing more.
        let kind = FlowKind(rawValue: kindName)
        let steps = try array(value["steps"], "steps").map { step in
            Step(id: try string(step["id"], "a step's id"), name: try string(step["name"], "a step's name"), location: try location(step["location"]))
        }
        return Flow(id: try string(value["id"], "a flow's id"), name: try string(value["name"], "a flow's name"), kind: kind,
                    location: try location(value["location"]), steps: steps)
    }

    private static func finding(_ value: JSONValue) throws -> Finding {
        let severityName = try string(value["severity"], "a finding's severity")
        guard let severity = Severity(rawValue: severityName) else { throw ReportMergeError(description: "an unknown severity '\(severityName)'") }
        var edge: EdgeReference?
        if let edgeValue = value["edge"] {
            edge = EdgeReference(from: try string(edgeValue["from"], "an edge's from"), to: try string(edgeValue["to"], "an edge's to"))
        }
        let related = try (value["related"].map { try array($0, "related") } ?? []).map { item in
            guard let location = try location(item["location"]) else { throw ReportMergeError(description: "a related location without a location") }
            return RelatedLocation(message: try string(item["message"], "a related message"), location: location)
        }
        let path = try (value["path"].map { try array($0, "path") } ?? []).map { try string($0, "a path step") }
        var fix: Fix?
        if let fixValue = value["fix"] {
            let edits = try array(fixValue["replacements"], "replacements").map { item in
                guard let line = item["line"]?.intValue, let column = item["column"]?.intValue,
                      let length = item["length"]?.intValue, let offset = item["offset"]?.intValue else {
                    throw ReportMergeError(description: "a malformed fix replacement")
                }
                let file = try string(item["file"], "a replacement's file")
                // The range is exact; `at` is only where the loader put the name, which a merged report no longer needs.
                return FixEdit(at: SourceLocation(file: file, line: line, column: column),
                               original: try string(item["original"], "a replacement's original"),
                               replacement: try string(item["replacement"], "a replacement's replacement"),
                               range: TextRange(line: line, column: column, length: length, offset: offset))
            }
            fix = Fix(description: try string(fixValue["description"], "a fix's description"), edits: edits)
        }
        return Finding(rule: try string(value["rule"], "a finding's rule"), severity: severity,
                       message: try string(value["message"], "a finding's message"), location: try location(value["location"]),
                       flow: try optionalString(value["flow"], "a finding's flow"), step: try optionalString(value["step"], "a finding's step"),
                       key: try optionalString(value["key"], "a finding's key"), edge: edge, related: related, path: path, fix: fix)
    }
}
