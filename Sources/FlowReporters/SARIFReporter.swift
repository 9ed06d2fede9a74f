import FlowModel
import FlowRules

/// The report as SARIF 2.1.0 (Static Analysis Results Interchange Format), for GitHub code
/// scanning and other SARIF viewers.
///
/// One log with exactly one `run`:
/// - `tool.driver` names FlowLens and lists **every** rule (not only those that fired), so
///   `ruleIndex` is stable across runs and a viewer can show help for any rule;
/// - `artifacts` lists the files read, relative to `%SRCROOT%` (the folder `flowlens` ran in);
/// - `logicalLocations` caches the flows (kind `function`) and steps (kind `member`, parent: their
///   flow) that results are about;
/// - `results` follow report order, each with its physical location, its flow/step as a logical
///   location, related locations, and `partialFingerprints` built from stable ids only.
///
/// Pure and deterministic like every reporter: no timestamps, no absolute paths, no environment,
/// so the same report gives the same bytes. `invocations` is left out for that reason: everything
/// an invocation object could say (command line, working directory, times) varies between runs.
public struct SARIFReporter: Reporter {
    /// The `$schema` the log declares.
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The SARIF version written.
    public static let sarifVersion = "2.1.0"
    /// Where to read about FlowLens.
    public static let informationURI = "https://flowlens.dev"
    /// The `uriBaseId` of every relative artifact location.
    public static let sourceRoot = "%SRCROOT%"
    /// The key of the fingerprint in `partialFingerprints`; the version changes if the inputs do.
    public static let fingerprintKey = "flowlens/v1"

    /// The rules listed in `tool.driver.rules`, in this order (`RuleRegistry.descriptions`: every
    /// rule FlowLens has).
    public let rules: [RuleDescription]

    /// Creates the reporter.
    public init(rules: [RuleDescription]) { self.rules = rules }

    public func report(_ report: Report) -> String { value(report).serialized() }

    /// The SARIF log as a JSON value.
    public func value(_ report: Report) -> JSONValue {
        var ruleIndex: [String: Int] = [:]
        for (n, rule) in rules.enumerated() where ruleIndex[rule.id] == nil { ruleIndex[rule.id] = n }

        var files: [String] = []
        var artifactIndex: [String: Int] = [:]
        for file in report.graph.files where artifactIndex[file] == nil {
            artifactIndex[file] = files.count
            files.append(file)
        }

        var logical = SARIFLogicalLocations()
        let fingerprints = Self.fingerprints(report.findings)
        let results: [JSONValue] = zip(report.findings, fingerprints).map { finding, fingerprint in
            result(finding, ruleIndex: ruleIndex, artifactIndex: artifactIndex, logical: &logical, fingerprint: fingerprint)
        }

        var run: [(String, JSONValue)] = [
            ("tool", .object([("driver", driver())])),
            ("originalUriBaseIds", .object([
                (Self.sourceRoot, .object([("description", message(
                    "The folder flowlens ran in; every relative path in this log is relative to it."))])),
            ])),
            ("artifacts", .array(files.map { file in
                .object([("location", artifactLocation(file, index: nil)), ("roles", .array([.string("analysisTarget")]))])
            })),
        ]
        if !logical.entries.isEmpty { run.append(("logicalLocations", .array(logical.entries))) }
        run.append(("results", .array(results)))

        return .object([
            ("$schema", .string(Self.schemaURI)),
            ("version", .string(Self.sarifVersion)),
            ("runs", .array([.object(run)])),
        ])
    }

    // MARK: - Tool

    func driver() -> JSONValue {
        .object([
            ("name", .string(FlowLensTool.name)),
            ("version", .string(FlowLensTool.version)),
            ("semanticVersion", .string(FlowLensTool.version)),
            ("informationUri", .string(Self.informationURI)),
            ("rules", .array(rules.map(rule))),
        ])
    }

    func rule(_ rule: RuleDescription) -> JSONValue {
        .object([
            ("id", .string(rule.id)),
            ("name", .string(Self.ruleName(rule.id))),
            ("shortDescription", message(rule.summary)),
            ("fullDescription", message(rule.rationale)),
            ("help", message(rule.rationale)),
            ("defaultConfiguration", .object([("level", .string(Self.level(rule.severity)))])),
            ("properties", .object([("tags", .array(Self.tags(rule).map(JSONValue.string)))])),
        ])
    }

    /// The SARIF level of a severity: the three FlowLens severities are SARIF's own three levels.
    public static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// `missing-data-key` → `MissingDataKey`: the reportingDescriptor `name`, a readable identifier.
    static func ruleName(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The tags of a rule: `flowlens`, then those its description declares.
    static func tags(_ rule: RuleDescription) -> [String] { ["flowlens"] + rule.tags }

    // MARK: - Results

    func result(_ finding: Finding, ruleIndex: [String: Int], artifactIndex: [String: Int],
                logical: inout SARIFLogicalLocations, fingerprint: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("ruleId", .string(finding.rule))]
        if let index = ruleIndex[finding.rule] { fields.append(("ruleIndex", .int(index))) }
        fields.append(("level", .string(Self.level(finding.severity))))
        fields.append(("message", message(finding.message)))

        var location: [(String, JSONValue)] = []
        if let place = finding.location, !place.file.isEmpty {
            location.append(("physicalLocation", physicalLocation(place, artifactIndex: artifactIndex)))
        }
        if let reference = logical.reference(flow: finding.flow, step: finding.step) {
            location.append(("logicalLocations", .array([reference])))
        }
        if !location.isEmpty { fields.append(("locations", .array([.object(location)]))) }

        let related = finding.related.filter { !$0.location.file.isEmpty }
        if !related.isEmpty {
            fields.append(("relatedLocations", .array(related.enumerated().map { n, item in
                .object([
                    ("id", .int(n + 1)),
                    ("physicalLocation", physicalLocation(item.location, artifactIndex: artifactIndex)),
                    ("message", message(item.message)),
                ])
            })))
        }
        if let fix = finding.fix, fix.isLocated { fields.append(("fixes", .array([self.fix(fix, artifactIndex: artifactIndex)]))) }

        fields.append(("partialFingerprints", .object([(Self.fingerprintKey, .string(fingerprint))])))

        var properties: [(String, JSONValue)] = []
        if let flow = finding.flow { properties.append(("flow", .string(flow))) }
        if let step = finding.step { properties.append(("step", .string(step))) }
        if let key = finding.key { properties.append(("key", .string(key))) }
        if let edge = finding.edge { properties.append(("edge", .object([("from", .string(edge.from)), ("to", .string(edge.to))]))) }
        if !finding.path.isEmpty { properties.append(("path", .array(finding.path.map(JSONValue.string)))) }
        if !properties.isEmpty { fields.append(("properties", .object(properties))) }
        return .object(fields)
    }

    func message(_ text: String) -> JSONValue { .object([("text", .string(text))]) }

    /// A located fix as SARIF's `fix` (§3.55): one `artifactChange` a file, each replacement's
    /// `deletedRegion` a byte region (`byteOffset`, `byteLength`: exact whatever the line holds, where
    /// a column would depend on the run's `columnKind`), and its `insertedContent`.
    func fix(_ fix: Fix, artifactIndex: [String: Int]) -> JSONValue {
        var files: [String] = []
        for edit in fix.edits where !files.contains(edit.at.file) { files.append(edit.at.file) }
        return .object([
            ("description", message(fix.description)),
            ("artifactChanges", .array(files.map { file in
                .object([
                    ("artifactLocation", artifactLocation(file, index: artifactIndex[file])),
                    ("replacements", .array(fix.edits.filter { $0.at.file == file }.map { edit in
                        .object([
                            ("deletedRegion", .object([("byteOffset", .int(edit.range!.offset)), ("byteLength", .int(edit.range!.length))])),
                            ("insertedContent", .object([("text", .string(edit.replacement))])),
                        ])
                    })),
                ])
            })),
        ])
    }

    func physicalLocation(_ location: SourceLocation, artifactIndex: [String: Int]) -> JSONValue {
        var fields: [(String, JSONValue)] = [("artifactLocation", artifactLocation(location.file, index: artifactIndex[location.file]))]
        if location.line > 0 {
            var region: [(String, JSONValue)] = [("startLine", .int(location.line))]
            if location.column > 0 { region.append(("startColumn", .int(location.column))) }
            fields.append(("region", .object(region)))
        }
        return .object(fields)
    }

    /// A relative path becomes a relative URI against `%SRCROOT%`; an absolute one (a file outside
    /// the working directory) a `file:` URI.
    func artifactLocation(_ file: String, index: Int?) -> JSONValue {
        var fields: [(String, JSONValue)]
        if file.hasPrefix("/") {
            fields = [("uri", .string("file://" + Self.percentEncoded(file)))]
        } else {
            fields = [("uri", .string(Self.percentEncoded(file))), ("uriBaseId", .string(Self.sourceRoot))]
        }
        if let index { fields.append(("index", .int(index))) }
        return .object(fields)
    }

    /// A path as a URI path: RFC 3986 unreserved characters and `/` are kept, everything else is
    /// percent-encoded as UTF-8 (a space, `%`, `#`, `?` and non-ASCII letters included).
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    // MARK: - Fingerprints

    /// What identifies a finding across edits (`FindingIdentity`), as one string.
    static func fingerprintBase(_ finding: Finding) -> String { FindingIdentity(finding).fingerprintBase }

    /// Each finding's fingerprint (`fingerprint(base:occurrence:)`), in the order given (report
    /// order), each base hashed once: a base holds the finding's flow, step and key, any of which can
    /// be long, and hashing a long non-ASCII string normalises it.
    static func fingerprints(_ findings: [Finding]) -> [String] {
        var occurrences: [String: Int] = [:]
        occurrences.reserveCapacity(findings.count)
        func next(_ count: inout Int) -> Int {
            count += 1
            return count
        }
        return findings.map { finding in
            let base = fingerprintBase(finding)
            return fingerprint(base: base, occurrence: next(&occurrences[base, default: 0]))
        }
    }

    /// `<FNV-1a 64 of the base, 16 hex digits>:<occurrence>`: the occurrence (1, 2, ...) counts
    /// findings with the same base in report order, as GitHub's own fingerprints do, so two findings
    /// that share their ids still get distinct fingerprints.
    static func fingerprint(base: String, occurrence: Int) -> String {
        let hex = String(fnv1a64(base), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ":" + String(occurrence)
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    public static func fnv1a64(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
    }
}

/// The run's `logicalLocations` cache: each flow once (kind `function`: a flow is a named, callable
/// unit, and a sub-flow step calls it), each step once (kind `member`: a named part of its flow,
/// with `parentIndex` pointing at the flow), in order of first use.
struct SARIFLogicalLocations {
    private(set) var entries: [JSONValue] = []
    private var indices: [String: Int] = [:]

    /// The result-level logical location of the innermost construct (the step, else the flow),
    /// with its index into the cache; nil when the finding names no flow.
    mutating func reference(flow: String?, step: String?) -> JSONValue? {
        guard let flow else { return nil }
        let flowIndex = index(kind: "function", name: flow, qualified: flow, parent: nil)
        guard let step else { return Self.entry(index: flowIndex, kind: "function", name: flow, qualified: flow) }
        let qualified = flow + "/" + step
        let stepIndex = index(kind: "member", name: step, qualified: qualified, parent: flowIndex)
        return Self.entry(index: stepIndex, kind: "member", name: step, qualified: qualified)
    }

    private mutating func index(kind: String, name: String, qualified: String, parent: Int?) -> Int {
        let key = kind + "\u{1F}" + qualified
        if let known = indices[key] { return known }
        var fields: [(String, JSONValue)] = [("name", .string(name)), ("fullyQualifiedName", .string(qualified)), ("kind", .string(kind))]
        if let parent { fields.append(("parentIndex", .int(parent))) }
        indices[key] = entries.count
        entries.append(.object(fields))
        return entries.count - 1
    }

    private static func entry(index: Int, kind: String, name: String, qualified: String) -> JSONValue {
        .object([("index", .int(index)), ("name", .string(name)), ("fullyQualifiedName", .string(qualified)), ("kind", .string(kind))])
    }
}
