import FlowLens
@testable import FlowLensFuzzing
import FlowLensTestSupport
import Foundation
import Testing

/// The saved fuzz inputs: every crash, broken invariant or slow input a fuzz target found, replayed
/// through the same target function in the normal (debug, unsanitized) build.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = packageRoot + "/Tests/FlowLensFuzzingTests/Regressions"

    static func inputs(_ target: FuzzTarget) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + target.rawValue)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("every saved input of a target breaks none of its invariants", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) throws {
        for name in Self.inputs(target) {
            let data = try #require(FileManager.default.contents(atPath: "\(Self.folder)/\(target.rawValue)/\(name)"))
            let problems = target.violations(data)
            #expect(problems.isEmpty, "\(target.rawValue)/\(name): \(problems.joined(separator: "; "))")
        }
    }

    @Test("the targets' checks fail on broken output: the fuzzer could not find anything otherwise")
    func checksCanFail() {
        #expect(!WriterChecks.hidden(in: "a\u{FFFE}b", format: "x").isEmpty)
        #expect(!WriterChecks.hidden(in: "a\u{1B}[31m", format: "x").isEmpty)
        #expect(WriterChecks.hidden(in: "a\nb ☕ 日本", format: "x").isEmpty)
        #expect(!WriterChecks.uncapped("label=\"" + String(repeating: "long ", count: 50) + "\"", format: "DOT").isEmpty)
        let flow = Flow(id: "f", kind: .declarative)
        #expect(!WriterChecks.dotProblems("digraph { a -> }", flow: flow).isEmpty)
        #expect(!WriterChecks.dotProblems("digraph { a [label=<<b>x</i>>] }", flow: flow).isEmpty)
        #expect(WriterChecks.dotProblems("digraph { a [label=<<b>x &amp; y</b>>]; b [label=\"<not html>\"] }", flow: flow).isEmpty)
        #expect(WriterChecks.htmlLabels(in: "digraph { a [label=<<b>x</b>>, tooltip=\"=<no>\"] }") == ["<b>x</b>"])
        #expect(!WriterChecks.isWellFormedXML("<a>\u{FFFE}</a>") && WriterChecks.isWellFormedXML("<a>&lt;</a>"))
        #expect(!WriterChecks.isWellFormedXML("<testsuites><testsuite></testsuites>") && !WriterChecks.isWellFormedXML("<a></a><"))
        let svg = XMLOutline(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><g><svg:script xmlns:svg=\"http://www.w3.org/2000/svg\">x</svg:script></g></svg>".utf8))
        #expect(svg.isWellFormed && svg.root == "svg" && svg.elements.contains("script"))
        #expect(XMLOutline(Data("<html><svg/></html>".utf8)).root == "html" && !XMLOutline(Data("<svg><g></svg>".utf8)).isWellFormed)
        #expect(HTMLBalance.problem(in: "<!DOCTYPE html><html><body><p>x<br></p><svg><path d=\"M0\"/></svg></body></html>") == nil)
        #expect(HTMLBalance.problem(in: "<html><body><p>x</body></html>") != nil)
        #expect(HTMLBalance.problem(in: "<html><p title=x>y</p></html>") != nil)
        #expect(HTMLBalance.problem(in: "<html><p>a <script>b</script></p><style>p > a {}</style></html>") == nil)
        #expect(HTMLBalance.problem(in: "<html><p>a < b</p></html>") != nil)
        #expect(!WriterChecks.fileNameProblems(["a", "A"]).isEmpty && !WriterChecks.fileNameProblems(["../x"]).isEmpty)
    }

    @Test("a loader target points every finding at its input; a finding elsewhere is a violation")
    func loaderChecksSeeTheFile() {
        #expect(FuzzTarget.yaml.violations(Data("version: 1\nflows:\n  - name: A\n    steps: [{id: a, reads: {x: Int}}]\n".utf8)).isEmpty)
        #expect(FuzzTarget.yaml.violations(Data("flows: [".utf8)).isEmpty)
    }

    /// The issue's hostile names (noncharacters U+FFFE/U+FFFF, U+FDD0, controls, a 100,000-character
    /// name) written in a real flow file, through every writer's checks: `dot` rejected the first
    /// and the second before they were made safe.
    @Test("noncharacters and a 100,000-character name, read from a flow file, give valid output in every writer")
    func hostileNamesFromAFile() {
        let huge = String(repeating: "Collect the parcel from the locker ", count: 2_858)  // 100,030 characters
        let yaml = """
            version: 1
            flows:
              - name: "Ship \\uFFFE parcel \\uFFFF \\uFDD0 now \\x07"
                data: {"order\\uFFFEid": String}
                steps:
                  - {id: pick, name: "\(huge)", reads: {"order\\uFFFEid": String, "locker\\u001Bcode": Int}, next: done}
                  - {id: done, name: "Done \\uFFFF", kind: end}
              - name: "\(huge)"
                steps: [{id: only, name: "x\\u0000y", reads: {"\\uFFFF": String}}]
            """
        let graph = load(yaml, file: "hostile.flow.yaml")
        #expect(graph.flows.count == 2 && graph.loadFindings.isEmpty, "\(graph.loadFindings.map(\.message))")
        #expect(graph.flows.first?.name.unicodeScalars.contains("\u{FFFE}") == true)
        let report = FlowLens.analyze(graph)
        #expect(!report.findings.isEmpty)
        #expect(WriterChecks.dot(report).isEmpty, "\(WriterChecks.dot(report))")
        #expect(WriterChecks.svg(report).isEmpty, "\(WriterChecks.svg(report))")
        #expect(WriterChecks.mermaid(report).isEmpty, "\(WriterChecks.mermaid(report))")
        #expect(WriterChecks.review(report).isEmpty, "\(WriterChecks.review(report))")
        #expect(WriterChecks.reports(report).isEmpty, "\(WriterChecks.reports(report))")
        let huge2 = FlowLens.dot(for: graph.flows[1], in: report)
        #expect(!huge2.contains(String(huge.prefix(400))) && huge2.utf8.count < 20_000, "the 100,000-character name is capped in the diagram")
        #expect(report.graph.flows[1].name == huge, "the report keeps the full name")
        let names = Exporter.fileNames(for: graph.flows)
        #expect(names[1].utf8.count <= Exporter.maximumNameBytes)
    }
}
