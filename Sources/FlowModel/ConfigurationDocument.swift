/// A configuration document as data, whatever syntax it came in: a `.flowlens.yml` composed by the
/// YAML reader (with each node's line and column), or JSON handed to `Configuration`'s `Decodable`
/// init. It is the one shape every setting is read from (`Configuration.read`) and written to
/// (`Configuration.document`, which `Encodable` and the YAML writer both print), so a setting is
/// named, read and written in one place.
public struct SettingsNode: Sendable {
    /// What a scalar is, as its syntax types it (YAML 1.1's rules for a plain scalar, JSON's own types).
    public enum Scalar: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int)
        /// A string, or any other scalar (a float, a timestamp): its text is what counts.
        case text
    }

    public enum Content: Sendable {
        /// The scalar's text as written, and its type.
        case scalar(String, Scalar)
        /// Entries in document order.
        case mapping([(key: SettingsNode, value: SettingsNode)])
        case sequence([SettingsNode])
    }

    /// How the YAML writer shows a node: collections in block or flow style, strings bare or quoted.
    /// Readers ignore it.
    public enum Style: Sendable { case block, flow, quoted }

    public var content: Content
    /// Where the node was written (nil for a node built in code or decoded from JSON).
    public var location: SourceLocation?
    public var style: Style

    public init(_ content: Content, location: SourceLocation? = nil, style: Style = .block) {
        self.content = content
        self.location = location
        self.style = style
    }

    /// A string scalar.
    public static func text(_ text: String, style: Style = .block) -> SettingsNode { SettingsNode(.scalar(text, .text), style: style) }
    /// An integer scalar.
    public static func int(_ value: Int) -> SettingsNode { SettingsNode(.scalar(String(value), .int(value))) }
    /// A boolean scalar.
    public static func bool(_ value: Bool) -> SettingsNode { SettingsNode(.scalar(value ? "true" : "false", .bool(value))) }
    /// The null scalar.
    public static let null = SettingsNode(.scalar("~", .null))
    /// A mapping of string keys, in this order.
    public static func mapping(_ entries: [(String, SettingsNode)], style: Style = .block) -> SettingsNode {
        SettingsNode(.mapping(entries.map { (.text($0.0), $0.1) }), style: style)
    }
    /// A sequence.
    public static func sequence(_ items: [SettingsNode], style: Style = .flow) -> SettingsNode { SettingsNode(.sequence(items), style: style) }

    /// The entries, when this is a mapping.
    public var mapping: [(key: SettingsNode, value: SettingsNode)]? {
        if case let .mapping(entries) = content { return entries }
        return nil
    }

    /// The items, when this is a sequence.
    public var sequence: [SettingsNode]? {
        if case let .sequence(items) = content { return items }
        return nil
    }

    /// The text of a scalar of any type (`~` for YAML's null), nil for a collection.
    public var string: String? {
        if case let .scalar(text, _) = content { return text }
        return nil
    }

    /// The type of a scalar, nil for a collection.
    public var scalar: Scalar? {
        if case let .scalar(_, type) = content { return type }
        return nil
    }
}

// MARK: - Reading

/// What one configuration file says, read leniently: the settings that are valid, and a finding for
/// each problem (at its line and column) instead of failing on the first.
public struct ConfigurationFile: Sendable {
    /// The valid settings (defaults for the rest).
    public var configuration: Configuration
    /// `invalid-configuration` warnings: unknown keys, rule ids and values.
    public var findings: [Finding] = []
    /// `defaultExcludes:`, when the file names it (a merged configuration has the default excludes
    /// in `exclude` already, so `Configuration` holds no such setting).
    public var defaultExcludes: Bool?
    /// The names of the limits the file sets, so that a nested file overrides only those.
    public var limitsSet: [String] = []
    /// The names of the `trace:` settings the file sets, likewise.
    public var traceSet: [String] = []

    public init(configuration: Configuration) { self.configuration = configuration }
}

extension Configuration {
    /// The keys a configuration file may have at its top level, in the order they are written.
    public static let topLevelKeys = ["version", "rules", "include", "exclude", "defaultExcludes", "overrides", "plantuml", "output", "limits", "trace"]
    /// The keys of `output:`.
    public static let outputKeys = ["format", "color", "strict", "maxWarnings"]
    /// The values of `output: format`: the report formats of `flowlens check --format` (a test keeps
    /// them equal to `ReportFormat`).
    public static let outputFormats = ["text", "json", "github", "checkstyle", "junit", "markdown", "sarif", "gitlab"]
    /// The values of `output: color` (a test keeps them equal to `ColorMode`).
    public static let colorModes = ["auto", "always", "never"]

    /// The settings `root` holds, read as a `.flowlens.yml` is: each problem is a warning at its node
    /// and the rest of the file still applies. `file` names the file in messages; `knownRules` are
    /// the rule ids the settings may name (nil: any).
    public static func read(_ root: SettingsNode, file: String, knownRules: Set<String>?,
                            into configuration: Configuration = Configuration()) -> ConfigurationFile {
        var reading = Reading(file: file, knownRules: knownRules, result: ConfigurationFile(configuration: configuration))
        reading.read(root)
        return reading.result
    }

    /// The rule id a user most likely meant by `id`: the closest by spelling, else the one rule whose
    /// id has every word of `id` in order (`missing-key` → `missing-data-key`), a shortening that an
    /// edit distance of one edit per three characters does not reach.
    public static func closestRule(to id: String, in ids: some Sequence<String>) -> String? {
        let ids = Array(ids)
        if let close = Spelling.closest(to: id, in: ids) { return close }
        let words = id.lowercased().split(separator: "-")
        guard !words.isEmpty else { return nil }
        let containing = ids.filter { candidate in
            var rest = candidate.lowercased().split(separator: "-")[...]
            for word in words {
                guard let index = rest.firstIndex(of: word) else { return false }
                rest = rest[(index + 1)...]
            }
            return true
        }
        return containing.count == 1 ? containing[0] : nil
    }

    private struct Reading {
        let file: String
        let knownRules: Set<String>?
        var result: ConfigurationFile

        mutating func warn(_ message: String, at node: SettingsNode) {
            result.findings.append(Finding(rule: RuleID.invalidConfiguration, severity: .warning, message: message,
                                           location: node.location ?? SourceLocation(file: file)))
        }

        mutating func read(_ root: SettingsNode) {
            guard let top = root.mapping else {
                warn("a configuration is a mapping of keys (version, rules, include, exclude, overrides, plantuml, output)", at: root)
                return
            }
            for (keyNode, value) in top {
                guard let key = keyNode.string else { continue }
                // A section with nothing but comments under it (`rules:`) is empty, not a mistake.
                if value.scalar == .null, Configuration.topLevelKeys.contains(key), key != "version" { continue }
                switch key {
                case "version":
                    if Self.int(value) != Configuration.version {
                        warn("unsupported configuration version '\(value.string ?? "?")': this FlowLens reads version \(Configuration.version)", at: value)
                    }
                case "rules": result.configuration.rules = ruleSettings(value)
                case "include": result.configuration.include = patterns(value, "include")
                case "exclude": result.configuration.exclude = patterns(value, "exclude")
                case "defaultExcludes":
                    if case let .bool(flag)? = value.scalar {
                        result.defaultExcludes = flag
                    } else {
                        warn("'defaultExcludes' is true or false", at: value)
                    }
                case "overrides": result.configuration.overrides = overrides(value)
                case "plantuml": result.configuration.plantUMLDefines = defines(value)
                case "output": output(value)
                case "limits": limits(value)
                case "trace": trace(value)
                default:
                    let hint = Spelling.closest(to: key, in: Configuration.topLevelKeys).map { "; did you mean '\($0)'?" } ?? ""
                    warn("unknown key '\(key)' in \(file)\(hint)", at: keyNode)
                }
            }
        }

        /// An integer as YAML 1.1 or JSON types it, or the text of a quoted one.
        static func int(_ node: SettingsNode) -> Int? {
            switch node.scalar {
            case let .int(value)?: return value
            case .text?: return node.string.flatMap { Int($0) }
            default: return nil
            }
        }

        mutating func ruleSettings(_ node: SettingsNode) -> [(String, Configuration.RuleSetting)] {
            guard let mapping = node.mapping else {
                warn("'rules' is a mapping of rule id to off, on, error, warning or note", at: node)
                return []
            }
            var settings: [(String, Configuration.RuleSetting)] = []
            for (keyNode, value) in mapping {
                guard let id = keyNode.string else { continue }
                if let knownRules, !knownRules.contains(id) {
                    let hint = Configuration.closestRule(to: id, in: knownRules).map { "; did you mean '\($0)'?" } ?? ""
                    warn("unknown rule id '\(id)' in \(file)\(hint)", at: keyNode)
                    continue
                }
                // YAML 1.1 reads a bare `off`/`on` as a boolean.
                let text: String
                switch value.scalar {
                case let .bool(flag)?: text = flag ? "on" : "off"
                case nil: text = ""
                default: text = value.string ?? ""
                }
                if let setting = Configuration.RuleSetting(text: text) {
                    settings.append((id, setting))
                } else {
                    warn("'\(text)' is not a setting for '\(id)': use off, on, error, warning or note", at: value)
                }
            }
            return settings
        }

        mutating func patterns(_ node: SettingsNode, _ what: String) -> [String] {
            if let single = node.string { return [single] }
            guard let items = node.sequence else {
                warn("'\(what)' is a list of path patterns", at: node)
                return []
            }
            return items.compactMap { item in
                guard let text = item.string, !text.isEmpty else {
                    warn("a pattern in '\(what)' must be a string", at: item)
                    return nil
                }
                return text
            }
        }

        mutating func overrides(_ node: SettingsNode) -> [Configuration.Override] {
            guard let items = node.sequence else {
                warn("'overrides' is a list of {paths: [...], rules: {...}}", at: node)
                return []
            }
            var result: [Configuration.Override] = []
            for item in items {
                guard let mapping = item.mapping else {
                    warn("an override is a mapping with 'paths' and 'rules'", at: item)
                    continue
                }
                var override = Configuration.Override(paths: [], rules: [])
                for (keyNode, value) in mapping {
                    switch keyNode.string {
                    case "paths": override.paths = patterns(value, "paths")
                    case "rules": override.rules = ruleSettings(value)
                    default: warn("unknown key '\(keyNode.string ?? "?")' in an override of \(file) (expected paths, rules)", at: keyNode)
                    }
                }
                if override.paths.isEmpty { warn("an override needs 'paths'", at: item) } else { result.append(override) }
            }
            return result
        }

        mutating func defines(_ node: SettingsNode) -> [(String, String)] {
            guard let mapping = node.mapping else { return [] }
            var result: [(String, String)] = []
            for (keyNode, value) in mapping {
                guard keyNode.string == "defines" else {
                    warn("unknown key '\(keyNode.string ?? "?")' in 'plantuml' of \(file) (expected defines)", at: keyNode)
                    continue
                }
                for (name, text) in value.mapping ?? [] {
                    if let name = name.string, let text = text.string { result.append((name, text)) }
                }
            }
            return result
        }

        /// `limits: {nesting: 100, yamlAliasNodes: 1000000, …}`: each a positive integer.
        mutating func limits(_ node: SettingsNode) {
            let names = Limits.settings.map(\.name).joined(separator: ", ")
            guard let mapping = node.mapping else {
                warn("'limits' is a mapping (\(names))", at: node)
                return
            }
            for (keyNode, value) in mapping {
                guard let name = keyNode.string, let path = Limits.settings.first(where: { $0.name == name })?.path else {
                    warn("unknown key '\(keyNode.string ?? "?")' in 'limits' of \(file) (expected \(names))", at: keyNode)
                    continue
                }
                guard case let .int(number)? = value.scalar, number > 0 else {
                    warn("'\(name)' in 'limits' must be a positive integer", at: value)
                    continue
                }
                result.configuration.limits[keyPath: path] = number
                result.limitsSet.append(name)
            }
        }

        /// `trace: {flowAttribute: app.flow, stepsFromSpanNames: true, …}`: span attribute names, and a flag.
        mutating func trace(_ node: SettingsNode) {
            let names = (SpanMapping.attributes.map(\.name) + ["stepsFromSpanNames", "flows"]).joined(separator: ", ")
            guard let mapping = node.mapping else {
                warn("'trace' is a mapping (\(names))", at: node)
                return
            }
            for (keyNode, value) in mapping {
                let name = keyNode.string ?? "?"
                if name == "stepsFromSpanNames" {
                    if case let .bool(flag)? = value.scalar {
                        result.configuration.spans.stepsFromSpanNames = flag
                        result.traceSet.append(name)
                    } else {
                        warn("'stepsFromSpanNames' in 'trace' is true or false", at: value)
                    }
                } else if name == "flows" {
                    guard let entries = value.mapping else {
                        warn("'flows' in 'trace' maps the flow names runs use to flow ids or names", at: value)
                        continue
                    }
                    for (from, to) in entries {
                        if let from = from.string, !from.isEmpty, to.scalar == .text, let to = to.string, !to.isEmpty {
                            result.configuration.spans.flows[from] = to
                        } else {
                            warn("an entry of 'flows' in 'trace' maps a flow name to a flow id or name", at: to)
                        }
                    }
                    result.traceSet.append(name)
                } else if let path = SpanMapping.attributes.first(where: { $0.name == name })?.path {
                    if value.scalar == .text, let text = value.string, !text.isEmpty {
                        result.configuration.spans[keyPath: path] = text
                        result.traceSet.append(name)
                    } else {
                        warn("'\(name)' in 'trace' is the name of a span attribute", at: value)
                    }
                } else {
                    warn("unknown key '\(name)' in 'trace' of \(file) (expected \(names))", at: keyNode)
                }
            }
        }

        mutating func output(_ node: SettingsNode) {
            guard let mapping = node.mapping else {
                warn("'output' is a mapping (\(Configuration.outputKeys.joined(separator: ", ")))", at: node)
                return
            }
            for (keyNode, value) in mapping {
                switch keyNode.string {
                case "format", "color":
                    let name = keyNode.string!
                    let known = name == "format" ? Configuration.outputFormats : Configuration.colorModes
                    if value.scalar == .text, let text = value.string, known.contains(text) {
                        if name == "format" { result.configuration.format = text } else { result.configuration.color = text }
                    } else {
                        let hint = value.string.flatMap { Spelling.closest(to: $0, in: known) }.map { "; did you mean '\($0)'?" } ?? ""
                        warn("unknown value '\(value.string ?? "?")' for '\(name)' in 'output' of \(file) (expected \(known.joined(separator: ", ")))\(hint)", at: value)
                    }
                case "strict":
                    if case let .bool(flag)? = value.scalar { result.configuration.strict = flag } else { warn("'strict' in 'output' is true or false", at: value) }
                case "maxWarnings":
                    if let number = Self.int(value), number >= 0 {
                        result.configuration.maxWarnings = number
                    } else {
                        warn("'maxWarnings' in 'output' must be a whole number, 0 or more", at: value)
                    }
                default:
                    warn("unknown key '\(keyNode.string ?? "?")' in 'output' of \(file) (expected \(Configuration.outputKeys.joined(separator: ", ")))", at: keyNode)
                }
            }
        }
    }
}

// MARK: - Writing

extension Configuration {
    /// The configuration in the file's own shape and order: what `Encodable` encodes and the YAML
    /// writer prints. `outputDefaults`: `output` shows every setting, the defaults for those not set
    /// (as `dump-config` shows them), instead of only those set.
    public func document(outputDefaults: Bool = false) -> SettingsNode {
        func patterns(_ list: [String]) -> SettingsNode { .sequence(list.map { .text($0, style: .quoted) }) }
        func settings(_ rules: [(String, RuleSetting)], style: SettingsNode.Style) -> SettingsNode {
            .mapping(rules.map { ($0.0, .text($0.1.text)) }, style: style)
        }
        var output: [(String, SettingsNode)] = []
        if let format = format ?? (outputDefaults ? "text" : nil) { output.append(("format", .text(format))) }
        if let color = color ?? (outputDefaults ? "auto" : nil) { output.append(("color", .text(color))) }
        if let strict = strict ?? (outputDefaults ? false : nil) { output.append(("strict", .bool(strict))) }
        if let maxWarnings { output.append(("maxWarnings", .int(maxWarnings))) } else if outputDefaults { output.append(("maxWarnings", .null)) }
        return .mapping([
            ("version", .int(Self.version)),
            ("rules", settings(rules, style: .block)),
            ("include", patterns(include)),
            ("exclude", patterns(exclude)),
            ("overrides", .sequence(overrides.map { override in
                .mapping([("paths", patterns(override.paths)), ("rules", settings(override.rules, style: .flow))])
            }, style: .block)),
            ("plantuml", .mapping([("defines", .mapping(plantUMLDefines.map { ($0.0, .text($0.1, style: .quoted)) }, style: .flow))])),
            ("output", .mapping(output)),
            ("limits", .mapping(Limits.settings.map { ($0.name, .int(limits[keyPath: $0.path])) }, style: .flow)),
            ("trace", .mapping(SpanMapping.attributes.map { ($0.name, .text(spans[keyPath: $0.path], style: .quoted)) }
                               + [("stepsFromSpanNames", .bool(spans.stepsFromSpanNames)),
                                  ("flows", .mapping(spans.flows.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value, style: .quoted)) }, style: .flow))],
                               style: .flow)),
        ])
    }
}

extension SettingsNode {
    /// This mapping as the body of a YAML file, each entry on its line, nested entries indented by
    /// two spaces; `comment` gives the comment (with its `#`) to end an entry's line, by the keys on
    /// the way to it.
    public func yaml(comment: ([String]) -> String? = { _ in nil }) -> String {
        var out = ""
        for (key, value) in mapping ?? [] { Self.write(key.string ?? "", value, path: [key.string ?? ""], indent: "", comment, &out) }
        return out
    }

    private static func write(_ key: String, _ value: SettingsNode, path: [String], indent: String,
                              _ comment: ([String]) -> String?, _ out: inout String) {
        let end = (comment(path).map { "  " + $0 } ?? "") + "\n"
        switch value.content {
        case .mapping(let entries) where value.style == .block && !entries.isEmpty:
            out += indent + key + ":" + end
            for (childKey, child) in entries {
                write(childKey.string ?? "", child, path: path + [childKey.string ?? ""], indent: indent + "  ", comment, &out)
            }
        case .sequence(let items) where value.style == .block && !items.isEmpty:
            out += indent + key + ":" + end
            for item in items {
                // A mapping item starts on the dash's line; its other entries line up under the first.
                var body = ""
                for (childKey, child) in item.mapping ?? [] {
                    write(childKey.string ?? "", child, path: path + [childKey.string ?? ""], indent: indent + "    ", comment, &body)
                }
                out += indent + "  - " + (item.mapping == nil ? inline(item) + "\n" : String(body.dropFirst(indent.count + 4)))
            }
        default:
            out += indent + key + ": " + inline(value) + end
        }
    }

    /// A node on one line: scalars bare or quoted, collections in flow style.
    static func inline(_ node: SettingsNode) -> String {
        switch node.content {
        case let .scalar(text, type):
            if type == .null { return "~" }
            guard node.style == .quoted else { return text }
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case let .mapping(entries):
            return "{" + entries.map { "\(inline($0.key)): \(inline($0.value))" }.joined(separator: ", ") + "}"
        case let .sequence(items):
            return "[" + items.map(inline).joined(separator: ", ") + "]"
        }
    }
}

// MARK: - Codable

/// Any JSON (or other `Decoder`) value as a node; mapping keys sorted, since a keyed container does
/// not keep the document's order.
extension SettingsNode: Codable {
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Name.self) {
            self.init(.mapping(try keyed.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                (.text(key.stringValue), try keyed.decode(SettingsNode.self, forKey: key))
            }))
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [SettingsNode] = []
            while !list.isAtEnd { items.append(try list.decode(SettingsNode.self)) }
            self.init(.sequence(items))
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Int.self) {
                self = .int(number)
            } else if let number = try? value.decode(Double.self) {
                self = .text(String(number))
            } else {
                self = .text(try value.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch content {
        case let .scalar(text, type):
            var value = encoder.singleValueContainer()
            switch type {
            case .null: try value.encodeNil()
            case let .bool(flag): try value.encode(flag)
            case let .int(number): try value.encode(number)
            case .text: try value.encode(text)
            }
        case let .mapping(entries):
            var keyed = encoder.container(keyedBy: Name.self)
            for (key, value) in entries { try keyed.encode(value, forKey: Name(stringValue: key.string ?? "")) }
        case let .sequence(items):
            var list = encoder.unkeyedContainer()
            for item in items { try list.encode(item) }
        }
    }
}

/// The configuration as data, in the file's own shape (`Configuration.document`): what `flowlens
/// dump-config --format json` prints, and what a program can write for `--config`. Decoding reads
/// the settings as a `.flowlens.yml` is read (`Configuration.read`), but strictly: the first problem
/// (an unknown key or setting, another version) is an error that says what it is. `file` and
/// `baseDirectory` are where a file was found, not what it says: they are not encoded, and decoding
/// sets them to nil and `.`.
extension Configuration: Codable {
    public init(from decoder: any Decoder) throws {
        let read = Configuration.read(try SettingsNode(from: decoder), file: "the configuration", knownRules: nil)
        if let problem = read.findings.first {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem.message))
        }
        self = read.configuration
    }

    public func encode(to encoder: any Encoder) throws {
        try document().encode(to: encoder)
    }
}
