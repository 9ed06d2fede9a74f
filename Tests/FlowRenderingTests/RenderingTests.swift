import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowPresentation
@testable import FlowRendering
import FlowRules
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

private func showcase() -> (flows: [Flow], findings: [Finding]) {
    let graph = load(showcaseYAML, file: "Fixtures/showcase.flow.yaml")
    return (graph.flows, Analyzer().analyze(graph))
}

@Suite("DOT builder")
struct DOTBuilderTests {
    @Test("the showcase flows match their golden DOT files")
    func golden() {
        let (flows, findings) = showcase()
        for (n, flow) in flows.enumerated() {
            let dot = DOTBuilder().dot(for: flow, findings: findings)
            if let mismatch = goldenMismatch(dot, name: "showcase-\(n).dot") { Issue.record(Comment(rawValue: mismatch)) }
        }
    }

    @Test("user text is escaped and never reaches id, URL, href or tooltip")
    func escaping() {
        let (flows, findings) = showcase()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings)
        #expect(dot.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!dot.contains("<script>"))
        #expect(dot.contains("Order &lt;Showcase&gt; &amp; &quot;friends&quot;"))
        for attribute in ["URL=", "href=", "tooltip="] { #expect(!dot.contains(attribute)) }
        for line in dot.split(separator: "\n") where line.contains("id=\"") {
            let id = line.split(separator: "id=\"")[1].prefix { $0 != "\"" }
            #expect(id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }, "\(line)")
        }
    }

    @Test("html escaping shows control characters visibly, doubles backslashes and turns newlines into breaks")
    func html() {
        #expect(Escaping.graphvizLabel("a\u{0}b\nc&<>\"'\\N") == "a&lt;U+0000&gt;b<BR/>c&amp;&lt;&gt;&quot;&#39;\\\\N")
    }

    /// Found by the `svg` fuzz target (`Regressions/svg/`): a transition labelled only with line
    /// breaks, beside any external label, aborted the process inside Graphviz (`xlabels.c:219:
    /// lblenclosing: Assertion … failed`); and an empty key or name in bold made Graphviz reject the
    /// whole label and draw the node's id instead.
    @Test("an empty text or line in a label is a space, so Graphviz neither aborts nor drops the label")
    func emptyLabelText() throws {
        #expect(Escaping.graphvizLabel("") == " ")
        #expect(Escaping.graphvizLabel("\n\n") == " <BR/> <BR/> ")
        #expect(Escaping.graphvizLabel("a\n\nb\n") == "a<BR/> <BR/>b<BR/> ")
        let dot = """
            digraph { a [xlabel="x"]; a -> a [label=<\(Escaping.graphvizLabel("\n\n"))>];
            b [label=<<B>\(Escaping.graphvizLabel(""))</B>: key>]; }
            """
        let svg = String(decoding: try Graphviz.render(dot: dot, format: .svg), as: UTF8.self)
        #expect(svg.contains(">: key</text>"), "the label of b is drawn, not its id")
    }

    @Test("findings are drawn on their step or edge")
    func findingsDrawn() {
        let (flows, findings) = showcase()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings)
        #expect(dot.contains("never set"))  // a read of a key no step sets: missing on every path, not "may be"
        #expect(dot.contains("no such step"))
        #expect(dot.contains("✖ no such step"))
        #expect(dot.contains("style=\"rounded,dashed,filled\""))  // unreachable
        #expect(dot.contains("for each element of <B>photos</B> → thumbs"))
        #expect(dot.contains("subgraph legend"))
    }
}

@Suite("Graphviz in-process", .serialized)
struct GraphvizTests {
    @Test("every showcase flow renders to well-formed SVG that keeps hostile text as text")
    func svg() throws {
        let (flows, findings) = showcase()
        for flow in flows {
            let data = try Graphviz.render(dot: DOTBuilder().dot(for: flow, findings: findings), format: .svg)
            let document = try XMLDocument(data: data)
            #expect(document.rootElement()?.name == "svg")
            let scripts = try document.nodes(forXPath: "//*[local-name()='script']")
            #expect(scripts.isEmpty)
            let text = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue).joined(separator: " ")
            #expect(text.contains(flow.name.count > 20 ? "Order" : flow.name))
            if flow.name.hasPrefix("Order") { #expect(text.contains("<script>alert(1)</script>")) }
        }
    }

    @Test("PNG and PDF render with their magic numbers")
    func raster() throws {
        let dot = "digraph { a -> b }"
        let png = try Graphviz.render(dot: dot, format: .png)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let pdf = try Graphviz.render(dot: dot, format: .pdf)
        #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
    }

    @Test("malformed DOT is an error with Graphviz's message, not a crash")
    func malformed() {
        #expect(throws: GraphvizError.self) { try Graphviz.render(dot: "digraph { a -> }", format: .svg) }
        do {
            _ = try Graphviz.render(dot: "digraph { a -> }", format: .svg)
        } catch {
            #expect("\(error)".contains("syntax error"))
        }
    }

    @Test("rendering from many threads at once gives the same bytes")
    func threads() async throws {
        let (flows, findings) = showcase()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings)
        let reference = try Graphviz.render(dot: dot, format: .svg)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { try Graphviz.render(dot: dot, format: .svg) } }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == reference })
    }
}

@Suite("Finding phrases on diagrams")
struct FindingPhraseWordsTests {
    @Test("a key one branch sets 'may be missing'; a key no step sets is 'never set'")
    func missingOrNeverSet() {
        let maybe = Finding(rule: RuleID.missingDataKey, severity: .error, message: "step 'Show summary' reads 'deliverySlot', but it is not set on every path: it is missing on 'a' → 'b'", location: nil, key: "deliverySlot")
        let never = Finding(rule: RuleID.missingDataKey, severity: .error, message: "step 'greet' reads 'userName', but no step sets it and the flow does not start with it", location: nil, key: "userName")
        #expect(FindingPhrase.text(maybe) == "✖ may be missing: deliverySlot")
        #expect(FindingPhrase.text(never) == "✖ never set: userName")
    }
}
