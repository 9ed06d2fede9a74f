import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowPresentation
@testable import FlowRendering
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The trace overlay's words and widths, and how the DOT and Mermaid builders draw it in the layouts
/// the CLI tests do not reach (the large layout, state machines, hostile text from records).
@Suite("TraceOverlay on the diagrams")
struct TraceRenderingTests {
    /// An overlay for `flow` with the counts given by transition index (steps reached: those the
    /// counted transitions touch), untaken transitions and unreached steps as given.
    func overlay(_ flow: Flow, counts: [Int: Int], unreached: Set<Int> = [], failures: [TraceOverlay.Failure] = []) -> TraceOverlay {
        var transitionCounts = Array(repeating: 0, count: flow.transitions.count)
        for (t, count) in counts { transitionCounts[t] = count }
        let runs = counts.values.max() ?? 0
        return TraceOverlay(runs: runs, transitionCounts: transitionCounts, stepVisits: Array(repeating: 1, count: flow.steps.count),
                            unreachedSteps: unreached, untakenTransitions: Set(flow.transitions.indices.filter { transitionCounts[$0] == 0 }),
                            failures: failures)
    }

    @Test("numbers are grouped by thousands, shares never round to all or none, widths grow with the log of the count and stop at 6")
    func words() {
        #expect(TraceOverlay.number(0) == "0" && TraceOverlay.number(999) == "999" && TraceOverlay.number(1000) == "1,000")
        #expect(TraceOverlay.number(1_234_567) == "1,234,567")
        #expect(TraceOverlay.runs(1) == "1 run" && TraceOverlay.runs(12_500) == "12,500 runs")
        #expect(TraceOverlay.share(1, of: 1000) == "less than 1%" && TraceOverlay.share(999, of: 1000) == "99%")
        #expect(TraceOverlay.share(7, of: 7) == "100%" && TraceOverlay.share(620, of: 1000) == "62%")
        #expect([1, 10, 100, 1000, 10_000, 1_000_000].map(TraceOverlay.width(forCount:)) == [1.2, 2.4, 3.6, 4.8, 6, 6])
        var previous = 0.0
        for count in stride(from: 1, through: 200_000, by: 997) {
            let width = TraceOverlay.width(forCount: count)
            #expect(width >= previous && width <= TraceOverlay.maximumWidth)
            previous = width
        }
        #expect(TraceOverlay.widthText(3.0) == "3" && TraceOverlay.widthText(3.1) == "3.1")
        let failure = TraceOverlay.Failure(step: 0, reason: RunEvent.Reason.typeMismatch, key: "amount", count: 2,
                                           first: .init(run: "r-7", location: SourceLocation(file: "runs.jsonl", line: 3)))
        #expect(TraceOverlay.failureMark(failure) == "✖ 2 runs failed: ‘amount’ had the wrong type (first: run r-7)")
        #expect(TraceOverlay.ending(RunEvent.Reason.noCaseMatched) == "stopped early because no case matched (reported as a success)")
    }

    @Test("the large layout writes each count in its xlabel and widens the merged edge")
    func largeLayout() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Import
                id: import
                steps:
                  - {id: fetch, name: Fetch feed, next: [{to: parse, when: "feed is XML"}, {to: skip, when: "feed is empty"}]}
                  - {id: parse, name: Parse items, next: store}
                  - {id: skip, name: Skip, next: done}
                  - {id: store, name: Store items, next: done}
                  - {id: done, kind: end}
            """)
        let flow = try #require(graph.flows.first)
        let parse = try #require(flow.transitions.firstIndex { $0.to == "parse" })
        let skip = try #require(flow.transitions.firstIndex { $0.to == "skip" })
        var builder = DOTBuilder(layout: .large)
        builder.trace = overlay(flow, counts: [parse: 1200], unreached: [flow.steps.firstIndex { $0.id == "skip" }!])
        let dot = builder.dot(for: flow, findings: [])
        let edge = try #require(dot.split(separator: "\n").first { $0.contains("s0 -> s1 ") })
        #expect(edge.contains("<B>1,200 runs</B>") && edge.contains("xlabel=") && edge.contains("penwidth=4.9"), "\(edge)")
        let faded = try #require(dot.split(separator: "\n").first { $0.contains("s0 -> s2 ") })
        #expect(faded.contains("color=\"\(TraceOverlay.fadedLine)\"") && !faded.contains("runs"))
        _ = skip
        let svg = try XMLDocument(data: try Graphviz.render(dot: dot, format: .svg))
        #expect(svg.rootElement()?.name == "svg")
    }

    @Test("a state machine: counts on its transitions, an unreached state faded, a failure at its state; not inside a composite")
    func stateMachine() throws {
        let graph = load("""
            @startuml
            [*] --> Browse
            Browse --> Basket
            Browse --> Wishlist
            Basket --> Pay
            state Pay {
              [*] --> Card
              Card --> [*]
            }
            Pay --> [*]
            @enduml
            """, file: "Shop.puml")
        let flow = try #require(graph.flows.first { $0.parent == nil })
        let toBasket = try #require(flow.transitions.firstIndex { $0.from == "Browse" && $0.to == "Basket" })
        let toPay = try #require(flow.transitions.firstIndex { $0.from == "Basket" && $0.to == "Pay" })
        let wishlist = try #require(flow.steps.firstIndex { $0.id == "Wishlist" })
        let basket = try #require(flow.steps.firstIndex { $0.id == "Basket" })
        let failure = TraceOverlay.Failure(step: basket, reason: "error", key: nil, count: 4, first: .init(run: "t-1", location: SourceLocation(file: "otlp.json", line: 1)))
        var builder = DOTBuilder()
        builder.trace = overlay(flow, counts: [toBasket: 30, toPay: 26], unreached: [wishlist], failures: [failure])
        let dot = builder.dot(for: flow, findings: [], flows: graph.flows)
        #expect(dot.contains("<B>30 runs</B>") && dot.contains("<B>26 runs</B>"))
        #expect(dot.contains("✖ 4 runs failed: an error (first: run t-1)"))
        let wishlistNode = try #require(dot.split(separator: "\n").first { $0.contains("id=\"step-\(wishlist)\"") })
        #expect(wishlistNode.contains("color=\"\(TraceOverlay.fadedLine)\""))
        // The composite's own machine is drawn without the outer machine's counts.
        let inside = dot.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("c0_") && !$0.contains("ltail") }
        #expect(!inside.isEmpty && !inside.contains { $0.contains(TraceOverlay.fadedLine) })
        var mermaid = MermaidBuilder()
        mermaid.trace = builder.trace
        let text = try #require(mermaid.diagrams(for: flow, findings: [], flows: graph.flows).first?.text)
        #expect(text.contains(" : 30 runs") && text.contains("class s\(wishlist) faded") && text.contains("class s\(basket) failed"), "\(text)")
    }

    @Test("text from the records (run ids, keys) is escaped on every diagram")
    func hostileRecords() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Sign up
                id: signup
                steps:
                  - {id: form, name: Form, next: done}
                  - {id: done, kind: end}
            """)
        let flow = try #require(graph.flows.first)
        let failure = TraceOverlay.Failure(step: 0, reason: RunEvent.Reason.missingKey, key: "<img src=x onerror=alert(1)>\\N\"",
                                           count: 1, first: .init(run: "r\u{202E}&#x3C;script>", location: SourceLocation(file: "runs.jsonl", line: 9)))
        var builder = DOTBuilder()
        builder.trace = overlay(flow, counts: [0: 1], failures: [failure])
        let svg = try XMLDocument(data: try Graphviz.render(dot: builder.dot(for: flow, findings: []), format: .svg))
        let texts = try svg.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        #expect(texts.contains { $0.contains("‘<img src=x onerror=alert(1)>\\N\"’ was missing") }, "\(texts)")
        #expect(try svg.nodes(forXPath: "//*[local-name()='img' or local-name()='script']").isEmpty)
        #expect(texts.contains { $0.contains("r<U+202E>&#x3C;script>") })
        var mermaid = MermaidBuilder()
        mermaid.trace = builder.trace
        let text = try #require(mermaid.diagrams(for: flow, findings: []).first?.text)
        let line = try #require(text.split(separator: "\n").first { $0.contains("was missing") })
        #expect(!line.contains("<img") && line.contains("#lt;img src=x onerror=alert(1)#gt;"), "\(line)")
    }
}
