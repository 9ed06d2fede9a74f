import FlowModel
import Foundation
import Yams

/// Finds and reads `.flowlens.yml` files.
///
/// A problem in a configuration file is a finding at its line and column, never silently ignored:
/// an unknown key, rule id or value is `invalid-configuration` (a warning: the rest of the file
/// still applies); a file that cannot be parsed is `invalid-input`.
public enum ConfigurationLoader {
    /// The configuration file's name.
    public static let fileName = ".flowlens.yml"

    /// Folders of dependencies and build products, excluded from walked folders unless a
    /// configuration says `defaultExcludes: false`: a vendored copy of a flow library (under
    /// `Carthage/Checkouts/`, `Pods/`, …) is someone else's code, not the user's flows.
    public static let defaultExcludes = ["**/.build/**", "**/Pods/**", "**/Carthage/**", "**/DerivedData/**",
                                         "**/vendor/**", "**/node_modules/**"]

    /// The settings when there is no configuration file: every default, the default excludes included.
    public static func defaults(baseDirectory: String) -> Configuration {
        var configuration = Configuration(baseDirectory: baseDirectory)
        configuration.exclude = defaultExcludes
        return configuration
    }

    /// The nearest `.flowlens.yml` in `path`'s folder (or `path` itself, for a folder) or above it.
    public static func find(for path: String, workingDirectory: String) -> String? {
        chain(for: path, workingDirectory: workingDirectory).last
    }

    /// Every `.flowlens.yml` in `path`'s folder (or `path` itself, for a folder) and the folders above
    /// it, outermost first: the files whose settings merge into the configuration of `path`.
    public static func chain(for path: String, workingDirectory: String) -> [String] {
        var files: [String] = []
        var folder = folder(of: path, workingDirectory: workingDirectory)
        while true {
            let candidate = (folder as NSString).appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate) { files.append(candidate) }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return files.reversed() }
            folder = parent
        }
    }

    /// `path` (absolute, or relative to the working directory) when it is a folder, else its folder.
    static func folder(of path: String, workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        let folder = InputDiscovery.lexicallyNormalised(absolute)
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue { return folder }
        return (folder as NSString).deletingLastPathComponent
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

    /// Reads the configuration at `path`; `knownRules` are the rule ids the settings may name.
    public static func load(_ path: String, knownRules: Set<String>, workingDirectory: String) -> (Configuration, [Finding]) {
        let file = read(path, knownRules: knownRules, workingDirectory: workingDirectory)
        return (merged([file]), file.findings)
    }

    /// What one file says, before it is merged with the files above it: its own excludes (without
    /// the default ones), whether it names `defaultExcludes` (nil: it does not), and which limits it sets.
    struct File {
        var configuration: Configuration
        var findings: [Finding]
        var defaultExcludes: Bool?
        var limitsSet: [WritableKeyPath<Limits, Int>]
    }

    static func read(_ path: String, knownRules: Set<String>, workingDirectory: String) -> File {
        let shown = InputDiscovery.displayPath(path, workingDirectory)
        var configuration = Configuration(baseDirectory: (path as NSString).deletingLastPathComponent)
        configuration.file = shown
        configuration.files = [shown]
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return File(configuration: configuration, findings: [.invalidInput("cannot read the configuration file", at: SourceLocation(file: shown))],
                        defaultExcludes: nil, limitsSet: [])
        }
        let tree: YAMLTree
        do {
            guard let composed = try YAMLTree.compose(text) else {  // an empty file: defaults
                return File(configuration: configuration, findings: [], defaultExcludes: nil, limitsSet: [])
            }
            tree = composed
        } catch {
            return File(configuration: configuration, findings: [DeclarativeLoader.finding(for: error, file: shown)], defaultExcludes: nil, limitsSet: [])
        }
        var reader = ConfigurationReader(reader: YAMLReader(file: shown, plainScalarsUntagged: tree.plainScalarsUntagged), knownRules: knownRules)
        reader.read(tree.root, into: &configuration)
        return File(configuration: configuration, findings: reader.findings, defaultExcludes: reader.defaultExcludes, limitsSet: reader.limitsSet)
    }

    /// The configuration of a folder whose chain of files (outermost first, as `chain(for:)` finds
    /// them) is `files`: the outermost file's settings, then each nested file's over them. A nested
    /// file wins per setting: its rules over the rules and overrides above it (for its subtree),
    /// `include` (when it has one), `plantuml: defines` per name, each `output` and `limits` setting
    /// it names, `defaultExcludes`. Its `exclude`, `include` and `overrides` patterns are relative to
    /// its own folder; its excludes add to those above, its overrides come after theirs (and win).
    static func merged(_ files: [File]) -> Configuration {
        guard var merged = files.first?.configuration else { return Configuration() }
        var usesDefaults = files[0].defaultExcludes ?? true
        for file in files.dropFirst() {
            let child = file.configuration
            let folder = relativeFolder(child.baseDirectory, under: merged.baseDirectory)
            let rebase = { (patterns: [String]) in patterns.map { Glob.rebased($0, under: folder) } }
            merged.file = child.file
            merged.files += child.files
            merged.rules += child.rules
            let named = Set(child.rules.map(\.0))
            merged.overrides = merged.overrides.compactMap { override in
                var override = override
                override.rules.removeAll { named.contains($0.0) }
                return override.rules.isEmpty ? nil : override
            } + child.overrides.map { Configuration.Override(paths: rebase($0.paths), rules: $0.rules) }
            if !child.include.isEmpty { merged.include = rebase(child.include) }
            merged.exclude += rebase(child.exclude)
            usesDefaults = file.defaultExcludes ?? usesDefaults
            let defined = Set(child.plantUMLDefines.map(\.0))
            merged.plantUMLDefines = merged.plantUMLDefines.filter { !defined.contains($0.0) } + child.plantUMLDefines
            merged.format = child.format ?? merged.format
            merged.color = child.color ?? merged.color
            merged.strict = child.strict ?? merged.strict
            merged.maxWarnings = child.maxWarnings ?? merged.maxWarnings
            for path in file.limitsSet { merged.limits[keyPath: path] = child.limits[keyPath: path] }
        }
        if usesDefaults { merged.exclude = defaultExcludes + merged.exclude }
        return merged
    }

    /// `folder` relative to `base` (both absolute), "" when they are the same.
    static func relativeFolder(_ folder: String, under base: String) -> String {
        let shown = InputDiscovery.displayPath(folder, base)
        return shown == "." ? "" : shown
    }
}

/// The configurations of one run, for any file or folder: the `--config` file for all of them when
/// one is given, else the merge of every `.flowlens.yml` from the outermost down to the path's
/// folder (`ConfigurationLoader.merged`). Each file is read once and each folder's chain merged once,
/// however many files of a large tree ask.
public struct NestedConfigurations {
    let file: String?
    let knownRules: Set<String>
    let workingDirectory: String
    private var read: [String: ConfigurationLoader.File] = [:]       // by absolute file path
    private var chains: [String: [String]] = [:]                       // by absolute folder
    private var mergedByChain: [[String]: Configuration] = [:]

    /// `file` is `--config`'s (absolute, or relative to the working directory), or nil.
    public init(file: String?, knownRules: Set<String>, workingDirectory: String) {
        self.file = file.map { $0.hasPrefix("/") ? $0 : (workingDirectory as NSString).appendingPathComponent($0) }
        self.knownRules = knownRules
        self.workingDirectory = workingDirectory
    }

    /// The configuration in effect for `path` (a file or a folder, absolute or relative).
    public mutating func configuration(for path: String) -> Configuration {
        let files = file.map { [$0] } ?? chain(of: ConfigurationLoader.folder(of: path, workingDirectory: workingDirectory))
        if let known = mergedByChain[files] { return known }
        for path in files where read[path] == nil {
            read[path] = ConfigurationLoader.read(path, knownRules: knownRules, workingDirectory: workingDirectory)
        }
        let merged = files.isEmpty ? ConfigurationLoader.defaults(baseDirectory: workingDirectory)
            : ConfigurationLoader.merged(files.map { read[$0]! })
        mergedByChain[files] = merged
        return merged
    }

    /// The problems found in the configuration files read so far, file by file (by name).
    public var findings: [Finding] { read.keys.sorted().flatMap { read[$0]!.findings } }

    /// The configuration files read so far (absolute paths), by name.
    public var filesRead: [String] { read.keys.sorted() }

    private mutating func chain(of folder: String) -> [String] {
        if let known = chains[folder] { return known }
        let parent = (folder as NSString).deletingLastPathComponent
        var files = parent == folder || parent.isEmpty ? [] : chain(of: parent)
        let candidate = (folder as NSString).appendingPathComponent(ConfigurationLoader.fileName)
        if FileManager.default.fileExists(atPath: candidate) { files.append(candidate) }
        chains[folder] = files
        return files
    }
}

struct ConfigurationReader {
    var reader: YAMLReader
    let knownRules: Set<String>
    var findings: [Finding] = []
    /// `defaultExcludes:`, when the file names it.
    var defaultExcludes: Bool?
    /// The limits the file sets (`limits:`), so that a nested file overrides only those.
    var limitsSet: [WritableKeyPath<Limits, Int>] = []

    static let topKeys: Set<String> = ["version", "rules", "include", "exclude", "defaultExcludes", "overrides", "plantuml", "output", "limits"]

    mutating func warn(_ message: String, at node: Node) {
        findings.append(Finding(rule: RuleID.invalidConfiguration, severity: .warning, message: message, location: reader.location(node)))
    }

    mutating func read(_ root: Node, into configuration: inout Configuration) {
        guard let top = root.mapping else {
            warn("a configuration is a mapping of keys (version, rules, include, exclude, overrides, plantuml, output)", at: root)
            return
        }
        for (keyNode, value) in top {
            guard let key = keyNode.scalar?.string else { continue }
            // A section with nothing but comments under it (`rules:`) is empty, not a mistake.
            if reader.tag(value) == .null, Self.topKeys.contains(key), key != "version" { continue }
            switch key {
            case "version":
                if value.int != Configuration.version {
                    warn("unsupported configuration version '\(value.scalar?.string ?? "?")': this FlowLens reads version \(Configuration.version)", at: value)
                }
            case "rules": configuration.rules = ruleSettings(value)
            case "include": configuration.include = patterns(value, "include")
            case "exclude": configuration.exclude = patterns(value, "exclude")
            case "defaultExcludes":
                if reader.tag(value) == .bool, let flag = value.bool {
                    defaultExcludes = flag
                } else {
                    warn("'defaultExcludes' is true or false", at: value)
                }
            case "overrides": configuration.overrides = overrides(value)
            case "plantuml": configuration.plantUMLDefines = defines(value)
            case "output": output(value, into: &configuration)
            case "limits": limits(value, into: &configuration)
            default:
                let hint = Spelling.closest(to: key, in: Self.topKeys).map { "; did you mean '\($0)'?" } ?? ""
                warn("unknown key '\(key)' in \(reader.file)\(hint)", at: keyNode)
            }
        }
    }

    mutating func ruleSettings(_ node: Node) -> [(String, Configuration.RuleSetting)] {
        guard let mapping = node.mapping else {
            warn("'rules' is a mapping of rule id to off, on, error, warning or note", at: node)
            return []
        }
        var settings: [(String, Configuration.RuleSetting)] = []
        for (keyNode, value) in mapping {
            guard let id = keyNode.scalar?.string else { continue }
            guard knownRules.contains(id) else {
                let hint = ConfigurationLoader.closestRule(to: id, in: knownRules).map { "; did you mean '\($0)'?" } ?? ""
                warn("unknown rule id '\(id)' in \(reader.file)\(hint)", at: keyNode)
                continue
            }
            // YAML 1.1 reads a bare `off`/`on` as a boolean.
            let text = reader.tag(value) == .bool ? (value.bool == true ? "on" : "off") : (value.scalar?.string ?? "")
            if let setting = Configuration.RuleSetting(text: text) {
                settings.append((id, setting))
            } else {
                warn("'\(text)' is not a setting for '\(id)': use off, on, error, warning or note", at: value)
            }
        }
        return settings
    }

    mutating func patterns(_ node: Node, _ what: String) -> [String] {
        if let single = node.scalar?.string { return [single] }
        guard let items = node.sequence else {
            warn("'\(what)' is a list of path patterns", at: node)
            return []
        }
        return items.compactMap { item in
            guard let text = item.scalar?.string, !text.isEmpty else {
                warn("a pattern in '\(what)' must be a string", at: item)
                return nil
            }
            return text
        }
    }

    mutating func overrides(_ node: Node) -> [Configuration.Override] {
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
                switch keyNode.scalar?.string {
                case "paths": override.paths = patterns(value, "paths")
                case "rules": override.rules = ruleSettings(value)
                default: warn("unknown key '\(keyNode.scalar?.string ?? "?")' in an override of \(reader.file) (expected paths, rules)", at: keyNode)
                }
            }
            if override.paths.isEmpty { warn("an override needs 'paths'", at: item) } else { result.append(override) }
        }
        return result
    }

    mutating func defines(_ node: Node) -> [(String, String)] {
        guard let mapping = node.mapping else { return [] }
        var result: [(String, String)] = []
        for (keyNode, value) in mapping {
            guard keyNode.scalar?.string == "defines" else {
                warn("unknown key '\(keyNode.scalar?.string ?? "?")' in 'plantuml' of \(reader.file) (expected defines)", at: keyNode)
                continue
            }
            for (name, text) in value.mapping ?? [:] {
                if let name = name.scalar?.string, let text = text.scalar?.string { result.append((name, text)) }
            }
        }
        return result
    }

    /// `limits: {nesting: 100, yamlAliasNodes: 1000000, …}`: each a positive integer.
    mutating func limits(_ node: Node, into configuration: inout Configuration) {
        let names: [(String, WritableKeyPath<Limits, Int>)] = [
            ("nesting", \.nesting), ("squareBrackets", \.squareBrackets), ("syntaxDepth", \.syntaxDepth),
            ("yamlAliasNodes", \.yamlAliasNodes), ("fileBytes", \.fileBytes), ("findingsPerKey", \.findingsPerKey),
        ]
        guard let mapping = node.mapping else {
            warn("'limits' is a mapping (\(names.map(\.0).joined(separator: ", ")))", at: node)
            return
        }
        for (keyNode, value) in mapping {
            guard let name = keyNode.scalar?.string, let path = names.first(where: { $0.0 == name })?.1 else {
                warn("unknown key '\(keyNode.scalar?.string ?? "?")' in 'limits' of \(reader.file) (expected \(names.map(\.0).joined(separator: ", ")))", at: keyNode)
                continue
            }
            guard reader.tag(value) == .int, let number = value.int, number > 0 else {
                warn("'\(name)' in 'limits' must be a positive integer", at: value)
                continue
            }
            configuration.limits[keyPath: path] = number
            limitsSet.append(path)
        }
    }

    mutating func output(_ node: Node, into configuration: inout Configuration) {
        guard let mapping = node.mapping else {
            warn("'output' is a mapping (format, color, strict, maxWarnings)", at: node)
            return
        }
        for (keyNode, value) in mapping {
            switch keyNode.scalar?.string {
            case "format": configuration.format = value.scalar?.string
            case "color": configuration.color = value.scalar?.string
            case "strict": configuration.strict = value.bool
            case "maxWarnings": configuration.maxWarnings = value.int
            default:
                warn("unknown key '\(keyNode.scalar?.string ?? "?")' in 'output' of \(reader.file) (expected format, color, strict, maxWarnings)", at: keyNode)
            }
        }
    }
}
