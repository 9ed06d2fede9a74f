import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// A delivery flow whose `pack` step has transitions to `targets` (each a line `- {to: T, when: "…"}`),
/// the last one taken otherwise.
private func delivery(_ targets: [String]) -> String {
    var text = """
        version: 1
        flows:
          - name: Delivery
            steps:
              - id: pack
                next:

        """
    for (n, target) in targets.enumerated() {
        text += n == targets.count - 1 ? "          - {to: \(target), otherwise: true}\n" : "          - {to: \(target), when: \"case \(n)\"}\n"
    }
    text += """
              - {id: handOver, next: done}
              - {id: done, kind: end}

        """
    return text
}

/// Runs git in `directory`, failing the test when git fails.
private func runGit(_ arguments: [String], in directory: String) throws {
    let result = try run("/usr/bin/env", ["git", "-c", "user.name=FlowLens Tests", "-c", "user.email=tests@flowlens.invalid",
                                          "-c", "commit.gpgsign=false"] + arguments, in: directory)
    #expect(result.status == 0, "git \(arguments): \(result.stdout)\(result.stderr)")
}

@Suite("A finding's identity names the transition's target", .serialized)
struct FindingIdentityCLITests {
    @Test("the baseline across an edit: a second bad target of one step is reported, not the accepted one")
    func baselineAcrossAnEdit() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let flow = root + "/delivery.flow.yaml"
        try delivery(["shipp", "done"]).write(toFile: flow, atomically: true, encoding: .utf8)
        let write = try flowlens(["check", "delivery.flow.yaml", "--write-baseline", "baseline.json"], in: root)
        #expect(write.status == 1)
        #expect(write.stdout.contains("'shipp'"))

        // The new typo comes first in the file, before the accepted one.
        try delivery(["handOvr", "shipp", "done"]).write(toFile: flow, atomically: true, encoding: .utf8)
        let run = try flowlens(["check", "delivery.flow.yaml", "--baseline", "baseline.json"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("'handOvr'"), "\(run.stdout)")
        #expect(!run.stdout.contains("'shipp'"), "the accepted finding is reported instead of the new one:\n\(run.stdout)")
        #expect(run.stdout.contains("delivery.flow.yaml:7:"), "the annotation lands on the new transition's line:\n\(run.stdout)")
        let baseline = try String(contentsOfFile: root + "/baseline.json", encoding: .utf8)
        #expect(baseline.contains("\"target\": \"shipp\"") || baseline.contains("\"target\":\"shipp\""), "\(baseline)")
    }

    @Test("diff on git revisions: changing `to: handOver` into `to: handOvr` names the new typo, not a target that was already broken")
    func diffOnRevisions() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let flow = root + "/delivery.flow.yaml"
        try delivery(["shipp", "handOver", "done"]).write(toFile: flow, atomically: true, encoding: .utf8)
        try runGit(["init", "-q", "-b", "main"], in: root)
        try runGit(["add", "."], in: root)
        try runGit(["commit", "-q", "-m", "before"], in: root)
        try delivery(["shipp", "handOvr", "done"]).write(toFile: flow, atomically: true, encoding: .utf8)

        let diff = try flowlens(["diff", "main:delivery.flow.yaml", "delivery.flow.yaml"], in: root)
        #expect(diff.status == 1, "\(diff.stderr)")
        // handOver is unreachable now too: that is new as well. The unknown-step finding new is the typo's.
        #expect(diff.stdout.contains("[unreachable-step]"))
        let new = diff.stdout.split(separator: "\n").filter { $0.contains("new: ") && $0.contains("[unknown-step]") }
        #expect(new.count == 1, "\(diff.stdout)")
        #expect(new.first?.contains("'handOvr'") == true, "\(diff.stdout)")
        #expect(new.first?.contains("delivery.flow.yaml:8:") == true, "the new finding at the edited line:\n\(diff.stdout)")
        #expect(!diff.stdout.contains("fixed: "), "\(diff.stdout)")
    }
}
