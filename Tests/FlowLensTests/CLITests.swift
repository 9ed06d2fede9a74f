import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The `flowlens` executable built beside the test bundle (the test target depends on it).
let flowlensBinary: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flowlens").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return packageRoot + "/.build/debug/flowlens"
}()

/// Runs `flowlens` with `arguments` in `directory` (default: the package root).
func flowlens(_ arguments: [String], in directory: String = packageRoot) throws -> Run {
    try run(flowlensBinary, arguments, in: directory)
}

func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "flowlens-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The planted defects of samples/: file, line, rule (see the README.md of samples/ and of each sample folder).
let plantedDefects: Set<String> = [
    "samples/flowkit/LoginFlow.puml:15 missing-handler",
    "samples/flowkit/LoginFlow.puml:38 unimplemented-transition",
    "samples/flowkit/LoginFlowController.swift:54 type-mismatch",
    "samples/flowkit/LoginFlowController.swift:64 unknown-step",
    "samples/flowkit/broken/CrossingTransition.puml:11 crossing-transition",
    "samples/flowkit/broken/DeadEnd.puml:14 dead-end",
    "samples/flowkit/broken/DeadEnd.puml:17 dead-end",
    "samples/flowkit/broken/MissingEnduml.puml:3 invalid-input",
    "samples/flowkit/broken/ReservedName.puml:8 reserved-name",
    "samples/flowkit/broken/TrapState.puml:19 dead-end",
    "samples/flowkit/broken/UnreachableStep.puml:7 unreachable-step",
    "samples/flowkit/broken/UnreachableStep.puml:12 unreachable-step",
    "samples/flowkit/broken/UnsupportedChoice.puml:7 invalid-input",
    "samples/flowkit/broken/UnsupportedFork.puml:6 invalid-input",
    "samples/flowkit/broken/UnsupportedInclude.puml:5 invalid-input",
    "samples/flowkit/broken/UnsupportedProcedure.puml:4 invalid-input",
    "samples/declarative/broken/dead-end-loop.flow.yaml:19 dead-end",
    "samples/declarative/broken/dead-end.flow.yaml:25 dead-end",
    "samples/declarative/broken/duplicate-step.flow.yaml:20 duplicate-step",
    "samples/declarative/broken/group-type-mismatch.flow.yaml:17 type-mismatch",
    "samples/declarative/broken/invalid-input.flow.yaml:13 invalid-input",
    "samples/declarative/broken/invalid-version.flow.json:3 invalid-input",
    "samples/declarative/broken/missing-data-key.flow.yaml:33 missing-data-key",
    "samples/declarative/broken/stuck-step.flow.yaml:15 stuck-step",
    "samples/declarative/broken/type-mismatch.flow.yaml:32 type-mismatch",
    "samples/declarative/broken/unknown-step.flow.yaml:16 unknown-step",
    "samples/declarative/broken/unreachable-step.flow.yaml:20 unreachable-step",
    "samples/declarative/broken/unused-data-key.flow.yaml:16 unused-data-key",
    "samples/elevate/app/controllers/broken/feed_controller.rb:19 ui-access-in-task",
    "samples/elevate/app/controllers/broken/profile_controller.rb:21 missing-data-key",
    "samples/flow-ios/PhotoShare/Controllers/BrokenFlowsViewController.swift:47 unmatched-case",
    "samples/flow-ios/PhotoShare/Controllers/BrokenFlowsViewController.swift:96 unmatched-case",
    "samples/flow-ios/PhotoShare/Controllers/BrokenFlowsViewController.swift:109 unmatched-case",
    "samples/flow-ios/PhotoShare/Controllers/BrokenFlowsViewController.swift:112 nested-case",
    "samples/flow-ios/PhotoShare/Controllers/BrokenFlowsViewController.swift:123 unknown-operation",
    "samples/flow-ios/PhotoShare/Operations/ImageOperations.swift:15 type-mismatch",
    "samples/flow-ios/PhotoShare/Operations/ImageOperations.swift:37 missing-data-key",
    "samples/flow-ios/PhotoShare/Operations/LoginOperations.swift:23 missing-data-key",
    "samples/flow-ios/PhotoShare/Operations/LoginOperations.swift:24 type-mismatch",
    "samples/flow-ios/PhotoShare/Operations/LoginOperations.swift:51 unused-data-key",
    "samples/flow-ios/PhotoShare/Operations/SharingOperations.swift:37 missing-data-key",
    "samples/flowstate/ProfileApp/Coordinators/AccountSettingsFlows.swift:48 unreachable-step",
    "samples/flowstate/ProfileApp/Coordinators/AccountSettingsFlows.swift:73 unknown-step",
    "samples/flowstate/ProfileApp/Coordinators/AccountSettingsFlows.swift:99 type-mismatch",
    "samples/flowstate/ProfileApp/Coordinators/AccountSettingsFlows.swift:127 content-never-set",
    "samples/syrup/FileAccessProgression.swift:21 unanalyzable-flow",
    "samples/syrup/broken/BusyRetryBackupProgression.swift:12 unreachable-step",
    "samples/syrup/broken/BusyRetryBackupProgression.swift:26 busy-retry",
    "samples/syrup/broken/DeadEndCheckoutProgression.swift:11 dead-end",
    "samples/syrup/broken/StuckUploadProgression.swift:10 stuck-step",
    "samples/syrup/broken/UnreachableFaxProgression.swift:13 unreachable-step",
]

@Suite("flowlens check", .serialized)
struct CheckCommandTests {
    @Test("samples: every planted defect at its line, nothing else, and exit 2 for the unreadable files")
    func samples() throws {
        let run = try flowlens(["check", "samples"])
        #expect(run.status == 2)
        let found = run.stdout.split(separator: "\n").map { line -> String in
            let parts = line.split(separator: ":")
            let rule = line.split(separator: "[").last.map { String($0.dropLast()) } ?? ""
            return "\(parts[0]):\(parts[1]) \(rule)"
        }
        #expect(Set(found) == plantedDefects)
        #expect(found.count == plantedDefects.count)
        #expect(run.stderr == "39 errors, 10 warnings, 2 notes in 66 flows (67 files)\n")
    }

    @Test("lines have the documented shape file:line:col: severity: message [rule-id]")
    func lineFormat() throws {
        let run = try flowlens(["check", "samples/declarative/broken/missing-data-key.flow.yaml"])
        #expect(run.status == 1)
        let pattern = #/^samples/declarative/broken/missing-data-key\.flow\.yaml:33:11: error: .+ \[missing-data-key\]$/#
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(try pattern.wholeMatch(in: String(run.stdout.dropLast())) != nil)
    }

    @Test("clean samples: no findings, exit 0")
    func clean() throws {
        let files = ["checkout.flow.yaml", "sign-up.flow.yaml", "image-upload.flow.json", "onboarding.flow.yml"]
        let run = try flowlens(["check"] + files.map { "samples/declarative/" + $0 })
        #expect(run.stdout.isEmpty)
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("0 errors, 0 warnings"))
    }

    @Test("warnings pass, unless --strict")
    func strict() throws {
        let file = "samples/declarative/broken/unused-data-key.flow.yaml"
        #expect(try flowlens(["check", file]).status == 0)
        #expect(try flowlens(["check", "--strict", file]).status == 1)
    }

    @Test("--max-warnings N fails the run only above N warnings; a negative N is a usage error")
    func maxWarnings() throws {
        let file = "samples/declarative/broken/unused-data-key.flow.yaml"  // one warning, no error
        #expect(try flowlens(["check", "--max-warnings", "1", file]).status == 0)
        #expect(try flowlens(["check", "--max-warnings", "0", file]).status == 1)
        let negative = try flowlens(["check", "--max-warnings=-1", file])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--max-warnings takes a number of warnings"))
    }

    @Test("a bad file is reported and the good ones are still analysed")
    func badAndGood() throws {
        let run = try flowlens(["check", "samples/declarative/broken/invalid-input.flow.yaml",
                                "samples/declarative/broken/dead-end.flow.yaml"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("[invalid-input]"))
        #expect(run.stdout.contains("[dead-end]"))
    }

    @Test("paths that do not exist, and files FlowLens does not read, are invalid input")
    func missingPath() throws {
        let run = try flowlens(["check", "no/such/dir", "README.md"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("no/such/dir: error: no such file or folder [invalid-input]"))
        #expect(run.stdout.contains("README.md: error: not a file FlowLens reads"))
    }

    @Test("JSON report: the documented shape, relative paths, and the same bytes every run")
    func json() throws {
        let first = try flowlens(["check", "--format", "json", "samples"])
        let second = try flowlens(["check", "--format", "json", "samples"])
        #expect(first.status == 2)
        #expect(first.stdout == second.stdout)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 1)
        let summary = try #require(root["summary"] as? [String: Int])
        #expect(summary == ["files": 67, "flows": 66, "steps": summary["steps"]!, "errors": 39, "warnings": 10, "notes": 2])
        let findings = try #require(root["findings"] as? [[String: Any]])
        for finding in findings {
            let file = try #require((finding["location"] as? [String: Any])?["file"] as? String)
            #expect(file.hasPrefix("samples/"))
        }
        #expect(first.stderr.isEmpty)
    }

    @Test("paths outside the working directory stay as given; inside they are relative")
    func displayPaths() throws {
        let run = try flowlens(["check", packageRoot + "/samples/declarative/broken/dead-end.flow.yaml"], in: packageRoot + "/samples")
        #expect(run.stdout.hasPrefix("declarative/broken/dead-end.flow.yaml:25:9:"))
    }
}

@Suite("flowlens usage", .serialized)
struct UsageTests {
    @Test("--help documents every subcommand and the exit codes")
    func help() throws {
        let run = try flowlens(["--help"])
        #expect(run.status == 0)
        for word in ["check", "export", "rules", "EXIT STATUS", "0  no error findings", "2  invalid input"] {
            #expect(run.stdout.contains(word), "\(word)")
        }
        let check = try flowlens(["check", "--help"])
        for word in ["--format", "--strict", "EXAMPLES"] { #expect(check.stdout.contains(word), "\(word)") }
        let export = try flowlens(["export", "--help"])
        for word in ["--output", "svg, dot, png", "html", "EXAMPLES"] { #expect(export.stdout.contains(word), "\(word)") }
        // Every format export accepts is described, not only listed.
        let flat = export.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("mermaid: one Mermaid diagram (.mmd) a flow") && flat.contains("md: one Markdown page a flow"), "\(export.stdout)")
    }

    @Test("usage errors exit 2 with a message")
    func usageErrors() throws {
        for arguments in [["check", "--format", "xml", "samples"], ["export", "samples"], ["frobnicate"], ["rules", "no-such-rule"]] {
            let run = try flowlens(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("Error") || run.stderr.contains("error"), "\(arguments): \(run.stderr)")
        }
        #expect(try flowlens(["rules", "missing-data-kye"]).stderr.contains("Did you mean 'missing-data-key'?"))
    }

    @Test("--version prints the version")
    func version() throws {
        #expect(try flowlens(["--version"]).stdout == FlowLensTool.version + "\n")
    }

    @Test("rules lists every rule; rules ID explains one")
    func rules() throws {
        let list = try flowlens(["rules"])
        #expect(list.status == 0)
        for rule in RuleRegistry.descriptions { #expect(list.stdout.contains(rule.id)) }
        let one = try flowlens(["rules", "type-mismatch"])
        #expect(one.stdout.hasPrefix("type-mismatch (error)"))
        let json = try flowlens(["rules", "--format", "json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(parsed.count == RuleRegistry.descriptions.count)
    }
}

@Suite("flowlens export", .serialized)
struct ExportCommandTests {
    @Test("output/ is what 'flowlens export samples --output output' writes (run scripts/setup.sh when this fails)")
    func outputIsFresh() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["export", "samples", "--output", directory])
        #expect(run.status == 2)
        let fm = FileManager.default
        // Subfolders of output/ hold the other views (review page, ...), checked by their own tests.
        func files(_ folder: String) throws -> [String] {
            try fm.contentsOfDirectory(atPath: folder).filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".") && fm.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
            }.sorted()
        }
        let expected = try files(packageRoot + "/output")
        let actual = try files(directory)
        #expect(actual == expected, "output/ has a different set of files: run scripts/setup.sh")
        for name in actual where expected.contains(name) {
            let mismatch = Picture.mismatch(fm.contents(atPath: packageRoot + "/output/" + name), fm.contents(atPath: directory + "/" + name), name: name)
            #expect(mismatch == nil, "output/\(name) is stale: run scripts/setup.sh and commit output/\n\(mismatch ?? "")")
        }
    }

    @Test("two exports give the same bytes")
    func deterministic() throws {
        let a = try temporaryDirectory(), b = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: a); try? FileManager.default.removeItem(atPath: b) }
        _ = try flowlens(["export", "samples/declarative", "-o", a])
        _ = try flowlens(["export", "samples/declarative", "-o", b])
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(names.count == 16)
        for name in names {
            #expect(FileManager.default.contents(atPath: a + "/" + name) == FileManager.default.contents(atPath: b + "/" + name), "\(name)")
        }
    }

    @Test("every SVG is well-formed and named after its flow", arguments: ["svg", "dot", "png", "pdf"])
    func formats(_ format: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["export", "samples/declarative/checkout.flow.yaml", "-o", directory, "--format", format])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["Charge-card.\(format)", "Checkout.\(format)", "report.json"])
        let data = try #require(FileManager.default.contents(atPath: directory + "/Checkout.\(format)"))
        switch format {
        case "svg": #expect(String(decoding: data, as: UTF8.self).contains("<svg"))
        case "dot": #expect(String(decoding: data, as: UTF8.self).hasPrefix("digraph flow {"))
        case "png": #expect(Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        default: #expect(String(decoding: data.prefix(5), as: UTF8.self) == "%PDF-")
        }
    }

    @Test("hostile flow names cannot write outside the output folder")
    func hostileNames() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/evil.flow.yaml"
        try """
            version: 1
            flows:
              - name: ../../etc/passwd
                steps: [{id: a, kind: end}]
              - name: "..\\\\..\\\\x"
                steps: [{id: a, kind: end}]
              - name: report
                steps: [{id: a, kind: end}]
              - name: REPORT
                steps: [{id: a, kind: end}]
            """.write(toFile: input, atomically: true, encoding: .utf8)
        let out = directory + "/out"
        let run = try flowlens(["export", input, "-o", out, "--format", "dot"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == ["REPORT-3.dot", "etc-passwd.dot", "report-2.dot", "report.json", "x.dot"])
    }

    @Test("an output path that cannot be written is an error with exit 2")
    func unwritable() throws {
        let run = try flowlens(["export", "samples/declarative/checkout.flow.yaml", "-o", "Package.swift/out"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot export to 'Package.swift/out'"))
    }
}

@Suite("samples and the JSON Schema")
struct SchemaTests {
    static let invalidOnPurpose = ["samples/declarative/broken/invalid-input.flow.yaml", "samples/declarative/broken/invalid-version.flow.json"]

    /// Every sample flow file, relative to the package root.
    static func sampleFiles() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/samples")
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            // Not in hidden folders (an example package's .build holds copies of its flows).
            if SourceKind.of(path: path) == .declarative, !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                files.append("samples/" + path)
            }
        }
        return files.sorted()
    }

    func validate(_ files: [String]) throws -> Run {
        try run("/usr/bin/env", ["python3", "scripts/validate-schema.py", "schema/flowlens-flow.schema.json"] + files)
    }

    @Test("every sample validates against schema/flowlens-flow.schema.json", .needs(.jsonSchema))
    func samplesValidate() throws {
        let files = try Self.sampleFiles().filter { !Self.invalidOnPurpose.contains($0) }
        #expect(files.count >= 13)
        let run = try validate(files)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test("the deliberately invalid samples fail validation", .needs(.jsonSchema))
    func invalidSamplesFail() throws {
        for file in Self.invalidOnPurpose { #expect(try validate([file]).status != 0, "\(file)") }
    }

    @Test("the loader and the schema agree: schema-valid samples load without invalid-input")
    func loaderAgrees() throws {
        let files = try Self.sampleFiles().filter { !Self.invalidOnPurpose.contains($0) }
        let report = FlowLens.check(files, workingDirectory: packageRoot)
        #expect(!report.hasInvalidInput, "\(report.findings.filter { $0.rule == "invalid-input" })")
    }
}

/// The README and every page of docs/ (and CONTRIBUTING.md), as one text: what must be documented
/// somewhere for users.
private func documentation() -> String {
    var files = ["README.md", "CONTRIBUTING.md"]
    if let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/docs") {
        for case let path as String in enumerator where path.hasSuffix(".md") { files.append("docs/" + path) }
    }
    return files.sorted().compactMap { try? String(contentsOfFile: packageRoot + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
}

@Suite("README and docs")
struct DocumentationTests {
    let readme = (try? String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)) ?? ""

    @Test("docs/rules/ holds exactly the pages generated from the rules' descriptions (flowlens rules --docs docs/rules)")
    func rulePages() throws {
        let pages = RuleCatalog.documentation(RuleRegistry.descriptions)
        let directory = packageRoot + "/docs/rules"
        for page in pages {
            let committed = try? String(contentsOfFile: directory + "/" + page.name, encoding: .utf8)
            #expect(committed == page.text, "docs/rules/\(page.name) is stale: run `swift run flowlens rules --docs docs/rules`")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".md") }
        #expect(files.sorted() == pages.map(\.name).sorted(), "docs/rules/ has pages of no rule: run `swift run flowlens rules --docs docs/rules`")
        #expect(pages.count == RuleRegistry.descriptions.count + 1)
    }

    @Test("flowlens rules --docs DIR writes the same pages, and removes a page it generated for a rule that is gone")
    func rulesDocsCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stale = directory + "/no-such-rule.md"
        try (RuleCatalog.page(RuleRegistry.descriptions[0]).replacingOccurrences(of: RuleRegistry.descriptions[0].id, with: "no-such-rule"))
            .write(toFile: stale, atomically: true, encoding: .utf8)
        try "my own notes\n".write(toFile: directory + "/notes.md", atomically: true, encoding: .utf8)
        let run = try flowlens(["rules", "--docs", directory])
        #expect(run.status == 0, "\(run.stderr)")
        for page in RuleCatalog.documentation(RuleRegistry.descriptions) {
            #expect(try String(contentsOfFile: directory + "/" + page.name, encoding: .utf8) == page.text)
        }
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: directory + "/notes.md"))
        #expect(try flowlens(["rules", "dead-end", "--docs", directory]).status == 2)
    }

    @Test("the README is short, and its rule list is the generated one in docs/rules")
    func readmeIsShort() {
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
        #expect(readme.contains("docs/rules/README.md"))
        #expect(!readme.contains("| `unknown-step` | error |"), "the rule table lives in docs/rules/README.md, generated")
    }

    @Test("every subcommand, format and exit status is documented")
    func commands() {
        let docs = documentation()
        let usage = (try? String(contentsOfFile: packageRoot + "/docs/usage.md", encoding: .utf8)) ?? ""
        let formats = ReportFormat.allCases.map { "--format \($0.rawValue)" }
        for format in ExportFormat.allCases {
            #expect(usage.contains("`\(format.rawValue)`") || usage.contains("`--format \(format.rawValue)`"), "export format \(format.rawValue)")
        }
        let commands = ["flowlens check", "flowlens export", "flowlens explain", "flowlens diff", "flowlens merge", "flowlens trace",
                        "flowlens rules", "flowlens dump-config", "flowlens init", "| 0 |", "| 1 |", "| 2 |"] + formats
        for text in commands { #expect(usage.contains(text), "docs/usage.md: \(text)") }
        for text in ["scripts/setup.sh", "scripts/test.sh", "scripts/test.sh --quick", "scripts/release.sh", "flowlens --version --verbose"] {
            #expect(docs.contains(text), "\(text)")
        }
        #expect(readme.contains("scripts/setup.sh"))
    }

    @Test("every relative link of the README and docs/ points to a file that exists")
    func links() throws {
        var files = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        if let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/docs") {
            for case let path as String in enumerator where path.hasSuffix(".md") { files.append("docs/" + path) }
        }
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s#]+)(#[^)\s]*)?\)"#)
        for file in files {
            let text = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
            // Links inside code blocks are code, not links.
            let prose = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            for match in link.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                let target = String(prose[Range(match.range(at: 1), in: prose)!])
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                let base = URL(fileURLWithPath: packageRoot + "/" + file).deletingLastPathComponent()
                let path = base.appendingPathComponent(target).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: path), "\(file) links to \(target), which does not exist")
            }
        }
    }

    @Test("LICENSE is the Apache License 2.0")
    func license() throws {
        let license = try String(contentsOfFile: packageRoot + "/LICENSE", encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        #expect(license.contains("Copyright 2026 The FlowLens authors"))
    }

    @Test(".ci/run runs the test command CONTRIBUTING.md names")
    func ci() throws {
        let ci = try String(contentsOfFile: packageRoot + "/.ci/run", encoding: .utf8)
        #expect(ci.contains("scripts/test.sh"))
        let contributing = try String(contentsOfFile: packageRoot + "/CONTRIBUTING.md", encoding: .utf8)
        #expect(contributing.contains("`scripts/test.sh`"))
    }
}

@Suite("flowlens baseline", .serialized)
struct BaselineCommandTests {
    @Test("--write-baseline records today's findings; --baseline then reports only new ones")
    func writeThenUse() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/baseline.json"
        let first = try flowlens(["check", "samples/declarative/broken/missing-data-key.flow.yaml", "--write-baseline", file])
        #expect(first.status == 1)  // the findings are still reported on the run that writes the baseline
        #expect(FileManager.default.fileExists(atPath: file))
        let second = try flowlens(["check", "samples/declarative/broken/missing-data-key.flow.yaml", "--baseline", file])
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)
        let other = try flowlens(["check", "samples/declarative/broken/dead-end.flow.yaml", "--baseline", file])
        #expect(other.status == 1)
        #expect(other.stdout.contains("[dead-end]"))
    }

    @Test("a missing or broken baseline is an error with exit 2")
    func broken() throws {
        let missing = try flowlens(["check", "samples/declarative/checkout.flow.yaml", "--baseline", "no/such/baseline.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("flowlens: error: cannot read the baseline 'no/such/baseline.json'"))
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "{\"version\": 3}".write(toFile: directory + "/b.json", atomically: true, encoding: .utf8)
        let wrong = try flowlens(["check", "samples/declarative/checkout.flow.yaml", "--baseline", directory + "/b.json"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("unsupported baseline version 3"))
        let unwritable = try flowlens(["check", "samples/declarative/checkout.flow.yaml", "--write-baseline", "README.md/x.json"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.contains("cannot write the baseline 'README.md/x.json'"))
    }
}

@Suite("flowlens check formats", .serialized)
struct FormatCommandTests {
    static let file = "samples/declarative/broken/missing-data-key.flow.yaml"

    @Test("every format prints a report and keeps the exit status", arguments: ReportFormat.allCases)
    func formats(_ format: ReportFormat) throws {
        let run = try flowlens(["check", "--format", format.rawValue, Self.file])
        #expect(run.status == 1, "\(format)")
        #expect(run.stdout.contains("missing-data-key"), "\(format)")
    }

    @Test("SARIF and GitHub output carry the finding's position")
    func positions() throws {
        let sarif = try flowlens(["check", "--format", "sarif", Self.file])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(root["version"] as? String == "2.1.0")
        #expect(sarif.stdout.contains("\"startLine\": 33"))
        let github = try flowlens(["check", "--format", "github", Self.file])
        #expect(github.stdout.hasPrefix("::error file=samples/declarative/broken/missing-data-key.flow.yaml,line=33,col=11,title=missing-data-key::"))
    }

    @Test("--color always shows the source line and a caret, in colour; to a pipe, auto keeps one line a finding")
    func caret() throws {
        let coloured = try flowlens(["check", "--color", "always", Self.file])
        #expect(coloured.stdout.contains("deliverySlot: DateInterval"))
        #expect(coloured.stdout.contains("^"))
        #expect(coloured.stdout.contains("\u{1B}["))
        let piped = try flowlens(["check", Self.file])
        #expect(piped.stdout.split(separator: "\n").count == 1)
        #expect(!piped.stdout.contains("\u{1B}["))
    }

    @Test("rules --format accepts only text and json")
    func rulesFormats() throws {
        #expect(try flowlens(["rules", "--format", "sarif"]).status == 2)
    }
}

@Suite("flowlens configuration", .serialized)
struct ConfigurationCommandTests {
    /// A project folder with a configuration, three flows (one in Legacy/, one in Generated/).
    func project() throws -> String {
        let root = try temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/Flows/Legacy", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/Flows/Generated", withIntermediateDirectories: true)
        for (from, to) in [("unused-data-key", "Flows/search.flow.yaml"), ("missing-data-key", "Flows/Legacy/delivery.flow.yaml"),
                           ("dead-end", "Flows/Generated/stock.flow.yaml")] {
            try fm.copyItem(atPath: packageRoot + "/samples/declarative/broken/\(from).flow.yaml", toPath: root + "/" + to)
        }
        try """
            version: 1
            rules:
              unused-data-key: off
              missing-data-kye: warning
            exclude: ["**/Generated/**"]
            overrides:
              - paths: ["Flows/Legacy/**"]
                rules: {missing-data-key: warning}
            output: {format: github}
            """.write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        return root
    }

    @Test("found by walking up: rules off, severities, excludes, per-path overrides, output defaults, unknown ids")
    func walkUp() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try flowlens(["check", "Flows", "--format", "text"], in: root)
        #expect(run.status == 0)  // the only error became a warning; the unused key is off; Generated/ is not read
        #expect(run.stdout == """
            .flowlens.yml:4:3: warning: unknown rule id 'missing-data-kye' in .flowlens.yml; did you mean 'missing-data-key'? [invalid-configuration]
            Flows/Legacy/delivery.flow.yaml:33:11: warning: step 'Show summary' reads 'deliverySlot', but it is not set on every path: it is missing on 'chooseDelivery' —[otherwise]→ 'choosePickupStore' → (where the branches meet) → 'Show summary' [missing-data-key]

            """)
        // From a folder below, the same file governs; its output format is the default.
        let below = try flowlens(["check", "."], in: root + "/Flows/Legacy")
        #expect(below.stdout.hasPrefix("::warning file="))
        // A file named explicitly is read even when excluded.
        let explicit = try flowlens(["check", "--format", "text", "Flows/Generated/stock.flow.yaml"], in: root)
        #expect(explicit.stdout.contains("[dead-end]"))
    }

    @Test("--config replaces the nearest file; dump-config prints the settings in effect")
    func explicitAndDump() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "version: 1\nrules: {dead-end: off}\n".write(toFile: root + "/other.yml", atomically: true, encoding: .utf8)
        let run = try flowlens(["check", "--config", "other.yml", "--format", "text", "Flows/Generated/stock.flow.yaml"], in: root)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let dump = try flowlens(["dump-config"], in: root)
        #expect(dump.stdout.hasPrefix("# Effective FlowLens configuration, from .flowlens.yml\nversion: 1\nrules:\n"))
        #expect(dump.stdout.contains("  unused-data-key: off\n"))
        #expect(dump.stdout.contains("  dead-end: error  # default\n"))
        #expect(dump.stdout.contains("exclude: [" + ConfigurationLoader.defaultExcludes.map { "\"\($0)\"" }.joined(separator: ", ") + ", \"**/Generated/**\"]\n"))
        #expect(dump.stderr.contains("[invalid-configuration]"))
        let defaults = try flowlens(["dump-config", NSTemporaryDirectory()])
        #expect(defaults.stdout.contains("built-in defaults"))
    }

    @Test("init writes a starter that reads back cleanly, and never overwrites without --force")
    func initCommand() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try flowlens(["init"], in: root).status == 0)
        let text = try String(contentsOfFile: root + "/.flowlens.yml", encoding: .utf8)
        for rule in RuleRegistry.descriptions { #expect(text.contains("# \(rule.id): \(rule.severity.rawValue)")) }
        let dump = try flowlens(["dump-config"], in: root)
        #expect(dump.stderr.isEmpty, "\(dump.stderr)")
        let again = try flowlens(["init"], in: root)
        #expect(again.status == 2)
        #expect(again.stderr.contains(".flowlens.yml already exists; use --force to replace it"))
        #expect(try flowlens(["init", "--force"], in: root).status == 0)
    }

    @Test("the library's FlowLens.check applies the configuration as the CLI does")
    func library() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = FlowLens.check(["Flows"], workingDirectory: root)
        #expect(report.findings.map(\.rule) == ["invalid-configuration", "missing-data-key"])
        #expect(report.findings.last?.severity == .warning)
        #expect(report.graph.files == ["Flows/Legacy/delivery.flow.yaml", "Flows/search.flow.yaml"])
    }

    @Test("a configuration that cannot be parsed is invalid input (exit 2)")
    func unparsable() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "rules: [unclosed\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/checkout.flow.yaml", toPath: root + "/checkout.flow.yaml")
        let run = try flowlens(["check", "."], in: root)
        #expect(run.status == 2)
        #expect(run.stdout.contains(".flowlens.yml:2:1: error: syntax error"))
    }
}

@Suite("flowlens dump-config --format json")
struct DumpConfigJSONTests {
    @Test("prints every rule's effective setting as data that decodes to the configuration in effect")
    func json() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            version: 1
            rules:
              dead-end: warning
              unused-data-key: off
            exclude: ["gen/**"]
            overrides:
              - paths: ["legacy/**"]
                rules: {type-mismatch: note}
            plantuml:
              defines: {PLATFORM: ios}
            output:
              strict: true
            """.write(toFile: directory + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let run = try flowlens(["dump-config", "--format", "json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let decoded = try JSONDecoder().decode(Configuration.self, from: Data(run.stdout.utf8))
        #expect(decoded.rules.count == RuleRegistry.descriptions.count)
        #expect(decoded.setting(for: "dead-end", atRelativePath: "a.flow.yaml") == .severity(.warning))
        #expect(decoded.setting(for: "unused-data-key", atRelativePath: "a.flow.yaml") == .off)
        #expect(decoded.setting(for: "type-mismatch", atRelativePath: "legacy/a.flow.yaml") == .severity(.note))
        #expect(decoded.setting(for: "missing-data-key", atRelativePath: "a.flow.yaml") == .severity(.error), "a rule the file does not name: its default")
        #expect(decoded.exclude == ConfigurationLoader.defaultExcludes + ["gen/**"] && decoded.strict == true && decoded.plantUMLDefines.map(\.1) == ["ios"])
        #expect(try flowlens(["dump-config", "--format", "json"], in: directory).stdout == run.stdout, "deterministic")
    }
}
