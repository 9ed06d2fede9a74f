import FlowLensTestSupport
import FlowModel
@testable import FlowRules
import Testing

@Suite("missing-data-key")
struct MissingDataKeyTests {
    static let branchOnly = """
        version: 1
        flows:
          - name: Sign up
            data: {mode: String}
            steps:
              - id: choose
                name: Choose mode
                reads: {mode: String}
                next:
                  - {to: guest, when: {key: mode, equals: guest}}
                  - {to: account, otherwise: true}
              - {id: guest, name: Guest name, writes: {displayName: String}, next: welcome}
              - {id: account, name: Sign in, next: welcome}
              - id: welcome
                name: Welcome
                reads: {displayName: String}
                next: done
              - {id: done, kind: end}
        """

    @Test("a key set in one branch only is missing after the join, and the message names that path")
    func namesThePath() throws {
        let found = findings("missing-data-key", in: Self.branchOnly)
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.location == SourceLocation(file: "example.flow.yaml", line: 16, column: 17))
        #expect(finding.key == "displayName")
        #expect(finding.step == "welcome")
        #expect(finding.flow == "Sign up")
        #expect(finding.path == ["choose", "account", "welcome"])
        #expect(finding.message == "step 'Welcome' reads 'displayName', but it is not set on every path: it is missing on 'Choose mode' —[otherwise]→ 'Sign in' → 'Welcome'")
    }

    @Test("a key never set anywhere says so")
    func neverSet() throws {
        let finding = try #require(findings("missing-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, reads: {token: String}, next: b}
                  - {id: b, kind: end}
            """).first)
        #expect(finding.message == "step 'a' reads 'token', but no step sets it and the flow does not start with it")
    }

    @Test("a step's own write does not satisfy its read: reads come first")
    func readBeforeWrite() {
        #expect(findings("missing-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, reads: {n: Int}, writes: {n: Int}, next: b}
                  - {id: b, kind: end}
            """).count == 1)
    }

    @Test("a write inside a loop is not available on the first pass")
    func loops() {
        let found = findings("missing-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: b}
                  - {id: b, reads: {cursor: String}, next: c}
                  - {id: c, writes: {cursor: String}, next: [{to: b, when: more}, {to: d, otherwise: true}]}
                  - {id: d, kind: end}
            """)
        #expect(found.map(\.step) == ["b"])
        #expect(found.first?.path == ["a", "b"])
    }

    @Test("optional reads never produce a finding")
    func optional() {
        #expect(findings("missing-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, reads: {coupon: String?}, next: b}
                  - {id: b, reads: [{key: promo, type: String, optional: true}], next: c}
                  - {id: c, kind: end}
            """).isEmpty)
    }

    @Test("unreachable steps are left to unreachable-step")
    func unreachableIgnored() {
        #expect(findings("missing-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: b}
                  - {id: b, kind: end}
                  - {id: x, reads: {nope: String}, next: b}
            """).isEmpty)
    }

    @Test("a sub-flow's inputs are read where it runs, and its outputs are set after it")
    func subflowInterface() {
        let yaml = """
            version: 1
            flows:
              - name: Checkout
                data: {cartID: String}
                steps:
                  - {id: pay, flow: Payment, next: confirm}
                  - {id: confirm, reads: {receipt: String, cartID: String}, next: done}
                  - {id: done, kind: end}
              - name: Payment
                data: {cartID: String, cardToken: String}
                steps:
                  - {id: charge, reads: {cartID: String, cardToken: String}, writes: {receipt: String}, next: ok}
                  - {id: ok, kind: end}
            """
        let found = findings("missing-data-key", in: yaml)
        #expect(found.count == 1)
        #expect(found.first?.key == "cardToken")
        #expect(found.first?.step == "pay")
        #expect(found.first?.message.contains("runs flow 'Payment', which needs 'cardToken'") == true)
    }

    @Test("sub-flows that run each other terminate")
    func recursiveSubflows() {
        let found = analyze("""
            version: 1
            flows:
              - name: A
                steps:
                  - {id: b, flow: B, next: done}
                  - {id: done, kind: end}
              - name: B
                steps:
                  - {id: a, flow: A, next: done}
                  - {id: done, kind: end}
            """)
        #expect(found.isEmpty)
    }

    @Test("a grouped step sees only its element key, even when the flow has the key")
    func groupScope() throws {
        let found = findings("missing-data-key", in: """
            version: 1
            flows:
              - name: Upload
                data: {photos: "[Data]", albumID: String}
                steps:
                  - id: upload
                    group: {inputKey: photos, elementKey: photo, elementOutputKey: url, outputKey: urls}
                    reads: {photo: Data, albumID: String}
                    writes: {url: URL}
                    next: done
                  - {id: done, kind: end, reads: {urls: "[URL]", albumID: String}}
            """)
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.key == "albumID")
        #expect(finding.message.contains("sees only 'photo'"))
        #expect(finding.message.contains("the flow has it"))
    }

    @Test("a group's input array must be set before it")
    func groupInput() {
        let found = findings("missing-data-key", in: """
            version: 1
            flows:
              - name: Upload
                steps:
                  - id: upload
                    group: {inputKey: photos, elementKey: photo}
                    reads: {photo: Data}
                    next: done
                  - {id: done, kind: end}
            """)
        #expect(found.map(\.key) == ["photos"])
    }
}

@Suite("type-mismatch")
struct TypeMismatchTests {
    @Test("branches writing different types are reported where the key is read, with both places")
    func branchesDisagree() throws {
        let finding = try #require(findings("type-mismatch", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - id: choose
                    next: [{to: a, when: card}, {to: b, otherwise: true}]
                  - {id: a, writes: {total: Decimal}, next: show}
                  - {id: b, writes: {total: String}, next: show}
                  - {id: show, reads: {total: Decimal}, next: done}
                  - {id: done, kind: end}
            """).first)
        #expect(finding.message == "step 'show' reads 'total' as Decimal, but it is written as String by step 'b' (line 8)")
        #expect(finding.related.map(\.location.line) == [8])
    }

    @Test("initial data types are checked too")
    func initialData() {
        let found = findings("type-mismatch", in: """
            version: 1
            flows:
              - name: F
                data: {retries: {value: "3"}}
                steps:
                  - {id: a, reads: {retries: Int}, next: b}
                  - {id: b, kind: end}
            """)
        #expect(found.first?.message.contains("as String by the flow's initial data") == true)
    }

    @Test("a later write replaces an earlier one")
    func kill() {
        #expect(findings("type-mismatch", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, writes: {n: String}, next: b}
                  - {id: b, reads: {n: String}, writes: {n: Int}, next: c}
                  - {id: c, reads: {n: Int}, next: d}
                  - {id: d, kind: end}
            """).isEmpty)
    }

    @Test("a group input that is not an array fails the group")
    func notAnArray() {
        let found = findings("type-mismatch", in: """
            version: 1
            flows:
              - name: F
                data: {photos: String}
                steps:
                  - id: g
                    group: {inputKey: photos, elementKey: photo}
                    reads: {photo: Data}
                    next: done
                  - {id: done, kind: end}
            """)
        #expect(found.contains { $0.message.contains("not an array") })
    }

    @Test("array element types are compared")
    func arrays() {
        #expect(findings("type-mismatch", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, writes: {ids: "[Int]"}, next: b}
                  - {id: b, reads: {ids: "[String]"}, next: c}
                  - {id: c, kind: end}
            """).count == 1)
    }
}

@Suite("graph rules")
struct GraphRuleTests {
    @Test("a chain into a dead end is reported once, at the dead end")
    func deadEndOnce() {
        let found = findings("dead-end", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: b}
                  - {id: b, next: c}
                  - {id: c}
            """)
        #expect(found.map(\.step) == ["c"])
    }

    @Test("a loop with no exit is reported once, naming its steps")
    func loopOnce() {
        let found = findings("dead-end", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: [{to: b, when: x}, {to: done, otherwise: true}]}
                  - {id: b, next: c}
                  - {id: c, next: d}
                  - {id: d, next: b}
                  - {id: done, kind: end}
            """)
        #expect(found.count == 1)
        #expect(found.first?.message == "steps 'b', 'c', 'd' loop forever: no end can be reached from them")
    }

    @Test("unreachable steps say when they are only reached from other unreachable steps")
    func unreachableChain() {
        let found = findings("unreachable-step", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: done}
                  - {id: done, kind: end}
                  - {id: x, next: y}
                  - {id: y, next: done}
            """)
        #expect(found.map(\.step) == ["x", "y"])
        #expect(found.last?.message.contains("only reached from 'x'") == true)
    }

    @Test("an unknown start is one unknown-step finding, not an unreachable step each")
    func unknownStart() {
        let found = analyze("""
            version: 1
            flows:
              - name: F
                start: begin
                steps:
                  - {id: a, next: done}
                  - {id: done, kind: end}
            """)
        #expect(found.map(\.rule) == ["unknown-step"])
        #expect(found.first?.location?.line == 4)
    }

    @Test("a transition to a missing step suggests the closest id and names the edge")
    func unknownTransition() throws {
        let finding = try #require(findings("unknown-step", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: finsh}
                  - {id: finish, kind: end}
            """).first)
        #expect(finding.message.hasSuffix("did you mean 'finish'?"))
        #expect(finding.edge == EdgeReference(from: "a", to: "finsh"))
        #expect(finding.location?.column == 23)
    }

    @Test("duplicates point at the first definition and are not also unreachable")
    func duplicates() throws {
        let all = analyze("""
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, next: done}
                  - {id: a, next: done}
                  - {id: done, kind: end}
            """)
        #expect(all.map(\.rule) == ["duplicate-step"])
        #expect(all.first?.related.first?.location.line == 5)
    }
}

@Suite("unused-data-key")
struct UnusedDataKeyTests {
    @Test("a read before the write does not count")
    func orderMatters() {
        let found = findings("unused-data-key", in: """
            version: 1
            flows:
              - name: F
                steps:
                  - {id: a, reads: {x: Int?}, next: b}
                  - {id: b, writes: {x: Int}, next: c}
                  - {id: c, kind: end}
            """)
        #expect(found.map(\.key) == ["x"])
    }

    @Test("a grouped step's other writes are lost")
    func groupWritesLost() {
        let found = findings("unused-data-key", in: """
            version: 1
            flows:
              - name: F
                data: {photos: "[Data]"}
                steps:
                  - id: g
                    group: {inputKey: photos, elementKey: photo, elementOutputKey: url, outputKey: urls}
                    reads: {photo: Data}
                    writes: {url: URL, thumbnail: Data}
                    next: done
                  - {id: done, kind: end, reads: {urls: "[URL]"}}
            """)
        #expect(found.map(\.key) == ["thumbnail"])
        #expect(found.first?.message.contains("only 'url' is kept") == true)
    }
}

@Suite("analysis scale")
struct AnalysisScaleTests {
    @Test("a 10,000-step flow is analysed without recursion")
    func deepFlow() {
        var yaml = "version: 1\nflows:\n  - name: Long\n    data: {seed: Int}\n    steps:\n"
        for i in 0..<10_000 {
            yaml += "      - {id: s\(i), reads: {k\(i): Int}, writes: {k\(i + 1): Int}, next: s\(i + 1)}\n"
        }
        yaml += "      - {id: s10000, kind: end, reads: {k10000: Int}}\n"
        let found = analyze(yaml)
        // Only k0 is never set and only seed is never read; everything else flows down the chain.
        #expect(found.map(\.rule) == ["unused-data-key", "missing-data-key"])
        #expect(found.map(\.key) == ["seed", "k0"])
    }
}
