import FlowLens
import FlowLensTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `flowlens export --trace`: what the pictures show of recorded runs (issue 19 §4), checked in the
/// rendered SVG, the Mermaid text and the review page, for runs with known counts.
@Suite("export --trace: recorded runs on the pictures")
struct TracePictureTests {
    /// A checkout with three ways to pay; runs of it are written below with known counts.
    static let checkout = """
        version: 1
        flows:
          - name: Checkout
            id: checkout
            data: {cart: Cart, method: String}
            steps:
              - id: review
                name: Review cart
                reads: {cart: Cart}
                next:
                  - {to: card, when: {key: method, equals: card}}
                  - {to: invoice, when: {key: method, equals: invoice}}
                  - {to: paypal, when: {key: method, equals: paypal}}
              - {id: card, name: Pay by card, writes: {receipt: Receipt}, next: ship}
              - {id: invoice, name: Send invoice, writes: {receipt: Receipt}, next: ship}
              - {id: paypal, name: Pay with PayPal, writes: {receipt: Receipt}, next: ship}
              - {id: ship, name: Ship, reads: {receipt: Receipt}, next: done}
              - {id: done, kind: end}
          - name: Refund
            id: refund
            data: {order: Order}
            steps:
              - {id: check, name: Check order, reads: {order: Order}, next: pay-back}
              - {id: pay-back, name: Pay back, next: closed}
              - {id: closed, kind: end}
        """

    /// The runs: 37 pay by card and ship, 3 fail at the card payment for a missing `cardToken`
    /// (first r-38), 2 pay by invoice and ship, 1 goes from the review straight to shipping (a move
    /// the flow has no transition for). None pays with PayPal; none is a refund.
    static var checkoutRuns: String {
        var lines: [String] = []
        func event(_ run: Int, _ fields: String) { lines.append("{\"flow\": \"checkout\", \"run\": \"r-\(run)\", \(fields)}") }
        var run = 0
        for _ in 0..<37 {
            run += 1
            for step in ["review", "card", "ship"] {
                event(run, "\"step\": \"\(step)\", \"event\": \"start\"")
                event(run, "\"step\": \"\(step)\", \"event\": \"finish\"")
            }
            event(run, "\"event\": \"end\", \"reason\": \"success\"")
        }
        for _ in 0..<3 {
            run += 1
            event(run, "\"step\": \"review\", \"event\": \"start\", \"time\": \"2026-11-02T10:15:02Z\"")
            event(run, "\"step\": \"card\", \"event\": \"start\"")
            event(run, "\"step\": \"card\", \"event\": \"fail\", \"reason\": \"missing-key\", \"key\": \"cardToken\"")
            event(run, "\"event\": \"end\", \"reason\": \"failure\"")
        }
        for _ in 0..<2 {
            run += 1
            for step in ["review", "invoice", "ship"] { event(run, "\"step\": \"\(step)\", \"event\": \"start\"") }
            event(run, "\"event\": \"end\", \"reason\": \"success\"")
        }
        run += 1
        event(run, "\"step\": \"review\", \"event\": \"start\"")
        event(run, "\"step\": \"ship\", \"event\": \"start\"")
        event(run, "\"event\": \"end\", \"reason\": \"success\"")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A folder holding the checkout flows and their runs.
    func checkoutFolder() throws -> String {
        let folder = try temporaryDirectory()
        try Self.checkout.write(toFile: folder + "/checkout.flow.yaml", atomically: true, encoding: .utf8)
        try Self.checkoutRuns.write(toFile: folder + "/runs.jsonl", atomically: true, encoding: .utf8)
        return folder
    }

    /// The flow named `name` as FlowLens reads it from `folder`, and its step indices by name.
    func flow(_ name: String, in folder: String) throws -> (flow: Flow, step: (String) -> Int) {
        let flow = try #require(FlowLens.load([folder]).flows.first { $0.name == name })
        return (flow, { step in flow.steps.firstIndex { $0.name == step }! })
    }

    /// A rendered SVG: each edge by its Graphviz title (`s0->s1`) and each node by its id, as XML.
    struct SVG {
        let document: XMLDocument

        init(path: String) throws { document = try XMLDocument(contentsOf: URL(fileURLWithPath: path)) }

        func group(_ xpath: String) throws -> XMLElement? { try document.nodes(forXPath: xpath).first as? XMLElement }

        func edge(_ tail: Int, _ head: Int) throws -> XMLElement? {
            try group("//*[local-name()='g'][@class='edge'][*[local-name()='title']='s\(tail)->s\(head)']")
        }

        func node(step: Int) throws -> XMLElement? { try group("//*[local-name()='g'][@id='step-\(step)']") }

        static func texts(_ element: XMLElement?) -> [String] {
            ((try? element?.nodes(forXPath: ".//*[local-name()='text']")) ?? []).compactMap(\.stringValue)
        }

        /// The stroke width of the element's first path (1 when Graphviz writes none).
        static func strokeWidth(_ element: XMLElement?) -> Double? {
            guard let path = (try? element?.nodes(forXPath: "./*[local-name()='path']"))?.first as? XMLElement else { return nil }
            return value("stroke-width", of: path).flatMap(Double.init) ?? 1
        }

        static func attribute(_ name: String, ofFirst shape: String, in element: XMLElement?) -> String? {
            ((try? element?.nodes(forXPath: "./*[local-name()='\(shape)']"))?.first as? XMLElement).flatMap { value(name, of: $0) }?.uppercased()
        }

        /// An attribute's value, found by its name (in a document with a default namespace,
        /// `attribute(forName:)` does not find plain attribute names on every platform).
        static func value(_ name: String, of element: XMLElement) -> String? {
            element.attributes?.first { $0.name == name || $0.localName == name }?.stringValue
        }

        var title: String { Self.texts(try? group("/*[local-name()='svg']/*[local-name()='g']")).prefix(3).joined(separator: " ") }
    }

    @Test("SVG: counts on the edges, wider lines for more runs, the unreached step and edges faded, the failure at its step")
    func svg() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--trace", "runs.jsonl", "--jobs", "1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("drew 43 recorded runs on 1 flow"), "\(result.stderr)")
        let (_, step) = try flow("Checkout", in: folder)
        let svg = try SVG(path: folder + "/out/Checkout.svg")
        #expect(svg.title.contains("43 recorded runs"), "\(svg.title)")

        let (review, card, invoice, paypal, ship) = (step("Review cart"), step("Pay by card"), step("Send invoice"), step("Pay with PayPal"), step("Ship"))
        let toCard = try svg.edge(review, card), toInvoice = try svg.edge(review, invoice), toPaypal = try svg.edge(review, paypal)
        #expect(SVG.texts(toCard).contains("40 runs"), "\(SVG.texts(toCard))")
        #expect(SVG.texts(try svg.edge(card, ship)).contains("37 runs"))
        #expect(SVG.texts(toInvoice).contains("2 runs"))
        #expect(SVG.texts(try svg.edge(invoice, ship)).contains("2 runs"))
        let widthToCard = try #require(SVG.strokeWidth(toCard)), widthToInvoice = try #require(SVG.strokeWidth(toInvoice))
        #expect(widthToCard == TraceOverlay.width(forCount: 40) && widthToInvoice == TraceOverlay.width(forCount: 2))
        #expect(widthToCard > widthToInvoice && widthToInvoice > 1)

        // No run paid with PayPal: the step and its edges are faded, with no count.
        #expect(!SVG.texts(toPaypal).contains { $0.hasSuffix("runs") || $0.hasSuffix("run") })
        #expect(SVG.attribute("stroke", ofFirst: "path", in: toPaypal) == TraceOverlay.fadedLine)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.edge(paypal, ship)) == TraceOverlay.fadedLine)
        let paypalNode = try svg.node(step: paypal)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: paypalNode) == TraceOverlay.fadedLine)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.node(step: invoice)) != TraceOverlay.fadedLine)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.node(step: ship)) != TraceOverlay.fadedLine)

        // The failure is marked at the card payment, with its count, key and first run; nowhere else.
        let cardNode = try svg.node(step: card)
        #expect(SVG.texts(cardNode).contains("✖ 3 runs failed: ‘cardToken’ was missing (first: run r-38)"), "\(SVG.texts(cardNode))")
        #expect(SVG.attribute("stroke", ofFirst: "path", in: cardNode) == TraceOverlay.failureColour)
        for other in [review, invoice, paypal, ship] { #expect(!SVG.texts(try svg.node(step: other)).contains { $0.contains("failed") }) }
        let legend = SVG.texts(try svg.group("//*[local-name()='g'][@id='legend']"))
        #expect(legend.contains(TraceOverlay.legendThickness) && legend.contains(TraceOverlay.legendFaded) && legend.contains(TraceOverlay.legendFailure))

        // A flow no run matched is drawn as usual, and says so.
        let refund = try SVG(path: folder + "/out/Refund.svg")
        #expect(refund.title.contains("no recorded runs"))
        let plain = try flowlens(["export", "checkout.flow.yaml", "--output", "plain", "--jobs", "1"], in: folder)
        #expect(plain.status == 0)
        let tracedRefund = try String(contentsOfFile: folder + "/out/Refund.svg", encoding: .utf8)
        let plainRefund = try String(contentsOfFile: folder + "/plain/Refund.svg", encoding: .utf8)
        #expect(!plainRefund.contains("recorded"))
        // Drawn as usual: no line is widened or faded.
        #expect(tracedRefund.components(separatedBy: "stroke-width").count == plainRefund.components(separatedBy: "stroke-width").count)
        #expect(!tracedRefund.lowercased().contains(TraceOverlay.fadedLine.lowercased()))
    }

    @Test("Mermaid: counts in the edge labels, linkStyle widths, the faded and failed classes")
    func mermaid() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--format", "mermaid", "--trace", "runs.jsonl"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let (_, step) = try flow("Checkout", in: folder)
        let text = try String(contentsOfFile: folder + "/out/Checkout.mmd", encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let edges = lines.filter { $0.contains("-->") || $0.contains("-.-") }
        func edge(_ tail: Int, _ head: Int) -> (index: Int, line: String)? {
            edges.enumerated().first { $0.element.hasPrefix("s\(tail) ") && $0.element.hasSuffix(" s\(head)") }.map { ($0.offset, $0.element) }
        }
        let (review, card, invoice, paypal, ship) = (step("Review cart"), step("Pay by card"), step("Send invoice"), step("Pay with PayPal"), step("Ship"))
        let toCard = try #require(edge(review, card)), toInvoice = try #require(edge(review, invoice)), toPaypal = try #require(edge(review, paypal))
        #expect(toCard.line.contains("<br>40 runs\"|"), "\(toCard.line)")
        #expect(toInvoice.line.contains("<br>2 runs\"|"))
        #expect(!toPaypal.line.contains("run"))
        #expect(lines.contains("linkStyle \(toCard.index) stroke-width:\(TraceOverlay.widthText(TraceOverlay.width(forCount: 40)))px"))
        #expect(lines.contains("linkStyle \(toInvoice.index) stroke-width:\(TraceOverlay.widthText(TraceOverlay.width(forCount: 2)))px"))
        #expect(lines.contains("linkStyle \(toPaypal.index) stroke:\(TraceOverlay.fadedLine)"))
        #expect(lines.contains("class s\(paypal) faded") && !lines.contains("class s\(ship) faded"))
        #expect(lines.contains("class s\(card) failed"))
        #expect(lines.contains { $0.hasPrefix("s\(card)(") && $0.contains("✖ 3 runs failed: ‘cardToken’ was missing (first: run r-38)") })
        #expect(lines.contains { $0.hasPrefix("begin((") && $0.contains("start<br>43 recorded runs") })
        // The flow no run matched: no counts, no classes of runs, and it says so.
        let refund = try String(contentsOfFile: folder + "/out/Refund.mmd", encoding: .utf8)
        #expect(refund.contains("start<br>no recorded runs") && !refund.contains("linkStyle") && !refund.contains("class s0 faded"))
    }

    @Test("The review page tells what really happens: the paths with their shares, the endings, the failures, the steps never reached, the moves off the graph")
    func reviewPage() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--format", "html", "--trace", "runs.jsonl", "--jobs", "1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: folder + "/out/index.html", encoding: .utf8)
        let sections = page.components(separatedBy: "<section class=\"flow")
        let checkout = try #require(sections.first { $0.contains(">Checkout</h2>") })
        let happens = try #require(checkout.components(separatedBy: "<h3>What really happens</h3>").last)
        #expect(happens.contains("<p>43 runs recorded.</p>"))
        let paths = [
            "37 of 43 runs (86%) went <strong>Review cart</strong> → <strong>Pay by card</strong> → <strong>Ship</strong>.",
            "3 of 43 runs (7%) went <strong>Review cart</strong> → <strong>Pay by card</strong>.",
            "2 of 43 runs (5%) went <strong>Review cart</strong> → <strong>Send invoice</strong> → <strong>Ship</strong>.",
            "1 of 43 runs (2%) went <strong>Review cart</strong> → <strong>Ship</strong>.",
        ]
        var at = happens.startIndex
        for path in paths {
            let found = try #require(happens.range(of: path, range: at..<happens.endIndex), "\(path) in order")
            at = found.upperBound
        }
        #expect(happens.contains("<li>40 runs (93%) finished.</li>") && happens.contains("<li>3 runs (7%) failed.</li>"))
        #expect(happens.contains("<li><strong>Pay by card</strong>: ‘cardToken’ was missing in 3 runs. <span class=\"where\">first: run r-38, runs.jsonl:"))
        #expect(happens.contains("No run reached <strong>Pay with PayPal</strong>."))
        #expect(happens.contains("<li>1 run went from <strong>Review cart</strong> to <strong>Ship</strong>, where the flow has no transition."))
        let refund = try #require(sections.first { $0.contains(">Refund</h2>") })
        #expect(refund.contains("No recorded runs of this flow were given."))
        // The page's style, allowed by its hash, holds the section's rules.
        #expect(page.contains(".runs h4"))
    }

    @Test("The traced pages are the same bytes on every run, and text from the records is escaped on them")
    func deterministicAndEscaped() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hostile = "<script>alert(1)</script>"
        try (Self.checkoutRuns + """
            {"flow": "checkout", "run": "\(hostile)", "step": "review", "event": "start"}
            {"flow": "checkout", "run": "\(hostile)", "step": "<img src=x onerror=alert(2)>", "event": "start"}
            {"flow": "checkout", "run": "\(hostile)", "step": "<img src=x onerror=alert(2)>", "event": "fail", "reason": "missing-key", "key": "a\\"b"}

            """).write(toFile: folder + "/runs.jsonl", atomically: true, encoding: .utf8)
        var pages: [String] = []
        for n in 1...2 {
            let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out\(n)", "--format", "html", "--trace", "runs.jsonl", "--jobs", "\(n)"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            pages.append(try String(contentsOfFile: folder + "/out\(n)/index.html", encoding: .utf8))
        }
        #expect(pages[0] == pages[1])
        let page = pages[0]
        #expect(!page.contains(hostile) && !page.contains("<img src=x"))
        #expect(page.contains("<li>1 run started a step “&lt;img src=x onerror=alert(2)&gt;”, which the flow does not have."))
        #expect(page.contains("<li>a step the flow does not have: ‘a&quot;b’ was missing in 1 run. <span class=\"where\">first: run &lt;script&gt;alert(1)&lt;/script&gt;, runs.jsonl:"))
        #expect(page.contains("<p>44 runs recorded.</p>"))
    }

    @Test("The review page lists the 5 paths most runs took and counts the others")
    func manyPaths() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ways = [["review", "card", "ship"], ["review", "invoice", "ship"], ["review", "paypal", "ship"], ["review", "card"],
                    ["review", "invoice"], ["review", "paypal"], ["review"], ["review", "ship"]]
        var lines: [String] = []
        var run = 0
        for (n, way) in ways.enumerated() {
            for _ in 0..<(8 - n) {
                run += 1
                lines += way.map { "{\"flow\": \"Checkout\", \"run\": \(run), \"step\": \"\($0)\", \"event\": \"start\"}" }
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/ways.jsonl", atomically: true, encoding: .utf8)
        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--format", "html", "--trace", "ways.jsonl", "--jobs", "1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: folder + "/out/index.html", encoding: .utf8)
        let listed = page.components(separatedBy: "<ol class=\"run-paths\">")[1].components(separatedBy: "</ol>")[0]
        #expect(listed.components(separatedBy: "<li>").count - 1 == 5)
        #expect(listed.contains("8 of 36 runs (22%) went <strong>Review cart</strong> → <strong>Pay by card</strong> → <strong>Ship</strong>."))
        #expect(listed.contains("4 of 36 runs (11%) went <strong>Review cart</strong> → <strong>Send invoice</strong>."))
        #expect(page.contains("<p class=\"muted\">6 runs (17%) went 3 other paths.</p>"))
        #expect(page.contains("<li>36 runs (100%) have no recorded end (still running, or the record was cut off).</li>"))
    }

    @Test("Of two transitions between the same steps, the one runs were not counted on is not faded: the records do not say which condition held")
    func sameWayTwice() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            version: 1
            flows:
              - name: Support ticket
                id: ticket
                data: {priority: String}
                steps:
                  - id: triage
                    next:
                      - {to: escalate, when: {key: priority, equals: urgent}}
                      - {to: escalate, when: {key: priority, equals: high}}
                      - {to: queue, otherwise: true}
                  - {id: escalate, next: closed}
                  - {id: queue, next: closed}
                  - {id: closed, kind: end}
            """.write(toFile: folder + "/ticket.flow.yaml", atomically: true, encoding: .utf8)
        let runs = (1...6).flatMap { run in
            ["triage", "escalate"].map { "{\"flow\": \"ticket\", \"run\": \(run), \"step\": \"\($0)\", \"event\": \"start\"}" }
                + ["{\"flow\": \"ticket\", \"run\": \(run), \"event\": \"end\", \"reason\": \"success\"}"]
        }
        try (runs.joined(separator: "\n") + "\n").write(toFile: folder + "/tickets.jsonl", atomically: true, encoding: .utf8)
        let result = try flowlens(["export", "ticket.flow.yaml", "--output", "out", "--format", "dot", "--trace", "tickets.jsonl"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let dot = try String(contentsOfFile: folder + "/out/Support-ticket.dot", encoding: .utf8)
        let edges = dot.split(separator: "\n").filter { $0.contains(" -> s") && !$0.contains("start ->") }
        let toEscalate = edges.filter { $0.contains("s0 -> s1 ") }
        #expect(toEscalate.count == 2 && toEscalate.filter { $0.contains("6 runs") }.count == 1, "\(toEscalate)")
        #expect(!toEscalate.contains { $0.contains(TraceOverlay.fadedLine) })
        // The way to the queue, which no run took, is faded.
        #expect(edges.contains { $0.contains("s0 -> s2 ") && $0.contains(TraceOverlay.fadedLine) })
    }

    @Test("The traced DOT and Mermaid of the checkout match their golden files")
    func tracedGolden() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (format, file, golden) in [("dot", "Checkout.dot", "traced-checkout.dot"), ("mermaid", "Checkout.mmd", "traced-checkout.mmd")] {
            let result = try flowlens(["export", "checkout.flow.yaml", "--output", format, "--format", format, "--trace", "runs.jsonl"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: folder + "/\(format)/\(file)", encoding: .utf8)
            if let mismatch = goldenMismatch(text, name: golden) { Issue.record(Comment(rawValue: mismatch)) }
        }
    }

    @Test("Runs of flows not read are listed, the first 10, then counted; they change no picture")
    func unmatched() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let other = (1...12).map { "{\"flow\": \"inventory\", \"run\": \"i-\($0)\", \"step\": \"count\", \"event\": \"start\"}" }
        try (other.joined(separator: "\n") + "\n").write(toFile: folder + "/inventory.jsonl", atomically: true, encoding: .utf8)
        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--format", "dot", "--trace", "runs.jsonl", "--trace", "inventory.jsonl"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("note: run matched to no flow: it names flow 'inventory'") }
        #expect(notes.count == 10 && notes.first?.hasPrefix("inventory.jsonl:1: ") == true, "\(result.stderr)")
        #expect(result.stderr.contains("flowlens: 2 more runs matched to no flow ('flowlens trace' lists them all)"))
        let alone = try flowlens(["export", "checkout.flow.yaml", "--output", "alone", "--format", "dot", "--trace", "runs.jsonl"], in: folder)
        #expect(alone.status == 0)
        #expect(try String(contentsOfFile: folder + "/out/Checkout.dot", encoding: .utf8) == String(contentsOfFile: folder + "/alone/Checkout.dot", encoding: .utf8))
    }

    @Test("A records file with a bad line: reported at its line, exit 2, the rest drawn, every file whole")
    func badLine() throws {
        let folder = try checkoutFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (Self.checkoutRuns + "{\"flow\": \"checkout\", \"run\": \"r-99\", \"step\": \n").write(toFile: folder + "/runs.jsonl", atomically: true, encoding: .utf8)
        let lines = Self.checkoutRuns.split(separator: "\n").count
        for format in ["svg", "html", "mermaid"] {
            let result = try flowlens(["export", "checkout.flow.yaml", "--output", format, "--format", format, "--trace", "runs.jsonl", "--jobs", "1"], in: folder)
            #expect(result.status == 2, "\(format): \(result.stderr)")
            #expect(result.stderr.contains("runs.jsonl:\(lines + 1):"), "\(result.stderr)")
            #expect(result.stderr.contains("[invalid-input]"))
            let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + format)
            #expect(!written.contains { $0.hasPrefix(".flowlens-tmp") })
            #expect(written.contains("report.json"))
        }
        // The runs that could be read are drawn, complete.
        let svg = try SVG(path: folder + "/svg/Checkout.svg")
        #expect(svg.title.contains("43 recorded runs"))
        // A records file that is not there is invalid input too, not a picture of no runs.
        let missing = try flowlens(["export", "checkout.flow.yaml", "--output", "none", "--trace", "nothing.jsonl"], in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("nothing.jsonl: error: cannot read the run records"), "\(missing.stderr)")
        // So is a file that holds no run records FlowLens reads (a flow file given by mistake).
        let notRecords = try flowlens(["export", "checkout.flow.yaml", "--output", "wrong", "--trace", "checkout.flow.yaml"], in: folder)
        #expect(notRecords.status == 2 && notRecords.stderr.contains("checkout.flow.yaml:1:1: error: not a run record FlowLens reads"), "\(notRecords.stderr)")
    }

    @Test("A Flow-iOS flow from Swift and its run summaries: counts through the case split and the join, the untaken case faded")
    func flowIOS() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            import Flow_iOS

            final class ValidateCartOp: FlowOperation {
                override func mainLogic() {
                    guard let cartID: String = getData(name: "cartID") else { return }
                    log(message: "validating \\(cartID)")
                    finishSuccessfully()
                }
            }

            final class ChargeCardOp: FlowOperation {
                override func mainLogic() {
                    guard let cartID: String = getData(name: "cartID") else { return }
                    setData(name: "receiptID", value: "rc-" + cartID)
                    finishSuccessfully()
                }
            }

            final class CreateInvoiceOp: FlowOperation {
                override func mainLogic() {
                    guard let cartID: String = getData(name: "cartID") else { return }
                    setData(name: "receiptID", value: "inv-" + cartID)
                    finishSuccessfully()
                }
            }

            final class EmailReceiptOp: FlowOperation {
                override func mainLogic() {
                    guard let receiptID: String = getData(name: "receiptID") else { return }
                    log(message: "emailing \\(receiptID)")
                    finishSuccessfully()
                }
            }

            final class OrderViewController {
                func placeOrder(method: String) {
                    Flow()
                        .setDataBucket(dataBucket: ["cartID": "c-118", "paymentMethod": method])
                        .add(operation: ValidateCartOp())
                        .add(operation: ChargeCardOp(), flowCase: FlowCase(key: "paymentMethod", value: "card"))
                        .add(operation: CreateInvoiceOp(), flowCase: FlowCase(key: "paymentMethod", value: "invoice"))
                        .combine()
                        .add(operation: EmailReceiptOp())
                        .start()
                }
            }
            """.write(toFile: folder + "/OrderViewController.swift", atomically: true, encoding: .utf8)
        func summary(_ time: String, _ lines: [String], success: Bool) -> String {
            (["====== Flow Summary ======", "\(time) [DataBucket] start with:", "cartID: c-118", "paymentMethod: card"]
                + lines.map { "\(time) [\($0)" } + ["Flow isSuccess: \(success)", "======    Ending    ======"]).joined(separator: "\n")
        }
        var log: [String] = ["2026-11-02 app started"]
        for n in 0..<4 {
            log.append(summary("4:1\(n):08 PM", ["ValidateCartOp] WillStart", "ValidateCartOp] DidFinish: successfully",
                                                 "ChargeCardOp] WillStart", "ChargeCardOp] DidFinish: successfully",
                                                 "EmailReceiptOp] WillStart", "EmailReceiptOp] DidFinish: successfully"], success: true))
        }
        log.append(summary("16:20:31", ["ValidateCartOp] WillStart", "ValidateCartOp] DidFinish: successfully",
                                        "ChargeCardOp] WillStart", "ChargeCardOp] DidFinish: withInsufficientInputData: can't find <cardToken> in data bucket"],
                           success: false))
        try (log.joined(separator: "\n") + "\n").write(toFile: folder + "/device.log", atomically: true, encoding: .utf8)

        let result = try flowlens(["export", "OrderViewController.swift", "--output", "out", "--trace", "device.log", "--jobs", "1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let flow = try #require(FlowLens.load([folder + "/OrderViewController.swift"]).flows.first)
        let step = { (name: String) in flow.steps.firstIndex { $0.name == name }! }
        let svg = try SVG(path: try #require(FileManager.default.contentsOfDirectory(atPath: folder + "/out").first { $0.hasSuffix(".svg") }.map { folder + "/out/" + $0 }))
        #expect(svg.title.contains("5 recorded runs"), "\(svg.title)")
        let (validate, charge, invoice, email) = (step("ValidateCartOp"), step("ChargeCardOp"), step("CreateInvoiceOp"), step("EmailReceiptOp"))
        let start = try #require(flow.steps.firstIndex { $0.kind == .start })
        let join = try #require(flow.steps.firstIndex { $0.kind == .join })
        #expect(SVG.texts(try svg.edge(start, validate)).contains("5 runs"))
        #expect(SVG.texts(try svg.edge(validate, charge)).contains("5 runs"))
        #expect(SVG.texts(try svg.edge(charge, join)).contains("4 runs"))
        #expect(SVG.texts(try svg.edge(join, email)).contains("4 runs"))
        // No run took the invoice case: its edges and step are faded. The join, which runs no code of
        // its own and leaves no record, is not: runs went through it.
        let toInvoice = try svg.edge(validate, invoice)
        #expect(!SVG.texts(toInvoice).contains { $0.hasSuffix(" runs") } && SVG.attribute("stroke", ofFirst: "path", in: toInvoice) == TraceOverlay.fadedLine)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.edge(invoice, join)) == TraceOverlay.fadedLine)
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.node(step: invoice)) == TraceOverlay.fadedLine)
        #expect(SVG.attribute("fill", ofFirst: "ellipse", in: try svg.node(step: join)) == "#5F6B7A")
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.node(step: email)) != TraceOverlay.fadedLine)
        let chargeTexts = SVG.texts(try svg.node(step: charge))
        #expect(chargeTexts.contains { $0.hasPrefix("✖ 1 run failed: ‘cardToken’ was missing (first: run ") }, "\(chargeTexts)")
        #expect(SVG.attribute("stroke", ofFirst: "path", in: try svg.node(step: charge)) == TraceOverlay.failureColour)
    }
}
