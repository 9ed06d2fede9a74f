import Foundation

/// The review page `flowlens export --format html` writes: one self-contained HTML file for people
/// who read flows rather than code.
///
/// It has an index of the flows with their status, then per flow its diagram (inline SVG), its
/// findings in plain language beside it (clicking one highlights the step or edge it is about), a
/// table of the data keys (who sets each, who reads it, its type, its problems, the first path on
/// which it is missing) and the paths from start to end written as sentences (`FlowPaths`); clicking
/// a path shows it on the diagram.
///
/// Offline and safe by construction: no network, no external script, style or font; every piece of
/// user text is escaped; the SVG element ids are generated, never user text; and a
/// Content-Security-Policy allows only the page's own inline script and style (by hash), so even
/// markup that slipped through could not run a script or load anything.
public struct ReviewPage: Sendable {
    /// A flow's diagram rendered to SVG, with where its findings are marked; or why it could not be.
    public struct RenderedDiagram: Sendable {
        /// Graphviz's SVG output, or nil when rendering failed.
        public var svg: String?
        /// Where each finding drawn on the diagram is marked.
        public var marks: [Finding: DiagramElement]
        /// Why there is no SVG.
        public var error: String?
        /// The element each step and each transition of the flow is drawn as (see `DOTBuilder.Diagram`).
        public var steps: [Int: DiagramElement]
        public var transitions: [Int: DiagramElement]

        /// Creates a rendered diagram.
        public init(svg: String?, marks: [Finding: DiagramElement], error: String? = nil,
                    steps: [Int: DiagramElement] = [:], transitions: [Int: DiagramElement] = [:]) {
            self.svg = svg
            self.marks = marks
            self.error = error
            self.steps = steps
            self.transitions = transitions
        }
    }

    /// What recorded runs did on each flow, by flow id (`flowlens export --format html --trace`): drawn
    /// on the diagrams, and told in each flow's "What really happens". Nil: a page without runs.
    public var traces: [String: TraceOverlay]?

    /// Creates the page builder.
    public init() {}

    /// Renders every flow's diagram (as `flowlens export --format svg` does) and builds the page;
    /// `renderer` renders the diagrams, `done` is told after each.
    public func render(_ report: Report, renderer: DiagramRenderer = .inProcess, done: @Sendable () -> Void = {}) -> String {
        let grouped = FlowFindings(report.findings, flows: report.graph.flows)
        let drawn = report.graph.flows.map { flow in
            var builder = DOTBuilder()
            builder.trace = traces?[flow.id]
            // A diagram draws the findings that count for its flow: given those alone, the same picture.
            return builder.diagram(for: flow, findings: grouped.counted(flow), flows: report.graph.flows)
        }
        let rendered = renderer.render(drawn.map { RenderJob(dot: $0.dot, format: .svg) }, done: done)
        let diagrams = zip(drawn, rendered).map { diagram, result -> RenderedDiagram in
            switch result {
            case let .success(data):
                return RenderedDiagram(svg: String(decoding: data, as: UTF8.self), marks: diagram.marks, steps: diagram.steps, transitions: diagram.transitions)
            case let .failure(error):
                return RenderedDiagram(svg: nil, marks: diagram.marks, error: "\(error)")
            }
        }
        return html(report, diagrams: diagrams)
    }

    /// The page for `report`, given each flow's rendered diagram (in the order of `report.graph.flows`).
    public func html(_ report: Report, diagrams: [RenderedDiagram]) -> String {
        let flows = report.graph.flows
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(traces == nil ? Self.contentSecurityPolicy : Self.contentSecurityPolicy(style: pageStyle))">
            <meta name="generator" content="\(FlowLensTool.name) \(FlowLensTool.version)">
            <title>FlowLens review</title>
            <style>\(pageStyle)</style>
            </head>
            <body>
            <header>
            <h1>FlowLens review</h1>
            <p class="summary">\(Self.escape(Self.summary(report)))</p>
            </header>
            <main>

            """
        out += unreadable(report)
        let grouped = FlowFindings(report.findings, flows: flows)
        out += index(report, grouped)
        // The analyses the findings were made from, not made again.
        let analyses = report.flowAnalyses()
        for (n, flow) in flows.enumerated() {
            let diagram = n < diagrams.count ? diagrams[n] : RenderedDiagram(svg: nil, marks: [:], error: "not rendered")
            out += section(flow, number: n, report: report, grouped: grouped, diagram: diagram, analysis: analyses[n])
        }
        out += """
            </main>
            <script>\(Self.script)</script>
            </body>
            </html>

            """
        return out
    }

    // MARK: - Parts

    /// "65 flows in 66 files: 38 errors, 9 warnings, 2 notes."
    static func summary(_ report: Report) -> String {
        // A graph built in memory (reflection, tests) has flows but no files.
        let flows = Plural.count(report.graph.flows.count, "flow") + (report.graph.files.isEmpty ? "" : " in " + Plural.count(report.graph.files.count, "file"))
        return "\(flows): " + FlowStatus(counting: report.findings).text(separator: ", ") + "."
    }

    /// Findings that belong to no flow: files FlowLens could not read, configuration problems.
    func unreadable(_ report: Report) -> String {
        let loose = report.findings.filter { $0.flow == nil }.sorted(by: Finding.reportOrder)
        guard !loose.isEmpty else { return "" }
        var out = "<section class=\"loose\" id=\"not-in-a-flow\">\n<h2>Problems outside any flow</h2>\n<ul class=\"findings\">\n"
        for finding in loose { out += "<li>\(findingBody(finding, flow: nil))</li>\n" }
        return out + "</ul>\n</section>\n"
    }

    func index(_ report: Report, _ grouped: FlowFindings) -> String {
        // The search box and the filter stay at the top of the window while the page scrolls: with many
        // flows, the index is far above the flow being read.
        var out = """
            <div class="toolbar" role="search">
            <label class="search">Find a flow, step or data key <input type="search" id="search" autocomplete="off"></label>
            <label class="filter"><input type="checkbox" id="only-problems"> Only flows with problems</label>
            <a href="#index-title" class="to-index">↑ List of flows</a>
            </div>
            <nav aria-labelledby="index-title">
            <h2 id="index-title">Flows <span class="muted">(\(report.graph.flows.count))</span></h2>
            <div class="index-box">
            <table class="index">
            <thead><tr><th scope="col">Flow</th><th scope="col">Kind</th><th scope="col">Defined in</th><th scope="col">Status</th></tr></thead>
            <tbody>

            """
        for (n, flow) in report.graph.flows.enumerated() {
            let status = grouped.status(of: flow)
            out += "<tr class=\"\(status.cssClass)\" data-search=\"\(Self.escape(Self.searchText(flow)))\"><td><a href=\"#flow-\(n)\">\(Self.escape(flow.name))</a>"
            if let parent = flow.parent, let owner = report.graph.flows.first(where: { $0.id == parent }) {
                out += " <span class=\"muted\">in \(Self.escape(owner.name))</span>"
            }
            out += "</td><td>\(Self.escape(flow.kind.noun))</td>"
            out += "<td class=\"where\">\(Self.escape(flow.location.map(\.description) ?? ""))</td>"
            out += "<td>\(Self.badges(status))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</div>\n</nav>\n"
    }

    func section(_ flow: Flow, number n: Int, report: Report, grouped: FlowFindings, diagram: RenderedDiagram, analysis: FlowAnalysis) -> String {
        let prefix = "f\(n)-"
        let own = grouped.own(flow)
        // A FlowKit machine's findings include its sub-machines', drawn inside their clusters.
        let counted = grouped.counted(flow)
        let status = FlowStatus(counting: counted)
        let shown = Array(Set(counted).union(diagram.marks.keys)).sorted(by: Finding.reportOrder)
        var out = "<section class=\"flow \(status.cssClass)\" id=\"flow-\(n)\" aria-labelledby=\"\(prefix)title\" data-search=\"\(Self.escape(Self.searchText(flow)))\">\n"
        out += "<h2 id=\"\(prefix)title\">\(Self.escape(flow.name))</h2>\n"
        out += "<p class=\"meta\">\(Self.escape(flow.kind.noun))"
        if let location = flow.location { out += " · <span class=\"where\">\(Self.escape(location.description))</span>" }
        out += " · \(Self.badges(status))</p>\n"
        if let summary = flow.summary, !summary.isEmpty { out += "<p class=\"description\">\(Self.escape(summary))</p>\n" }
        out += "<div class=\"flow-body\">\n"

        var edgeIDs: [String: String] = [:]
        out += "<div class=\"diagram-box\">"
        if diagram.svg != nil {
            out += "<div class=\"zoom\" role=\"group\" aria-label=\"Zoom the diagram\"><button type=\"button\" data-zoom=\"out\" aria-label=\"Zoom out\">−</button>"
                + "<button type=\"button\" data-zoom=\"fit\" title=\"Show the whole diagram\">Fit</button><button type=\"button\" data-zoom=\"in\" aria-label=\"Zoom in\">+</button></div>"
        }
        out += "<figure class=\"diagram\" tabindex=\"0\" aria-label=\"Diagram: + and − zoom, 0 shows it whole, arrow keys move; Ctrl and the mouse wheel zoom, dragging moves\">"
        if let svg = diagram.svg {
            let inline = Self.inlineSVG(svg, prefix: prefix, labelledBy: "\(prefix)title")
            edgeIDs = inline.edges
            out += inline.svg
        } else {
            out += "<p class=\"render-error\">The diagram could not be drawn: \(Self.escape(diagram.error ?? "unknown error"))</p>"
        }
        out += "</figure></div>\n"

        out += "<div class=\"side\">\n<h3>Findings</h3>\n"
        if shown.isEmpty {
            out += "<p class=\"clean-note\">No problems found.</p>\n"
        } else {
            out += "<ul class=\"findings\">\n"
            for finding in shown {
                let target = diagram.marks[finding].flatMap { Self.elementID($0, prefix: prefix, edges: edgeIDs) }
                let inOther = finding.flow != flow.id ? report.graph.flows.first { $0.id == finding.flow } : nil
                out += "<li>\(findingBody(finding, flow: inOther, target: diagram.svg == nil ? nil : target))</li>\n"
            }
            out += "</ul>\n"
        }
        out += "</div>\n</div>\n"
        let paths = FlowPaths(flow: flow, graph: analysis.graphIndex)
        func targets(steps: [Int], transitions: [Int]) -> String? {
            guard diagram.svg != nil else { return nil }
            let ids = steps.compactMap { diagram.steps[$0] } + transitions.compactMap { diagram.transitions[$0] }
            let resolved = ids.compactMap { Self.elementID($0, prefix: prefix, edges: edgeIDs) }
            var seen = Set<String>()
            let unique = resolved.filter { seen.insert($0).inserted }
            return unique.isEmpty ? nil : unique.joined(separator: " ")
        }
        if let trace = traces?[flow.id] { out += whatReallyHappens(flow, trace: trace, targets: targets) }
        out += dataTable(flow, findings: own, analysis: analysis, paths: paths, targets: targets)
        out += pathList(paths, targets: targets)
        out += "</section>\n"
        return out
    }

    /// The prefixed SVG id of a diagram element, nil when the SVG does not have it.
    static func elementID(_ element: DiagramElement, prefix: String, edges: [String: String]) -> String? {
        switch element {
        case let .node(id): return prefix + id
        case let .edge(tail, head): return edges["\(tail)->\(head)"]
        }
    }

    /// "What really happens": what the recorded runs of the flow did, in plain words with exact numbers
    /// (from the same `TraceOverlay` the diagram draws): the paths most runs took with their share,
    /// how runs ended, where they failed (the step, why, how many, the first run), the steps no run
    /// reached, and the moves off the graph. Clicking a path shows its steps on the diagram.
    func whatReallyHappens(_ flow: Flow, trace: TraceOverlay, targets: (_ steps: [Int], _ transitions: [Int]) -> String?) -> String {
        var out = "<div class=\"runs\">\n<h3>What really happens</h3>\n"
        guard trace.runs > 0 else {
            return out + "<p class=\"muted\">No recorded runs of this flow were given.</p>\n</div>\n"
        }
        let total = TraceOverlay.runs(trace.runs)
        func step(_ index: Int?) -> String { index.map { "<strong>\(Self.escape(flow.steps[$0].name))</strong>" } ?? "the start" }
        func first(_ example: TraceOverlay.Example) -> String {
            "<span class=\"where\">first: run \(Self.escape(example.run)), \(Self.escape(example.location.description))</span>"
        }
        out += "<p>\(Self.escape(total)) recorded.</p>\n"
        out += "<h4>The paths runs took</h4>\n<ol class=\"run-paths\">\n"
        for path in trace.paths {
            let share = TraceOverlay.share(path.count, of: trace.runs)
            let who = path.count == trace.runs ? "All \(Self.escape(total))" : "\(Self.escape(TraceOverlay.number(path.count))) of \(Self.escape(total)) (\(share))"
            let went = path.steps.isEmpty ? "started no step" : "went " + path.steps.map { step($0) }.joined(separator: " → ")
            let sentence = "\(who) \(went)."
            if let target = targets(path.steps, []) {
                out += "<li><button type=\"button\" class=\"path\" data-target=\"\(target)\">\(sentence)</button></li>\n"
            } else {
                out += "<li>\(sentence)</li>\n"
            }
        }
        out += "</ol>\n"
        if trace.otherPathRuns > 0 {
            let paths = trace.unkeptPathRuns > 0 ? "more than \(Plural.count(trace.otherPaths, "other path"))" : Plural.count(trace.otherPaths, "other path")
            out += "<p class=\"muted\">\(Self.escape(TraceOverlay.runs(trace.otherPathRuns))) (\(TraceOverlay.share(trace.otherPathRuns, of: trace.runs))) went \(Self.escape(paths)).</p>\n"
        }
        out += "<h4>How runs ended</h4>\n<ul class=\"run-endings\">\n"
        for ending in trace.endings {
            out += "<li>\(Self.escape(TraceOverlay.runs(ending.count))) (\(TraceOverlay.share(ending.count, of: trace.runs))) \(Self.escape(TraceOverlay.ending(ending.reason))).</li>\n"
        }
        out += "</ul>\n"
        if !trace.failures.isEmpty {
            out += "<h4>Where runs failed</h4>\n<ul class=\"run-failures\">\n"
            for failure in trace.failures {
                let at = failure.step.map { step($0) } ?? "a step the flow does not have"
                out += "<li>\(at): \(Self.escape(TraceOverlay.why(failure))) in \(Self.escape(TraceOverlay.runs(failure.count))). \(first(failure.first))</li>\n"
            }
            out += "</ul>\n"
        }
        out += "<h4>Never reached</h4>\n"
        out += trace.neverReached.isEmpty ? "<p>Every step was reached by some run.</p>\n"
            : "<p class=\"run-never\">No run reached " + trace.neverReached.map { step($0) }.joined(separator: ", ") + ".</p>\n"
        if !trace.deviations.isEmpty {
            out += "<h4>Off the graph</h4>\n<ul class=\"run-off-graph\">\n"
            for deviation in trace.deviations {
                let what: String
                switch deviation.kind {
                case let .unknownStep(name):
                    what = "started a step “\(Self.escape(name))”, which the flow does not have"
                case let .noTransition(from, to):
                    what = "went from \(step(from)) to \(step(to)), where the flow has no transition"
                }
                out += "<li>\(Self.escape(TraceOverlay.runs(deviation.count))) \(what). \(first(deviation.first))</li>\n"
            }
            out += "</ul>\n"
        }
        return out + "</div>\n"
    }

    /// The longest data table or path list shown open; a longer one starts folded.
    static let openListLength = 12

    /// Every path from the start to an end, as a sentence; clicking one shows it on the diagram.
    func pathList(_ paths: FlowPaths, targets: (_ steps: [Int], _ transitions: [Int]) -> String?) -> String {
        guard !paths.paths.isEmpty else { return "" }
        let count = paths.count
        var out = "<details class=\"paths\"\(count.isExact && count.value <= Self.openListLength ? " open" : "")>\n"
        out += "<summary><h3>Paths from start to end</h3> <span class=\"muted\">(\(Self.escape(count.description)))</span></summary>\n<ol>\n"
        for path in paths.paths {
            let sentence = Self.html(paths.sentence(for: path))
            if let target = targets(path.steps, path.transitions) {
                out += "<li><button type=\"button\" class=\"path\" data-target=\"\(target)\">\(sentence)</button></li>\n"
            } else {
                out += "<li>\(sentence)</li>\n"
            }
        }
        out += "</ol>\n"
        if !count.isExact || count.value > paths.paths.count {
            out += "<p class=\"muted\">Only the first \(paths.paths.count) of \(Self.escape(count.description)) paths are listed.</p>\n"
        }
        return out + "</details>\n"
    }

    /// A path sentence with step names in bold and keys, values and conditions in italics.
    static func html(_ sentence: PathSentence) -> String {
        sentence.parts.map { part in
            switch part {
            case let .text(text): return escape(text)
            case let .step(name): return "<strong>\(escape(name))</strong>"
            case let .key(text), let .value(text), let .condition(text): return "<em>\(escape(text))</em>"
            }
        }.joined()
    }

    /// A finding in plain language; a button that highlights `target` when there is one.
    func findingBody(_ finding: Finding, flow other: Flow?, target: String? = nil) -> String {
        let style = SeverityStyle.of(finding.severity)
        var body = "<span class=\"sev\">\(style.glyph) \(style.word.prefix(1).uppercased() + style.word.dropFirst())</span> "
        if let other { body += "In \(Self.escape(other.name)): " }
        body += "<span class=\"message\">\(Self.escape(finding.message))</span>"
        var where_ = [finding.rule]
        if let location = finding.location { where_.insert(location.description, at: 0) }
        body += "<span class=\"where\">\(Self.escape(where_.joined(separator: " · ")))</span>"
        if let rule = RuleRegistry.rule(id: finding.rule) {
            body += "<span class=\"why\">\(Self.escape(rule.description.summary))</span>"
        }
        let classes = "finding \(finding.severity.rawValue)"
        if let target {
            return "<button type=\"button\" class=\"\(classes)\" data-target=\"\(Self.escape(target))\" aria-controls=\"\(Self.escape(target))\">\(body)</button>"
        }
        return "<div class=\"\(classes)\">\(body)</div>"
    }

    /// Every data key of the flow: who sets it, who reads it, its types, its problems, and the first
    /// path on which it is missing (a button that shows that path on the diagram).
    func dataTable(_ flow: Flow, findings: [Finding], analysis: FlowAnalysis, paths: FlowPaths,
                   targets: (_ steps: [Int], _ transitions: [Int]) -> String?) -> String {
        let keys = DataKeySummary.table(for: analysis, paths: paths)
        guard !keys.isEmpty else { return "" }
        func names(_ accesses: [DataProvenance.Access]) -> [String] {
            var seen = Set<String>()
            return accesses.map { $0.kind == .initial ? "the start" : $0.stepName }.filter { seen.insert($0).inserted }
        }
        // Open when short, as the paths are: a long table is one click away, not in the way of the next flow.
        var out = "<details class=\"data\"\(keys.count <= Self.openListLength ? " open" : "")>\n<summary><h3>Data</h3> <span class=\"muted\">(\(Plural.count(keys.count, "key")))</span></summary>\n<table>\n"
        out += "<thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Set by</th><th scope=\"col\">Read by</th><th scope=\"col\">Type</th><th scope=\"col\">Problems</th></tr></thead>\n<tbody>\n"
        for row in keys {
            let problems = findings.filter { $0.key == row.key }.sorted(by: Finding.reportOrder)
            var problemCells = problems.map {
                "<span class=\"sev-\(SeverityStyle.of($0.severity).word)\">\(Self.escape(FindingPhrase.text($0, stateMachine: flow.kind.isStateMachine)))</span>"
            }
            if let missing = row.missing {
                let text = "missing when \(Self.escape(missing.read.stepName)) reads it" + (missing.pathNumber.map { ", on path \($0 + 1)" } ?? "")
                if let target = targets(missing.steps, missing.transitions) {
                    problemCells.append("<button type=\"button\" class=\"path missing\" data-target=\"\(target)\">\(text)</button>")
                } else {
                    problemCells.append(text)
                }
            }
            let worst = problems.isEmpty && row.missing != nil ? "error" : SeverityStyle.worst(problems)?.word
            out += "<tr\(worst.map { " class=\"has-problems worst-\($0)\"" } ?? "")><th scope=\"row\"><code>\(Self.escape(row.key))</code></th>"
            out += "<td>\(Self.list(names(row.writers), empty: "nobody"))</td><td>\(Self.list(names(row.readers), empty: "nobody"))</td>"
            out += "<td>\(Self.list(row.types.map { "<code>\(Self.escape($0))</code>" }, escaped: true, empty: "unknown"))</td>"
            out += "<td>\(Self.list(problemCells, escaped: true, empty: ""))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</details>\n"
    }

    // MARK: - SVG

    /// Graphviz's SVG made fit to inline: no XML prolog, doctype, comments or `<title>` tooltips
    /// (`s3`, `flow`: generated names, meaningless to a reader), every `id` prefixed so that the
    /// page's diagrams do not collide, labelled by the section heading. Returns the map from an edge's
    /// `tail->head` (its Graphviz title) to its prefixed id.
    static func inlineSVG(_ svg: String, prefix: String, labelledBy: String) -> (svg: String, edges: [String: String]) {
        // Graphviz writes `-` as `&#45;`; as plain `-` the generated ids read as they are written.
        var text = svg.replacingOccurrences(of: "&#45;", with: "-")
        if let start = text.range(of: "<svg") { text = String(text[start.lowerBound...]) }
        var edges: [String: String] = [:]
        let edgeTitle = try! NSRegularExpression(pattern: "<g id=\"(edge[0-9]+)\" class=\"edge\">\\s*<title>([^<]*)</title>")
        let ns = text as NSString
        for match in edgeTitle.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let title = ns.substring(with: match.range(at: 2)).replacingOccurrences(of: "&gt;", with: ">")
            if edges[title] == nil { edges[title] = prefix + ns.substring(with: match.range(at: 1)) }
        }
        text = replace(text, pattern: "<title>[^<]*</title>\\s*", with: "")
        text = replace(text, pattern: "<!--.*?-->\\s*", with: "")
        text = replace(text, pattern: " id=\"([^\"]*)\"", with: " id=\"\(prefix)$1\"")
        text = text.replacingOccurrences(of: "<svg ", with: "<svg role=\"img\" aria-labelledby=\"\(labelledBy)\" ", options: [], range: text.range(of: "<svg "))
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), edges)
    }

    private static func replace(_ text: String, pattern: String, with template: String) -> String {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length), withTemplate: template)
    }

    // MARK: - Text

    /// Escapes text for HTML content and attribute values (`Escaping.html`).
    public static func escape(_ text: String) -> String { Escaping.html(text) }

    static func list(_ items: [String], escaped: Bool = false, empty: String) -> String {
        guard !items.isEmpty else { return empty.isEmpty ? "" : "<span class=\"muted\">\(escape(empty))</span>" }
        return items.map { escaped ? $0 : escape($0) }.joined(separator: ", ")
    }

    /// What the search box matches a flow by: its name, its steps' names and its data keys, lower-cased.
    static func searchText(_ flow: Flow) -> String {
        var words = [flow.name] + flow.steps.map(\.name) + flow.initialData.map(\.key)
        for step in flow.steps { words += (step.reads + step.writes).map(\.key) }
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }.joined(separator: "\n").lowercased()
    }

    /// A flow's status as badges: one per severity present (`SeverityStyle`'s glyph and word), or
    /// "✓ no problems".
    static func badges(_ status: FlowStatus) -> String {
        let parts = zip(status.counts, status.phrases).map { count, phrase in
            let style = SeverityStyle.of(count.severity)
            return "<span class=\"badge \(style.word)\">\(style.glyph) \(phrase)</span>"
        }
        return parts.isEmpty ? "<span class=\"badge clean\">✓ no problems</span>" : parts.joined(separator: " ")
    }

    // MARK: - Style and script (allowed by hash in the Content-Security-Policy)

    static let contentSecurityPolicy = contentSecurityPolicy(style: style)

    /// The policy allowing `style` (by its hash) and the page's script.
    static func contentSecurityPolicy(style: String) -> String {
        "default-src 'none'; img-src data:; style-src 'sha256-\(Data(SHA256.digest(style)).base64EncodedString())'; script-src 'sha256-\(Data(SHA256.digest(script)).base64EncodedString())'; base-uri 'none'; form-action 'none'"
    }

    /// The page's style: with the rules of "What really happens" when runs are drawn (a page without
    /// runs keeps the bytes it had before there were any).
    var pageStyle: String { traces == nil ? Self.style : Self.style + Self.traceStyle }

    static let traceStyle = """
        .runs { margin-top: 1rem; border-top: 1px solid var(--line); }
        .runs h4 { font-size: .92rem; margin: .6rem 0 .2rem; }
        .runs ol, .runs ul { margin: .2rem 0; padding-left: 2rem; }
        .runs li { margin: .15rem 0; }
        .runs .where { display: block; }

        """

    static let style = """

        :root { --ink: #2B3340; --muted: #5F6B7A; --line: #D5DBE3; --error: \(SeverityStyle.of(.error).colour); --error-fill: \(SeverityStyle.of(.error).fill); --warning: \(SeverityStyle.of(.warning).colour); --warning-fill: \(SeverityStyle.of(.warning).fill); --note: \(SeverityStyle.of(.note).colour); --ok: #2E7D32; --focus: #1565C0; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #FAFBFC; }
        header, main { max-width: 1280px; margin: 0 auto; padding: 0 1.25rem; }
        header { padding-top: 1.25rem; }
        h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
        h2 { font-size: 1.25rem; margin: 0 0 .25rem; }
        h3 { font-size: 1rem; margin: .5rem 0; }
        .summary, .meta, .muted { color: var(--muted); }
        .meta, .description { margin: 0 0 .75rem; }
        .description { max-width: 60rem; }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
        nav, section { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid var(--line); }
        thead th { font-weight: 600; color: var(--muted); font-size: .85rem; }
        .where { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
        .badge { white-space: nowrap; font-size: .85rem; font-weight: 600; }
        .badge.error { color: var(--error); } .badge.warning { color: var(--warning); } .badge.note { color: var(--note); } .badge.clean { color: var(--ok); }
        .toolbar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; margin: 1rem 0 0; padding: .6rem 1.25rem; background: #FAFBFC; border-bottom: 1px solid var(--line); }
        .filter, .search { color: var(--muted); }
        .search input { font: inherit; margin-left: .5rem; padding: .2rem .4rem; width: 20rem; max-width: 60vw; }
        .to-index { margin-left: auto; }
        .index-box { max-height: 60vh; overflow: auto; }
        .index thead th { position: sticky; top: 0; background: white; }
        section.flow, nav { scroll-margin-top: 4rem; }
        .search-miss { display: none; }
        .diagram-box { position: relative; min-width: 0; }
        .zoom { position: absolute; top: .35rem; right: .35rem; z-index: 1; display: flex; gap: .2rem; }
        .zoom button { font: inherit; font-size: .9rem; min-width: 2rem; padding: .1rem .4rem; background: white; border: 1px solid var(--line); border-radius: 4px; cursor: pointer; }
        .zoom button:focus-visible, .diagram:focus-visible { outline: 3px solid var(--focus); }
        .diagram.dragging { cursor: grabbing; }
        body.only-problems .status-clean { display: none; }
        .flow-body { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16rem, 2fr); gap: 1.25rem; align-items: start; }
        @media (max-width: 900px) { .flow-body { grid-template-columns: 1fr; } }
        .diagram { margin: 0; overflow: auto; max-height: 85vh; border: 1px solid var(--line); border-radius: 6px; background: white; }
        .side { max-height: 85vh; overflow: auto; padding-right: .25rem; }
        .diagram svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
        .findings { list-style: none; margin: 0; padding: 0; }
        .findings li { margin: 0 0 .5rem; }
        .finding { display: block; width: 100%; text-align: left; font: inherit; color: inherit; background: white; border: 1px solid var(--line); border-left: 4px solid var(--muted); border-radius: 6px; padding: .5rem .7rem; }
        button.finding { cursor: pointer; }
        button.finding:hover { background: #F4F7FB; }
        button.finding:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
        .finding.error { border-left-color: var(--error); } .finding.warning { border-left-color: var(--warning); } .finding.note { border-left-color: var(--note); }
        .finding.active { background: #E8F0FB; border-color: var(--focus); }
        button.path { font: inherit; color: inherit; text-align: left; background: none; border: 1px solid transparent; border-radius: 4px; padding: .15rem .35rem; cursor: pointer; }
        button.path:hover { background: #F4F7FB; border-color: var(--line); }
        button.path:focus-visible { outline: 3px solid var(--focus); }
        button.path.active { background: #E8F0FB; border-color: var(--focus); }
        button.path.missing { color: var(--error); text-decoration: underline dotted; }
        details.paths { margin-top: 1rem; }
        details.paths summary { cursor: pointer; }
        details.paths summary h3 { display: inline; }
        details.paths ol { margin: .25rem 0; padding-left: 2rem; }
        details.paths li { margin: .15rem 0; }
        .finding .sev { font-weight: 700; margin-right: .25rem; }
        .finding.error .sev { color: var(--error); } .finding.warning .sev { color: var(--warning); } .finding.note .sev { color: var(--note); }
        .finding .where, .finding .why { display: block; }
        .finding .why { color: var(--muted); font-size: .85rem; }
        .clean-note { color: var(--ok); }
        .render-error { color: var(--error); padding: 1rem; }
        details.data { margin-top: 1rem; }
        details.data summary { cursor: pointer; }
        details.data summary h3 { display: inline; }
        tr.worst-error th, .sev-error { color: var(--error); } tr.worst-warning th, .sev-warning { color: var(--warning); } tr.worst-note th, .sev-note { color: var(--note); }
        g.flowlens-hl > path, g.flowlens-hl > polygon, g.flowlens-hl > ellipse, g.flowlens-hl > polyline { stroke: var(--focus); stroke-width: 5px; }
        g.flowlens-hl { animation: flowlens-pulse 1s ease-in-out 3; }
        @keyframes flowlens-pulse { 50% { opacity: .45; } }
        @media print { .toolbar, .zoom { display: none; } .index-box, .side, .diagram { max-height: none; overflow: visible; } .diagram svg { width: auto !important; max-width: 100% !important; } section { break-inside: avoid; } }

        """

    static let script = """

        (function () {
          "use strict";
          function clear() {
            document.querySelectorAll(".flowlens-hl").forEach(function (e) { e.classList.remove("flowlens-hl"); });
            document.querySelectorAll("button.active").forEach(function (e) { e.classList.remove("active"); });
          }
          document.addEventListener("click", function (event) {
            var button = event.target.closest("button[data-target]");
            if (!button) { return; }
            clear();
            button.classList.add("active");
            var first = null;
            button.getAttribute("data-target").split(" ").forEach(function (id) {
              var element = document.getElementById(id);
              if (element) {
                element.classList.add("flowlens-hl");
                first = first || element;
              }
            });
            if (first) { first.scrollIntoView({ block: "center", inline: "center" }); }
          });
          // Widths, in CSS pixels, of a diagram: as Graphviz drew it (its text 11 to 15 pixels high), shown
          // whole in its box ("fit"), and as it opens ("readable": the box's width, but never below 3/4
          // of its drawn size, where small text would become too small to read: the box then scrolls).
          function sizes(figure, svg) {
            var width = svg.width.baseVal.value, height = svg.height.baseVal.value;
            var boxWidth = figure.clientWidth, boxHeight = parseFloat(getComputedStyle(figure).maxHeight) || innerHeight;
            if (!width || !height || !boxWidth) { return null; }
            return {
              natural: width,
              fit: width * Math.min(1, boxWidth / width, boxHeight / height),
              readable: width * Math.max(0.75, Math.min(1, boxWidth / width))
            };
          }
          function setWidth(figure, svg, width) {
            svg.style.maxWidth = "none";
            svg.style.width = width + "px";
            figure.setAttribute("data-width", String(width));
          }
          // factor 0: the whole diagram; otherwise the width times factor, between whole and 4 times its
          // drawn size, keeping the point at the middle of the box where it is.
          function zoom(figure, factor) {
            var svg = figure.querySelector("svg");
            var size = svg && sizes(figure, svg);
            if (!size) { return; }
            var current = parseFloat(figure.getAttribute("data-width") || "0") || svg.getBoundingClientRect().width;
            var width = factor === 0 ? size.fit : Math.min(4 * size.natural, Math.max(size.fit, current * factor));
            var x = (figure.scrollLeft + figure.clientWidth / 2) / current, y = (figure.scrollTop + figure.clientHeight / 2) / current;
            setWidth(figure, svg, width);
            figure.scrollLeft = x * width - figure.clientWidth / 2;
            figure.scrollTop = y * width - figure.clientHeight / 2;
          }
          document.querySelectorAll("figure.diagram").forEach(function (figure) {
            var svg = figure.querySelector("svg");
            var size = svg && sizes(figure, svg);
            if (!size) { return; }
            setWidth(figure, svg, size.readable);
            // Wider than its box: from the left edge, where the title and legend start, unless where the
            // flow begins (its first node) is then out of view, which is put in the middle instead.
            var first = svg.querySelector("g.node");
            if (first) {
              var node = first.getBoundingClientRect(), whole = svg.getBoundingClientRect();
              var x = node.left + node.width / 2 - whole.left;
              figure.scrollLeft = x < figure.clientWidth - 40 ? 0 : x - figure.clientWidth / 2;
            }
          });
          var factors = { "in": 1.25, "out": 0.8, "fit": 0 };
          document.addEventListener("click", function (event) {
            var button = event.target.closest("button[data-zoom]");
            if (!button) { return; }
            var figure = button.closest(".diagram-box").querySelector("figure.diagram");
            zoom(figure, factors[button.getAttribute("data-zoom")]);
          });
          document.querySelectorAll("figure.diagram").forEach(function (figure) {
            figure.addEventListener("keydown", function (event) {
              var keys = { "+": 1.25, "=": 1.25, "-": 0.8, "0": 0 };
              var moves = { "ArrowLeft": [-60, 0], "ArrowRight": [60, 0], "ArrowUp": [0, -60], "ArrowDown": [0, 60] };
              if (event.ctrlKey || event.metaKey || event.altKey) { return; }
              if (event.key in keys) {
                zoom(figure, keys[event.key]);
              } else if (event.key in moves) {
                figure.scrollBy(moves[event.key][0], moves[event.key][1]);
              } else {
                return;
              }
              event.preventDefault();
            });
            figure.addEventListener("wheel", function (event) {
              if (!event.ctrlKey) { return; }
              event.preventDefault();
              zoom(figure, event.deltaY < 0 ? 1.25 : 0.8);
            }, { passive: false });
            var drag = null;
            figure.addEventListener("pointerdown", function (event) {
              if (event.button !== 0) { return; }
              drag = { x: event.clientX, y: event.clientY, left: figure.scrollLeft, top: figure.scrollTop, moved: false };
            });
            figure.addEventListener("pointermove", function (event) {
              if (!drag) { return; }
              var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
              if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) { return; }
              drag.moved = true;
              figure.classList.add("dragging");
              figure.scrollLeft = drag.left - dx;
              figure.scrollTop = drag.top - dy;
            });
            function stop() { drag = null; figure.classList.remove("dragging"); }
            figure.addEventListener("pointerup", stop);
            figure.addEventListener("pointerleave", stop);
          });
          var search = document.getElementById("search");
          if (search) {
            search.addEventListener("input", function () {
              var query = search.value.trim().toLowerCase();
              document.querySelectorAll("[data-search]").forEach(function (element) {
                var miss = query !== "" && element.getAttribute("data-search").indexOf(query) < 0;
                element.classList.toggle("search-miss", miss);
              });
            });
          }
          var toggle = document.getElementById("only-problems");
          if (toggle) {
            toggle.addEventListener("change", function () { document.body.classList.toggle("only-problems", toggle.checked); });
          }
        })();

        """
}
