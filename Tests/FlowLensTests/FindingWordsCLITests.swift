import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Issue 50, defect 5: the words of `missing-data-key` as a user meets them on the command line.
@Suite("missing-data-key says what is wrong: set only later, the branches meeting", .serialized)
struct FindingWordsCLITests {
    @Test("a key written only after the step that reads it is 'set only after it', not 'not set on every path'")
    func setOnlyLater() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try """
            version: 1
            flows:
              - name: Sign in
                id: sign-in
                steps:
                  - {id: greet, reads: {displayName: String}, next: load}
                  - {id: load, name: Load profile, writes: {displayName: String}, next: done}
                  - {id: done, kind: end}
            """.write(toFile: root + "/sign-in.flow.yaml", atomically: true, encoding: .utf8)
        let result = try flowlens(["check", "sign-in.flow.yaml"], in: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("step 'greet' reads 'displayName', but it is set only after it, by 'Load profile' [missing-data-key]"), "\(result.stdout)")
        #expect(!result.stdout.contains("not set on every path"), "\(result.stdout)")
    }

    @Test("a key set on one branch only is still 'not set on every path'")
    func oneBranch() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/broken/missing-data-key.flow.yaml", toPath: root + "/delivery.flow.yaml")
        let result = try flowlens(["check", "delivery.flow.yaml"], in: root)
        #expect(result.stdout.contains("but it is not set on every path: it is missing on"), "\(result.stdout)")
        #expect(!result.stdout.contains("set only after it"), "\(result.stdout)")
    }

    @Test("a path through a join every picture draws as a dot names it as where the branches meet, not by its id")
    func joinOnThePath() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/broken/missing-data-key.flow.yaml", toPath: root + "/delivery.flow.yaml")
        let flow = try #require(FlowLens.load([root + "/delivery.flow.yaml"]).flows.first)
        let join = try #require(flow.steps.first { $0.kind == .join })
        let result = try flowlens(["export", "delivery.flow.yaml", "--output", "out", "--format", "dot"], in: root)
        #expect(result.status == 1, "\(result.stderr)")
        let finding = try #require(result.stdout.split(separator: "\n").first { $0.contains("[missing-data-key]") })
        #expect(finding.contains("→ (where the branches meet) →"), "\(finding)")
        #expect(!finding.contains("'\(join.name)'"), "\(finding)")
        // The picture draws that join as an unlabelled dot: the finding names nothing it does not show.
        let dot = try String(contentsOfFile: root + "/out/\(flow.name).dot", encoding: .utf8)
        let index = try #require(flow.steps.firstIndex { $0.kind == .join })
        let node = try #require(dot.split(separator: "\n").first { $0.hasPrefix("  s\(index) [") })
        #expect(node.contains("shape=circle") && node.contains("label=\"\""), "\(node)")
    }
}
