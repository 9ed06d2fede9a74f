import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// `flowlens check --fix` and `--fix --dry-run` end to end, on copies of the samples with one
/// realistic typo planted in each (YAML, JSON, PlantUML, Swift): the fix changes exactly the
/// misspelt text, the re-check no longer reports it, and the dry run changes nothing.
@Suite("check --fix")
struct FixCLITests {
    /// A temporary folder holding a copy of each sample path (files or folders), by its last component.
    func copies(_ samples: [String]) throws -> String {
        let root = try temporaryDirectory()
        for sample in samples {
            try FileManager.default.copyItem(atPath: packageRoot + "/" + sample,
                                             toPath: root + "/" + (sample as NSString).lastPathComponent)
        }
        return root
    }

    /// Replaces the one occurrence of `correct` in `file` with `typo`, returning the file's text before.
    @discardableResult
    func plant(_ typo: String, for correct: String, in file: String, occurrence: Int = 1) throws -> String {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let parts = text.components(separatedBy: correct)
        try #require(parts.count > occurrence, "'\(correct)' occurs \(parts.count - 1) times in \(file)")
        let planted = parts[..<occurrence].joined(separator: correct) + typo + parts[occurrence...].joined(separator: correct)
        try planted.write(toFile: file, atomically: true, encoding: .utf8)
        return text
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Runs the dry run, then the fix, and checks both against the original text of each file.
    func fixAndCompare(_ root: String, originals: [String: String], typos: [String], diffLines: [String],
                       dryRunStatus: Int32 = 1, fixStatus: Int32) throws -> Run {
        let planted = try originals.keys.map { ($0, try read(root + "/" + $0)) }
        let dry = try flowlens(["check", "--fix", "--dry-run", "."], in: root)
        #expect(dry.status == dryRunStatus, "\(dry.stderr)")
        for line in diffLines { #expect(dry.stdout.contains(line + "\n"), "missing \(line) in:\n\(dry.stdout)") }
        #expect(dry.stderr.contains("no file changed"))
        for (file, text) in planted { #expect(try read(root + "/" + file) == text, "the dry run changed \(file)") }

        let fixed = try flowlens(["check", "--fix", "."], in: root)
        #expect(fixed.status == fixStatus, "\(fixed.stdout)\(fixed.stderr)")
        for (file, original) in originals { #expect(try read(root + "/" + file) == original, "\(file) is not the sample again") }
        for typo in typos { #expect(!fixed.stdout.contains("'\(typo)'"), "still reported: \(typo)\n\(fixed.stdout)") }
        return fixed
    }

    @Test("YAML: a transition target and a key of the format")
    func yaml() throws {
        let root = try copies(["samples/declarative/checkout.flow.yaml"])
        let file = root + "/checkout.flow.yaml"
        let original = try plant("next: choosePaymnet", for: "next: choosePayment", in: file)
        try plant("descripton: Checks that every item", for: "description: Checks that every item", in: file)
        let fixed = try fixAndCompare(root, originals: ["checkout.flow.yaml": original], typos: ["choosePaymnet", "descripton"],
                                      diffLines: ["--- a/checkout.flow.yaml", "+++ b/checkout.flow.yaml",
                                                  "-        next: choosePaymnet", "+        next: choosePayment",
                                                  "-        descripton: Checks that every item is still in stock and works out the final price.",
                                                  "+        description: Checks that every item is still in stock and works out the final price."],
                                      dryRunStatus: 2, fixStatus: 0)
        #expect(fixed.stderr.contains("fixed 2 findings in 1 file"))
        #expect(fixed.stdout.isEmpty)
    }

    @Test("JSON: a transition target inside its quotes")
    func json() throws {
        let root = try copies(["samples/declarative/image-upload.flow.json"])
        let original = try plant("{\"to\": \"uploadPhoto\"}", for: "{\"to\": \"uploadPhotos\"}", in: root + "/image-upload.flow.json")
        _ = try fixAndCompare(root, originals: ["image-upload.flow.json": original], typos: ["uploadPhoto"],
                              diffLines: ["-            {\"to\": \"uploadPhoto\"},", "+            {\"to\": \"uploadPhotos\"},"], fixStatus: 0)
    }

    @Test("PlantUML: a misspelt rule id in a suppression comment; the planted finding stays suppressed")
    func plantUML() throws {
        let root = try copies(["samples/flowkit/broken/UnreachableStep.puml"])
        let file = root + "/UnreachableStep.puml"
        try plant("' flowlens:disable-next-line unreachable-stpe -- ManualEntry is kept for the legacy fallback",
                  for: "' finding: unreachable-step — nothing leads to ManualEntry", in: file)
        let original = try read(file).replacingOccurrences(of: "unreachable-stpe", with: "unreachable-step")
        let fixed = try fixAndCompare(root, originals: ["UnreachableStep.puml": original], typos: [],
                                      diffLines: ["-' flowlens:disable-next-line unreachable-stpe -- ManualEntry is kept for the legacy fallback",
                                                  "+' flowlens:disable-next-line unreachable-step -- ManualEntry is kept for the legacy fallback"],
                                      fixStatus: 1)
        #expect(!fixed.stdout.contains("unused-suppression"))
        #expect(!fixed.stdout.contains("UnreachableStep.puml:7:"))        // ManualEntry's finding, now suppressed
        #expect(fixed.stdout.contains("[unreachable-step]"))              // EditAmount's is not
    }

    @Test("Swift: a Flow-iOS read's key, rewritten through swift-syntax, in a copy of PhotoShare")
    func swift() throws {
        let root = try copies(["samples/flow-ios/PhotoShare"])
        let file = root + "/PhotoShare/Operations/SharingOperations.swift"
        let original = try plant("getData(name: \"albumId\")", for: "getData(name: \"albumID\")", in: file, occurrence: 3)
        let before = try flowlens(["check", "."], in: root)
        #expect(before.stdout.contains("reads 'albumId', but no step sets it and the flow does not start with it; did you mean 'albumID'?"))
        #expect(before.stderr.contains("; 1 fixable with 'flowlens check --fix'\n"))
        let fixed = try fixAndCompare(root, originals: ["PhotoShare/Operations/SharingOperations.swift": original], typos: ["albumId"],
                                      diffLines: ["--- a/PhotoShare/Operations/SharingOperations.swift",
                                                  "-        guard let albumID: String = getData(name: \"albumId\") else { return }",
                                                  "+        guard let albumID: String = getData(name: \"albumID\") else { return }"],
                                      fixStatus: 1)
        // What the sample plants is still there: only the typo was fixed.
        #expect(fixed.stdout == (try flowlens(["check", "."], in: root)).stdout)
        #expect(fixed.stdout.contains("[missing-data-key]"))
    }

    @Test("Swift: a FlowKit handler's misspelt case, in a copy of the LoginFlow sample")
    func flowKitController() throws {
        let root = try copies(["samples/flowkit/LoginFlow.puml", "samples/flowkit/LoginFlowController.swift"])
        let original = try plant("return .authenticat(credentials)", for: "return .authenticate(credentials)", in: root + "/LoginFlowController.swift")
        let fixed = try fixAndCompare(root, originals: ["LoginFlowController.swift": original], typos: ["authenticat"],
                                      diffLines: ["-                    return .authenticat(credentials)", "+                    return .authenticate(credentials)"],
                                      fixStatus: 1)
        #expect(fixed.stderr.contains("fixed 1 finding in 1 file"))
        #expect(fixed.stdout.contains("[unknown-step]"))  // the sample's planted drift (.forgotPass) stays: it is no typo
    }

    @Test("the JSON and SARIF reports carry the located fix")
    func reports() throws {
        let root = try copies(["samples/declarative/image-upload.flow.json"])
        try plant("{\"to\": \"uploadPhoto\"}", for: "{\"to\": \"uploadPhotos\"}", in: root + "/image-upload.flow.json")
        let text = try read(root + "/image-upload.flow.json")
        let offset = try #require(text.range(of: "\"uploadPhoto\"")).lowerBound.utf16Offset(in: text) + 1

        let json = try flowlens(["check", "--format", "json", "."], in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let fix = try #require(findings.first { $0["rule"] as? String == "unknown-step" }?["fix"] as? [String: Any])
        let replacement = try #require((fix["replacements"] as? [[String: Any]])?.first)
        #expect(replacement["original"] as? String == "uploadPhoto" && replacement["replacement"] as? String == "uploadPhotos")
        #expect(replacement["offset"] as? Int == offset && replacement["length"] as? Int == 11)
        #expect(replacement["file"] as? String == "image-upload.flow.json")

        let sarif = try flowlens(["check", "--format", "sarif", "."], in: root)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let fixes = try #require(results.first { $0["ruleId"] as? String == "unknown-step" }?["fixes"] as? [[String: Any]])
        let change = try #require((fixes.first?["artifactChanges"] as? [[String: Any]])?.first)
        let region = try #require((change["replacements"] as? [[String: Any]])?.first)
        #expect((region["deletedRegion"] as? [String: Int]) == ["byteOffset": offset, "byteLength": 11])
        #expect((region["insertedContent"] as? [String: String]) == ["text": "uploadPhotos"])
    }

    @Test("usage: --dry-run needs --fix; --fix cannot rewrite standard input")
    func usage() throws {
        let root = try copies(["samples/declarative/checkout.flow.yaml"])
        let dry = try flowlens(["check", "--dry-run", "."], in: root)
        #expect(dry.status == 2 && dry.stderr.contains("--fix --dry-run"))
        let stdin = try flowlens(["check", "--fix", "--stdin-path", "checkout.flow.yaml", "-"], in: root, standardInput: "version: 1\n")
        #expect(stdin.status == 2 && stdin.stderr.contains("standard input"))
    }

    @Test("nothing to fix: no diff, files untouched, the status of the check")
    func nothingToFix() throws {
        let root = try copies(["samples/declarative/broken/missing-data-key.flow.yaml"])
        let before = try read(root + "/missing-data-key.flow.yaml")
        let dry = try flowlens(["check", "--fix", "--dry-run", "."], in: root)
        #expect(dry.status == 1 && dry.stdout.isEmpty && dry.stderr.contains("would fix 0 findings in 0 files"))
        let fixed = try flowlens(["check", "--fix", "."], in: root)
        #expect(fixed.status == 1 && fixed.stderr.contains("fixed 0 findings in 0 files"))
        #expect(try read(root + "/missing-data-key.flow.yaml") == before)
    }
}

@Suite("Fix planning")
struct FixPlannerTests {
    func finding(_ line: Int, _ original: String, _ replacement: String, offset: Int, file: String = "a.flow.yaml") -> Finding {
        var edit = FixEdit(at: SourceLocation(file: file, line: line, column: 7), original: original, replacement: replacement)
        edit.range = TextRange(line: line, column: 7, length: original.utf8.count, offset: offset)
        return Finding(rule: "unknown-step", severity: .error, message: "m", location: SourceLocation(file: file, line: line, column: 7),
                       fix: Fix(description: "d", edits: [edit]))
    }

    @Test("overlapping fixes are both left out and named; the same edit twice is made once")
    func overlaps() {
        let text = "next: finsh\nnext: strat\n"
        let plan = FixPlanner.plan([finding(1, "finsh", "finish", offset: 6), finding(1, "fin", "fun", offset: 6),
                                    finding(2, "strat", "start", offset: 18), finding(2, "strat", "start", offset: 18)]) { _ in text }
        #expect(plan.changes.map(\.after) == ["next: finsh\nnext: start\n"])
        #expect(plan.skipped.count == 2 && plan.skipped.allSatisfy { $0.contains("overlaps another fix") })
        #expect(FixPlanner.unifiedDiff(plan) == """
            --- a/a.flow.yaml
            +++ b/a.flow.yaml
            @@ -1,2 +1,2 @@
             next: finsh
            -next: strat
            +next: start

            """)
    }

    @Test("a file that changed since it was read is not touched")
    func changedFile() throws {
        let folder = try temporaryDirectory()
        let path = folder + "/a.flow.yaml"
        try "next: finsh\n".write(toFile: path, atomically: true, encoding: .utf8)
        let plan = FixPlanner.plan([finding(1, "finsh", "finish", offset: 6, file: path)]) { try? String(contentsOfFile: $0, encoding: .utf8) }
        try "next: finsh # edited meanwhile\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = FixPlanner.write(plan)
        #expect(result.written.isEmpty && result.skipped.count == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "next: finsh # edited meanwhile\n")
        // And a text that no longer holds the name at the range is not planned at all.
        let stale = FixPlanner.plan([finding(1, "finsh", "finish", offset: 6, file: path)]) { _ in "next: fetch\n" }
        #expect(stale.changes.isEmpty && stale.skipped.first?.contains("changed since it was checked") == true)
    }
}
