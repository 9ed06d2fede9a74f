import FlowLoaders
import FlowLensTestSupport
import FlowLoaders
import FlowModel
import FlowRules
import Testing

/// Reports grow with the flow, not with its paths (issue 20, "Reports that explode").
@Suite struct BoundedReportTests {
    /// A pipeline of `count` steps in a row; step i reads `reads(i)`.
    private func pipeline(_ count: Int, data: String = "{}", reads: (Int) -> String, writes: (Int) -> String = { _ in "{}" }) -> String {
        var lines = ["version: 1", "flows:", "  - name: Long pipeline", "    data: \(data)", "    steps:"]
        for i in 0..<count {
            lines.append("      - {id: s\(i), reads: \(reads(i)), writes: \(writes(i)), next: \(i + 1 < count ? "s\(i + 1)" : "done")}")
        }
        lines.append("      - {id: done, kind: end}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text a finding adds to a report, about: its message and its path.
    private func size(_ findings: [Finding]) -> Int {
        findings.reduce(0) { $0 + $1.message.utf8.count + $1.path.reduce(0) { $0 + $1.utf8.count + 4 } }
    }

    @Test func readsOfKeysNothingSetsCarryNoPath() {
        let steps = 400
        let findings = findings("missing-data-key", in: pipeline(steps) { "{field\($0): String}" })
        #expect(findings.count == steps)
        #expect(findings.allSatisfy { $0.path.isEmpty })
        // Linear: a few hundred bytes a step, where each finding carried a path as long as the flow.
        #expect(size(findings) < steps * 200)
    }

    @Test func findingsOnOneKeyAreGroupedPastTheLimit() {
        // `token` is set by the first step only on one branch, and read by every later step.
        let text = """
            version: 1
            flows:
              - name: Token everywhere
                data: {mode: String}
                steps:
                  - id: choose
                    reads: {mode: String}
                    next: [{to: login, when: {key: mode, equals: login}}, {to: s0, otherwise: true}]
                  - {id: login, writes: {token: String}, next: s0}
            \((0..<60).map { "      - {id: s\($0), reads: {token: String}, next: \($0 < 59 ? "s\($0 + 1)" : "done")}" }.joined(separator: "\n"))
                  - {id: done, kind: end}
            """
        let found = findings("missing-data-key", in: text)
        #expect(found.count == Limits.default.findingsPerKey + 1)
        let summary = found.first { $0.message.hasPrefix("40 more like the 20 above on 'token'") }
        #expect(summary != nil, "\(found.map(\.message))")
        #expect(summary?.message.contains("limits.findingsPerKey") == true)
        #expect(summary?.message.contains("'s20', 's21'") == true)
        // Each listed finding names its path briefly, however long the pipeline before it.
        #expect(found.allSatisfy { $0.message.utf8.count < 600 })
    }

    @Test func longPathsAreDescribedByTheirEnds() {
        let text = pipeline(40, data: "{mode: String}", reads: { $0 == 39 ? "{late: String}" : "{}" })
            .replacingOccurrences(of: "- {id: s0, reads: {}, writes: {}, next: s1}",
                                  with: "- {id: s0, reads: {mode: String}, next: [{to: w, when: {key: mode, equals: a}}, {to: s1, otherwise: true}]}\n      - {id: w, writes: {late: String}, next: s1}")
        let found = findings("missing-data-key", in: text)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("… 24 more steps …") == true, "\(found.first?.message ?? "")")
        // The path kept with the finding is bounded the same way: its first and last 8 of 40 steps.
        #expect(found.first?.path.count == 16)
        #expect(found.first?.path.first == "s0")
        #expect(found.first?.path.last == "s39")
    }
}
