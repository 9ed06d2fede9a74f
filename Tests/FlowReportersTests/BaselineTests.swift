import FlowLensTestSupport
import FlowModel
import FlowReporters
import FlowRules
import Foundation
import Testing

@Suite("Baseline")
struct BaselineTests {
    static let flows = """
        version: 1
        flows:
          - name: F
            steps:
              - {id: a, writes: {x: Int}, next: b}
              - {id: b, writes: {y: Int}, next: c}
              - {id: c, reads: {token: String}, next: d}
              - {id: d, kind: end}
        """

    @Test("a baseline accepts today's findings, and survives a round trip through its file")
    func roundTrip() throws {
        let findings = analyze(Self.flows)
        let baseline = Baseline(accepting: findings)
        #expect(baseline.newFindings(in: findings).isEmpty)
        let reread = try Baseline(json: baseline.serialized())
        #expect(reread == baseline)
        #expect(reread.serialized() == baseline.serialized())
        #expect(baseline.serialized().contains("\"rule\": \"missing-data-key\""))
    }

    @Test("moving code does not resurrect a finding; a new one is reported")
    func movingCode() {
        let baseline = Baseline(accepting: analyze(Self.flows))
        let moved = "# a comment that moves every line down\n" + Self.flows
        #expect(baseline.newFindings(in: analyze(moved)).isEmpty)
        let more = Self.flows.replacingOccurrences(of: "{id: c, reads: {token: String}", with: "{id: c, reads: {token: String, secret: String}")
        #expect(baseline.newFindings(in: analyze(more)).map(\.key) == ["secret"])
    }

    @Test("counts: a third finding of a kind that had two is new")
    func counts() {
        let finding = Finding(rule: "invalid-input", severity: .error, message: "m", location: SourceLocation(file: "a.flow.yaml", line: 1))
        let baseline = Baseline(accepting: [finding, finding])
        #expect(baseline.newFindings(in: [finding, finding, finding]).count == 1)
        #expect(baseline.serialized().contains("\"count\": 2"))
    }

    @Test("files that are not baselines are clear errors", arguments: [
        ("[]", "not a FlowLens baseline"),
        ("{\"version\": 7, \"findings\": []}", "unsupported baseline version 7"),
        ("{\"version\": 1}", "no \"findings\" list"),
        ("{\"version\": 1, \"findings\": [{\"rule\": \"x\"}]}", "finding 1 of the baseline needs"),
    ])
    func errors(_ text: String, _ message: String) {
        #expect {
            try Baseline(json: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
