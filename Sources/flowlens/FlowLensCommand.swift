import ArgumentParser
import FlowLens
import Foundation

/// Exit statuses, as docs/usage.md documents them (`ExitStatus`).
enum Status {
    /// No error findings.
    static let clean = ExitStatus.clean.rawValue
    /// Error findings (or warnings, with `--strict`).
    static let findings = ExitStatus.findings.rawValue
    /// Invalid input (a file could not be read), a usage error, or output that could not be written.
    static let invalidInputOrUsage = ExitStatus.invalidInputOrUsage.rawValue
}

struct FlowLensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowlens",
        abstract: "Find the defects in flow definitions before they run, and draw them as diagrams.",
        discussion: """
            FlowLens reads flow files (\(SourceKind.patternsDescription)), checks them with its \
            rules (see 'flowlens rules'), and renders them with Graphviz. Settings come from the \
            .flowlens.yml files in and above each file's folder, merged outermost first, the nearer \
            file winning per setting ('flowlens init' writes one; 'flowlens dump-config PATH' prints \
            what is in effect for PATH). 'flowlens --version --verbose' also names the versions of the \
            packages it was built with (swift-argument-parser, swift-syntax, Yams).

            EXIT STATUS
              0  no error findings
              1  error findings (or, with --strict, warnings; with --max-warnings N,
                 more than N warnings)
              2  invalid input (a file could not be read or parsed), a usage error,
                 or output that could not be written
            """,
        version: FlowLensTool.version,
        subcommands: [Check.self, Export.self, Explain.self, Diff.self, Merge.self, Trace.self, Rules.self, DumpConfig.self, Init.self, RenderWorkerCommand.self],
        defaultSubcommand: nil)
}

/// Options shared by the commands that read flows.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Flow files or folders (walked recursively; files chosen by name; default: the current folder, as for 'explain').", valueName: "path"))
    var givenPaths: [String] = []

    /// The paths to read: those given (but `-`, standard input), else the current folder unless
    /// standard input is read.
    var paths: [String] {
        let files = givenPaths.filter { $0 != "-" }
        return files.isEmpty && givenPaths.isEmpty && stdinPath == nil ? ["."] : files
    }

    @Option(help: ArgumentHelp("Read one file's text from standard input and report it under this path (its name says its kind; its .flowlens.yml applies). Other paths given are read with it, the file on disk replaced. '-' as a path reads standard input too: without --stdin-path, as a flow file of FlowLens's format reported as '<stdin>.flow.yaml' (PlantUML, '<stdin>.puml', when it holds @startuml).", valueName: "path"))
    var stdinPath: String?

    @Flag(help: "Pass when a folder given holds no flow files (by default that is an error: a mistyped path would pass silently).")
    var allowEmpty = false

    @Flag(name: [.short, .long], help: "Print only the findings (and errors and warnings): no summary, progress, cache statistics or notes about recorded runs on standard error.")
    var quiet = false

    @OptionGroup var policy: PolicyOptions

    @Option(help: ArgumentHelp("Report only findings that are not in this baseline file (see --write-baseline).", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to this baseline file, keyed by rule, flow, step and key (not lines).", valueName: "file"))
    var writeBaseline: String?

    @Option(name: .customLong("define"),
            help: ArgumentHelp("Set a variable PlantUML's %getenv(\"NAME\") reads, over the environment and the configuration's plantuml defines (repeatable).", valueName: "NAME=value"))
    var defines: [String] = []

    @Option(help: ArgumentHelp("Keep what was loaded from each file in this cache file, and do not parse files unchanged since the last run (same findings; see docs/ci.md, 'Caching').", valueName: "file"))
    var cachePath: String?

    @Option(help: ArgumentHelp("Check only part I of N of the flows (CI machines each take one; 'flowlens merge' combines their JSON reports into what one run prints). Files are split by flow: see docs/ci.md, 'Sharded CI'.", valueName: "I/N"))
    var shard: String?

    /// `--define NAME=value` as a dictionary.
    var defineValues: [String: String] {
        get throws { try Self.values(of: defines) }
    }

    /// `NAME=value` arguments as a dictionary (`--define`).
    static func values(of defines: [String]) throws -> [String: String] {
        var values: [String: String] = [:]
        for define in defines {
            guard let eq = define.firstIndex(of: "="), eq != define.startIndex else {
                throw ValidationError("--define takes NAME=value, e.g. --define PLATFORM_NAME=ios (got '\(define)').")
            }
            values[String(define[..<eq])] = String(define[define.index(after: eq)...])
        }
        return values
    }

    /// Runs the pipeline over the paths (`Pipeline`), writes the baseline if asked, and reports
    /// what the baseline does not accept, with the exit policy of the run.
    func run() throws -> Pipeline.Result {
        // A file a run will write must be a regular file or nothing: said before any work is done.
        if let writeBaseline { try Output.checkReplaceable(writeBaseline, "the baseline") }
        if let cachePath { try Output.checkReplaceable(cachePath, "the cache") }
        let cache = cachePath.map(LoadCache.forCommandLine(path:))
        var pipeline = Pipeline(configurationFile: policy.config)
        pipeline.defines = try defineValues
        pipeline.cache = cache
        pipeline.standardInput = try standardInput()
        pipeline.shard = shard.flatMap(Shard.init)
        pipeline.baseline = try readBaseline()
        pipeline.strict = policy.strictOption
        pipeline.maxWarnings = policy.maxWarnings
        // On a terminal, a run that takes over a second says how far loading is ("loading 120/900 …").
        if !quiet { pipeline.progress = ProgressLine("loading", total: 0) }
        let result = pipeline.run(paths)
        cache?.finishCommandLineRun(quiet: quiet)
        if let empty = result.emptyFolders.first, !allowEmpty {
            throw CommandFailure("no flow files found under '\(empty)' (FlowLens reads \(SourceKind.patternsDescription), "
                + "outside excluded folders): check the path, or pass --allow-empty")
        }
        if let writeBaseline {
            do {
                try AtomicFile.write(Data(Baseline(accepting: result.findings).serialized().utf8), to: writeBaseline, removingStaleTemporaries: true)
            } catch {
                throw CommandFailure("cannot write the baseline '\(writeBaseline)': \(WriteFailure.cause(of: error))")
            }
        }
        return result
    }

    /// `--baseline`'s file, read before the run: the pipeline's baseline stage leaves out what it accepts.
    func readBaseline() throws -> Baseline? {
        guard let baseline else { return nil }
        do {
            return try Baseline(json: InputReading.text(atPath: baseline, maximumBytes: Output.reportBytes).get())
        } catch let error as BaselineError {
            throw CommandFailure("cannot use the baseline '\(baseline)': \(error.description)")
        } catch let error as ReadFailure {
            let hint = if case .system(ENOENT) = error.reason { "; give an existing file, or write one with --write-baseline" } else { "" }
            throw CommandFailure("cannot read the baseline '\(baseline)': \(error.cause)\(hint)")
        }
    }

    /// The text of standard input and the path to report it under, when `--stdin-path` is given.
    /// `-` without `--stdin-path` reads standard input as a file of FlowLens's format (JSON is read
    /// as YAML), or as PlantUML when it holds `@startuml`.
    func standardInput() throws -> (path: String, text: String)? {
        guard stdinPath != nil || givenPaths.contains("-") else { return nil }
        // Bounded as a file is (`limits.fileBytes` of the configuration governing the path): read no
        // further than the bound, so that `< /dev/zero` is refused, not held in memory.
        let shown = stdinPath ?? "-"
        let limit = FlowLens.configuration(for: stdinPath ?? "<stdin>.flow.yaml", file: policy.config).0.limits.fileBytes
        let bytes: [UInt8]
        switch InputReading.standardInput(maximumBytes: limit) {
        case let .success(read): bytes = read
        case let .failure(failure):
            throw CommandFailure("cannot read standard input (read as '\(shown)'): \(failure.cause)")
        }
        guard let text = InputReading.decode(bytes) else {
            throw CommandFailure("standard input (read as '\(shown)') is not UTF-8 text; pipe the file's text in as UTF-8")
        }
        return (stdinPath ?? Self.standardInputPath(for: text), text)
    }

    /// The path `-` without `--stdin-path` reports standard input under: its name says its kind.
    static func standardInputPath(for text: String) -> String {
        text.contains("@startuml") ? "<stdin>.puml" : "<stdin>.flow.yaml"
    }

    func validate() throws {
        if let stdinPath, SourceKind.of(path: stdinPath) == nil {
            throw ValidationError("--stdin-path '\(stdinPath)' is not a file FlowLens reads (expected \(SourceKind.patternsDescription)).")
        }
        _ = try defineValues
        if let shard, Shard(shard) == nil { throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N, e.g. --shard 2/3 (got '\(shard)').") }
    }

}

/// `--config`, `--strict` and `--max-warnings`: the configuration and the exit policy, shared by the
/// commands that exit by their findings (`check`, `export` and `merge`).
struct PolicyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The one configuration file to use, instead of the .flowlens.yml files in and above each file's folder (for 'merge', the current folder).", valueName: "file"))
    var config: String?

    @Flag(help: "Exit with status 1 when there are warnings, not only errors.")
    var strict = false

    @Option(help: ArgumentHelp("Exit with status 1 when there are more than this many warnings.", valueName: "n"))
    var maxWarnings: Int?

    /// `--strict` when given; nil leaves it to the configuration.
    var strictOption: Bool? { strict ? true : nil }

    func validate() throws {
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings takes a number of warnings, 0 or more.") }
    }

    /// The exit policy: these options over `configuration`'s `output` settings.
    func policy(_ configuration: Configuration) -> ExitPolicy {
        ExitPolicy(strict: strictOption, maxWarnings: maxWarnings, configuration: configuration)
    }
}

/// `--format` and `--color`, for the commands that print a report (`check`, `merge`).
struct ReportOutputOptions: ParsableArguments {
    @Option(name: .customLong("format"),
            help: ArgumentHelp("Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: the configuration's, else text).", valueName: "format"))
    var formatOption: ReportFormat?

    @Option(name: .customLong("color"),
            help: ArgumentHelp("Text output for a person (source lines, carets, colours): auto (when standard output is a terminal), always, never (no colours).", valueName: "when"))
    var colorOption: ColorMode?

    /// The format: the option, else `configuration`'s `output.format`, else text.
    func format(_ configuration: Configuration) -> ReportFormat {
        formatOption ?? configuration.format.flatMap(ReportFormat.init(rawValue:)) ?? .text
    }

    /// The colour mode: the option, else `configuration`'s `output.color`, else auto.
    func color(_ configuration: Configuration) -> ColorMode {
        colorOption ?? configuration.color.flatMap(ColorMode.init(rawValue:)) ?? .auto
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check flows and print the findings.",
        discussion: """
            Text output has one finding a line, 'file:line:col: severity: message [rule-id]', and a \
            summary on standard error. JSON output is the report documented in docs/output-formats.md.

            EXAMPLES
              flowlens check                                    # the current folder
              flowlens check samples
              flowlens check --format json Flows/checkout.flow.yaml > report.json
              flowlens check --format github Sources            # annotations in GitHub Actions
              flowlens check Sources --cache-path .build/flowlens-cache.json   # unchanged files not parsed again
              flowlens check --fix --dry-run Flows              # the fixes FlowLens is sure of, as a diff
              flowlens check --fix Flows                        # apply them, then report what remains
            """)

    @OptionGroup var input: InputOptions

    @OptionGroup var output: ReportOutputOptions

    @Option(help: ArgumentHelp("When the check passes (exit status 0), write this empty file: the output a build system needs to rerun the check only when its inputs change (the SwiftPM build-tool plugin).", valueName: "file"))
    var touch: String?

    @Flag(help: "Apply the fixes the findings carry (the one 'did you mean' of a misspelt step, sub-flow, data key, FlowKit case, key of the format, or rule id in a suppression) to the files, then check again and report what remains.")
    var fix = false

    @Flag(help: "With --fix: print the fixes as a unified diff on standard output and change no file.")
    var dryRun = false


    func validate() throws {
        if dryRun, !fix { throw ValidationError("--dry-run shows what --fix would change: give --fix --dry-run.") }
        if fix, input.stdinPath != nil || input.givenPaths.contains("-") {
            throw ValidationError("--fix rewrites files, and standard input is not one: give the file's path instead of --stdin-path.")
        }
    }

    func run() throws {
        if let touch { try Output.checkReplaceable(touch, "the file") }
        var result = try input.run()
        if fix {
            result = try applyFixes(result)
        }
        let report = result.report
        let format = output.format(result.configuration)
        try Output.write(reporter(for: result).report(report))
        if format == .text, !input.quiet { Output.error(TextReporter().summary(report)) }
        let status = result.status.rawValue
        if let touch, status == Status.clean {
            do {
                try AtomicFile.write(Data(), to: touch, removingStaleTemporaries: true)
            } catch {
                throw CommandFailure("cannot write '\(touch)': \(WriteFailure.cause(of: error))")
            }
        }
        throw ExitCode(status)
    }
}

extension Check {
    /// `--fix`: applies the report's fixes and returns the report of a second check; with `--dry-run`,
    /// prints the diff and exits with the status of the unchanged files.
    func applyFixes(_ result: Pipeline.Result) throws -> Pipeline.Result {
        let plan = FixPlanner.plan(result.report.findings) { try? InputReading.text(atPath: $0, maximumBytes: Output.reportBytes).get() }
        let count = plan.changes.reduce(0) { $0 + $1.fixed.count }
        func files(_ n: Int) -> String { Plural.count(n, "file") }
        func fixes(_ n: Int) -> String { Plural.count(n, "finding") }
        if dryRun {
            try Output.write(FixPlanner.unifiedDiff(plan))
            for line in plan.skipped { Output.error("flowlens: \(line)\n") }
            if !input.quiet { Output.error("would fix \(fixes(count)) in \(files(plan.changes.count)); no file changed\n") }
            throw ExitCode(result.status.rawValue)
        }
        let written = FixPlanner.write(plan)
        for line in plan.skipped + written.skipped { Output.error("flowlens: \(line)\n") }
        for failure in written.failures { Output.error("flowlens: error: \(failure.description)\n") }
        if !input.quiet {
            let fixedCount = written.written.reduce(0) { $0 + $1.fixed.count }
            Output.error("fixed \(fixes(fixedCount)) in \(files(written.written.count))\n")
        }
        let remaining = try input.run()
        if !written.failures.isEmpty {
            try Output.write(reporter(for: remaining).report(remaining.report))
            throw ExitCode(Status.invalidInputOrUsage)
        }
        return remaining
    }

    /// The format's reporter (the option, else the run's configuration's `output` setting); for text,
    /// the style `--color` and the terminal choose, with the reported
    /// files read here (the reporter itself never touches the file system).
    func reporter(for result: Pipeline.Result) -> any Reporter {
        Self.reporter(for: result.report, format: output.format(result.configuration), color: output.color(result.configuration),
                      warningsFail: result.policy.warningsFail(result.report.findings))
    }

    /// The reporter for `format` and `color` (`flowlens merge` prints as `check` does); JUnit marks
    /// warnings as failures only when they fail the run (`warningsFail`).
    static func reporter(for report: Report, format: ReportFormat, color: ColorMode, warningsFail: Bool) -> any Reporter {
        if format == .junit { return JUnitReporter(warningsFail: warningsFail) }
        guard format == .text else { return format.reporter(rules: RuleRegistry.descriptions) }
        let style = color.textStyle(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
        guard style != .lines else { return TextReporter() }
        return TextReporter(style: style, sources: TextReporter.sources(for: report) { try? InputReading.text(atPath: $0, maximumBytes: Output.reportBytes).get() })
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write one diagram per flow, and report.json, into a folder.",
        discussion: """
            Diagrams are named after their flows (made safe as file names) and show the findings: \
            the offending step or edge is marked with its rule. Every file is written atomically. \
            The findings are printed as 'check' prints them, and the exit status is the same \
            (2 when a --trace file, or a line in one, cannot be read: the rest is drawn).

            EXAMPLES
              flowlens export samples --output output
              flowlens export Flows --output docs/flows --format png
              flowlens export Flows --output docs/flows --format png --scale 2
              flowlens export Flows --output review --format html
              flowlens export Flows --output review --format html --trace runs.jsonl
            """)

    @OptionGroup var input: InputOptions

    @Option(name: [.short, .long], help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var output: String

    @Flag(help: "Remove the diagrams in the output folder of flows that no longer exist (only files with the extension this format writes, named as FlowLens names diagrams; nothing else).")
    var clean = false

    @Option(help: ArgumentHelp("svg, dot, png or pdf: one diagram a flow; mermaid: one Mermaid diagram (.mmd) a flow; md: one Markdown page a flow (its Mermaid diagram and findings); html: one review page for the run (index.html).", valueName: "format"))
    var format: ExportFormat = .svg

    @Option(help: ArgumentHelp("For --format png: how many times larger than its natural size (96 pixels an inch) each picture is, a number above 0 and at most \(Int(Graphviz.maximumScale)), e.g. 2 for high-density screens (default: 1).", valueName: "scale"))
    var scale: Double?

    @Option(help: ArgumentHelp("How many diagrams to render at once: one in this process, the others in worker processes (default: the number of cores); 1 renders only in this process. The files are the same either way.", valueName: "n"))
    var jobs: Int?

    @Option(name: .customLong("trace"),
            help: ArgumentHelp("A file of run records (Flow-iOS run summaries, JSON-lines events or OTLP JSON traces, read as 'flowlens trace' reads them), repeatable: each diagram shows how many runs took each transition, fades what no run reached and marks where runs failed; the review page tells what really happens.", valueName: "file"))
    var traceFiles: [String] = []

    /// The runs matched to no flow listed on standard error, at most.
    static let unmatchedShown = 10

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs takes a number of worker processes, 1 or more (got \(jobs)).")
        }
        guard let scale else { return }
        guard format == .png else {
            throw ValidationError("--scale sizes PNG pictures: use it with --format png (got --format \(format.rawValue)).")
        }
        guard Graphviz.isValidScale(scale) else {
            throw ValidationError("--scale takes a number above 0 and at most \(Int(Graphviz.maximumScale)), e.g. --scale 2 (got '\(scale)').")
        }
    }

    func run() throws {
        // Reading and analysing the flows takes one core: meanwhile, Graphviz sets itself up on
        // another thread and the worker processes start, so that both are ready for the first diagram.
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        var pool: RenderWorkerPool?
        if format.drawsWithGraphviz {
            DispatchQueue.global().async { Graphviz.warmUp() }
            if workers > 1, let executable = Bundle.main.executablePath {
                pool = RenderWorkerPool(executable: executable, arguments: ["render-worker"])
                pool?.start(workers - 1)  // this process draws too
            }
        }
        var result = try input.run()
        // The records are replayed on the flows this run read, as `flowlens trace` replays them; what
        // they say (runs off the graph, failures not predicted …) counts with the static findings, so
        // that no diagram of a flow whose runs raise warnings says "no problems found".
        var replay: TraceReport?
        if !traceFiles.isEmpty {
            let replayed = FlowLens.replay(records: traceFiles, on: result.report.graph.flows, spans: result.configuration.spans)
            let conformance = FlowLens.conformance(of: replayed, staticFindings: result.findings, configuration: result.configuration)
            result.report.findings = Finding.uniqueInReportOrder(result.report.findings + conformance)
            replay = replayed
        }
        let report = result.report
        let written: [String]
        var failed = false
        var removed: [String] = []
        var exporter = Exporter(format: format, scale: scale ?? 1)
        if let pool, report.graph.flows.count > 1 {
            exporter.renderer = .thisProcessAndWorkers(pool, count: workers)
        }
        if let replay { exporter.traces = FlowLens.traceOverlays(of: replay, flows: report.graph.flows) }
        let progress = ProgressLine("rendering", total: report.graph.flows.count)
        exporter.progress = { progress.advance() }
        defer { progress.finish() }
        var failures: [WriteFailure] = []
        do {
            written = try exporter.export(report, to: output)
        } catch let failure as ExportFailure {
            // What could be written was; say what could not, after the findings.
            written = failure.written
            failures = failure.failures
        } catch {
            throw CommandFailure("cannot export to '\(output)': \(WriteFailure.cause(of: error)); give a folder --output can create or write into")
        }
        progress.finish()
        if clean {
            // A diagram that could not be rewritten keeps its old file rather than leave a hole.
            let (gone, notRemoved) = exporter.removeStaleDiagrams(in: output, keeping: written + failures.map(\.path))
            removed = gone
            failures += notRemoved
        }
        for item in failures { Output.error("flowlens: error: \(item.description)\n") }
        failed = !failures.isEmpty
        if let replay {
            // As `flowlens trace` reports them: each unreadable line at its place (exit 2), and the runs
            // matched to no flow with why (the first few: a log of other apps' flows could hold millions).
            if !replay.findings.isEmpty { Output.error(TextReporter().report(Report(graph: FlowGraph(), findings: replay.findings))) }
            for run in replay.unmatched.prefix(input.quiet ? 0 : Self.unmatchedShown) {
                Output.error("\(run.location.file):\(run.location.line): note: run matched to no flow: \(run.reason)\n")
            }
            if !input.quiet, replay.unmatched.count > Self.unmatchedShown {
                Output.error("flowlens: \(Plural.count(replay.unmatched.count - Self.unmatchedShown, "more run")) matched to no flow ('flowlens trace' lists them all)\n")
            }
            failed = failed || !replay.findings.isEmpty
        }
        try Output.write(TextReporter().report(report))
        if !input.quiet {
            Output.error(TextReporter().summary(report))
            if let replay {
                let runs = replay.traces.reduce(0) { $0 + $1.runs }
                Output.error("drew \(Plural.count(runs, "recorded run")) on \(Plural.count(replay.traces.count, "flow"))\n")
            }
            Output.error("wrote \(Plural.count(written.count, "file")) to \(output)\n")
            if clean { Output.error("removed \(Plural.count(removed.count, "stale diagram"))\n") }
        }
        throw ExitCode(failed ? Status.invalidInputOrUsage : result.status.rawValue)
    }
}

/// `flowlens render-worker`: what `export --jobs` runs in each worker process (not for people).
struct RenderWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-worker",
        abstract: "Render DOT requests from standard input to standard output (used by export --jobs).",
        shouldDisplay: false)

    func run() throws {
        throw ExitCode(RenderWorker.serve())
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules, or explain one.",
        discussion: """
            EXAMPLES
              flowlens rules
              flowlens rules missing-data-key
              flowlens rules --docs docs/rules
            """)

    @Argument(help: ArgumentHelp("A rule id to explain, with its examples.", valueName: "rule-id"))
    var rule: String?

    @OptionGroup var output: TextOrJSONOutput

    @Option(help: ArgumentHelp("Write one Markdown page per rule and an index (README.md) into this folder, generated from the rules' descriptions (how docs/rules/ is made).", valueName: "dir"))
    var docs: String?

    func run() throws {
        let descriptions = RuleRegistry.descriptions
        if let docs {
            guard rule == nil else { throw ValidationError("--docs writes every rule's page: give no rule id with it.") }
            try RuleDocs.write(RuleCatalog.documentation(descriptions), into: docs)
            return
        }
        if let rule {
            guard let description = descriptions.first(where: { $0.id == rule }) else {
                let hint = Configuration.closestRule(to: rule, in: descriptions.map(\.id)).map { " Did you mean '\($0)'?" } ?? ""
                throw ValidationError("No rule '\(rule)'.\(hint) 'flowlens rules' lists them all.")
            }
            try Output.write(output.format == .json ? RuleCatalog.json([description]) : RuleCatalog.explain(description))
        } else {
            try Output.write(output.format == .json ? RuleCatalog.json(descriptions) : RuleCatalog.table(descriptions))
        }
    }
}

/// Writes the generated rule pages (`flowlens rules --docs DIR`).
enum RuleDocs {
    /// Writes `pages` into `directory` (created if missing), and removes the pages a former run
    /// generated there that are no longer generated (a rule renamed or removed).
    static func write(_ pages: [(name: String, text: String)], into directory: String) throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create the folder '\(directory)': \(error.localizedDescription)")
        }
        let names = Set(pages.map(\.name))
        for name in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".md") && !names.contains(name) {
            let path = directory + "/" + name
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasPrefix("<!-- Generated by `flowlens rules --docs") {
                try? fm.removeItem(atPath: path)
            }
        }
        for page in pages {
            let path = directory + "/" + page.name
            guard fm.createFile(atPath: path, contents: Data(page.text.utf8)) else {
                throw CommandFailure("cannot write '\(path)'")
            }
        }
    }
}

struct DumpConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-config",
        abstract: "Print the configuration in effect for a path.",
        discussion: """
            Merges every .flowlens.yml in and above the path, outermost first, a nested file winning \
            per setting (or uses --config alone), and prints every setting in effect for the path: \
            each rule's, with the overrides that match the path applied (rules no file names at \
            their default severity), then the patterns and overrides for the files below a folder. \
            Problems in the files are printed as findings on standard error.

            EXAMPLES
              flowlens dump-config
              flowlens dump-config Sources/Flows
              flowlens dump-config --format json
            """)

    @Argument(help: ArgumentHelp("The file or folder whose configuration to print.", valueName: "path"))
    var path: String = "."

    @Option(help: ArgumentHelp("The one configuration file to use, instead of the .flowlens.yml files in and above the path.", valueName: "file"))
    var config: String?

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case yaml, json
    }

    @Option(help: ArgumentHelp("yaml (default: the file's syntax, with comments) or json (the same settings as data).", valueName: "format"))
    var format: Format = .yaml

    func run() throws {
        let (configuration, findings) = FlowLens.configuration(for: path, file: config)
        let relative = configuration.relativePath(of: path)
        let at = relative == "." ? nil : relative
        switch format {
        case .yaml:
            try Output.write(configuration.yaml(rules: RuleRegistry.descriptions, at: at))
        case .json:
            // Every rule with its effective setting for the path (overrides matching it applied); keys
            // sorted, so the bytes are the same on every run.
            let effective = configuration.effective(rules: RuleRegistry.descriptions, at: at)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try Output.write(String(decoding: try encoder.encode(effective), as: UTF8.self) + "\n")
        }
        let problems = Report(graph: FlowGraph(), findings: findings)
        Output.error(TextReporter().report(problems))
        if problems.hasInvalidInput { throw ExitCode(Status.invalidInputOrUsage) }
    }
}

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented starter .flowlens.yml into the current folder.",
        discussion: """
            The file lists every rule with its severity, the include and exclude patterns, per-path \
            overrides and output defaults, each explained. It is never overwritten without --force.
            """)

    @Flag(help: "Replace an existing .flowlens.yml.")
    var force = false

    func run() throws {
        let path = ConfigurationLoader.fileName
        if FileManager.default.fileExists(atPath: path), !force {
            throw CommandFailure("\(path) already exists; use --force to replace it")
        }
        do {
            try AtomicFile.write(Data(Configuration.starter(rules: RuleRegistry.descriptions).utf8), to: path)
        } catch {
            throw CommandFailure("cannot write '\(path)': \(WriteFailure.cause(of: error))")
        }
        Output.error("wrote \(path)\n")
    }
}

/// A failure the user can act on (a file that cannot be written): printed, exit status 2.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ReportFormat: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
