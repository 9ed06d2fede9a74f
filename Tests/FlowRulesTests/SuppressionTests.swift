import FlowLoaders
import FlowLensTestSupport
import Foundation
import FlowLoaders
import FlowModel
import FlowRules
import Testing

@Suite("Suppression comments")
struct SuppressionScannerTests {
    @Test("the comment marker follows the file kind; JSON has none")
    func markers() {
        #expect(SuppressionScanner.commentMarker(forPath: "A.swift") == "//")
        #expect(SuppressionScanner.commentMarker(forPath: "a.flow.yaml") == "#")
        #expect(SuppressionScanner.commentMarker(forPath: "a.flow.yml") == "#")
        #expect(SuppressionScanner.commentMarker(forPath: "task.rb") == "#")
        #expect(SuppressionScanner.commentMarker(forPath: "login.puml") == "'")
        #expect(SuppressionScanner.commentMarker(forPath: "a.flow.json") == nil)
    }

    @Test("kind, rules (comma or space separated), reason and position are read")
    func parsing() {
        let found = SuppressionScanner.scan("""
            let a = 1
                // flowlens:disable-next-line missing-data-key, type-mismatch -- set by the push handler
            // flowlens:disable unused-data-key
            // flowlens:enable unused-data-key // the end
            // flowlens:frobnicate x -- not a directive
            let b = "flowlens: not a comment"
            """, file: "A.swift", marker: "//")
        #expect(found == [
            Suppression(kind: .disableNextLine, rules: ["missing-data-key", "type-mismatch"], reason: "set by the push handler",
                        location: SourceLocation(file: "A.swift", line: 2, column: 5)),
            Suppression(kind: .disable, rules: ["unused-data-key"], reason: nil, location: SourceLocation(file: "A.swift", line: 3, column: 1)),
            Suppression(kind: .enable, rules: ["unused-data-key"], reason: nil, location: SourceLocation(file: "A.swift", line: 4, column: 1)),
        ])
    }
}

@Suite("Suppression filter")
struct SuppressionFilterTests {
    static let twoUnused = """
        version: 1
        flows:
          - name: F
            steps:
              - {id: a, writes: {x: Int}, next: b}
              - {id: b, writes: {y: Int}, next: c}
              - {id: c, kind: end}
        """

    @Test("without comments, both writes are unused")
    func baseline() {
        #expect(findings("unused-data-key", in: Self.twoUnused).map(\.key) == ["x", "y"])
    }

    @Test("disable-next-line covers exactly the next line")
    func nextLine() {
        let yaml = Self.twoUnused.replacingFirst("      - {id: a,", with: "      # flowlens:disable-next-line unused-data-key -- analytics\n      - {id: a,")
        let all = analyze(yaml)
        #expect(all.map(\.key) == ["y"])
        #expect(all.map(\.rule) == ["unused-data-key"])
    }

    @Test("disable covers its region until enable, or the end of the file")
    func regions() {
        let region = Self.twoUnused
            .replacingFirst("      - {id: a,", with: "      # flowlens:disable unused-data-key -- analytics\n      - {id: a,")
            .replacingFirst("      - {id: b,", with: "      # flowlens:enable unused-data-key\n      - {id: b,")
        #expect(analyze(region).map(\.key) == ["y"])
        let toEnd = Self.twoUnused.replacingFirst("      - {id: a,", with: "      # flowlens:disable unused-data-key -- analytics\n      - {id: a,")
        #expect(analyze(toEnd).isEmpty)
    }

    @Test("a suppression of another rule suppresses nothing and is reported")
    func otherRule() {
        let yaml = Self.twoUnused.replacingFirst("      - {id: a,", with: "      # flowlens:disable-next-line missing-data-key -- old\n      - {id: a,")
        let all = analyze(yaml)
        #expect(all.map(\.rule) == ["unused-suppression", "unused-data-key", "unused-data-key"])
        #expect(all.first?.message == "'flowlens:disable-next-line missing-data-key' suppresses nothing any more: remove it")
        #expect(all.first?.location?.line == 5)
    }

    @Test("a misspelt rule id and a missing reason are each reported")
    func misspeltAndUnexplained() {
        let yaml = Self.twoUnused.replacingFirst("      - {id: a,", with: "      # flowlens:disable-next-line unused-data-kye\n      - {id: a,")
        let rules = analyze(yaml).filter { $0.location?.line == 5 }.map(\.rule)
        #expect(rules == ["suppression-without-reason", "unused-suppression"])
    }

    @Test("a Swift comment above a getData line suppresses the finding in every flow using that operation")
    func swiftOperation() {
        let ops = """
            class LoginOp: FlowOperation {
                override func mainLogic() {
                    // flowlens:disable-next-line missing-data-key -- the token is set by the push handler
                    guard let token: String = getData(name: "token") else { return }
                    finishSuccessfully()
                }
            }
            """
        let screen = """
            class Screen {
                func a() { Flow().add(operation: LoginOp()).start() }
                func b() { Flow().add(operation: LoginOp()).start() }
            }
            """
        let graph = load([(name: "Ops.swift", text: ops), (name: "Screen.swift", text: screen)])
        #expect(Analyzer().analyze(graph).isEmpty)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
