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

    /// This configuration with every rule's effective setting for a file at `relativePath` (overrides
    /// matching it applied; a rule no file names at its default severity): what `flowlens dump-config`
    /// prints, as YAML or JSON.
    public func effective(rules descriptions: [RuleDescription], at relativePath: String? = nil) -> Configuration {
        var effective = self
        effective.rules = effectiveRules(descriptions, at: relativePath).map { rule in
            (rule.id, rule.setting ?? .severity(descriptions.first { $0.id == rule.id }!.severity))
        }
        return effective
    }

    /// The effective configuration as YAML, as `flowlens dump-config` prints it: `effective(rules:at:)`
    /// in the file's shape (`document`), every output setting shown, each rule's line saying whether its
    /// setting is the default or an override's; then the patterns and overrides (for the files below a folder).
    public func yaml(rules descriptions: [RuleDescription], at relativePath: String? = nil) -> String {
        var out = "# Effective FlowLens configuration"
        if files.count > 1 {
            out += ", from " + files.joined(separator: ", then ") + " (nested: the later file wins)"
        } else {
            out += file.map { ", from \($0)" } ?? " (built-in defaults: no .flowlens.yml found)"
        }
        out += "\n"
        if let relativePath, relativePath != "." { out += "# for \(relativePath) (patterns are relative to \(file == nil ? "the current folder" : "the first file's folder"))\n" }
        var comments: [String: String] = [:]  // by rule id
        for (id, setting, override) in effectiveRules(descriptions, at: relativePath) {
            if let override { comments[id] = "# override for " + override.joined(separator: ", ") } else if setting == nil { comments[id] = "# default" }
        }
        return out + effective(rules: descriptions, at: relativePath).document(outputDefaults: true).yaml { path in
            path.count == 2 && path[0] == "rules" ? comments[path[1]] : nil
        }
    }

    /// A commented starter file, as `flowlens init` writes it.
    public static func starter(rules descriptions: [RuleDescription]) -> String {
        var out = """
            # FlowLens configuration (FlowLens's docs/configuration.md). Every .flowlens.yml in and
            # above a file's folder applies to it, outermost first, the nearer file winning per
            # setting; `flowlens dump-config PATH` prints the settings in effect for PATH.
            #
            # Flow files (*.flow.yaml) are checked as you type by an editor's YAML language server
            # given FlowLens's JSON Schema, with this first line in the flow file (docs/format.md):
            #   # yaml-language-server: $schema=<path to FlowLens>/schema/flowlens-flow.schema.json
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

            # How `flowlens trace` reads run records: the span attributes that name the flow, the
            # step, a failure's reason and key, a group element; stepsFromSpanNames: a span inside a
            # flow without the step attribute is the step its name says; flows: the flow names runs
            # use (in any format) that are not a flow's id or name, and the flow each means.
            trace: {}
            #  flowAttribute: flow.name
            #  stepAttribute: flow.step
            #  stepsFromSpanNames: false
            #  flows: {web-checkout: checkout}

            # Defaults for command-line options (the options win).
            output:
              format: text      # \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", "))
              color: auto       # auto, always, never
              strict: false     # warnings fail the run
              # maxWarnings: 10

            """
        return out
    }
}
