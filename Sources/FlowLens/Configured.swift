import Foundation

extension FlowLens {
    /// The configuration that governs `path`: the file given, else every `.flowlens.yml` in or above
    /// `path` merged, outermost first (a nested file wins per setting; see
    /// `NestedConfigurations`), else the built-in defaults (with no file). Problems in the files are findings.
    public static func configuration(for path: String, file: String? = nil,
                                     workingDirectory: String = FileManager.default.currentDirectoryPath) -> (Configuration, [Finding]) {
        var configurations = NestedConfigurations(file: file, knownRules: Set(RuleRegistry.descriptions.map(\.id)),
                                                  workingDirectory: workingDirectory)
        let configuration = configurations.configuration(for: path)
        return (configuration, configurations.findings)
    }

    /// Loads and analyses `paths` under their configurations (see `configuration(for:file:)`): walked
    /// folders keep the files the configuration includes, and each finding takes the rule setting of
    /// the configuration governing its file (`off` drops it; a severity replaces the rule's).
    /// PlantUML's `%getenv` reads the process environment, over it the governing configuration's
    /// `plantuml: defines`, and over both `defines` (`--define NAME=value`). With a `cache`, files
    /// loaded on an earlier run with the same text (and settings) are not parsed again. With a `shard`,
    /// only that shard's files are loaded (`ShardPlanner`), and the findings about the run itself (paths
    /// and configuration files) are shard 1's, so that the shards' reports merge into this run's.
    public static func check(_ paths: [String], configurationFile: String?, defines: [String: String] = [:],
                             cache: LoadCache? = nil, shard: Shard? = nil,
                             workingDirectory: String = FileManager.default.currentDirectoryPath) -> Report {
        checkNotingEmpty(paths, configurationFile: configurationFile, defines: defines, cache: cache, shard: shard,
                         workingDirectory: workingDirectory).report
    }

    /// `check(_:configurationFile:defines:cache:shard:workingDirectory:)`, and the folders given in
    /// `paths` under which no file was chosen (none FlowLens reads, or all excluded): a typo in a CI
    /// path would otherwise pass as "0 flows".
    ///
    /// `standardInput` is a file's text read from standard input and the path it is reported under
    /// (`--stdin-path`): read as that file, of the kind its name says, under the configuration that
    /// governs that path, in place of the file on disk if `paths` reach it too (which need not exist).
    public static func checkNotingEmpty(_ paths: [String], configurationFile: String?, defines: [String: String] = [:],
                                        cache: LoadCache? = nil, standardInput: (path: String, text: String)? = nil,
                                        shard: Shard? = nil, workingDirectory: String = FileManager.default.currentDirectoryPath)
        -> (report: Report, emptyFolders: [String])
    {
        var emptyFolders: [String] = []
        var configurations = NestedConfigurations(file: configurationFile, knownRules: Set(RuleRegistry.descriptions.map(\.id)),
                                                  workingDirectory: workingDirectory)
        var governing: [String: Configuration] = [:]                    // display path -> configuration
        var files: [InputFile] = []
        var seen = Set<String>()
        var discoveryFindings: [Finding] = []
        var first: Configuration?
        for path in paths {
            first = first ?? configurations.configuration(for: path)
            // Each file walked is chosen by the configuration of its own folder: a nested
            // .flowlens.yml governs its subtree whichever folder above it is checked.
            let (found, findings) = InputDiscovery.discover([path], workingDirectory: workingDirectory) { absolute in
                let configuration = configurations.configuration(for: absolute)
                return configuration.includes(relativePath: relativePath(absolute, to: configuration.baseDirectory, workingDirectory))
            }
            discoveryFindings += findings
            if found.isEmpty, findings.isEmpty, isFolder(path, workingDirectory) { emptyFolders.append(path) }
            for file in found where seen.insert(file.path).inserted {
                files.append(file)
                governing[file.displayPath] = configurations.configuration(for: file.path)
            }
        }
        var texts: [String: String] = [:]
        if let standardInput {
            let path = standardInput.path
            let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
            let file = InputFile(path: absolute, displayPath: InputDiscovery.displayPath(path, workingDirectory))
            files.removeAll { $0.displayPath == file.displayPath }
            files.append(file)
            texts[absolute] = standardInput.text
            // The path need not exist: its folder's configuration (or the nearest existing folder's).
            governing[file.displayPath] = configurations.configuration(for: absolute)
            first = first ?? governing[file.displayPath]
        }
        files.sort { $0.displayPath < $1.displayPath }
        if let shard { files = ShardPlanner.files(of: shard, in: files, limits: first?.limits ?? .default) }
        let runFindings = (shard?.index ?? 1) == 1
        let base = ProcessInfo.processInfo.environment
        var environments: [String: [String: String]] = [:]  // by display path
        for file in files where file.kind == .plantUML {
            var environment = base
            for (name, value) in governing[file.displayPath]?.plantUMLDefines ?? [] { environment[name] = value }
            for (name, value) in defines { environment[name] = value }
            environments[file.displayPath] = environment
        }
        let resolved = environments
        var loader = SourceLoader(environment: { resolved[$0.displayPath] ?? base })
        loader.cache = cache
        loader.texts = texts
        // Limits are the run's: the first path's configuration sets them.
        loader.limits = first?.limits ?? .default
        var graph = loader.load(files: files)
        graph.loadFindings = (runFindings ? discoveryFindings : []) + graph.loadFindings
        var findings: [Finding] = []
        var analyzer = Analyzer()
        analyzer.findingsPerKey = loader.limits.findingsPerKey
        for var finding in analyzer.analyze(graph) {
            let file = finding.location?.file
            guard let configuration = file.flatMap({ governing[$0] }) ?? first else { findings.append(finding); continue }
            let relative = file.map { relativePath($0, to: configuration.baseDirectory, workingDirectory) } ?? ""
            switch configuration.setting(for: finding.rule, atRelativePath: relative) {
            case .off?: continue
            case let .severity(severity)?: finding.severity = severity
            case .on?, nil: break
            }
            findings.append(finding)
        }
        if runFindings { findings += configurations.findings }
        let paths = Dictionary(files.map { ($0.displayPath, $0.path) }, uniquingKeysWith: { a, _ in a })
        findings = FixPlanner.locateFixes(in: findings) { file in
            guard let path = paths[file] else { return nil }
            return texts[path] ?? (try? String(contentsOfFile: path, encoding: .utf8))
        }
        var report = Report(graph: graph, findings: findings)
        report.shard = shard
        return (report, emptyFolders)
    }

    static func isFolder(_ path: String, _ workingDirectory: String) -> Bool {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `path` (absolute, or relative to the working directory) relative to `base`, with `/` separators.
    static func relativePath(_ path: String, to base: String, _ workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        let absoluteBase = base.hasPrefix("/") ? base : (workingDirectory as NSString).appendingPathComponent(base)
        return InputDiscovery.displayPath(absolute, absoluteBase)
    }
}

extension Configuration {
    /// `path` (absolute, or relative to the working directory) relative to this configuration's base
    /// directory: what its patterns and overrides are matched against.
    public func relativePath(of path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        FlowLens.relativePath(path, to: baseDirectory, workingDirectory)
    }

    /// Every rule's setting for a file at `relativePath` (see `relativePath(of:)`; nil: the file-wide
    /// settings), overrides matching it applied, with the override's patterns when one decides it
    /// (nil: the file-wide setting or, when `setting` is nil, the rule's default).
    public func effectiveRules(_ descriptions: [RuleDescription], at relativePath: String?)
        -> [(id: String, setting: RuleSetting?, override: [String]?)]
    {
        descriptions.map { rule in
            if let relativePath {
                for override in overrides.reversed() where override.paths.contains(where: { Glob.matches($0, relativePath) }) {
                    if let setting = override.rules.last(where: { $0.0 == rule.id })?.1 { return (rule.id, setting, override.paths) }
                }
            }
            return (rule.id, rules.last { $0.0 == rule.id }?.1, nil)
        }
    }

    /// The effective configuration as YAML, as `flowlens dump-config` prints it: every rule with its
    /// setting for a file at `relativePath` (overrides matching it applied; a rule no file names
    /// runs at its default severity), then the patterns and overrides (for the files below a folder).
    public func yaml(rules descriptions: [RuleDescription], at relativePath: String? = nil) -> String {
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var out = "# Effective FlowLens configuration"
        if files.count > 1 {
            out += ", from " + files.joined(separator: ", then ") + " (nested: the later file wins)"
        } else {
            out += file.map { ", from \($0)" } ?? " (built-in defaults: no .flowlens.yml found)"
        }
        out += "\n"
        if let relativePath, relativePath != "." { out += "# for \(relativePath) (patterns are relative to \(file == nil ? "the current folder" : "the first file's folder"))\n" }
        out += "version: \(Configuration.version)\nrules:\n"
        for (id, setting, override) in effectiveRules(descriptions, at: relativePath) {
            let severity = descriptions.first { $0.id == id }!.severity
            let comment = override.map { "  # override for " + $0.joined(separator: ", ") } ?? (setting == nil ? "  # default" : "")
            out += "  \(id): \(setting?.text ?? severity.rawValue)" + comment + "\n"
        }
        out += "include: [" + include.map(quoted).joined(separator: ", ") + "]\n"
        out += "exclude: [" + exclude.map(quoted).joined(separator: ", ") + "]\n"
        out += overrides.isEmpty ? "overrides: []\n" : "overrides:\n" + overrides.map { override in
            "  - paths: [" + override.paths.map(quoted).joined(separator: ", ") + "]\n    rules: {"
                + override.rules.map { "\($0.0): \($0.1.text)" }.joined(separator: ", ") + "}\n"
        }.joined()
        out += "plantuml:\n  defines: {" + plantUMLDefines.map { "\($0.0): \(quoted($0.1))" }.joined(separator: ", ") + "}\n"
        out += "output:\n"
        out += "  format: \(format ?? "text")\n  color: \(color ?? "auto")\n  strict: \(strict ?? false)\n"
        out += "  maxWarnings: \(maxWarnings.map(String.init) ?? "~")\n"
        out += "limits: {nesting: \(limits.nesting), squareBrackets: \(limits.squareBrackets), syntaxDepth: \(limits.syntaxDepth), "
            + "yamlAliasNodes: \(limits.yamlAliasNodes), fileBytes: \(limits.fileBytes), findingsPerKey: \(limits.findingsPerKey)}\n"
        return out
    }

    /// A commented starter file, as `flowlens init` writes it.
    public static func starter(rules descriptions: [RuleDescription]) -> String {
        var out = """
            # FlowLens configuration (FlowLens's README, "Configuration"). Every .flowlens.yml in and
            # above a file's folder applies to it, outermost first, the nearer file winning per
            # setting; `flowlens dump-config PATH` prints the settings in effect for PATH.
            version: 1

            # Rules: off, on (the rule's own severity), error, warning or note. Every rule:

            """
        out += "rules:\n"
        for rule in descriptions { out += "  # \(rule.id): \(rule.severity.rawValue)    # \(rule.summary)\n" }
        out += """

            # Which files are read when a folder is given (patterns relative to this file's folder, and
            # only below it; ** = any folders).
            include: []
            exclude:
              - "**/Generated/**"
            # Dependency and build folders (.build, Pods, Carthage, DerivedData, vendor, node_modules)
            # are excluded too; false reads them.
            defaultExcludes: true

            # Settings for some paths only; later entries win.
            overrides: []
            #  - paths: ["Legacy/**"]
            #    rules: {type-mismatch: warning}

            # PlantUML preprocessor variables (!$NAME) for FlowKit state machines.
            plantuml:
              defines: {}

            # Defaults for command-line options (the options win).
            output:
              format: text      # text, json, sarif, github, gitlab, checkstyle, junit, markdown
              color: auto       # auto, always, never
              strict: false     # warnings fail the run
              # maxWarnings: 10

            """
        return out
    }
}
