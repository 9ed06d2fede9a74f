import FlowLensTestSupport
import FlowModel
@testable import FlowPresentation
import Foundation
import FoundationXML
import Testing

@Suite("Presentation model")
struct PresentationTests {
    // MARK: - Step rows

    @Test("a step's rows: types, then what it does for each element, details, data, implementation")
    func groupRows() {
        let step = Step(id: "price", name: "Price items", kind: .group, contentType: "[LineItem]", resultType: "Money",
                        group: GroupSpec(inputKey: "lineItems", outputKey: "prices", elementKey: "item",
                                         elementReads: [DataAccess(key: "item", type: "LineItem"), DataAccess(key: "coupon", optional: true)],
                                         elementWrites: [DataAccess(key: "price", type: "Money")]),
                        implementation: "PriceItemOperation", details: ["at most 4 at once"])
        #expect(StepRows.rows(of: step, flows: []).map(\.text) == [
            "[LineItem] → Money", "for each element of lineItems → prices", "at most 4 at once",
            "needs item (LineItem)", "may use coupon", "gives price (Money)", "PriceItemOperation",
        ])
    }

    @Test("Void content says nothing and is left out; a result alone is still shown", arguments: ["Void", "()"])
    func voidContent(void: String) {
        let silent = Step(id: "tick", contentType: TypeName(void))
        #expect(StepRows.rows(of: silent, flows: []).isEmpty)
        let withResult = Step(id: "finish", contentType: TypeName(void), resultType: "Receipt")
        #expect(StepRows.rows(of: withResult, flows: []).map(\.text) == ["→ Receipt"])
    }

    @Test("a sub-flow step names the flow it runs by its name, says its states are drawn elsewhere, or says nothing when drawn inside")
    func subflowRows() {
        let address = Flow(id: "flows/address.flow.yaml#enter", name: "Enter address", kind: .declarative, steps: [])
        let step = Step(id: "addr", kind: .subflow, contentType: "Draft", subflow: address.id, implementation: "AddressCoordinator")
        #expect(StepRows.rows(of: step, flows: [address]).map(\.text) == ["Draft", "runs the flow “Enter address”", "AddressCoordinator"])
        #expect(StepRows.rows(of: step, flows: [], nesting: .named).map(\.text)[1] == "runs the flow “flows/address.flow.yaml#enter”")
        #expect(StepRows.rows(of: step, flows: [address], nesting: .ownDiagram).map(\.text) == ["Draft", "has its own states, drawn in its own diagram", "AddressCoordinator"])
        #expect(StepRows.rows(of: step, flows: [address], nesting: .drawnInside).map(\.text) == ["Draft", "AddressCoordinator"])
        // A name that is the step's own is not repeated as its implementation.
        #expect(StepRows.rows(of: Step(id: "Checkout", implementation: "Checkout"), flows: []).isEmpty)
    }

    // MARK: - Status and plurals

    @Test("a status counts each severity, worst first, and says so when there is none")
    func status() {
        func finding(_ severity: Severity) -> Finding { Finding(rule: RuleID.deadEnd, severity: severity, message: "m", location: nil) }
        #expect(FlowStatus(counting: []).text == "no problems found")
        #expect(FlowStatus(counting: [finding(.note), finding(.error), finding(.error)]).text == "2 errors · 1 note")
        #expect(FlowStatus(counting: [finding(.warning)]).text(separator: ", ") == "1 warning")
        #expect(Plural.count(0, "flow") == "0 flows")
        #expect(Plural.count(1, "flow") == "1 flow")
        #expect(Plural.noun(3, "new finding") == "new findings")
    }

    @Test("a run's findings grouped once give each flow the findings that count for it, in order, as reading them all for each flow does, and the index finds the machines the flows name as the flows read one by one do: 200 random graphs of machines, composite states and nested flows")
    func groupedFindings() {
        let machine = FlowKind(rawValue: "machine", noun: "machine", machine: .generated)
        var random = SplitMix64(seed: 17)
        var compared = 0
        for _ in 0..<200 {
            let count = 1 + random.below(12)
            let flows: [Flow] = (0..<count).map { n in
                // Now and then an id twice (two files can define one), so that a lookup has candidates to prefer among.
                var flow = Flow(id: random.chance(0.15) ? "m\(random.below(count))" : "m\(n)", name: random.chance(0.2) ? "m\(random.below(count))" : "M\(n)",
                                kind: random.chance(0.6) ? machine : .declarative, steps: [])
                if random.chance(0.3) { flow.parent = "m\(random.below(count))" }
                flow.steps = (0..<random.below(4)).map { k in
                    var step = Step(id: "s\(k)", kind: random.chance(0.5) ? .subflow : .operation)
                    step.subflow = random.chance(0.5) ? "m\(random.below(count))" : "M\(random.below(count))"
                    return step
                }
                return flow
            }
            let findings: [Finding] = (0..<random.below(30)).map { n in
                var finding = Finding(rule: RuleID.deadEnd, severity: [.error, .warning, .note][random.below(3)], message: "f\(n)", location: nil)
                finding.flow = random.chance(0.1) ? nil : random.chance(0.1) ? "gone" : "m\(random.below(count))"
                return finding
            }
            let grouped = FlowFindings(findings, flows: flows)
            let index = SubMachines.Index(flows)
            // The rule read off the flows one by one, as it was before `SubMachines.Index`.
            func referenced(_ reference: String, in parent: Flow) -> Flow? {
                flows.first { $0.id == reference && $0.parent == parent.id } ?? flows.first { $0.id == reference }
                    ?? flows.first { $0.name == reference && $0.parent == parent.id } ?? flows.first { $0.name == reference }
            }
            func linearScope(of flow: Flow) -> Set<String> {
                var ids: Set<String> = [flow.id], queue = [flow]
                while let current = queue.popLast() {
                    var inner = flows.filter { $0.parent == current.id }
                    if current.kind.isStateMachine {
                        inner += current.steps.compactMap { $0.kind == .subflow ? $0.subflow.flatMap { referenced($0, in: current) } : nil }.filter { $0.kind.isStateMachine }
                    }
                    for sub in inner where ids.insert(sub.id).inserted { queue.append(sub) }
                }
                return ids
            }
            for flow in flows {
                let scope = linearScope(of: flow)
                #expect(SubMachines.scope(of: flow, flows: flows) == scope)
                #expect(index.scope(of: flow) == scope)
                for reference in flows.flatMap({ [$0.id, $0.name] }) + ["none"] {
                    let expected = referenced(reference, in: flow).map { "\($0.id) \($0.name) \($0.parent ?? "-")" }
                    #expect(SubMachines.machine(reference, in: flow, flows: flows).map { "\($0.id) \($0.name) \($0.parent ?? "-")" } == expected)
                    #expect(index.machine(reference, in: flow).map { "\($0.id) \($0.name) \($0.parent ?? "-")" } == expected)
                }
                let counted = findings.filter { $0.flow.map(scope.contains) ?? false }
                #expect(grouped.counted(flow).map(\.message) == counted.map(\.message))
                #expect(FlowStatus.findings(of: flow, in: findings, flows: flows).map(\.message) == counted.map(\.message))
                #expect(grouped.own(flow).map(\.message) == findings.filter { $0.flow == flow.id }.map(\.message))
                #expect(grouped.status(of: flow) == FlowStatus(counting: counted))
                compared += scope.count > 1 ? 1 : 0
            }
        }
        #expect(compared > 100)  // flows that contain others were among them
    }

    /// An export draws each flow with its own findings: finding its scope read every flow, so that
    /// exporting 10,000 flows took 30–45 s (issue 49). 60,000 flows, each asked once.
    @Test("a flow's status from findings of it alone does not read every flow", .timeLimit(.minutes(1)))
    func statusFromOwnFindingsIsLinear() {
        let count = 60_000
        let flows = (0..<count).map { Flow(id: "f\($0)", kind: .declarative) }
        var errors = 0
        for flow in flows {
            let own = [Finding(rule: RuleID.deadEnd, severity: .error, message: "m", location: nil, flow: flow.id)]
            errors += FlowStatus(of: flow, findings: own, flows: flows).errors
        }
        #expect(errors == count)
    }

    // MARK: - Escaping

    /// Text with every kind of character an escaper must care about.
    static let hostile: String = {
        let visible = "Pay <now> & \"save\" 'x' \\N 100% a:b,c\tT\rR\nL "
        let scalars: [UInt32] = [0x0, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x7F, 0x85, 0x20, 0x202E, 0x20, 0x200B, 0x20, 0x2028, 0x20, 0xFEFF,
                                 0x20, 0xFDD0, 0x20, 0xFFFE, 0x20, 0x1FFFF, 0x20, 0xE9, 0x20, 0x1D11E]
        return visible + String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
    }()

    @Test("JSON: the escaped text is a JSON string that decodes back to the text, with no raw control, separator or escaped-extra character")
    func json() throws {
        for extra in [false, true] {
            let escaped = Escaping.json(Self.hostile, alsoEscaping: { extra && "%<>&".unicodeScalars.contains($0) })
            let decoded = try JSONSerialization.jsonObject(with: Data("[\(escaped)]".utf8)) as? [String]
            #expect(decoded == [Self.hostile])
            let raw = escaped.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x2028 || $0.value == 0x2029 }
            #expect(raw.isEmpty)
            #expect(escaped.contains("%") == !extra)
            #expect(escaped.contains("<") == !extra)
        }
    }

    @Test("XML: attribute and element text parse back, controls XML forbids become U+FFFD, and line breaks survive an attribute")
    func xml() throws {
        let document = "<r a=\"\(Escaping.xml(Self.hostile))\">\(Escaping.xml(Self.hostile, keepingLineBreaks: true))</r>"
        let parsed = try XMLDocument(xmlString: document)
        let root = try #require(parsed.rootElement())
        let attribute = try #require(root.attribute(forName: "a")?.stringValue)
        for kept in ["\t", "\n", "\r"] { #expect(attribute.contains(kept)) }
        #expect(attribute.contains("\u{FFFD}"))
        let forbidden = attribute.unicodeScalars.filter { $0.value == 0 || $0.value == 0x1B || $0.value == 0xFFFE }
        #expect(forbidden.isEmpty)
        #expect(attribute.contains("<now> & \"save\" 'x'"))
        #expect(root.stringValue?.contains("Pay <now>") == true)
    }

    @Test("HTML and Graphviz labels: no raw markup, hidden characters shown visibly; only the label doubles backslashes, breaks lines and caps")
    func markup() {
        let html = Escaping.html(Self.hostile)
        let label = Escaping.graphvizLabel(Self.hostile)
        for text in [html, label] {
            for raw in ["<now>", "\"save\"", "'x'", "\u{202E}"] { #expect(!text.contains(raw)) }
            for shown in ["&lt;now&gt;", "&quot;save&quot;", "&#39;x&#39;", "&lt;U+202E&gt;", "&lt;U+0000&gt;"] { #expect(text.contains(shown)) }
        }
        #expect(html.contains(" \\N "))
        #expect(label.contains(" \\\\N "))
        #expect(label.contains("<BR/>"))
        #expect(!html.contains("<BR/>"))
        #expect(html.contains("\n"))
        let long = String(repeating: "ab", count: 200)
        #expect(Escaping.graphvizLabel(long).count == DisplayText.maximumLength)
        #expect(Escaping.html(long) == long)
    }

    @Test("GitHub command data and properties: nothing that ends a command or starts a terminal escape is left raw")
    func gitHub() {
        let data = Escaping.gitHubCommandData(Self.hostile)
        let raw = data.unicodeScalars.filter { [0x0A, 0x0D, 0x1B, 0x0, 0x85].contains($0.value) }
        #expect(raw.isEmpty)
        for shown in ["100%25", "%0D", "%0A", "\t"] { #expect(data.contains(shown)) }
        let property = Escaping.gitHubCommandProperty(Self.hostile)
        #expect(property.contains("a%3Ab%2Cc"))
        #expect(!property.contains(":"))
        #expect(!property.contains(","))
    }

    @Test("Markdown: prose, table cells and code spans each keep their text literal in their context")
    func markdown() {
        #expect(Escaping.markdown("Use *bold* [x](y) #1\r\nnext") == "Use \\*bold\\* \\[x\\]\\(y\\) \\#1 next")
        #expect(Escaping.markdownTableCell("a|b\r\nc\nd`e`") == "a\\|b<br>c<br>d\\`e\\`")
        #expect(Escaping.markdownTableCell("") == " ")
        #expect(Escaping.markdownCodeSpan("x ``y`` |z|") == "```x ``y`` \\|z\\|```")
        #expect(Escaping.markdownCodeSpan("`edge`\n") == "`` `edge`  ``")
    }

    @Test("plain ASCII is printable bytes, line feeds when asked, and none of the specials; a one-character list of specials works")
    func plainASCII() {
        #expect(Escaping.isPlainASCII("load_user 1 ~", lineFeeds: false))
        #expect(!Escaping.isPlainASCII("a\nb", lineFeeds: false))
        #expect(Escaping.isPlainASCII("a\nb", lineFeeds: true))
        #expect(!Escaping.isPlainASCII("a&b", lineFeeds: true, special: "&"))
        #expect(Escaping.isPlainASCII("a<b", lineFeeds: true, special: "&"))
        for text in ["a\tb", "a\r\nb", "é", "\u{7F}", "\u{1}", "\u{85}"] { #expect(!Escaping.isPlainASCII(text, lineFeeds: true)) }
    }

    /// The JSON writer's escape (by UTF-8 bytes, runs appended whole), Markdown's (a character by its
    /// bytes, a table of ASCII punctuation) and the plain-ASCII shortcuts of the HTML, Graphviz-label
    /// and display escapes write what the scalar-by-scalar and string-search versions wrote.
    @Test("the fast JSON, Markdown, HTML, label and display escapes agree with the character-by-character ones on 5,000 random texts")
    func fastEscapesAgree() {
        var random = SplitMix64(seed: 0xE5C_A9E)
        func next(_ bound: Int) -> Int { random.below(bound) }
        let pieces = ["a", "Step", "\"", "\\", "\n", "\r\n", "\t", "\u{1}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{2027}", "→", "é", "e\u{301}",
                      "👩‍💻", "*", "[x](y)", "#", "|", "-", "\u{FEFF}", " ", "\u{85}", "\u{E2}", "*\u{301}", "\u{B}", "\u{C}", "\r", "&", "<", "'",
                      "\u{202E}", "\u{FFFE}", String(repeating: "ab", count: 45), "load_user", "Pay now"]
        let escapes = Self.passingEscapes()
        for _ in 0..<5_000 {
            let text = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            #expect(DisplayText.visible(text) == Self.slowVisible(text, limit: DisplayText.maximumLength), "\(text.debugDescription)")
            #expect(DisplayText.visible(text, limit: nil) == Self.slowVisible(text, limit: nil), "\(text.debugDescription)")
            #expect(Escaping.html(text) == Escaping.replacing(Self.slowVisible(text, limit: nil), Self.slowMarkup), "\(text.debugDescription)")
            #expect(Escaping.graphvizLabel(text) == Self.slowGraphvizLabel(text), "\(text.debugDescription)")
            var fast: [UInt8] = [], slow = ""
            Escaping.json(text, into: &fast)
            Escaping.json(text, into: &slow, alsoEscaping: { _ in false })
            #expect(fast == Array(slow.utf8), "\(text.debugDescription)")
            var markdown = ""
            for character in text {
                if character.isNewline { markdown += " "; continue }
                if "\\`*_{}[]()#+-.!<>|~&".contains(character) { markdown += "\\" }
                markdown.append(character)
            }
            #expect(Escaping.markdown(text) == markdown, "\(text.debugDescription)")
            for (fast, slow) in escapes {
                #expect(fast(text) == slow(text), "\(text.debugDescription)")
            }
        }
    }

    /// HTML's markup characters, as `Escaping.html` writes them.
    static func slowMarkup(_ scalar: Unicode.Scalar) -> String? {
        ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"][scalar]
    }

    /// `Escaping.graphvizLabel` by its rule: each line shown (`slowVisible`; an empty text or line is a
    /// space), capped, then `\`, line breaks and markup escaped.
    static func slowGraphvizLabel(_ text: String) -> String {
        let lines = text.isEmpty ? " " : text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { $0.isEmpty ? " " : String(Substring($0)) }.joined(separator: "\n")
        return Escaping.replacing(slowVisible(lines, limit: DisplayText.maximumLength)) { $0 == "\\" ? "\\\\" : $0 == "\n" ? "<BR/>" : slowMarkup($0) }
    }

    /// `DisplayText.visible` as its rule asked of every character, then capped at `limit`.
    static func slowVisible(_ text: String, limit: Int?) -> String {
        let shown = Escaping.replacing(text) { $0 == "\t" ? " " : DisplayText.isHidden($0) ? "<U+" + Escaping.hex($0, uppercase: true) + ">" : nil }
        guard let limit, shown.count > limit else { return shown }
        return String(shown.prefix(limit - 1)) + "…"
    }

    /// The escapes whose `replacing` passes over ASCII bytes (`Escaping.Passing`), each beside the
    /// same rule asked of every character (`replacing` without `passing`): a byte a table passes
    /// over must be one its rule leaves as it is.
    static func passingEscapes() -> [(fast: (String) -> String, slow: (String) -> String)] {
        func xml(_ keepingLineBreaks: Bool) -> (String) -> String {
            { text in
                Escaping.replacing(text) { scalar in
                    switch scalar {
                    case "\t": return keepingLineBreaks ? nil : "&#9;"
                    case "\n": return keepingLineBreaks ? nil : "&#10;"
                    case "\r": return "&#13;"
                    case "&": return "&amp;"
                    case "<": return "&lt;"
                    case ">": return "&gt;"
                    case "\"": return "&quot;"
                    default:
                        if Escaping.isForbiddenInXML(scalar) { return "\u{FFFD}" }
                        return Escaping.isControl(scalar) ? "&#\(scalar.value);" : nil
                    }
                }
            }
        }
        func gitHubData(_ text: String) -> String {
            Escaping.replacing(text) { scalar in
                switch scalar {
                case "%": return "%25"
                case "\r": return "%0D"
                case "\n": return "%0A"
                case "\t": return nil
                default: return Escaping.isControl(scalar) || Escaping.isNoncharacter(scalar) ? "\u{FFFD}" : nil
                }
            }
        }
        func gitHubProperty(_ text: String) -> String {
            Escaping.replacing(gitHubData(text)) { $0 == ":" ? "%3A" : $0 == "," ? "%2C" : nil }
        }
        func codeSpan(_ text: String) -> String {
            Escaping.codeSpan(flat: Escaping.replacing(text) { $0.value < 0x20 || $0.value == 0x7F ? " " : nil })
        }
        func tableCell(_ text: String) -> String {
            let out = Escaping.replacing(text, Escaping.markdownTableCellRule())
            return out.isEmpty ? " " : out
        }
        return [({ Escaping.xml($0) }, xml(false)), ({ Escaping.xml($0, keepingLineBreaks: true) }, xml(true)),
                (Escaping.gitHubCommandData, gitHubData), (Escaping.gitHubCommandProperty, gitHubProperty),
                (Escaping.markdownCodeSpan, codeSpan), (Escaping.markdownTableCell, tableCell)]
    }

    /// Every ASCII byte, and scalars of each UTF-8 length, between letters and alone: each escape that
    /// passes over bytes (`Escaping.Passing`), the HTML, label and display escapes, and the JSON
    /// writer's byte table write what the character-by-character rule writes.
    @Test("escapes that pass over ASCII bytes agree with their character-by-character rule on every ASCII byte")
    func passedBytesAreLeftByTheirRule() {
        let others: [Unicode.Scalar] = ["\u{80}", "\u{85}", "\u{9F}", "é", "\u{7FF}", "\u{800}", "\u{2028}", "\u{2029}", "\u{202E}",
                                        "\u{E200}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "\u{1FFFE}", "\u{10FFFF}"]
        let escapes = Self.passingEscapes()
        for scalar in (0..<128).map({ Unicode.Scalar(UInt8($0)) }) + others {
            // Short texts, and the character at each place of the eight-byte words the escapes pass
            // over at once (`ByteWords`), among printable ASCII that each escape leaves.
            let shown = String(scalar)
            let inWords = (0..<9).map { String(repeating: "x", count: $0) + shown + String(repeating: "y", count: 17 - $0) }
            for text in [shown, "a" + shown + "b", shown + shown + "é", String(repeating: shown, count: 19)] + inWords {
                for (fast, slow) in escapes { #expect(fast(text) == slow(text), "\(text.debugDescription)") }
                let visible = Self.slowVisible(text, limit: nil)
                #expect(DisplayText.visible(text, limit: nil) == visible, "\(text.debugDescription)")
                #expect(Escaping.html(text) == Escaping.replacing(visible, Self.slowMarkup), "\(text.debugDescription)")
                #expect(Escaping.graphvizLabel(text) == Self.slowGraphvizLabel(text), "\(text.debugDescription)")
                var fast: [UInt8] = [], slow = ""
                Escaping.json(text, into: &fast)
                Escaping.json(text, into: &slow, alsoEscaping: { _ in false })
                #expect(fast == Array(slow.utf8), "\(text.debugDescription)")
            }
        }
    }
}
