import FlowModel
import Foundation
import Yams

/// Finds `.flowlens.yml` files, composes their YAML and merges nested ones; what the settings mean
/// is read by `Configuration.read` (FlowModel), the reader JSON decoding uses too.
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

    /// Reads the configuration at `path`; `knownRules` are the rule ids the settings may name.
    public static func load(_ path: String, knownRules: Set<String>, workingDirectory: String) -> (Configuration, [Finding]) {
        let file = read(path, knownRules: knownRules, workingDirectory: workingDirectory)
        return (merged([file]), file.findings)
    }

    /// What the file at `path` says, before it is merged with the files above it.
    static func read(_ path: String, knownRules: Set<String>, workingDirectory: String) -> ConfigurationFile {
        let shown = InputDiscovery.displayPath(path, workingDirectory)
        var configuration = Configuration(baseDirectory: (path as NSString).deletingLastPathComponent)
        configuration.file = shown
        configuration.files = [shown]
        var file = ConfigurationFile(configuration: configuration)
        // Read as every input is: a regular file, inside the tree, within the bound of a flow file.
        if let outside = InputDiscovery.linkLeavingTree(path, workingDirectory: workingDirectory) {
            file.findings = [.invalidInput("cannot read the configuration file: \(outside)", at: SourceLocation(file: shown))]
            return file
        }
        let text: String
        switch InputReading.text(atPath: path, maximumBytes: Limits.default.fileBytes) {
        case let .success(read): text = read
        case let .failure(failure):
            file.findings = [.invalidInput("cannot read the configuration file: \(failure.cause)", at: SourceLocation(file: shown))]
            return file
        }
        do {
            // Bounded as a flow file is (`YAMLBudget`), with the default limits: the file that could
            // change them is this one.
            guard let tree = try YAMLTree.compose(text, limits: Limits.default, file: shown) else { return file }  // an empty file: defaults
            let reader = YAMLReader(file: shown, tree: tree)
            return Configuration.read(settings(tree.root, reader), file: shown, knownRules: knownRules, into: configuration)
        } catch let problem as YAMLTree.OverBudget {
            file.findings = [problem.finding]
            return file
        } catch {
            file.findings = [DeclarativeLoader.finding(for: error, file: shown)]
            return file
        }
    }

    /// A composed YAML node as the configuration reader takes it: each scalar typed by YAML 1.1's
    /// rules, each node with its line and column.
    static func settings(_ node: YAMLNode, _ reader: YAMLReader) -> SettingsNode {
        let location = reader.location(node)
        let nodes = reader.nodes
        switch nodes.kind(node) {
        case .scalar:
            let text = nodes.string(node)!
            let type: SettingsNode.Scalar
            switch reader.tag(node) {
            case .null: type = .null
            case .bool: type = .bool(["true", "yes", "on"].contains(text.lowercased()))
            case .int: type = Int.construct(from: Node.Scalar(text)).map { .int($0) } ?? .text
            default: type = .text
            }
            return SettingsNode(.scalar(text, type), location: location)
        case .mapping:
            return SettingsNode(.mapping(nodes.pairs(node)!.map { (settings($0.key, reader), settings($0.value, reader)) }), location: location)
        case .sequence:
            return SettingsNode(.sequence(nodes.items(node)!.map { settings($0, reader) }), location: location)
        }
    }

    /// The configuration of a folder whose chain of files (outermost first, as `chain(for:)` finds
    /// them) is `files`: the outermost file's settings, then each nested file's over them. A nested
    /// file wins per setting: its rules over the rules and overrides above it (for its subtree),
    /// `include` (when it has one), `plantuml: defines` per name, each `output` and `limits` setting
    /// it names, `defaultExcludes`. Its `exclude`, `include` and `overrides` patterns are relative to
    /// its own folder; its excludes add to those above, its overrides come after theirs (and win).
    static func merged(_ files: [ConfigurationFile]) -> Configuration {
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
            for (name, path) in Limits.settings where file.limitsSet.contains(name) { merged.limits[keyPath: path] = child.limits[keyPath: path] }
            for (name, path) in SpanMapping.attributes where file.traceSet.contains(name) { merged.spans[keyPath: path] = child.spans[keyPath: path] }
            if file.traceSet.contains("stepsFromSpanNames") { merged.spans.stepsFromSpanNames = child.spans.stepsFromSpanNames }
            merged.spans.flows.merge(child.spans.flows) { _, nested in nested }
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
    private var read: [String: ConfigurationFile] = [:]       // by absolute file path
    private var chains: [String: [String]] = [:]                       // by absolute folder
    private var mergedByChain: [[String]: Configuration] = [:]
    private var byFolder: [String: Configuration] = [:]               // by absolute folder, for files

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

    /// The configuration in effect for the file at `path`, known to be a file (discovery found it):
    /// its folder's, remembered by folder, so the thousands of files of one folder cost one look at
    /// the disk rather than one each.
    public mutating func configuration(forFile path: String) -> Configuration {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        let folder = InputDiscovery.folder(of: InputDiscovery.lexicallyNormalised(absolute))
        if let known = byFolder[folder] { return known }
        let configuration = configuration(for: folder)
        byFolder[folder] = configuration
        return configuration
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
