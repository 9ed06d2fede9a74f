import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Nested `.flowlens.yml` files (issue 18, point 3): each governs its subtree whichever folder is
/// checked, merged over the files above it (the nearer file wins per setting), and `dump-config PATH`
/// prints what is in effect for that path.
@Suite("Nested configuration files")
struct NestedConfigurationCLITests {
    let conventions = ConventionsCLITests()

    /// `file: severity` of each finding of a text report, sorted.
    func findings(_ run: Run) -> [String] {
        run.stdout.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 4).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 5 else { return nil }
            return "\(parts[0]): \(parts[3])"
        }.sorted()
    }

    /// An app with a root configuration and one for its Payments module.
    func app(root: String, payments: String) throws -> String {
        try conventions.project([
            ".flowlens.yml": root,
            "Modules/Payments/.flowlens.yml": payments,
            "Modules/Shipping/ship.flow.yaml": ConventionsCLITests.brokenFlow("Ship"),
            "Modules/Payments/pay.flow.yaml": ConventionsCLITests.brokenFlow("Pay"),
            "Modules/Payments/Drafts/draft.flow.yaml": ConventionsCLITests.brokenFlow("Draft"),
            "Modules/Payments/Legacy/old.flow.yaml": ConventionsCLITests.brokenFlow("Old"),
            "Modules/Payments/Generated/gen.flow.yaml": ConventionsCLITests.brokenFlow("Gen"),
            "Drafts/top.flow.yaml": ConventionsCLITests.brokenFlow("Top"),
        ])
    }

    static let rootSettings = """
        version: 1
        rules:
          missing-data-key: warning
        exclude: ["**/Generated/**"]
        output: {format: text}
        """

    static let paymentsSettings = """
        version: 1
        rules: {missing-data-key: error}
        exclude: [Drafts/]            # this module's drafts, not the app's
        overrides:
          - paths: ["Legacy/**"]
            rules: {missing-data-key: off}
        """

    @Test("a nested file governs its subtree whether the app, a parent folder or the module is checked")
    func subtree() throws {
        let root = try app(root: Self.rootSettings, payments: Self.paymentsSettings)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = try flowlens(["check", "."], in: root)
        #expect(whole.status == 1, "\(whole.stdout)\(whole.stderr)")
        #expect(findings(whole) == ["Drafts/top.flow.yaml: warning", "Modules/Payments/pay.flow.yaml: error",
                                    "Modules/Shipping/ship.flow.yaml: warning"], "\(whole.stdout)")
        let parent = try flowlens(["check", "Modules"], in: root)
        #expect(findings(parent) == ["Modules/Payments/pay.flow.yaml: error", "Modules/Shipping/ship.flow.yaml: warning"], "\(parent.stdout)")
        let module = try flowlens(["check", "--format", "text", "."], in: root + "/Modules/Payments")
        #expect(findings(module) == ["pay.flow.yaml: error"], "\(module.stdout)")
        // From a folder beside the module, with a path into it.
        let beside = try flowlens(["check", "--format", "text", "../Payments"], in: root + "/Modules/Shipping")
        #expect(findings(beside).count == 1 && findings(beside)[0].hasSuffix("Payments/pay.flow.yaml: error"), "\(beside.stdout)")
        // A file named explicitly is read even where excluded, under its own folder's settings (the
        // override turns its rule off).
        let named = try flowlens(["check", "Modules/Payments/Legacy/old.flow.yaml", "Modules/Payments/Drafts/draft.flow.yaml"], in: root)
        #expect(findings(named) == ["Modules/Payments/Drafts/draft.flow.yaml: error"], "\(named.stdout)")
        // --config names the one file: the nested one is not read.
        let given = try flowlens(["check", "--config", ".flowlens.yml", "."], in: root)
        #expect(findings(given).count == 5 && !findings(given).contains { $0.hasSuffix("error") }, "\(given.stdout)")
        // Standard input reported under a path in the module: the module's settings.
        let piped = try flowlens(["check", "--stdin-path", "Modules/Payments/new.flow.yaml", "-"], in: root,
                                 standardInput: ConventionsCLITests.brokenFlow("New"))
        #expect(findings(piped) == ["Modules/Payments/new.flow.yaml: error"], "\(piped.stdout)")
    }

    @Test("the nearer file wins per setting: its rules over the outer overrides, its include, defaultExcludes, output")
    func precedence() throws {
        let root = try app(root: """
            version: 1
            rules: {missing-data-key: error}
            overrides:
              - paths: ["Modules/**"]
                rules: {missing-data-key: note, dead-end: warning}
            output: {format: text, strict: true}
            """, payments: """
            version: 1
            rules: {missing-data-key: warning}
            include: ["Legacy/**", "*.flow.yaml"]
            defaultExcludes: false
            output: {strict: false}
            """)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try ConventionsCLITests.brokenFlow("Vendored").write(toFile: root + "/vendor.flow.yaml", atomically: true, encoding: .utf8)
        for (folder, _) in [("Modules/Payments/vendor/lib", 0), ("vendor/lib", 0)] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            try ConventionsCLITests.brokenFlow("Lib").write(toFile: root + "/" + folder + "/lib.flow.yaml", atomically: true, encoding: .utf8)
        }
        let run = try flowlens(["check", "."], in: root)
        #expect(findings(run) == [
            "Drafts/top.flow.yaml: error",
            "Modules/Payments/Drafts/draft.flow.yaml: warning",      // include "*.flow.yaml": a name in any folder
            "Modules/Payments/Generated/gen.flow.yaml: warning",
            "Modules/Payments/Legacy/old.flow.yaml: warning",
            "Modules/Payments/pay.flow.yaml: warning",
            "Modules/Payments/vendor/lib/lib.flow.yaml: warning",    // defaultExcludes: false in the module only
            "Modules/Shipping/ship.flow.yaml: note",                 // the outer override
            "vendor.flow.yaml: error",
        ], "\(run.stdout)")
        #expect(run.status == 1)
        // The module's include narrows what is read there.
        try "version: 1\ninclude: [\"Legacy/**\"]\n".write(toFile: root + "/Modules/Payments/.flowlens.yml", atomically: true, encoding: .utf8)
        let narrowed = try flowlens(["check", "Modules"], in: root)
        #expect(findings(narrowed) == ["Modules/Payments/Legacy/old.flow.yaml: note", "Modules/Shipping/ship.flow.yaml: note"], "\(narrowed.stdout)")
        // Output settings: the module inherits the root's strict (its warnings fail the run) until it
        // says otherwise.
        try "version: 1\nrules: {missing-data-key: warning}\n".write(toFile: root + "/Modules/Payments/.flowlens.yml", atomically: true, encoding: .utf8)
        let strict = try flowlens(["check", "Modules/Payments"], in: root)
        #expect(strict.status == 1 && findings(strict).allSatisfy { $0.hasSuffix("warning") }, "\(strict.stdout)")
        try "version: 1\nrules: {missing-data-key: warning}\noutput: {strict: false}\n".write(toFile: root + "/Modules/Payments/.flowlens.yml", atomically: true, encoding: .utf8)
        let lenient = try flowlens(["check", "Modules/Payments"], in: root)
        #expect(lenient.status == 0 && !findings(lenient).isEmpty, "\(lenient.stdout)")
    }

    @Test("a problem in a nested file is reported once, at its line, and the rest of it applies")
    func problems() throws {
        let root = try app(root: Self.rootSettings, payments: "version: 1\nrules:\n  missing-data-kee: off\n  dead-end: off\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try flowlens(["check", "Modules", "Modules/Payments", "Drafts"], in: root)
        let problems = run.stdout.split(separator: "\n").filter { $0.contains("[invalid-configuration]") }
        #expect(problems == ["Modules/Payments/.flowlens.yml:3:3: warning: unknown rule id 'missing-data-kee' in Modules/Payments/.flowlens.yml; did you mean 'missing-data-key'? [invalid-configuration]"], "\(run.stdout)")
        try "rules: [unclosed\n".write(toFile: root + "/Modules/Payments/.flowlens.yml", atomically: true, encoding: .utf8)
        let broken = try flowlens(["check", "."], in: root)
        #expect(broken.status == 2 && broken.stdout.contains("Modules/Payments/.flowlens.yml:2:1: error: syntax error"), "\(broken.stdout)")
    }

    @Test("dump-config PATH prints the merged settings for that path, its overrides applied")
    func dump() throws {
        let root = try app(root: Self.rootSettings, payments: Self.paymentsSettings)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = try flowlens(["dump-config", "Modules/Payments/Legacy/old.flow.yaml"], in: root)
        #expect(legacy.status == 0, "\(legacy.stderr)")
        #expect(legacy.stdout.hasPrefix("""
            # Effective FlowLens configuration, from .flowlens.yml, then Modules/Payments/.flowlens.yml (nested: the later file wins)
            # for Modules/Payments/Legacy/old.flow.yaml (patterns are relative to the first file's folder)
            """), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("  missing-data-key: off  # override for Modules/Payments/Legacy/**\n"), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("exclude: [" + ConfigurationLoader.defaultExcludes.map { "\"\($0)\"" }.joined(separator: ", ")
            + ", \"**/Generated/**\", \"Modules/Payments/Drafts/**\"]\n"), "\(legacy.stdout)")
        let module = try flowlens(["dump-config", "Modules/Payments"], in: root)
        #expect(module.stdout.contains("  missing-data-key: error\n") && module.stdout.contains("  - paths: [\"Modules/Payments/Legacy/**\"]\n"), "\(module.stdout)")
        let shipping = try flowlens(["dump-config", "Modules/Shipping"], in: root)
        #expect(shipping.stdout.hasPrefix("# Effective FlowLens configuration, from .flowlens.yml\n") && shipping.stdout.contains("  missing-data-key: warning\n"), "\(shipping.stdout)")
        // JSON: the same, as data.
        let json = try flowlens(["dump-config", "--format", "json", "Modules/Payments/Legacy"], in: root)
        let decoded = try JSONDecoder().decode(Configuration.self, from: Data(json.stdout.utf8))
        #expect(decoded.rules.first { $0.0 == "missing-data-key" }?.1 == .off, "\(json.stdout)")
        let decodedModule = try JSONDecoder().decode(Configuration.self, from: Data(try flowlens(["dump-config", "--format", "json", "Modules/Payments"], in: root).stdout.utf8))
        #expect(decodedModule.setting(for: "missing-data-key", atRelativePath: "Modules/Payments/pay.flow.yaml") == .severity(.error))
        #expect(decodedModule.setting(for: "missing-data-key", atRelativePath: "Modules/Payments/Legacy/a.flow.yaml") == .off)
    }

    @Test("each subtree's PlantUML variables reach its files, and a cached run reuses only what the same values made")
    func definesAndCache() throws {
        let checkout = try String(contentsOfFile: packageRoot + "/samples/flowkit/Checkout.puml", encoding: .utf8)
        let root = try conventions.project([
            ".flowlens.yml": "version: 1\nplantuml: {defines: {FLOWKIT_PLATFORM: android}}\n",
            "Apps/iOS/.flowlens.yml": "version: 1\nplantuml:\n  defines:\n    FLOWKIT_PLATFORM: ios\n",
            "Apps/iOS/Checkout.puml": checkout,
            "Apps/Android/Checkout.puml": checkout,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        func payments(_ run: Run) -> Set<String> {
            Set(["ApplePay", "GooglePay"].filter { run.stdout.contains("\"\($0)\"") })
        }
        let arguments = ["check", "--format", "json", "--cache-path", "cache.json", "Apps"]
        let cold = try flowlens(arguments, in: root)
        #expect(payments(cold) == ["ApplePay", "GooglePay"], "\(cold.stdout)")
        let warm = try flowlens(arguments, in: root)
        #expect(warm.stdout == cold.stdout && warm.stderr.contains("cache: reused 2 of 2 files"), "\(warm.stderr)")
        // The nested file now says android too: the iOS file is parsed again, not taken from the cache.
        try "version: 1\nplantuml: {defines: {FLOWKIT_PLATFORM: android}}\n".write(toFile: root + "/Apps/iOS/.flowlens.yml", atomically: true, encoding: .utf8)
        let changed = try flowlens(arguments, in: root)
        #expect(payments(changed) == ["GooglePay"] && changed.stderr.contains("cache: reused 1 of 2 files"), "\(changed.stderr)")
        let uncached = try flowlens(["check", "--format", "json", "Apps"], in: root)
        #expect(changed.stdout == uncached.stdout, "the same as without a cache")
    }
}
