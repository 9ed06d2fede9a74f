import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// One pipeline for every entry point: configuration findings go through suppressions and configured
/// severities like every other finding, `analyze` honours `.flowlens.yml` as `check` does, one exit
/// policy, and the analyses travel with the report.
@Suite("the pipeline", .serialized)
struct PipelineTests {
    /// A small app: a flow with an unread key (`unused-data-key`) and a flow reading a key no step
    /// sets (`missing-data-key`), with `configuration` as its `.flowlens.yml`.
    func app(_ configuration: String) throws -> String {
        let root = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/Flows/Onboarding", withIntermediateDirectories: true)
        try """
            version: 1
            flows:
              - name: Invite friend
                id: inviteFriend
                steps:
                  - id: pickContact
                    writes: {contactID: String, invitedAt: Date}
                    next: sendInvite
                  - id: sendInvite
                    reads: {contactID: String}
                    next: done
                  - id: done
                    kind: end
            """.write(toFile: root + "/Flows/invite.flow.yaml", atomically: true, encoding: .utf8)
        try """
            version: 1
            flows:
              - name: Welcome tour
                id: welcomeTour
                steps:
                  - id: greet
                    next: showTips
                  - id: showTips
                    reads: {locale: String}
                    next: finished
                  - id: finished
                    kind: end
            """.write(toFile: root + "/Flows/Onboarding/tour.flow.yaml", atomically: true, encoding: .utf8)
        try configuration.write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        return root
    }

    func rules(_ report: Report) -> [String] { report.findings.map { "\($0.rule) \($0.severity.rawValue)" } }

    @Test("invalid-configuration: off reaches the configuration's own findings")
    func configurationFindingsOff() throws {
        let root = try app("""
            version: 1
            rules:
              invalid-configuration: off
              unused-data-key: off
            output: {colour: never}
            includes: ["Flows/**"]
            """)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(rules(FlowLens.check(["Flows"], workingDirectory: root)) == ["missing-data-key error"])
        let run = try flowlens(["check", "--format", "text", "Flows"], in: root)
        #expect(!run.stdout.contains("invalid-configuration"), "\(run.stdout)")
        #expect(run.status == 1)
    }

    @Test("a configured severity applies to the configuration's own findings, and to the exit status")
    func configurationFindingsSeverity() throws {
        let root = try app("""
            version: 1
            rules:
              invalid-configuration: error
              missing-data-key: warning
              unused-data-kee: off
            """)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = FlowLens.check(["Flows"], workingDirectory: root)
        #expect(rules(report) == ["invalid-configuration error", "missing-data-key warning", "unused-data-key warning"])
        // The only error is the configuration's: it fails the run.
        let run = try flowlens(["check", "--format", "text", "Flows"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix(".flowlens.yml:5:3: error: unknown rule id 'unused-data-kee'"), "\(run.stdout)")
        // As a note it fails nothing, even with --strict.
        try "version: 1\nrules: {invalid-configuration: note, missing-data-key: off, unused-data-key: off, dead-ends: off}\n"
            .write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let strict = try flowlens(["check", "--strict", "--format", "text", "Flows"], in: root)
        #expect(strict.status == 0 && strict.stdout.contains(": note: unknown rule id 'dead-ends'"), "\(strict.stdout)")
    }

    @Test("a # flowlens: comment in .flowlens.yml suppresses its findings, as in any YAML file")
    func configurationFindingsSuppressed() throws {
        let root = try app("""
            version: 1
            rules:
              # flowlens:disable-next-line invalid-configuration -- kept for FlowLens 2, which knows the rule
              retry-budget: warning
              unused-data-key: off
            output:
              # flowlens:disable-next-line invalid-configuration
              colour: never
            """)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = FlowLens.check(["Flows"], workingDirectory: root)
        // Both suppressed; the one without a reason says so, at its own line.
        #expect(report.findings.map { "\($0.location.map { "\($0.file):\($0.line)" } ?? "-") \($0.rule)" } == [
            ".flowlens.yml:7 suppression-without-reason",
            "Flows/Onboarding/tour.flow.yaml:9 missing-data-key",
        ], "\(report.findings)")
        // A suppression there that hides nothing is reported, as in a flow file.
        try """
            version: 1
            rules:
              unused-data-key: off
              # flowlens:disable-next-line invalid-configuration -- the key below was renamed
              missing-data-key: warning
            """.write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let unused = FlowLens.check(["Flows"], workingDirectory: root)
        #expect(unused.findings.map(\.rule) == ["unused-suppression", "missing-data-key"], "\(unused.findings)")
        #expect(unused.findings.first?.location?.line == 4)
    }

    @Test("FlowLens.analyze honours .flowlens.yml as FlowLens.check does")
    func analyzeIsCheck() throws {
        let root = try app("version: 1\nrules: {unused-data-key: off, missing-data-key: note, dead-ends: off}\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let checked = FlowLens.check(["Flows"], workingDirectory: root)
        let graph = SourceLoader().load(paths: ["Flows"], workingDirectory: root)
        let analyzed = FlowLens.analyze(graph, workingDirectory: root)
        #expect(rules(analyzed) == ["invalid-configuration warning", "missing-data-key note"])
        #expect(analyzed.findings == checked.findings)
        // A reflected flow has no file: the working directory's configuration governs it.
        var flow = graph.flows.first { $0.id == "welcomeTour" }!
        flow.location = nil
        for i in flow.steps.indices { flow.steps[i].location = nil }
        let reflected = FlowLens.analyze(FlowGraph(flows: [flow]), workingDirectory: root)
        #expect(rules(reflected) == ["invalid-configuration warning", "missing-data-key note"])
        // With no configuration file, the rules' own severities.
        let elsewhere = FlowLens.analyze(FlowGraph(flows: [flow]), workingDirectory: try temporaryDirectory())
        #expect(rules(elsewhere) == ["missing-data-key error"])
    }

    @Test("the report carries the analyses it was made from; the review page reads them")
    func analysesTravel() throws {
        let root = try app("version: 1\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = FlowLens.check(["Flows"], workingDirectory: root)
        #expect(report.analyses.keys.sorted() == report.graph.flows.map(\.id).sorted())
        for flow in report.graph.flows { #expect(report.analysis(of: flow) === report.analyses[flow.id]) }
        // The same page from the carried analyses as from analyses made again.
        var bare = report
        bare.analyses = [:]
        let diagrams = report.graph.flows.map { _ in ReviewPage.RenderedDiagram(svg: nil, marks: [:], error: "not rendered") }
        #expect(ReviewPage().html(report, diagrams: diagrams) == ReviewPage().html(bare, diagrams: diagrams))
        let explained = try KeyExplanation(flow: "Welcome tour", key: "locale", in: report)
        #expect(explained.text == (try KeyExplanation(flow: "Welcome tour", key: "locale", in: report.graph)).text)
        #expect(!explained.provenance.isAlwaysSetBeforeRead)
    }

    @Test("the baseline stage leaves out what it accepts; the exit policy decides from what remains")
    func baselineAndPolicy() throws {
        let root = try app("version: 1\nrules: {missing-data-key: warning}\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        var pipeline = Pipeline(workingDirectory: root)
        let full = pipeline.run(["Flows"])
        #expect(full.status == .clean)
        pipeline.strict = true
        #expect(pipeline.run(["Flows"]).status == .findings)
        pipeline.baseline = Baseline(accepting: full.findings.filter { $0.rule == "missing-data-key" })
        let rest = pipeline.run(["Flows"])
        #expect(rest.report.findings.map(\.rule) == ["unused-data-key"])
        #expect(rest.findings.count == full.findings.count)
        #expect(rest.status == .findings)
        pipeline.baseline = Baseline(accepting: full.findings)
        #expect(pipeline.run(["Flows"]).status == .clean)
    }

    @Test("one exit policy: errors, --strict, --max-warnings, invalid input")
    func exitPolicy() {
        func finding(_ severity: Severity, _ rule: String = "dead-end") -> Finding {
            Finding(rule: rule, severity: severity, message: "m", location: SourceLocation(file: "a.flow.yaml", line: 1, column: 1))
        }
        let warnings = [finding(.warning), finding(.warning), finding(.note)]
        #expect(!ExitPolicy().fails(warnings))
        #expect(ExitPolicy(strict: true).failures(in: warnings).count == 2)
        #expect(!ExitPolicy(maxWarnings: 2).fails(warnings))
        #expect(ExitPolicy(maxWarnings: 1).fails(warnings))
        #expect(ExitPolicy().failures(in: warnings + [finding(.error)]).map(\.severity) == [.error])
        #expect(ExitPolicy().status(of: Report(graph: FlowGraph(), findings: [finding(.warning, "invalid-input")])) == .invalidInputOrUsage)
        // A note never fails a run, an invalid-input note (a broken file that names no flow library) neither.
        #expect(ExitPolicy().status(of: Report(graph: FlowGraph(), findings: [finding(.note, "invalid-input")])) == .clean)
        var configuration = Configuration(baseDirectory: "/")
        configuration.strict = true
        configuration.maxWarnings = 5
        #expect(ExitPolicy(strict: nil, maxWarnings: nil, configuration: configuration) == ExitPolicy(strict: true, maxWarnings: 5))
        #expect(ExitPolicy(strict: false, maxWarnings: 0, configuration: configuration) == ExitPolicy(strict: false, maxWarnings: 0))
    }

    @Test("Exporter.render refuses a format that is not one diagram a flow, without a crash")
    func renderFormats() throws {
        for format in ExportFormat.allCases where !ExportFormat.diagramFormats.contains(format) {
            #expect(throws: NotADiagramFormat.self) { try Exporter.render("digraph { a -> b }", format: format) }
        }
        #expect(try Exporter.render("digraph { a -> b }", format: .dot) == Data("digraph { a -> b }".utf8))
    }
}

@Suite("check's progress line")
struct CheckProgressTests {
    @Test("the load stage tells the progress line how many files there are, then advances once per file of every kind")
    func loadsAdvanceOnce() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try """
            version: 1
            flows:
              - name: Reorder
                steps:
                  - {id: pick, next: pay}
                  - {id: pay, next: done}
                  - {id: done, kind: end}
            """.write(toFile: root + "/reorder.flow.yaml", atomically: true, encoding: .utf8)
        try "@startuml\n[*] --> Idle\nIdle --> [*]\n@enduml\n".write(toFile: root + "/Door.puml", atomically: true, encoding: .utf8)
        // One Swift file that uses Flow-iOS (parsed) and one that cannot define or use a flow (passed over).
        try """
            import Flow
            final class FetchOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            func start() { Flow().add(operation: FetchOp()).start() }
            """.write(toFile: root + "/Start.swift", atomically: true, encoding: .utf8)
        try "struct Money { var cents: Int }\n".write(toFile: root + "/Money.swift", atomically: true, encoding: .utf8)
        try "class Task\n  def run; end\nend\n".write(toFile: root + "/task.rb", atomically: true, encoding: .utf8)
        var pipeline = Pipeline(workingDirectory: root)
        let progress = ProgressLine("loading", total: 0, enabled: false)
        pipeline.progress = progress
        let result = pipeline.run(["."])
        #expect(result.report.graph.files.count == 5)
        #expect(progress.counts == (done: 5, total: 5))
    }

    @Test("quiet runs and pipes draw nothing: the line is only for a terminal")
    func notOnAPipe() throws {
        let run = try flowlens(["check", "samples/declarative/checkout.flow.yaml"])
        #expect(!run.stderr.contains("loading"))
        #expect(!run.stderr.contains("\u{1B}[K"))
    }
}
