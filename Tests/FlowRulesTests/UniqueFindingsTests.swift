import FlowLensTestSupport
import FlowModel
import Testing

/// `Finding.uniqueInReportOrder`: what the analyzer's deduplication gives, without hashing findings.
@Suite("unique findings in report order")
struct UniqueFindingsTests {
    /// What the analyzer did before: the first of equal findings kept in the given order, then sorted.
    private func hashed(_ findings: [Finding]) -> [Finding] {
        var seen = Set<Finding>()
        return findings.filter { seen.insert($0).inserted }.sorted(by: Finding.reportOrder)
    }

    @Test("the same findings in the same order as deduplicating with a set, then sorting, on 2,000 generated lists")
    func sameAsHashing() {
        var random = SplitMix64(seed: 17)
        // Few distinct values, so that lists hold duplicates, and findings that report order cannot
        // tell apart but that differ (severity, related locations), next to and far from each other.
        let files = ["a.flow.yaml", "b.flow.yaml", "Café.swift", "Cafe\u{301}.swift"]
        for _ in 0..<2_000 {
            let count = random.below(40)
            let findings = (0..<count).map { _ -> Finding in
                let location = random.chance(0.2) ? nil : SourceLocation(file: files[random.below(files.count)], line: 1 + random.below(3), column: 1 + random.below(2))
                return Finding(rule: ["missing-data-key", "unreachable-step"][random.below(2)],
                               severity: [Severity.error, .warning][random.below(2)],
                               message: ["m", "n"][random.below(2)], location: location,
                               flow: random.chance(0.3) ? nil : ["F", "G"][random.below(2)],
                               step: random.chance(0.5) ? nil : "s\(random.below(2))",
                               key: random.chance(0.5) ? nil : "k",
                               related: random.chance(0.2) ? [RelatedLocation(message: "here", location: SourceLocation(file: "a.flow.yaml", line: 2))] : [])
            }
            let unique = Finding.uniqueInReportOrder(findings)
            #expect(unique == hashed(findings))
            #expect(Set(unique).count == unique.count)
        }
    }

    @Test("a long run of findings that report order cannot tell apart, with repeats far apart")
    func longRun() {
        var random = SplitMix64(seed: 5)
        // 3,000 findings on one place that differ only in their paths, 300 distinct ones.
        let findings = (0..<3_000).map { _ in
            Finding(rule: "missing-data-key", severity: .error, message: "m", location: SourceLocation(file: "f", line: 1),
                    flow: "F", step: "s", key: "k", path: ["s\(random.below(300))"])
        }
        let unique = Finding.uniqueInReportOrder(findings)
        #expect(unique == hashed(findings))
        #expect(unique.count == Set(findings).count)
    }

    @Test("canonically equal texts are one finding, as a set has them")
    func canonicalEquivalence() {
        let precomposed = Finding(rule: "r", severity: .error, message: "caf\u{E9}", location: SourceLocation(file: "f", line: 1))
        let decomposed = Finding(rule: "r", severity: .error, message: "cafe\u{301}", location: SourceLocation(file: "f", line: 1))
        let other = Finding(rule: "r", severity: .warning, message: "caf\u{E9}", location: SourceLocation(file: "f", line: 1))
        #expect(Finding.uniqueInReportOrder([precomposed, other, decomposed]) == [precomposed, other])
    }
}
