import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The command-line conventions of issue 18: empty inputs, default excludes, `--quiet`, "did you
/// mean" for rule ids, JUnit that agrees with the exit status, and errors that say what to do.
@Suite("Command-line conventions")
struct ConventionsCLITests {
    /// A project folder with `files` (path relative to it → text).
    func project(_ files: [String: String]) throws -> String {
        let root = try temporaryDirectory()
        for (path, text) in files {
            let full = (root as NSString).appendingPathComponent(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// A clean two-step flow.
    static func cleanFlow(_ name: String) -> String {
        """
        version: 1
        flows:
          - name: \(name)
            id: \(name.lowercased())
            data: {orderID: String}
            steps:
              - id: confirm
                reads: {orderID: String}
                next: finished
              - id: finished
                kind: end
        """
    }

    /// A flow whose second step reads a key nobody writes: one `missing-data-key` error.
    static func brokenFlow(_ name: String) -> String {
        """
        version: 1
        flows:
          - name: \(name)
            id: \(name.lowercased())
            steps:
              - id: lookUp
                next: charge
              - id: charge
                reads: {paymentToken: String}
                next: paid
              - id: paid
                kind: end
        """
    }

    /// A flow with one warning only: `receiptURL` is written and never read.
    static let warningOnlyFlow = """
        version: 1
        flows:
          - name: Refund
            id: refund
            data: {orderID: String}
            steps:
              - id: refund
                reads: {orderID: String}
                writes: {receiptURL: URL}
                next: done
              - id: done
                kind: end
        """

    // MARK: 1. No flow files found

    @Test("a folder with no flow files is an error naming it (exit 2) unless --allow-empty")
    func emptyFolderIsAnError() throws {
        let root = try project(["docs/notes.md": "# notes\n", "scripts/build.sh": "echo hi\n"])
        for folder in ["docs", "scripts"] {
            let run = try flowlens(["check", folder], in: root)
            #expect(run.status == 2, "\(folder): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("no flow files found under '\(folder)'") && lines[0].contains("--allow-empty"),
                    "\(run.stderr)")
        }
        let allowed = try flowlens(["check", "--allow-empty", "docs"], in: root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        // One empty folder among good ones still fails: the typo is in that one.
        let mixed = try project(["Flows/orders.flow.yaml": Self.cleanFlow("Orders"), "Empty/readme.txt": "x"])
        let run = try flowlens(["check", "Flows", "Empty"], in: mixed)
        #expect(run.status == 2 && run.stderr.contains("under 'Empty'"), "\(run.stderr)")
        // export follows the same rule.
        let export = try flowlens(["export", "docs", "-o", "out"], in: root)
        #expect(export.status == 2 && export.stderr.contains("no flow files found under 'docs'"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/out/report.json"))
    }

    @Test("a folder whose flow files are all excluded is empty too")
    func excludedOnlyFolderIsEmpty() throws {
        let root = try project(["Pods/FlowLib/lib.flow.yaml": Self.brokenFlow("Vendored")])
        let run = try flowlens(["check", "."], in: root)
        #expect(run.status == 2 && run.stderr.contains("no flow files found under '.'"), "\(run.stderr)")
        #expect(run.stderr.contains("excluded"))
    }

    @Test("check with no path reads the current folder, as explain does, and says so in --help")
    func checkDefaultsToCurrentFolder() throws {
        let root = try project(["Flows/checkout.flow.yaml": Self.brokenFlow("Checkout"), "Flows/orders.flow.yaml": Self.cleanFlow("Orders")])
        let implicit = try flowlens(["check"], in: root)
        let explicit = try flowlens(["check", "."], in: root)
        #expect(implicit.status == 1)
        #expect(implicit.stdout == explicit.stdout && implicit.status == explicit.status && implicit.stderr == explicit.stderr)
        #expect(implicit.stdout.contains("Flows/checkout.flow.yaml:") && implicit.stdout.contains("[missing-data-key]"))
        let help = try flowlens(["check", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("default: the current folder"), "\(help)")
        let empty = try project(["README.md": "nothing here\n"])
        let none = try flowlens(["check"], in: empty)
        #expect(none.status == 2 && none.stderr.contains("no flow files found under '.'"), "\(none.stderr)")
    }

    // MARK: 2. Default excludes

    @Test("dependency and build folders are not walked; a file named there is read; defaultExcludes: false reads them")
    func defaultExcludes() throws {
        var files = ["Sources/Flows/orders.flow.yaml": Self.cleanFlow("Orders")]
        let dependencyFolders = ["Carthage/Checkouts/FlowKitty", "Pods/Onboarding/Flows", "DerivedData/App/Build", "vendor/bundle/flows",
                                 "node_modules/flow-defs", "Packages/.build/checkouts/lib", "App/Carthage/Build"]
        for (i, folder) in dependencyFolders.enumerated() { files["\(folder)/dep\(i).flow.yaml"] = Self.brokenFlow("Dependency\(i)") }
        let root = try project(files)
        let run = try flowlens(["check", "."], in: root)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("dep"))
        // A folder merely named like one elsewhere in a path component ("vendors", "MyPods") is read.
        let nearMiss = try project(["vendors/a.flow.yaml": Self.brokenFlow("NearMiss"), "MyPods/b.flow.yaml": Self.brokenFlow("Mine")])
        let near = try flowlens(["check", "."], in: nearMiss)
        #expect(near.status == 1 && near.stdout.contains("vendors/a.flow.yaml") && near.stdout.contains("MyPods/b.flow.yaml"), "\(near.stdout)")
        // Named explicitly, a file is always read.
        let named = try flowlens(["check", "Pods/Onboarding/Flows/dep1.flow.yaml"], in: root)
        #expect(named.status == 1 && named.stdout.contains("[missing-data-key]"), "\(named.stdout)")
        // dump-config shows them, and the configuration can turn them off while keeping its own excludes.
        let dump = try flowlens(["dump-config"], in: root)
        #expect(dump.stdout.contains("\"**/Carthage/**\"") && dump.stdout.contains("\"**/node_modules/**\""), "\(dump.stdout)")
        try "version: 1\ndefaultExcludes: false\nexclude: [\"**/DerivedData/**\"]\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let all = try flowlens(["check", "."], in: root)
        #expect(all.status == 1)
        for (i, folder) in dependencyFolders.enumerated() where !folder.hasPrefix("DerivedData") && !folder.contains(".build") {
            #expect(all.stdout.contains("\(folder)/dep\(i).flow.yaml"), "\(folder): \(all.stdout)")
        }
        #expect(!all.stdout.contains("DerivedData"))
        // Keeping the defaults and adding one: both apply.
        try "version: 1\nexclude: [\"Sources/**\"]\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let added = try flowlens(["check", "--allow-empty", "."], in: root)
        #expect(added.status == 0 && added.stdout.isEmpty, "\(added.stdout)\(added.stderr)")
        // A value that is not true or false is reported at its line, not ignored.
        try "version: 1\ndefaultExcludes: sometimes\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let wrong = try flowlens(["check", "."], in: root)
        #expect(wrong.stdout.contains(".flowlens.yml:2:18: warning: 'defaultExcludes' is true or false [invalid-configuration]"), "\(wrong.stdout)")
    }

    // MARK: 3. --quiet and "did you mean"

    @Test("--quiet prints the findings and nothing else")
    func quiet() throws {
        let root = try project(["Flows/checkout.flow.yaml": Self.brokenFlow("Checkout")])
        let loud = try flowlens(["check", "Flows"], in: root)
        #expect(!loud.stderr.isEmpty)
        for flag in ["--quiet", "-q"] {
            let quiet = try flowlens(["check", flag, "Flows"], in: root)
            #expect(quiet.status == 1 && quiet.stderr.isEmpty && quiet.stdout == loud.stdout, "\(quiet.stderr)")
        }
        let export = try flowlens(["export", "--quiet", "Flows", "-o", "out", "--format", "dot"], in: root)
        #expect(export.status == 1 && export.stderr.isEmpty, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/out/Checkout.dot"))
        // Errors are never quiet.
        let failed = try flowlens(["check", "-q", "Missing"], in: root)
        #expect(failed.status == 2 && failed.stdout.contains("no such file or folder"))
    }

    @Test("an unknown rule id gets a suggestion, from 'rules' and in the configuration, shortened or misspelt")
    func ruleSuggestions() throws {
        for (typed, meant) in [("missing-key", "missing-data-key"), ("unused-key", "unused-data-key"), ("dead-ends", "dead-end"),
                               ("unreachable", "unreachable-step"), ("Type-Mismatch", "type-mismatch")] {
            let run = try flowlens(["rules", typed])
            #expect(run.status == 2 && run.stderr.contains("Did you mean '\(meant)'?"), "\(typed): \(run.stderr)")
        }
        // Ambiguous shortenings suggest nothing rather than a guess.
        let ambiguous = try flowlens(["rules", "data-key"])
        #expect(ambiguous.status == 2 && !ambiguous.stderr.contains("Did you mean"), "\(ambiguous.stderr)")
        let root = try project(["Flows/orders.flow.yaml": Self.cleanFlow("Orders"),
                                ".flowlens.yml": "version: 1\nrules:\n  missing-key: off\n  unused-key: warning\n"])
        let run = try flowlens(["check", "Flows"], in: root)
        #expect(run.stdout.contains(".flowlens.yml:3:3: warning: unknown rule id 'missing-key' in .flowlens.yml; did you mean 'missing-data-key'?"), "\(run.stdout)")
        #expect(run.stdout.contains("did you mean 'unused-data-key'?"))
    }

    // MARK: 4. JUnit follows the exit policy

    @Test("JUnit: warnings are failures only when they fail the run")
    func junitWarnings() throws {
        let root = try project(["Flows/refund.flow.yaml": Self.warningOnlyFlow, "Flows/checkout.flow.yaml": Self.brokenFlow("Checkout")])
        let passing = try flowlens(["check", "--format", "junit", "Flows/refund.flow.yaml"], in: root)
        #expect(passing.status == 0)
        #expect(!passing.stdout.contains("<failure") && passing.stdout.contains("failures=\"0\""), "\(passing.stdout)")
        #expect(passing.stdout.contains("<system-out>Flows/refund.flow.yaml:") && passing.stdout.contains("[unused-data-key]"))
        for strictness in [["--strict"], ["--max-warnings", "0"]] {
            let failing = try flowlens(["check", "--format", "junit"] + strictness + ["Flows/refund.flow.yaml"], in: root)
            #expect(failing.status == 1)
            #expect(failing.stdout.contains("<failure") && failing.stdout.contains("type=\"warning\""), "\(strictness): \(failing.stdout)")
        }
        let notTooMany = try flowlens(["check", "--format", "junit", "--max-warnings", "1", "Flows/refund.flow.yaml"], in: root)
        #expect(notTooMany.status == 0 && !notTooMany.stdout.contains("<failure"))
        // Errors fail the run and are failures; the warning beside them is not (it alone would not fail).
        let mixed = try flowlens(["check", "--format", "junit", "Flows"], in: root)
        #expect(mixed.status == 1)
        #expect(mixed.stdout.components(separatedBy: "<failure").count - 1 == 1, "\(mixed.stdout)")
        #expect(mixed.stdout.contains("type=\"error\"") && !mixed.stdout.contains("type=\"warning\""))
    }

    // MARK: 6. GitLab Code Quality

    @Test("--format gitlab writes the Code Climate JSON GitLab reads, and the configuration may choose it")
    func gitlabFormat() throws {
        let root = try project(["Flows/checkout.flow.yaml": Self.brokenFlow("Checkout"), "Flows/refund.flow.yaml": Self.warningOnlyFlow])
        let run = try flowlens(["check", "--format", "gitlab", "Flows"], in: root)
        #expect(run.status == 1 && run.stderr.isEmpty, "\(run.stderr)")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let summary = issues.map { issue -> String in
            let location = issue["location"] as? [String: Any]
            let line = (location?["lines"] as? [String: Any])?["begin"] as? Int ?? -1
            return "\(location?["path"] as? String ?? "?"):\(line) \(issue["check_name"] as? String ?? "?") \(issue["severity"] as? String ?? "?")"
        }
        #expect(summary == ["Flows/checkout.flow.yaml:9 missing-data-key major", "Flows/refund.flow.yaml:9 unused-data-key minor"], "\(summary)")
        #expect(issues.allSatisfy { ($0["fingerprint"] as? String)?.isEmpty == false && ($0["description"] as? String)?.isEmpty == false })
        // A clean run is an empty array, which GitLab reads as "no issues".
        let clean = try flowlens(["check", "--format", "gitlab", "Flows/refund.flow.yaml", "--config", "quiet.yml"],
                                 in: try project(["Flows/refund.flow.yaml": Self.warningOnlyFlow, "quiet.yml": "version: 1\nrules: {unused-data-key: off}\n"]))
        #expect(clean.status == 0 && clean.stdout == "[]\n", "\(clean.stdout)")
        try "version: 1\noutput: {format: gitlab}\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let configured = try flowlens(["check", "Flows"], in: root)
        #expect(configured.stdout == run.stdout)
    }

    // MARK: 7. export --clean

    @Test("export --clean removes the diagrams of flows that are gone, and nothing else")
    func exportClean() throws {
        let root = try project(["Flows/orders.flow.yaml": Self.cleanFlow("Orders"), "Flows/returns.flow.yaml": Self.cleanFlow("Returns"),
                                "Flows/refund.flow.yaml": Self.warningOnlyFlow])
        let first = try flowlens(["export", "Flows", "-o", "out", "--format", "dot"], in: root)
        #expect(first.status == 0, "\(first.stderr)")
        let out = root + "/out"
        let fm = FileManager.default
        // What a person keeps beside the diagrams, and names FlowLens never gives a diagram.
        for name in ["notes.txt", "README.md", "Logo.svg", "my diagram.dot", ".hidden.dot", "report.dot.bak"] {
            try "kept\n".write(toFile: out + "/" + name, atomically: true, encoding: .utf8)
        }
        try fm.createDirectory(atPath: out + "/Archive.dot", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: out + "/Linked.dot", withDestinationPath: root + "/Flows/orders.flow.yaml")
        try fm.removeItem(atPath: root + "/Flows/returns.flow.yaml")
        // Without --clean, nothing is removed.
        _ = try flowlens(["export", "Flows", "-o", "out", "--format", "dot"], in: root)
        #expect(fm.fileExists(atPath: out + "/Returns.dot"))
        let cleaned = try flowlens(["export", "--clean", "Flows", "-o", "out", "--format", "dot"], in: root)
        #expect(cleaned.status == 0 && cleaned.stderr.contains("removed 1 stale diagram\n"), "\(cleaned.stderr)")
        let left = try fm.contentsOfDirectory(atPath: out).sorted()
        #expect(left == [".hidden.dot", "Archive.dot", "Linked.dot", "Logo.svg", "Orders.dot", "README.md", "Refund.dot", "my diagram.dot",
                         "notes.txt", "report.dot.bak", "report.json"], "\(left)")
        #expect(fm.fileExists(atPath: root + "/Flows/orders.flow.yaml"), "a link's target is never touched")
        // Another format's files are not this export's: an SVG export leaves the .dot files alone, and
        // takes an .svg named as a diagram for one (the documented limit: the folder is FlowLens's).
        try fm.removeItem(atPath: root + "/Flows/refund.flow.yaml")
        let svg = try flowlens(["export", "--clean", "Flows", "-o", "out", "--format", "svg"], in: root)
        #expect(svg.status == 0 && svg.stderr.contains("removed 1 stale diagram\n"), "\(svg.stderr)")
        #expect(fm.fileExists(atPath: out + "/Refund.dot") && !fm.fileExists(atPath: out + "/Logo.svg") && fm.fileExists(atPath: out + "/Orders.svg"))
        // Mermaid: a gone flow's diagram and its parts; a renamed flow's numbered twin.
        for name in ["Refund.mmd", "Refund.part2.mmd", "Orders-2.mmd"] { try "flowchart TD\n".write(toFile: out + "/" + name, atomically: true, encoding: .utf8) }
        let mermaid = try flowlens(["export", "--clean", "-q", "Flows", "-o", "out", "--format", "mermaid"], in: root)
        #expect(mermaid.status == 0 && mermaid.stderr.isEmpty, "\(mermaid.stderr)")
        let mmd = try fm.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".mmd") }.sorted()
        #expect(mmd == ["Orders.mmd"], "\(mmd)")
    }

    // MARK: Errors say what to do

    @Test("a missing baseline, a diagram into a missing folder and export onto a file: one sentence with the path")
    func foundationErrorsAreRewritten() throws {
        let root = try project(["Flows/checkout.flow.yaml": Self.brokenFlow("Checkout"), "taken": "a file\n"])
        let baseline = try flowlens(["check", "--baseline", "nowhere/baseline.json", "Flows"], in: root)
        #expect(baseline.status == 2)
        #expect(baseline.stderr == "flowlens: error: cannot read the baseline 'nowhere/baseline.json': no such file or folder; "
            + "give an existing file, or write one with --write-baseline\n", "\(baseline.stderr)")
        let diagram = try flowlens(["explain", "Checkout", "--key", "paymentToken", "--diagram", "missing/dir/token.svg", "Flows"], in: root)
        #expect(diagram.status == 2)
        #expect(diagram.stderr == "flowlens: error: cannot write the diagram 'missing/dir/token.svg': the folder 'missing/dir' does not exist; "
            + "create it, or give a path in an existing folder\n", "\(diagram.stderr)")
        let export = try flowlens(["export", "Flows", "-o", "taken"], in: root)
        #expect(export.status == 2)
        #expect(export.stderr.contains("flowlens: error: cannot export to 'taken': it is a file, not a folder; give a folder"), "\(export.stderr)")
        for run in [baseline, diagram, export] {
            #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("The operation could not be completed"))
        }
    }
}

/// Runs `flowlens` with `input` on its standard input.
func flowlens(_ arguments: [String], in directory: String, standardInput input: String) throws -> Run {
    try run(flowlensBinary, arguments, in: directory, standardInput: Data(input.utf8))
}

@Suite("Standard input (--stdin-path, -)")
struct StandardInputCLITests {
    let conventions = ConventionsCLITests()

    @Test("the text on standard input is checked as the file named, which need not exist")
    func readsStandardInput() throws {
        let root = try conventions.project(["README.md": "x\n"])
        for arguments in [["check", "--stdin-path", "Flows/checkout.flow.yaml"], ["check", "--stdin-path", "Flows/checkout.flow.yaml", "-"],
                          ["check", "-", "--stdin-path", "Flows/checkout.flow.yaml"]] {
            let run = try flowlens(arguments, in: root, standardInput: ConventionsCLITests.brokenFlow("Checkout"))
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stdout.hasPrefix("Flows/checkout.flow.yaml:9:") && run.stdout.contains("'paymentToken'") && run.stdout.contains("[missing-data-key]"),
                    "\(arguments): \(run.stdout)")
        }
        let clean = try flowlens(["check", "-q", "--stdin-path", "orders.flow.yaml"], in: root, standardInput: ConventionsCLITests.cleanFlow("Orders"))
        #expect(clean.status == 0 && clean.stdout.isEmpty && clean.stderr.isEmpty)
        // The kind is the name's: PlantUML text given as a .puml file is read as a FlowKit machine.
        let machine = "@startuml\n[*] --> Idle\nIdle --> Busy : start\nOrphan --> Idle : reset\nBusy --> [*]\n@enduml\n"
        let puml = try flowlens(["check", "--format", "json", "--stdin-path", "Machines/Job.puml"], in: root, standardInput: machine)
        #expect(puml.stdout.contains("\"file\": \"Machines/Job.puml\""), "\(puml.stdout)")
        #expect(puml.stdout.contains("unreachable-step"), "\(puml.stdout)")
    }

    @Test("the configuration governing the path applies; with other paths, the stdin text replaces the file on disk")
    func configurationAndReplacement() throws {
        let root = try conventions.project([
            "Flows/.flowlens.yml": "version: 1\nrules: {missing-data-key: warning}\n",
            "Flows/checkout.flow.yaml": ConventionsCLITests.brokenFlow("Checkout"),
            "Flows/orders.flow.yaml": ConventionsCLITests.cleanFlow("Orders"),
        ])
        let governed = try flowlens(["check", "--stdin-path", "Flows/draft.flow.yaml"], in: root, standardInput: ConventionsCLITests.brokenFlow("Draft"))
        #expect(governed.status == 0 && governed.stdout.contains("warning:") && governed.stdout.contains("[missing-data-key]"), "\(governed.stdout)")
        // The editor's fixed buffer replaces the broken file on disk; the other file is still read.
        let fixed = try flowlens(["check", "--format", "json", "--stdin-path", "Flows/checkout.flow.yaml", "Flows"], in: root,
                                 standardInput: ConventionsCLITests.cleanFlow("Checkout"))
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        #expect((report["findings"] as? [Any])?.isEmpty == true, "\(fixed.stdout)")
        #expect((report["flows"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == ["Checkout", "Orders"], "\(fixed.stdout)")
    }

    @Test("a path FlowLens does not read, and text that is not UTF-8 are errors")
    func misuse() throws {
        let root = try conventions.project(["README.md": "x\n"])
        let kind = try flowlens(["check", "--stdin-path", "notes.txt"], in: root, standardInput: "hello")
        #expect(kind.status == 2 && kind.stderr.contains("--stdin-path 'notes.txt' is not a file FlowLens reads"), "\(kind.stderr)")
        let binary = try run(flowlensBinary, ["check", "--stdin-path", "a.flow.yaml"], in: root, standardInput: Data([0x76, 0xFF, 0xFE, 0x0A]))
        #expect(binary.status == 2 && binary.stderr.contains("standard input (read as 'a.flow.yaml') is not UTF-8 text"), "\(binary.stderr)")
    }
}
