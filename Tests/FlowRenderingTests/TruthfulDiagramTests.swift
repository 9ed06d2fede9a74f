import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowPresentation
import FlowRules
@testable import FlowRendering
import Foundation
import Testing

/// The text a reader sees in an SVG: every `<text>` element, entities decoded.
private func shownTexts(_ data: Data) -> [String] {
    let svg = String(decoding: data, as: UTF8.self)
    let regex = try! NSRegularExpression(pattern: "<text[^>]*>([^<]*)</text>")
    return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
        String(svg[Range(match.range(at: 1), in: svg)!])
            .replacingOccurrences(of: "&#45;", with: "-").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}

private func svgTexts(_ flow: Flow, findings: [Finding] = [], flows: [Flow] = [], layout: DOTBuilder.Layout = .automatic) throws -> [String] {
    shownTexts(try Graphviz.render(dot: DOTBuilder(layout: layout).dot(for: flow, findings: findings, flows: flows), format: .svg))
}

/// A small order flow: a decision with two ways, a data key read after it.
private func orderFlow(name: String = "Order pickup", stepNames: [String] = ["Pick store", "Confirm pickup"]) -> Flow {
    Flow(id: "order", name: name, kind: .declarative,
         steps: [Step(id: "pick", name: stepNames[0], writes: [DataAccess(key: "storeID")]),
                 Step(id: "confirm", name: stepNames[1], reads: [DataAccess(key: "pickupSlot")]),
                 Step(id: "done", name: "Done", kind: .end)],
         transitions: [Transition(from: "pick", to: "confirm", label: "store chosen"), Transition(from: "confirm", to: "done")],
         initialData: [DataAccess(key: "customer")])
}

@Suite("diagrams say what the findings say")
struct TruthfulDiagramTests {
    @Test("a warning on an edge is drawn ▲ in orange, never ✖; the legend lists the warning")
    func warningOnEdge() throws {
        let flow = orderFlow()
        let finding = Finding(rule: "type-mismatch", severity: .warning, message: "m", location: nil, flow: "order", key: "storeID",
                              edge: EdgeReference(from: "pick", to: "confirm"))
        let texts = try svgTexts(flow, findings: [finding])
        #expect(texts.contains("▲ type does not match: storeID"))
        #expect(!texts.contains { $0.contains("✖") })
        #expect(texts.contains("▲ orange: warning") && !texts.contains("✖ red: error"))
        #expect(texts.contains { $0.hasSuffix("1 warning") })
    }

    @Test("a flow with only a note is not 'no problems found'; the note is ◆ blue-grey, in the legend")
    func noteOnly() throws {
        let note = Finding(rule: "unanalyzable-flow", severity: .note, message: "m", location: nil, flow: "order", step: "pick")
        let texts = try svgTexts(orderFlow(), findings: [note])
        #expect(!texts.contains { $0.contains("no problems found") })
        #expect(texts.contains { $0.hasSuffix("1 note") })
        #expect(texts.contains("◆ could not be read fully"))
        #expect(texts.contains("◆ blue-grey: note"))
        #expect(!texts.contains { $0.contains("▲") || $0.contains("✖") })
    }

    @Test("a finding's mark is never the mark of a shape: each severity glyph starts exactly one legend entry, its own")
    func distinctMarks() throws {
        let everything: Set<String> = ["initial", "state", "composite", "final", "final-fail", "start", "step", "branch", "join", "group",
                                       "subflow", "end", "fail", "error-edge", "unreachable", "error", "warning", "note"]
        let legend = DOTBuilder().legend(everything)
        let entries = legend.matches(of: /<FONT POINT-SIZE="9" COLOR="[^"]*">([^<]*)<\/FONT>/).map { String($0.output.1) }
        #expect(entries.count == everything.count)
        for severity in Severity.allCases {
            let glyph = SeverityStyle.of(severity).glyph
            #expect(entries.filter { $0.hasPrefix(glyph) } == [SeverityStyle.legendText(severity)], "\(glyph): \(entries)")
        }
        // A machine with a note and a start dot, drawn: the two marks differ on the picture too.
        let machine = Flow(id: "Kiosk", kind: .flowKit,
                           steps: [Step(id: "Begin", kind: .start), Step(id: "Idle", kind: .state), Step(id: "End", kind: .end)],
                           transitions: [Transition(from: "Begin", to: "Idle"), Transition(from: "Idle", to: "End", label: "card")])
        let note = Finding(rule: "unanalyzable-flow", severity: .note, message: "m", location: nil, flow: "Kiosk", step: "Idle")
        let texts = try svgTexts(machine, findings: [note])
        let begins = try #require(texts.first { $0.hasSuffix("where it begins (with its input)") })
        let marked = try #require(texts.first { $0.hasSuffix("could not be read fully") })
        #expect(begins.first != marked.first)
    }

    @Test("unknown-step says 'no such state' (on an edge) or 'no such transition' (on a state, a handler's move) in a state machine's words, and 'no such step' in a flow's")
    func unknownStepWords() throws {
        let machine = Flow(id: "Returns", kind: .flowKit,
                           steps: [Step(id: "Begin", kind: .start), Step(id: "Inspect", kind: .state, contentType: "Parcel"),
                                   Step(id: "Refund", kind: .state, contentType: "Money"), Step(id: "End", kind: .end)],
                           transitions: [Transition(from: "Begin", to: "Inspect"), Transition(from: "Inspect", to: "Refund"),
                                         Transition(from: "Inspect", to: "Repair", label: "fixable"), Transition(from: "Refund", to: "End")])
        let findings = [
            Finding(rule: "unknown-step", severity: .error, message: "m", location: nil, flow: "Returns", step: "Inspect",
                    edge: EdgeReference(from: "Inspect", to: "Repair")),
            // As a FlowKit handler that returns a state the diagram lacks is reported: on its state.
            Finding(rule: "unknown-step", severity: .error, message: "m", location: nil, flow: "Returns", step: "Refund"),
        ]
        let texts = try svgTexts(machine, findings: findings)
        #expect(texts.filter { $0 == "✖ no such state" }.count == 1, "\(texts)")
        #expect(texts.filter { $0 == "✖ no such transition" }.count == 1, "\(texts)")
        #expect(!texts.contains { $0.contains("no such step") })
        let mermaid = MermaidBuilder().diagrams(for: machine, findings: findings)[0].text
        #expect(mermaid.contains("✖ no such state") && mermaid.contains("✖ no such transition") && !mermaid.contains("no such step"))
        // Nested in another machine's composite, its findings keep the state words.
        let shop = Flow(id: "Shop", kind: .flowKit,
                        steps: [Step(id: "Begin", kind: .start), Step(id: "Returns", kind: .subflow, subflow: "Returns"), Step(id: "End", kind: .end)],
                        transitions: [Transition(from: "Begin", to: "Returns"), Transition(from: "Returns", to: "End")])
        var nested = machine
        nested.parent = "Shop"
        let outer = try svgTexts(shop, findings: findings, flows: [shop, nested])
        #expect(outer.filter { $0 == "✖ no such state" }.count == 1 && outer.filter { $0 == "✖ no such transition" }.count == 1
                    && !outer.contains { $0.contains("no such step") })

        var flow = orderFlow()
        flow.transitions.append(Transition(from: "pick", to: "reprint"))
        let onFlow = Finding(rule: "unknown-step", severity: .error, message: "m", location: nil, flow: "order", step: "pick",
                             edge: EdgeReference(from: "pick", to: "reprint"))
        let flowTexts = try svgTexts(flow, findings: [onFlow])
        #expect(flowTexts.contains("✖ no such step") && !flowTexts.contains { $0.contains("no such state") })
    }

    @Test("the subtitle names a PlantUML diagram FlowKit does not generate a 'PlantUML state machine', a FlowKit one a 'FlowKit state machine'")
    func plantUMLKind() throws {
        let firmware = """
            @startuml
            title Card reader firmware
            [*] --> Idle
            Idle : waiting for a card
            Idle --> Reading : card inserted
            Reading : reads the chip, then asks for the PIN
            Reading --> Idle : card removed
            Reading --> Authorised : PIN accepted
            Authorised --> [*]
            @enduml
            """
        let returns = """
            @startuml
            title Parcel Return
            [*] --> ChooseItems
            ChooseItems: [OrderLine]
            ChooseItems --> PrintLabel
            PrintLabel: ReturnLabel
            PrintLabel --> [*]: ReturnLabel
            @enduml
            """
        for (text, file, kind, other) in [(firmware, "reader.puml", "PlantUML state machine", "FlowKit"),
                                          (returns, "ParcelReturn.puml", "FlowKit state machine", "PlantUML")] {
            let graph = load(text, file: file)
            let flow = try #require(graph.flows.first)
            #expect((flow.kind == .flowKit) == kind.hasPrefix("FlowKit"))
            let findings = Analyzer().analyze(graph)
            let status = FlowStatus(of: flow, findings: findings, flows: graph.flows)
            let texts = try svgTexts(flow, findings: findings, flows: graph.flows)
            #expect(texts.contains("\(kind) · \(status.text)"), "\(file): \(texts)")
            #expect(!texts.contains { $0.hasPrefix(other) }, "\(file)")
            #expect(flow.kind.noun == kind)
        }
    }

    @Test("a warning on the 'Starts with' box is listed in the legend")
    func warningOnStart() throws {
        let finding = Finding(rule: "unused-data-key", severity: .warning, message: "m", location: nil, flow: "order", key: "customer")
        let texts = try svgTexts(orderFlow(), findings: [finding])
        #expect(texts.contains("▲ set but never read: customer"))
        #expect(texts.contains("▲ orange: warning"))
    }

    @Test("a finding reads in plain words with its key")
    func plainWords() throws {
        let finding = Finding(rule: "missing-data-key", severity: .error, message: "m", location: nil, flow: "order", step: "confirm", key: "pickupSlot")
        let texts = try svgTexts(orderFlow(), findings: [finding])
        #expect(texts.contains("✖ may be missing: pickupSlot"))
        #expect(texts.contains("✖ red: error"))
    }

    @Test("the status counts an invalid-input finding of the flow and findings inside its sub-machines")
    func statusScope() throws {
        let (outer, inner) = cameraWithCaptureMachine()
        let findings = [
            Finding(rule: "stuck-step", severity: .error, message: "m", location: nil, flow: "Capture", step: "Focus"),
            Finding(rule: "invalid-input", severity: .error, message: "bad", location: SourceLocation(file: "Camera.puml", line: 3), flow: "Camera"),
            Finding(rule: "dead-end", severity: .warning, message: "m", location: nil, flow: "elsewhere"),
        ]
        let status = FlowStatus(of: outer, findings: findings, flows: [outer, inner])
        #expect(status.errors == 2 && status.warnings == 0 && status.text == "2 errors")
        #expect(FlowStatus(of: inner, findings: findings, flows: [outer, inner]).text == "1 error")
        let texts = try svgTexts(outer, findings: findings, flows: [outer, inner])
        #expect(texts.contains { $0.hasSuffix("2 errors") })
        #expect(texts.contains("✖ could not be read"))
    }

    @Test("a transition out of a composite to a drawn state is drawn to it, with no 'no such state' ghost")
    func crossingTransition() throws {
        let outer = Flow(id: "Shop", kind: .flowKit,
                         steps: [Step(id: "Begin", kind: .start), Step(id: "Browse", kind: .state), Step(id: "Checkout", kind: .subflow, subflow: "Checkout"),
                                 Step(id: "End", kind: .end)],
                         transitions: [Transition(from: "Begin", to: "Browse"), Transition(from: "Browse", to: "Checkout"), Transition(from: "Checkout", to: "End")])
        let inner = Flow(id: "Checkout", kind: .flowKit,
                         steps: [Step(id: "Begin", kind: .start), Step(id: "Pay", kind: .state), Step(id: "End", kind: .end)],
                         transitions: [Transition(from: "Begin", to: "Pay"), Transition(from: "Pay", to: "Browse", label: "cancelled"),
                                       Transition(from: "Pay", to: "Nowhere"), Transition(from: "Pay", to: "End")],
                         parent: "Shop")
        let dot = DOTBuilder().dot(for: outer, findings: [], flows: [outer, inner])
        #expect(dot.contains("c0_s1 -> s1") || dot.contains("s1 -> c0_s1"))
        let texts = try svgTexts(outer, flows: [outer, inner])
        #expect(texts.contains("cancelled"))
        #expect(!texts.contains("Browse") || texts.filter { $0 == "Browse" }.count == 1)
        // A state that exists nowhere still gets its ghost.
        #expect(texts.filter { $0 == "no such state" }.count == 1 && texts.contains("Nowhere"))
        let mermaid = MermaidBuilder().diagrams(for: outer, findings: [], flows: [outer, inner])[0].text
        #expect(mermaid.contains("\n  c1_s1 --> s1 : cancelled\n"))
        #expect(mermaid.split(separator: "\n").filter { $0.contains("no such state") && !$0.contains("%%") }.count == 1)
    }

    @Test("a sub-flow box names the flow it runs by its name, not its id")
    func subflowName() throws {
        let sub = Flow(id: "flows/address.flow.yaml#addr", name: "Enter address", kind: .declarative, steps: [Step(id: "a")])
        let flow = Flow(id: "main", name: "Checkout", kind: .declarative,
                        steps: [Step(id: "address", name: "Ask for address", kind: .subflow, subflow: sub.id), Step(id: "done", kind: .end)],
                        transitions: [Transition(from: "address", to: "done")])
        let texts = try svgTexts(flow, flows: [flow, sub])
        #expect(texts.contains("runs the flow “Enter address”"))
        #expect(!texts.contains { $0.contains("#addr") })
        #expect(MermaidBuilder().diagrams(for: flow, findings: [], flows: [flow, sub])[0].text.contains("runs the flow “Enter address”"))
    }

    @Test("backslash escapes Graphviz expands are drawn literally")
    func graphvizEscapes() throws {
        let names = ["shows \\N and \\G and \\\\", "tail \\E \\T \\H", "lines \\L \\l \\r end\\"]
        let texts = try svgTexts(orderFlow(name: "flow \\G", stepNames: Array(names.prefix(2))))
        #expect(texts.contains(names[0]) && texts.contains(names[1]))
        #expect(texts.contains("flow \\G"))
        let edge = Flow(id: "e", kind: .declarative, steps: [Step(id: "a"), Step(id: "b")],
                        transitions: [Transition(from: "a", to: "b", label: names[2])])
        #expect(try svgTexts(edge).contains(names[2]))
    }

    @Test("noncharacters and controls never reach Graphviz: every other label is still drawn")
    func noncharacters() throws {
        let texts = try svgTexts(orderFlow(stepNames: ["Pick\u{FFFE} store", "Confirm\u{FFFF}\u{7} pickup\u{10FFFF}"]))
        #expect(texts.contains("Pick<U+FFFE> store"))
        #expect(texts.contains("Confirm<U+FFFF><U+0007> pickup<U+10FFFF>"))
        #expect(texts.contains("Done") && texts.contains("store chosen") && texts.contains("customer"))
    }

    @Test("bidirectional and zero-width controls are shown visibly in SVG and Mermaid")
    func bidi() throws {
        let name = "Refund \u{202E}05$ \u{2066}x\u{2069}\u{200B}y\u{FEFF}"
        let shown = "Refund <U+202E>05$ <U+2066>x<U+2069><U+200B>y<U+FEFF>"
        let texts = try svgTexts(orderFlow(stepNames: [name, "Confirm"]))
        #expect(texts.contains(shown))
        let text = MermaidBuilder().diagrams(for: orderFlow(stepNames: [name, "Confirm"]), findings: [])[0].text
        #expect(!text.unicodeScalars.contains { [0x202E, 0x2066, 0x2069, 0x200B, 0xFEFF].contains($0.value) })
        #expect(text.contains("Refund #lt;U+202E#gt;05$"))
    }

    @Test("a very long name is capped on the diagram")
    func longName() throws {
        let long = String(repeating: "Verify the customer’s identity again ", count: 20)
        let texts = try svgTexts(orderFlow(stepNames: [long, "Confirm"]))
        let drawn = try #require(texts.first { $0.hasPrefix("Verify the customer") })
        #expect(drawn.count == DisplayText.maximumLength && drawn.hasSuffix("…"))
    }

    @Test("the large layout keeps parallel edges with different labels and both edges of a two-step loop")
    func largeLayoutKeepsEdges() throws {
        var flow = LargeFlow.make(steps: 120)
        let (a, b) = (flow.steps[5].id, flow.steps[6].id)
        flow.transitions.append(Transition(from: a, to: b, condition: .equals(key: "mode", value: "retry")))
        flow.transitions.append(Transition(from: a, to: b, label: "second chance"))
        let (c, d) = (flow.steps[9].id, flow.steps[10].id)
        flow.transitions.append(Transition(from: d, to: c, label: "go back"))
        let standard = try svgTexts(flow, layout: .standard), large = try svgTexts(flow, layout: .large)
        for label in ["mode = retry", "second chance", "go back"] {
            #expect(standard.contains(label))
            #expect(large.contains { $0 == label || $0.hasSuffix(": " + label) }, "\(label)")
        }
        #expect(large.contains("to \(flow.steps[9].name): go back"))
        // Both ways round: one edge with an arrowhead at each end.
        let dot = DOTBuilder(layout: .large).dot(for: flow, findings: [])
        #expect(dot.split(separator: "\n").contains { $0.hasPrefix("  s9 -> s10 [") && $0.contains("dir=both") && $0.contains("go back") })
        let diagram = DOTBuilder(layout: .large).diagram(for: flow, findings: [])
        #expect(diagram.transitions.count == flow.transitions.count)
    }
}

@Suite("Mermaid labels render as written")
struct MermaidLabelTests {
    @Test("only what Mermaid's grammar needs is encoded")
    func minimalEscaping() {
        #expect(MermaidBuilder.label("missing-data-key: deliverySlot (a|b) [x] {y} -- z; 100% \\N") == "missing-data-key: deliverySlot (a|b) [x] {y} -- z; 100% \\N")
        #expect(MermaidBuilder.label("say \"hi\" <b> & *bold* `code` \\* end\\") == "say #quot;hi#quot; #lt;b#gt; #amp; \\*bold\\* \\`code\\` \\\\\\* end\\\\")
        #expect(MermaidBuilder.label("snake_case _lead trail_ #35; #1 %%{init}%%") == "snake_case \\_lead trail\\_ #35;35; #1 #37;%{init}#37;%")
        #expect(MermaidBuilder.label("a: b; c", unquoted: true) == "a#58; b#59; c")
        #expect(MermaidBuilder.label("two\nlines\u{202E}") == "two<br>lines#lt;U+202E#gt;")
    }

    @Test("every diagram lists the labels it means, and Mermaid renders them as meant", arguments: [FlowKind.declarative, .flowKit])
    func labelsComment(kind: FlowKind) throws {
        let flow = hostileFlow(kind: kind)
        let finding = Finding(rule: "missing-data-key", severity: .warning, message: "m", location: nil, flow: flow.id, step: "step3", key: "a_b_")
        let text = MermaidBuilder().diagrams(for: flow, findings: [finding])[0].text
        let comment = try #require(text.split(separator: "\n").last { $0.hasPrefix("  %% flowlens-labels: [") })
        let json = try JSONSerialization.jsonObject(with: Data(comment.dropFirst("  %% flowlens-labels: ".count).utf8)) as? [String]
        let labels = try #require(json)
        #expect(labels.contains("▲ may be missing: a_b_") || labels.contains { $0.hasSuffix("\n▲ may be missing: a_b_") })
        #expect(labels.contains { $0.hasPrefix("A --> B") })
        #expect(!comment.contains("%%{") && !comment.dropFirst(4).contains("%%"))
        if let (status, output) = try validateWithMermaid([("meant-\(kind.rawValue)", text)]) {
            #expect(status == 0, "\(output)")
        }
    }

    @Test("the validator fails a diagram whose labels render as something else")
    func validatorCatchesGarbage() throws {
        let garbled = """
            flowchart TD
              s0("keep _this_ word")
              s1("b")
              s0 -->|"x"| s1
              %% flowlens-labels: ["keep _this_ word","b","x"]

            """
        let unlisted = "flowchart TD\n  s0(\"a\")\n"
        guard let (status, output) = try validateWithMermaid([("garbled", garbled), ("unlisted", unlisted)]) else { return }
        #expect(status == 1)
        #expect(output.contains("invalid") && output.contains("garbled") && output.contains("keepthisword"))
        #expect(output.contains("no %% flowlens-labels comment"))
    }
}
