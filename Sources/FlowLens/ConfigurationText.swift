import Foundation

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
