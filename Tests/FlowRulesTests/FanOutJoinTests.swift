import FlowLensTestSupport
import FlowModel
import FlowSemantics
import Testing

/// Fan-outs, joins, error ways and case conditions of FlowLens's own format, as users write them:
/// what `check` says must be what `FlowMachine` does when the flow runs.
@Suite("Fan-out and join, error ways, and cases read their keys")
struct FanOutJoinTests {
    /// The findings of `rule` as `step.key`, and the same claims from the flow's runs.
    func agree(_ yaml: String) -> (reported: [String], happens: Set<String>) {
        let graph = load(yaml)
        #expect(graph.loadFindings.isEmpty)
        let flow = graph.flows[0]
        let reported = analyze(yaml).filter { $0.rule == "missing-data-key" || $0.rule == "type-mismatch" }
            .map { "\($0.rule) \($0.step ?? "").\($0.key ?? "")" }
        let done = DeclarativeDifferentialTests.witnessed(in: flow, FlowExplorer(flow: flow, mendsFailedReads: true).explore())
        let happens = Set(done.missing.map { "missing-data-key \($0)" }).union(done.wrongType.map { "type-mismatch \($0)" })
        return (reported.sorted(), happens)
    }

    @Test("keys written on parallel branches are all set after the join that waits for them")
    func fanOutJoin() {
        let (reported, happens) = agree("""
            version: 1
            flows:
              - name: Prepare shipment
                data: {orderID: String}
                steps:
                  - {id: begin, reads: {orderID: String}, next: [quote, label, invoice]}
                  - {id: quote, name: Quote carriers, writes: {carrier: String, price: Double}, next: meet}
                  - {id: label, name: Print label, writes: {labelURL: URL}, next: meet}
                  - {id: invoice, name: Draft invoice, reads: {orderID: String}, writes: {invoiceID: String}, next: meet}
                  - {id: meet, kind: join, next: book}
                  - {id: book, reads: {carrier: String, price: Double, labelURL: URL, invoiceID: String}, next: done}
                  - {id: done, kind: end}
            """)
        #expect(reported.isEmpty)
        #expect(happens.isEmpty)
    }

    @Test("a branch reading what another branch writes may run first: the key is missing")
    func raceBetweenBranches() {
        let (reported, happens) = agree("""
            version: 1
            flows:
              - name: Sign up
                steps:
                  - {id: start, next: [profile, avatar]}
                  - {id: profile, writes: {userID: String}, next: meet}
                  - {id: avatar, reads: {userID: String}, writes: {avatarURL: URL}, next: meet}
                  - {id: meet, kind: join, next: done}
                  - {id: done, kind: end}
            """)
        #expect(reported == ["missing-data-key avatar.userID"])
        #expect(happens == ["missing-data-key avatar.userID"])
    }

    @Test("a join does not wait for a branch that may end on its own way")
    func branchThatEnds() {
        let (reported, happens) = agree("""
            version: 1
            flows:
              - name: Notify
                steps:
                  - {id: start, next: [audit, mail]}
                  - id: audit
                    next: [{to: stop, when: "auditing is off"}, {to: record, otherwise: true}]
                  - {id: record, writes: {auditID: String}, next: meet}
                  - {id: stop, kind: end}
                  - {id: mail, writes: {mailID: String}, next: meet}
                  - {id: meet, kind: join, next: report}
                  - {id: report, reads: {auditID: String, mailID: String}, next: done}
                  - {id: done, kind: end}
            """)
        #expect(reported == ["missing-data-key report.auditID"])
        #expect(happens == ["missing-data-key report.auditID"])
    }

    @Test("a value replaced on a branch the join waits for is the branch's type after it")
    func typeReplacedInBranch() {
        let (reported, happens) = agree("""
            version: 1
            flows:
              - name: Price
                data: {total: String}
                steps:
                  - {id: start, next: [compute, log]}
                  - {id: compute, reads: {total: String}, writes: {total: Double}, next: meet}
                  - {id: log, next: meet}
                  - {id: meet, kind: join, next: charge}
                  - {id: charge, reads: {total: Double}, next: done}
                  - {id: done, kind: end}
            """)
        #expect(reported.isEmpty)
        #expect(happens.isEmpty)
    }

    @Test("a step that fails has written nothing on its error way")
    func errorWayCarriesNoWrites() {
        let (reported, happens) = agree("""
            version: 1
            flows:
              - name: Pay
                steps:
                  - id: charge
                    writes: {receipt: String}
                    next: [{to: thank, kind: normal}, {to: retry, kind: error}]
                  - {id: retry, reads: {receipt: String}, next: thank}
                  - {id: thank, next: done}
                  - {id: done, kind: end}
            """)
        #expect(reported == ["missing-data-key retry.receipt"])
        #expect(happens == ["missing-data-key retry.receipt"])
    }

    @Test("a case on a key no run has set can never match, and is reported where it is written")
    func caseOnAKeyNothingSets() {
        let yaml = """
            version: 1
            flows:
              - name: Ship
                steps:
                  - id: route
                    kind: branch
                    next:
                      - {to: express, when: {key: shipping, equals: express}}
                      - {to: standard, otherwise: true}
                  - {id: express, next: done}
                  - {id: standard, writes: {shipping: String}, next: done}
                  - {id: done, kind: end}
            """
        let (reported, happens) = agree(yaml)
        #expect(reported == ["missing-data-key route.shipping"])
        #expect(happens == ["missing-data-key route.shipping"])
        let finding = analyze(yaml).first { $0.rule == "missing-data-key" }
        #expect(finding?.location?.line == 8)  // the transition that tests it
        #expect(finding?.message.contains("only 'standard' sets it") == true)
        // Set before the case: nothing to say.
        let fixed = agree(yaml.replacingOccurrences(of: "- id: route\n", with: "- id: route\n        writes: {shipping: String}\n"))
        #expect(fixed.reported.isEmpty && fixed.happens.isEmpty)
    }
}
