import FlowModel
import Foundation

/// The findings a team has accepted for now, so that CI reports only new ones.
///
/// A finding is keyed by its rule and stable ids — flow, step, key, the target of the transition it is
/// about (and the file, for findings about no flow) — never by line numbers, so moving code does not resurrect it. Each key records how many
/// findings it had: a third finding of a kind that had two is new.
public struct Baseline: Equatable, Sendable {
    /// The baseline file format version.
    public static let version = 1

    /// One kind of accepted finding and how many there were.
    public struct Entry: Hashable, Sendable, Comparable {
        public var rule: String
        public var flow: String?
        public var step: String?
        public var key: String?
        public var file: String?
        /// The step the transition a finding is about leads to (`unknown-step`'s missing target).
        public var target: String?
        public var count: Int

        /// Creates an entry.
        public init(rule: String, flow: String?, step: String?, key: String?, file: String?, target: String? = nil, count: Int) {
            self.rule = rule
            self.flow = flow
            self.step = step
            self.key = key
            self.file = file
            self.target = target
            self.count = count
        }

        /// `FindingIdentity.baselineFields` of the findings it accepts.
        var identity: [String] { [rule, flow ?? "", step ?? "", key ?? "", file ?? "", target ?? ""] }

        public static func < (a: Entry, b: Entry) -> Bool { a.identity.lexicographicallyPrecedes(b.identity) }
    }

    /// The accepted findings, sorted.
    public private(set) var entries: [Entry]

    /// A baseline accepting every finding of `report`.
    public init(accepting findings: [Finding]) {
        var counts: [[String]: Entry] = [:]
        for finding in findings {
            let entry = Self.entry(for: finding)
            if let known = counts[entry.identity] {
                counts[entry.identity]!.count = known.count + 1
            } else {
                counts[entry.identity] = entry
            }
        }
        entries = counts.values.sorted()
    }

    /// Reads a baseline file's text.
    public init(json: String) throws {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw BaselineError(description: "not a FlowLens baseline: expected a JSON object with \"version\" and \"findings\"")
        }
        guard root["version"] as? Int == Self.version else {
            throw BaselineError(description: "unsupported baseline version \(root["version"].map { "\($0)" } ?? "(none)"): this FlowLens reads version \(Self.version)")
        }
        guard let items = root["findings"] as? [[String: Any]] else {
            throw BaselineError(description: "the baseline has no \"findings\" list")
        }
        entries = try items.enumerated().map { n, item in
            guard let rule = item["rule"] as? String, let count = item["count"] as? Int, count > 0 else {
                throw BaselineError(description: "finding \(n + 1) of the baseline needs \"rule\" and a positive \"count\"")
            }
            return Entry(rule: rule, flow: item["flow"] as? String, step: item["step"] as? String,
                         key: item["key"] as? String, file: item["file"] as? String, target: item["target"] as? String, count: count)
        }.sorted()
    }

    /// The baseline as a file: deterministic JSON, one entry per kind of finding.
    public func serialized() -> String {
        JSONValue.object([
            ("version", .int(Self.version)),
            ("tool", .string(FlowLensTool.name)),
            ("findings", .array(entries.map { entry in
                var fields: [(String, JSONValue)] = [("rule", .string(entry.rule)), ("flow", .string(entry.flow)), ("step", .string(entry.step)),
                                                     ("key", .string(entry.key)), ("file", .string(entry.file))]
                if let target = entry.target { fields.append(("target", .string(target))) }
                fields.append(("count", .int(entry.count)))
                return .object(fields)
            })),
        ]).serialized()
    }

    /// `findings` without those the baseline accepts: for each kind, the first `count` in report order.
    public func newFindings(in findings: [Finding]) -> [Finding] {
        var remaining = Dictionary(entries.map { ($0.identity, $0.count) }, uniquingKeysWith: +)
        return findings.sorted(by: Finding.reportOrder).filter { finding in
            let identity = FindingIdentity(finding).baselineFields
            guard let left = remaining[identity], left > 0 else { return true }
            remaining[identity] = left - 1
            return false
        }
    }

    static func entry(for finding: Finding) -> Entry {
        let identity = FindingIdentity(finding)
        return Entry(rule: identity.rule, flow: identity.flow, step: identity.step, key: identity.key, file: identity.file,
                     target: identity.target, count: 1)
    }
}

/// A baseline file that cannot be used.
public struct BaselineError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
