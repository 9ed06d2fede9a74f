import Foundation

/// One FlowLens run, every stage in order: what `flowlens check`, `export`, `explain`, `diff`, the
/// SwiftPM plugins (which run the CLI), `FlowLens.check`, `FlowLens.analyze`, `FlowLensTesting` and
/// the review page all go through, so that there is no second path with other semantics.
///
/// The stages, each a method below: discover → load → link → analyse → configuration findings →
/// inline suppressions → configured severities → locate fixes → baseline → exit policy. `run(_:)` starts at discovery;
/// `run(graph:)` at analysis, for a graph loaded or reflected already.
public struct Pipeline {
    /// `--config`: the one configuration file for every path, instead of the `.flowlens.yml` files in
    /// and above each file's folder.
    public var configurationFile: String?
    /// `--define NAME=value`: PlantUML `%getenv` variables, over the environment and the governing
    /// configuration's `plantuml: defines`.
    public var defines: [String: String] = [:]
    /// Files loaded on an earlier run with the same text (and settings) are not parsed again.
    public var cache: LoadCache?
    /// A file's text read from standard input and the path it is reported under (`--stdin-path`).
    public var standardInput: (path: String, text: String)?
    /// Only this shard's files are loaded (`ShardPlanner`); the findings about the run itself (paths
    /// and configuration files) are shard 1's, so that the shards' reports merge into this run's.
    public var shard: Shard?
    /// The rules run (default: all).
    public var rules: [any Rule] = RuleRegistry.rules.map { $0.init() }
    /// The findings accepted for now: the report leaves them out (nil: no baseline).
    public var baseline: Baseline?
    /// `--strict` and `--max-warnings`: nil takes the run's configuration's `output` setting.
    public var strict: Bool?
    /// See `strict`.
    public var maxWarnings: Int?
    /// What relative paths are relative to.
    public var workingDirectory: String
    /// Told the number of files to load once they are discovered (`ProgressLine.start(total:)`),
    /// then once for each file loaded: a long `check` shows how far it is.
    public var progress: ProgressLine?

    /// A pipeline under the `.flowlens.yml` files of the paths it is given (or `configurationFile`).
    public init(configurationFile: String? = nil, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.configurationFile = configurationFile
        self.workingDirectory = workingDirectory
    }

    /// What a run produced.
    public struct Result: Sendable {
        /// The report: every finding the baseline does not accept, and the flows' analyses.
        public var report: Report
        /// Every finding, before the baseline: what `--write-baseline` records.
        public var findings: [Finding]
        /// The folders given under which no file was chosen (none FlowLens reads, or all excluded):
        /// a typo in a CI path would otherwise pass as "0 flows".
        public var emptyFolders: [String]
        /// The run's configuration: the first path's (else the working directory's), where output
        /// defaults and the exit policy's settings come from.
        public var configuration: Configuration
        /// The exit policy, options over the configuration's `output` settings.
        public var policy: ExitPolicy
        /// The exit status the policy gives the report.
        public var status: ExitStatus { policy.status(of: report) }
    }

    /// Runs every stage over `paths` (files or folders, walked recursively).
    public func run(_ paths: [String]) -> Result {
        var run = Run(configurations: configurations())
        discover(paths, &run)
        load(&run)
        // Linking joins what one file defines to what another uses (a FlowKit machine to the Swift
        // type implementing it): it needs every file read, and the rules need its result.
        link(&run)
        return finish(&run, runConfiguration: paths.isEmpty ? nil : run.first)
    }

    /// Runs the stages from analysis on over `graph`, loaded or reflected already: each finding
    /// under the configuration governing its file (the working directory's for a finding with no
    /// file), with the configuration files' findings. Fixes are not located (no file was read here).
    public func run(graph: FlowGraph) -> Result {
        var run = Run(configurations: configurations())
        run.graph = graph
        run.first = run.configurations.configuration(for: workingDirectory)
        run.limits = run.first!.limits
        // The graph's files stand for the paths discovery would have found.
        for file in graph.files + graph.flows.compactMap(\.location?.file) where run.governing[file] == nil {
            run.governing[file] = run.configurations.configuration(for: file)
        }
        return finish(&run, runConfiguration: run.first)
    }

    // MARK: - Stages

    /// What the stages hand on.
    struct Run {
        var configurations: NestedConfigurations
        /// By display path: the configuration that governs each file read.
        var governing: [String: Configuration] = [:]
        var files: [InputFile] = []
        var texts: [String: String] = [:]              // absolute path -> text given (standard input)
        var discoveryFindings: [Finding] = []
        var emptyFolders: [String] = []
        /// The first path's configuration: the run's limits and the fallback for findings with no file.
        var first: Configuration?
        var limits = Limits.default
        var graph = FlowGraph()
        var session: AnalysisSession?
        /// The analyser the analyse stage ran; the suppress stage asks it which rule ids exist.
        var analyzer: Analyzer?
        var findings: [Finding] = []
        var suppressions: [Suppression] = []

        init(configurations: NestedConfigurations) { self.configurations = configurations }
    }

    func configurations() -> NestedConfigurations {
        NestedConfigurations(file: configurationFile, knownRules: Set(RuleRegistry.descriptions.map(\.id)), workingDirectory: workingDirectory)
    }

    /// Whether this run reports the findings about the run itself (paths, configuration files).
    var reportsRunFindings: Bool { (shard?.index ?? 1) == 1 }

    /// The stages after loading, in order.
    func finish(_ run: inout Run, runConfiguration: Configuration?) -> Result {
        analyse(&run)
        // Configuration findings join before suppressions and severities, so that a
        // `.flowlens.yml` can turn `invalid-configuration` off, or change its severity, and a
        // comment can suppress one, as for every other finding.
        addConfigurationFindings(&run)
        suppress(&run)
        applyConfiguredSeverities(&run)
        locateFixes(&run)
        // The baseline matches findings as they are reported: after suppressions and severities
        // (an `off` finding is neither recorded nor matched).
        var report = Report(graph: run.graph, findings: applyBaseline(run.findings))
        report.shard = shard
        if let session = run.session {
            report.analyses = Dictionary(run.graph.flows.map { ($0.id, session.analysis(of: $0)) }, uniquingKeysWith: { a, _ in a })
        }
        let configuration = runConfiguration ?? FlowLens.configuration(for: ".", file: configurationFile, workingDirectory: workingDirectory).0
        return Result(report: report, findings: run.findings, emptyFolders: run.emptyFolders, configuration: configuration,
                      policy: exitPolicy(configuration))
    }

    /// Discover: the files under `paths`, each walked file chosen by the configuration of its own
    /// folder (a nested `.flowlens.yml` governs its subtree whichever folder above it is checked),
    /// then standard input's file, then this shard's part.
    func discover(_ paths: [String], _ run: inout Run) {
        // One session for every path: a file reached under two of them (`x` and `./x`, a file and
        // its folder) is read once, by its real path.
        var discovery = InputDiscovery.Session(paths: paths, workingDirectory: workingDirectory)
        for path in paths {
            run.first = run.first ?? run.configurations.configuration(for: path)
            var configurations = run.configurations
            let result = discovery.discover(path) { absolute in
                let configuration = configurations.configuration(forFile: absolute)
                return configuration.includes(relativePath: FlowLens.relativePath(absolute, to: configuration.baseDirectory, workingDirectory))
            }
            let found = result.files, findings = result.findings
            run.configurations = configurations
            run.discoveryFindings += findings
            if found.isEmpty, findings.isEmpty, !result.foundBefore, FlowLens.isFolder(path, workingDirectory) { run.emptyFolders.append(path) }
            run.files.reserveCapacity(run.files.count + found.count)
            run.governing.reserveCapacity(run.governing.count + found.count)
            for file in found {
                run.files.append(file)
                run.governing[file.displayPath] = run.configurations.configuration(forFile: file.path)
            }
        }
        if let standardInput {
            let path = standardInput.path
            let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
            let file = InputFile(path: absolute, displayPath: InputDiscovery.displayPath(path, workingDirectory))
            run.files.removeAll { $0.displayPath == file.displayPath }
            run.files.append(file)
            run.texts[absolute] = standardInput.text
            // The path need not exist: its folder's configuration (or the nearest existing folder's).
            run.governing[file.displayPath] = run.configurations.configuration(for: absolute)
            run.first = run.first ?? run.governing[file.displayPath]
        }
        run.files.sort { $0.displayPath < $1.displayPath }
        // Limits are the run's: the first path's configuration sets them.
        run.limits = run.first?.limits ?? .default
        if let shard { run.files = ShardPlanner.files(of: shard, in: run.files, limits: run.limits) }
    }

    /// Load: the files, each by its kind's loader (each PlantUML file with its `%getenv`
    /// environment), through the cache, which keeps what each file's loader read, before linking.
    func load(_ run: inout Run) {
        let base = ProcessInfo.processInfo.environment
        var environments: [String: [String: String]] = [:]  // by display path
        for file in run.files where file.kind == .plantUML {
            var environment = base
            for (name, value) in run.governing[file.displayPath]?.plantUMLDefines ?? [] { environment[name] = value }
            for (name, value) in defines { environment[name] = value }
            environments[file.displayPath] = environment
        }
        let resolved = environments
        var loader = SourceLoader(environment: { resolved[$0.displayPath] ?? base })
        loader.cache = cache
        loader.texts = run.texts
        loader.limits = run.limits
        if let progress {
            progress.start(total: run.files.count)
            loader.progress = { progress.advance() }
        }
        run.graph = loader.read(files: run.files)
        progress?.finish()
        run.graph.loadFindings = (reportsRunFindings ? run.discoveryFindings : []) + run.graph.loadFindings
    }

    /// Link: each dialect's enrichment pass over the whole graph (`Dialects.link`).
    func link(_ run: inout Run) {
        Dialects.link(&run.graph)
    }

    /// Analyse: every rule over every flow; the session keeps each flow's analysis for the report.
    func analyse(_ run: inout Run) {
        var analyzer = Analyzer(running: rules)
        analyzer.findingsPerKey = run.limits.findingsPerKey
        let session = AnalysisSession(graph: run.graph)
        run.findings = analyzer.findings(of: run.graph, session: session)
        run.session = session
        run.analyzer = analyzer
    }

    /// Configuration findings: the problems in the configuration files read, with the suppression
    /// comments in them (YAML's `#` comments, as in any YAML file FlowLens reads).
    func addConfigurationFindings(_ run: inout Run) {
        guard reportsRunFindings else { return }
        run.findings += run.configurations.findings
        for path in run.configurations.filesRead {
            guard case let .success(text) = InputReading.text(atPath: path, maximumBytes: run.limits.fileBytes),
                  let marker = SuppressionScanner.commentMarker(forPath: path) else { continue }
            run.suppressions += SuppressionScanner.scan(text, file: InputDiscovery.displayPath(path, workingDirectory), marker: marker)
        }
    }

    /// Inline suppressions: over every finding, load and configuration findings included.
    func suppress(_ run: inout Run) {
        // Analysis always runs first (`finish`): its analyser knows the rule ids a comment may name.
        let analyzer = run.analyzer ?? Analyzer(running: rules)
        run.findings = analyzer.suppressing(run.findings, in: run.graph, more: run.suppressions)
    }

    /// Configured severities: each finding takes the rule setting of the configuration governing its
    /// file (`off` drops it; a severity replaces the rule's); a finding in no file read (a
    /// configuration file's, one about a path given), the first path's.
    func applyConfiguredSeverities(_ run: inout Run) {
        let governing = run.governing, first = run.first
        // A file's path relative to its configuration's folder, worked out once a file, not once a finding.
        var relativePaths: [String: String] = [:]
        run.findings = run.findings.compactMap { finding in
            let file = finding.location?.file
            guard let configuration = file.flatMap({ governing[$0] }) ?? first else { return finding }
            var relative = ""
            if let file {
                let key = configuration.baseDirectory + "\u{0}" + file
                if let known = relativePaths[key] {
                    relative = known
                } else {
                    relative = FlowLens.relativePath(file, to: configuration.baseDirectory, workingDirectory)
                    relativePaths[key] = relative
                }
            }
            return configuration.configured(finding, atRelativePath: relative)
        }
    }

    /// Locate fixes: each fix's edits found exactly in the text the file was read with.
    func locateFixes(_ run: inout Run) {
        guard !run.files.isEmpty else { return }
        let paths = Dictionary(run.files.map { ($0.displayPath, $0.path) }, uniquingKeysWith: { a, _ in a })
        let texts = run.texts, limits = run.limits
        run.findings = FixPlanner.locateFixes(in: run.findings) { file in
            guard let path = paths[file] else { return nil }
            return texts[path] ?? (try? InputReading.text(atPath: path, maximumBytes: limits.fileBytes).get())
        }
    }

    /// Baseline: `findings` without those the baseline accepts.
    func applyBaseline(_ findings: [Finding]) -> [Finding] {
        baseline?.newFindings(in: findings) ?? findings
    }

    /// Exit policy: the options, else the run's configuration's `output` settings.
    func exitPolicy(_ configuration: Configuration) -> ExitPolicy {
        ExitPolicy(strict: strict, maxWarnings: maxWarnings, configuration: configuration)
    }
}

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

    /// Loads and analyses `paths` as `flowlens check` does (`Pipeline`, without a baseline):
    /// walked folders keep the files the configuration includes, and each finding takes the rule
    /// setting of the configuration governing its file (`off` drops it; a severity replaces the
    /// rule's). PlantUML's `%getenv` reads the process environment, over it the governing
    /// configuration's `plantuml: defines`, and over both `defines` (`--define NAME=value`). With a
    /// `cache`, files loaded on an earlier run with the same text (and settings) are not parsed
    /// again. With a `shard`, only that shard's files are loaded.
    public static func check(_ paths: [String], configurationFile: String?, defines: [String: String] = [:],
                             cache: LoadCache? = nil, shard: Shard? = nil,
                             workingDirectory: String = FileManager.default.currentDirectoryPath) -> Report {
        var pipeline = Pipeline(configurationFile: configurationFile, workingDirectory: workingDirectory)
        pipeline.defines = defines
        pipeline.cache = cache
        pipeline.shard = shard
        return pipeline.run(paths).report
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
