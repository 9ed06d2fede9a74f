import FlowLoaders
import FlowLensTestSupport
import FlowModel
@testable import FlowRendering
import FlowRules
import Foundation
import Testing

/// Renders `diagrams` with the real Mermaid (scripts/validate-mermaid.py, headless Chromium) when the
/// machine has it (scripts/bootstrap.sh --test installs it); returns the script's output and status, or nil.
func validateWithMermaid(_ diagrams: [(name: String, text: String)]) throws -> (status: Int32, output: String)? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowlens-mermaid-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in diagrams { try text.write(to: folder.appendingPathComponent(name + ".mmd"), atomically: true, encoding: .utf8) }
    return try validateWithMermaid(folder: folder.path).map { ($0.status, $0.stdout + $0.stderr) }
}

/// Names that mean something to Mermaid, Markdown or HTML.
let hostileNames = [
    "end", "class", "graph", "subgraph", "style", "click", "A --> B", "%% comment", "%%{init: {\"theme\": \"dark\"}}%%",
    "`**bold** _it_`", "<script>alert(1)</script>", "Café ☕ 日本語 🚀", "two\nlines", "say \"hi\"", "#quot; #35;",
    "a;b:c|d", "style: #fff;", "[*]", "x --o y", "({[<>]})", "&amp; &lt;", "back\\slash", "\u{202E}evil\u{0}",
    "click s0 call alert()", "state X {", "note right of s0",
]

func hostileFlow(kind: FlowKind) -> Flow {
    var steps = [Step(id: "begin", name: "Begin", kind: kind == .flowKit ? .start : .operation)]
    var transitions: [Transition] = []
    for (n, name) in hostileNames.enumerated() {
        steps.append(Step(id: "step\(n)", name: name, kind: kind == .flowKit ? .state : (n % 3 == 1 ? .branch : .operation),
                          reads: [DataAccess(key: name, type: TypeName(name))], writes: [DataAccess(key: "k" + name)],
                          details: [name]))
        transitions.append(Transition(from: n == 0 ? "begin" : "step\(n - 1)", to: "step\(n)", label: name,
                                      condition: n % 2 == 0 ? .equals(key: name, value: name) : .expression(name)))
    }
    steps.append(Step(id: "done", name: "end", kind: .end))
    transitions.append(Transition(from: "step\(hostileNames.count - 1)", to: "done", label: "end"))
    transitions.append(Transition(from: "step0", to: "no such \"step\" --> end", label: "%%"))
    return Flow(id: "hostile", name: "Hostile <script> %% end \"flow\"", kind: kind, steps: steps, transitions: transitions,
                initialData: [DataAccess(key: "<b>", value: "\"end\"")])
}

/// A flow of `count` steps, each with a long name and two ways on.
func largeFlow(_ count: Int, details: Int = 0) -> Flow {
    var steps: [Step] = []
    var transitions: [Transition] = []
    for i in 0..<count {
        steps.append(Step(id: "step\(i)", name: "Step number \(i) with a rather long name", reads: [DataAccess(key: "key\(i)", type: TypeName("String"))],
                          details: Array(repeating: String(repeating: "detail ", count: 15), count: details)))
        if i + 1 < count { transitions.append(Transition(from: "step\(i)", to: "step\(i + 1)", label: "next")) }
        if i + 7 < count, i % 2 == 0 { transitions.append(Transition(from: "step\(i)", to: "step\(i + 7)", condition: .equals(key: "mode", value: "skip"))) }
    }
    steps.append(Step(id: "done", name: "Done", kind: .end))
    transitions.append(Transition(from: "step\(count - 1)", to: "done"))
    return Flow(id: "large", name: "Large", kind: .declarative, steps: steps, transitions: transitions)
}

@Suite("Mermaid")
struct MermaidTests {
    @Test("the showcase flows match their golden Mermaid flowcharts")
    func goldenFlowchart() {
        let graph = load(showcaseYAML, file: "Fixtures/showcase.flow.yaml")
        let findings = Analyzer().analyze(graph)
        for (n, flow) in graph.flows.enumerated() {
            let diagrams = MermaidBuilder().diagrams(for: flow, findings: findings, flows: graph.flows)
            #expect(diagrams.count == 1)
            #expect(diagrams[0].text.hasPrefix("flowchart TD\n"))
            if let mismatch = goldenMismatch(diagrams[0].text, name: "showcase-\(n).mmd") { Issue.record(Comment(rawValue: mismatch)) }
        }
    }

    @Test("a FlowKit machine is a state diagram with nested composites and its findings as classes")
    func goldenStateDiagram() throws {
        let folder = packageRoot + "/samples/flowkit"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".puml") || $0.hasSuffix(".swift") }.sorted()
        let graph = load(try files.map { ($0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) })
        let findings = Analyzer().analyze(graph)
        let login = try #require(graph.flows.first { $0.id == "LoginFlow" })
        let text = MermaidBuilder().diagrams(for: login, findings: findings, flows: graph.flows)[0].text
        #expect(text.hasPrefix("stateDiagram-v2\n"))
        #expect(text.contains("as s4 {"))  // CreateAccount holds its machine
        #expect(text.contains("  [*] --> s1"))
        #expect(text.contains("class s2 error"))
        if let mismatch = goldenMismatch(text, name: "flowkit-login.mmd") { Issue.record(Comment(rawValue: mismatch)) }
    }

    @Test("hostile names stay inside quoted labels, escaped", arguments: [FlowKind.declarative, .flowKit])
    func hostile(kind: FlowKind) throws {
        let flow = hostileFlow(kind: kind)
        let finding = Finding(rule: "missing-data-key", severity: .error, message: "m", location: nil, flow: flow.id, step: "step3", key: "<script>")
        let diagrams = MermaidBuilder().diagrams(for: flow, findings: [finding])
        #expect(diagrams.count == 1)
        let text = diagrams[0].text
        #expect(!text.contains("<script"))
        #expect(!text.contains("\u{202E}") && !text.contains("\u{0}"))
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // Only the first line and generated comments start a line; no user text starts one.
        for line in lines.dropFirst() {
            let first = line.prefix { !$0.isWhitespace && $0 != "(" && $0 != "[" && $0 != "{" && $0 != ">" }
            let known = first.isEmpty || ["%%", "state", "classDef", "class", "linkStyle", "[*]", "note"].contains(String(first))
                || first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            #expect(known, "\(line)")
            if line.hasPrefix("%% flowlens-labels: [") {
                #expect(!line.dropFirst(2).contains("%") && !line.contains("<") && !line.contains("\n"), "\(line)")
            } else if line.hasPrefix("%%") {
                #expect(!line.contains("{") && !line.contains("\"") && !line.contains("<"), "\(line)")
            }
        }
        // Every label's quotes are balanced: user text holds no raw quote.
        for line in lines where !line.hasPrefix("%%") { #expect(line.utf8.filter { $0 == UInt8(ascii: "\"") }.count % 2 == 0, "\(line)") }
        #expect(text.contains("Café ☕ 日本語 🚀"))
        #expect(text.contains("two<br>lines"))
        #expect(text.contains("say #quot;hi#quot;"))
        if let (status, output) = try validateWithMermaid([("hostile-\(kind.rawValue)", text)]) {
            #expect(status == 0, "\(output)")
        }
    }

    @Test("label escaping encodes what Mermaid reads and keeps the rest")
    func labels() {
        #expect(MermaidBuilder.label("a\"b#c%d:e;f`g|h<i>&\\") == "a#quot;b#c%d:e;f\\`g|h#lt;i#gt;#amp;\\\\")
        #expect(MermaidBuilder.label("(x) [y] = z-w") == "(x) [y] = z-w")
        #expect(MermaidBuilder.label("(x)-: a;", unquoted: true) == "(x)-#58; a#59;")
        #expect(MermaidBuilder.label("a\nb\u{7}\u{202E}c") == "a<br>b#lt;U+0007#gt;#lt;U+202E#gt;c")
    }

    @Test("edges are the lines with an arrow; a comment line is none, however indented")
    func edgeCounting() {
        let text = """
            flowchart TD
              %% flow: a --> b
            %% a --> b
              begin(("start"))
              begin --> s0
              s0 -.-> s1
              s1 ==>|go| s2
              s2 -.- s3
              s3 -->|"done"| s4
              click s0 href "#a"
            """
        #expect(MermaidBuilder.edgeCount(text) == 5)
        #expect(MermaidBuilder.edgeCount("") == 0)
        #expect(MermaidBuilder.edgeCount("a --> b") == 1)
    }

    @Test("a `;` is added to exactly the lines Mermaid's pre-processing would cut one from")
    func guardedLines() {
        // The pattern is `(style|classDef).*:\S*#.*;`: a `#` reached from a `:` without a space.
        let lines = [
            "  s0(\"style:#fff;\")", "  s1(\"classDef x:#a;\")", "  s2(\"style: #a;\")", "  s3(\"style #fff;\")",
            "  s4(\"a#59;b\")", "  classDef error fill:#FDECEA;", "  %% style:#fff;", "  s5(\"stylé:#fff;\")",
            "  s6(\"a style b:x#y; c\")", "  s7(\"style:#a\")",
        ]
        #expect(MermaidBuilder.guarded(lines) == [
            "  s0(\"style:#fff;\");", "  s1(\"classDef x:#a;\");", "  s2(\"style: #a;\")", "  s3(\"style #fff;\")",
            "  s4(\"a#59;b\")", "  classDef error fill:#FDECEA;", "  %% style:#fff;", "  s5(\"stylé:#fff;\")",
            "  s6(\"a style b:x#y; c\");", "  s7(\"style:#a\")",
        ])
    }

    @Test("a flow above Mermaid's limits is split into parts that each stay under them")
    func large() throws {
        let flow = largeFlow(1000)
        let diagrams = MermaidBuilder().diagrams(for: flow, findings: [])
        #expect(diagrams.count > 1)
        for (n, diagram) in diagrams.enumerated() {
            #expect(diagram.part?.number == n + 1 && diagram.part?.of == diagrams.count)
            #expect(diagram.text.count < MermaidBuilder.maxTextSize)
            #expect(MermaidBuilder.edgeCount(diagram.text) <= MermaidBuilder.maxEdges)
            #expect(diagram.note?.contains("\(diagrams.count) parts") == true)
        }
        // Every step is drawn exactly once across the parts; a jump to another part ends at a named stub.
        let all = diagrams.map(\.text).joined()
        for i in [0, 499, 999] { #expect(all.components(separatedBy: "  s\(i)(\"Step number \(i) ").count == 2) }
        #expect(all.contains("→ Step number"))
        // A flow that fits is one diagram, and a middling one first loses its details.
        #expect(MermaidBuilder().diagrams(for: largeFlow(50), findings: []).count == 1)
        let middling = MermaidBuilder().diagrams(for: largeFlow(100, details: 5), findings: [])
        #expect(middling.count == 1 && middling[0].note?.contains("without data") == true)
        if let (status, output) = try validateWithMermaid(diagrams.enumerated().map { ("large-\($0.offset)", $0.element.text) }) {
            #expect(status == 0, "\(output)")
        }
    }

    @Test("the same flow gives the same bytes")
    func deterministic() {
        let flow = hostileFlow(kind: .declarative)
        #expect(MermaidBuilder().diagrams(for: flow, findings: []) == MermaidBuilder().diagrams(for: flow, findings: []))
    }
}
