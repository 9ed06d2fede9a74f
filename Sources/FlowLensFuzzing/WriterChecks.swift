import FlowLens
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What each writer's output must be for the program that reads it next, whatever text a flow holds.
enum WriterChecks {
    // MARK: DOT

    /// DOT that Graphviz's reader accepts, HTML-like labels that are well-formed XML (Graphviz parses
    /// them with expat when it lays the graph out: a noncharacter there dropped every label), no
    /// hidden character, labels capped; and export file names that are safe and unique.
    static func dot(_ report: Report) -> [String] {
        var problems: [String] = []
        for flow in report.graph.flows {
            let dot = FlowLens.dot(for: flow, in: report)
            problems += dotProblems(dot, flow: flow)
        }
        problems += fileNameProblems(Exporter.fileNames(for: report.graph.flows))
        return problems
    }

    static func dotProblems(_ dot: String, flow: Flow) -> [String] {
        var problems = hidden(in: dot, format: "DOT of flow '\(flow.id.prefix(40))'") + uncapped(dot, format: "DOT")
        do { try Graphviz.parse(dot: dot) } catch { problems.append("Graphviz rejects the DOT of flow '\(flow.id.prefix(40))': \(error)") }
        for label in htmlLabels(in: dot) where !isWellFormedXML("<HTML>" + label + "</HTML>") {
            problems.append("an HTML-like label is not well-formed XML: \(label.prefix(200))")
        }
        return problems
    }

    /// The contents of every `<…>` attribute value (an HTML-like label) in `dot`, outside quoted strings.
    static func htmlLabels(in dot: String) -> [String] {
        let scalars = Array(dot.unicodeScalars)
        var labels: [String] = []
        var i = 0
        var inQuotes = false
        while i < scalars.count {
            let c = scalars[i]
            if inQuotes {
                if c == "\\" { i += 1 } else if c == "\"" { inQuotes = false }
            } else if c == "\"" {
                inQuotes = true
            } else if c == "<", i > 0, scalars[i - 1] == "=" {
                var depth = 0
                var j = i
                var label = String.UnicodeScalarView()
                while j < scalars.count {
                    if scalars[j] == "<" { depth += 1 } else if scalars[j] == ">" { depth -= 1 }
                    if depth == 0 { break }
                    if j > i { label.append(scalars[j]) }
                    j += 1
                }
                labels.append(String(label))
                i = j
            }
            i += 1
        }
        return labels
    }

    static func fileNameProblems(_ names: [String]) -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for name in names {
            if name.isEmpty || name.utf8.count > Exporter.maximumNameBytes || name.contains("/") || name.hasPrefix(".") || name.hasPrefix("-")
                || name.contains("..") || name.unicodeScalars.contains(where: DisplayText.isHidden) {
                problems.append("unsafe export file name '\(name.prefix(80))' (\(name.utf8.count) bytes)")
            }
            if !seen.insert(name.lowercased()).inserted || name.lowercased() == "report" { problems.append("export file name '\(name)' is taken twice") }
        }
        return problems
    }

    // MARK: SVG

    /// Graphviz's SVG of each flow's DOT parses as XML, with an `svg` root and no script.
    static func svg(_ report: Report) -> [String] {
        var problems = dot(report)
        for flow in report.graph.flows {
            let dot = FlowLens.dot(for: flow, in: report)
            do {
                let data = try Graphviz.render(dot: dot, format: .svg)
                problems += hidden(in: String(decoding: data, as: UTF8.self), format: "SVG", allowing: ["\t", "\r"])
                let outline = XMLOutline(data)
                guard outline.isWellFormed else {
                    problems.append("the SVG of flow '\(flow.id.prefix(40))' is not well-formed XML")
                    continue
                }
                if outline.root != "svg" { problems.append("the SVG's root is not <svg>") }
                if outline.elements.contains("script") { problems.append("the SVG holds a script") }
            } catch {
                problems.append("Graphviz cannot render flow '\(flow.id.prefix(40))': \(error)")
            }
        }
        return problems
    }

    // MARK: Mermaid

    /// Each diagram starts with its kind, stays under Mermaid's limits, lets no user text start a
    /// line or unbalance a quoted label (the checks of `MermaidTests.hostile`), holds no hidden
    /// character and caps its labels; the Markdown page holds no hidden character either.
    static func mermaid(_ report: Report) -> [String] {
        var problems: [String] = []
        for flow in report.graph.flows {
            for diagram in MermaidExport.diagrams(for: flow, in: report) {
                let text = diagram.text
                problems += hidden(in: text, format: "Mermaid") + uncapped(text, format: "Mermaid")
                if !(text.hasPrefix("flowchart TD\n") || text.hasPrefix("stateDiagram-v2\n")) { problems.append("a Mermaid diagram starts with '\(text.prefix(20))'") }
                if text.count >= MermaidBuilder.maxTextSize { problems.append("a Mermaid diagram of \(text.count) characters, over Mermaid's \(MermaidBuilder.maxTextSize)") }
                for line in text.split(separator: "\n").dropFirst().map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    let first = line.prefix { !$0.isWhitespace && $0 != "(" && $0 != "[" && $0 != "{" && $0 != ">" }
                    let known = first.isEmpty || ["%%", "state", "classDef", "class", "linkStyle", "[*]", "note", "end", "subgraph", "direction", "}"].contains(String(first))
                        || first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !known { problems.append("a Mermaid line starts with user text: \(line.prefix(120))") }
                    // Quotes, braces and angle brackets by their bytes, as Mermaid's parser reads them: as
                    // characters, a quote that a combining mark follows (`"` U+2DFF) is not a quote.
                    let bytes = Array(line.utf8)
                    if !line.hasPrefix("%%"), bytes.filter({ $0 == UInt8(ascii: "\"") }).count % 2 != 0 { problems.append("unbalanced quotes in a Mermaid line: \(line.prefix(120))") }
                    if line.hasPrefix("%%"), !line.hasPrefix("%% flowlens-labels: ["), bytes.contains(UInt8(ascii: "{")) || bytes.contains(UInt8(ascii: "<")) {
                        problems.append("a Mermaid comment holds '{' or '<' (a directive or markup): \(line.prefix(120))")
                    }
                }
            }
            problems += hidden(in: MermaidExport.markdown(for: flow, in: report), format: "Markdown")
        }
        return problems
    }

    // MARK: Review page

    /// The review page is balanced markup: every element it opens is closed in order, every
    /// attribute value quoted, one script (its own), no hidden character. The diagrams are given as
    /// an empty SVG: the page's text and links are what is fuzzed here, Graphviz's SVG is `svg`'s.
    static func review(_ report: Report) -> [String] {
        let builder = DOTBuilder()
        let diagrams = report.graph.flows.map { flow in
            let diagram = builder.diagram(for: flow, findings: report.findings, flows: report.graph.flows)
            return ReviewPage.RenderedDiagram(svg: "<svg xmlns=\"http://www.w3.org/2000/svg\"><g id=\"graph0\"></g></svg>", marks: diagram.marks,
                                              steps: diagram.steps, transitions: diagram.transitions)
        }
        let page = ReviewPage().html(report, diagrams: diagrams)
        var problems = hidden(in: page, format: "the review page")
        let scripts = occurrences(of: "<script", in: page)
        if scripts != 1 { problems.append("the review page has \(scripts) scripts, not its own one") }
        if let problem = HTMLBalance.problem(in: page) { problems.append("the review page is not balanced: \(problem)") }
        return problems
    }

    /// How many times `word` (ASCII) is in `text`, counted in its bytes (Foundation's
    /// `components(separatedBy:)` compared by characters: a quarter of this target's time).
    static func occurrences(of word: String, in text: String) -> Int {
        let needle = Array(word.utf8)
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var count = 0, i = 0
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) {
                    count += 1
                    i += needle.count
                } else {
                    i += 1
                }
            }
            return count
        } ?? text.components(separatedBy: word).count - 1
    }

    // MARK: Reports

    /// JSON, SARIF and GitLab parse as JSON; JUnit and Checkstyle as XML; a GitHub annotation is one
    /// `::` command a line, without control characters (but tab) or noncharacters; text and Markdown end.
    static func reports(_ report: Report) -> [String] {
        var problems: [String] = []
        for format in ReportFormat.allCases {
            let output = format.reporter(rules: RuleRegistry.descriptions).report(report)
            switch format {
            case .json, .sarif, .gitlab:
                if (try? JSONSerialization.jsonObject(with: Data(output.utf8))) == nil { problems.append("the \(format.rawValue) report does not parse as JSON") }
            case .junit, .checkstyle:
                if !isWellFormedXML(output) { problems.append("the \(format.rawValue) report is not well-formed XML") }
            case .github:
                problems += hidden(in: output, format: "GitHub annotations", allowing: ["\t"])
                for line in output.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                    if !line.hasPrefix("::") { problems.append("a GitHub annotation line is not a command: \(line.prefix(120))") }
                }
            case .text, .markdown:
                break
            }
        }
        return problems
    }

    // MARK: Shared checks

    /// One problem when `text` holds a character no writer may let through: a control character
    /// (other than a line feed and `allowing`) or a noncharacter (Graphviz drops every label of a
    /// diagram holding one, XML rejects U+FFFE/U+FFFF).
    static func hidden(in text: String, format: String, allowing: Set<Unicode.Scalar> = []) -> [String] {
        guard let scalar = text.unicodeScalars.first(where: { s in
            let v = s.value
            let control = (v < 0x20 && s != "\n") || (0x7F...0x9F).contains(v)
            let noncharacter = (0xFDD0...0xFDEF).contains(v) || (v & 0xFFFE) == 0xFFFE
            return (control || noncharacter) && !allowing.contains(s)
        }) else { return [] }
        return ["\(format) holds U+\(String(scalar.value, radix: 16, uppercase: true))"]
    }

    /// One problem when `text` shows a piece of user text longer than a diagram may.
    static func uncapped(_ text: String, format: String) -> [String] {
        text.contains(FuzzGraph.capProbe) ? ["\(format) shows more than \(FuzzGraph.capProbe.count) characters of one text: a label is not capped"] : []
    }

    static func isWellFormedXML(_ text: String) -> Bool {
        XMLOutline(Data(text.utf8)).isWellFormed
    }
}

/// What the SVG check needs of a document, read by the streaming parser: whether it is well-formed,
/// its root element's local name, and the local names of all its elements. (Foundation's
/// `XMLDocument` kept about 70 KB of every document it had parsed, which grew a long fuzzing run
/// past its memory limit.)
final class XMLOutline: NSObject, XMLParserDelegate {
    private(set) var root: String?
    private(set) var elements: Set<String> = []
    private(set) var isWellFormed = false

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        // `parse()` alone is true for a document that ends early (`<a><b></a>`, `<a></a><`): the
        // error it met is only in `parserError`.
        isWellFormed = parser.parse() && parser.parserError == nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        if root == nil { root = local }
        elements.insert(local)
    }
}

/// A strict check of the markup FlowLens writes (not a general HTML parser): elements nest and
/// close in order, void elements are not closed, attribute values are double-quoted, and the
/// contents of `script` and `style` end where their closing tag is.
enum HTMLBalance {
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    static func problem(in page: String) -> String? {
        let s = Array(page.utf8)
        var stack: [String] = []
        var i = 0
        func name(at start: Int) -> (String, Int) {
            var j = start
            while j < s.count, (s[j] >= 0x61 && s[j] <= 0x7A) || (s[j] >= 0x41 && s[j] <= 0x5A) || (s[j] >= 0x30 && s[j] <= 0x39) || s[j] == 0x2D { j += 1 }
            return (String(decoding: s[start..<j], as: UTF8.self).lowercased(), j)
        }
        while i < s.count {
            guard s[i] == UInt8(ascii: "<") else { i += 1; continue }
            if i + 1 < s.count, s[i + 1] == UInt8(ascii: "!") {
                // A comment to its "-->", a doctype to its ">".
                let comment = i + 3 < s.count && s[i + 2] == UInt8(ascii: "-") && s[i + 3] == UInt8(ascii: "-")
                guard let close = indexOf(s, comment ? "-->" : ">", from: i) else { return "'<!' never closed" }
                i = close + (comment ? 3 : 1)
                continue
            }
            if i + 1 < s.count, s[i + 1] == UInt8(ascii: "/") {
                let (tag, j) = name(at: i + 2)
                guard j < s.count, s[j] == UInt8(ascii: ">") else { return "a malformed closing tag </\(tag) at byte \(i)" }
                guard let open = stack.popLast() else { return "</\(tag)> closes nothing, at byte \(i)" }
                if open != tag { return "</\(tag)> closes <\(open)>, at byte \(i)" }
                i = j + 1
                continue
            }
            let (tag, afterName) = name(at: i + 1)
            if tag.isEmpty { return "a '<' that starts no tag, at byte \(i): text not escaped" }
            var j = afterName
            // Attributes: name, optionally ="value".
            while true {
                while j < s.count, s[j] == 0x20 || s[j] == 0x0A { j += 1 }
                guard j < s.count else { return "<\(tag) never closed" }
                if s[j] == UInt8(ascii: ">") { j += 1; break }
                if s[j] == UInt8(ascii: "/"), j + 1 < s.count, s[j + 1] == UInt8(ascii: ">") { j += 2; break }
                let start = j
                while j < s.count, s[j] != UInt8(ascii: "="), s[j] != 0x20, s[j] != UInt8(ascii: ">"), s[j] != 0x0A {
                    if s[j] == UInt8(ascii: "<") || s[j] == UInt8(ascii: "\"") || s[j] == UInt8(ascii: "'") { return "a malformed attribute name in <\(tag), at byte \(j)" }
                    j += 1
                }
                if j == start { return "a malformed attribute in <\(tag), at byte \(j)" }
                if j < s.count, s[j] == UInt8(ascii: "=") {
                    j += 1
                    guard j < s.count, s[j] == UInt8(ascii: "\"") else { return "an unquoted attribute value in <\(tag), at byte \(j)" }
                    guard let close = s[(j + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return "an attribute value never closed in <\(tag)" }
                    if s[(j + 1)..<close].contains(UInt8(ascii: "<")) { return "a raw '<' in an attribute value of <\(tag), at byte \(j)" }
                    j = close + 1
                }
            }
            i = j
            if tag == "script" || tag == "style" {
                guard let close = indexOf(s, "</\(tag)>", from: i) else { return "<\(tag)> never closed" }
                i = close + tag.utf8.count + 3
                continue
            }
            if !voidElements.contains(tag), s[j - 2] != UInt8(ascii: "/") { stack.append(tag) }
        }
        return stack.isEmpty ? nil : "<\(stack.last!)> never closed"
    }

    static func indexOf(_ s: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.utf8)
        guard n.count <= s.count else { return nil }
        var i = start
        while i + n.count <= s.count {
            if s[i] == n[0], Array(s[i..<(i + n.count)]) == n { return i }
            i += 1
        }
        return nil
    }
}
