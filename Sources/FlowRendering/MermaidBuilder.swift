import FlowModel
import FlowPresentation

/// One Mermaid diagram: the text of a `.mmd` file, or of a fenced block in Markdown.
public struct MermaidDiagram: Hashable, Sendable {
    /// The diagram's text, ending in a newline.
    public var text: String
    /// For a flow too large for one diagram: which part this is (from 1) and how many there are.
    public var part: (number: Int, of: Int)? {
        get { partNumber.map { ($0, partCount) } }
        set { partNumber = newValue?.number; partCount = newValue?.of ?? 1 }
    }
    private var partNumber: Int?
    private var partCount = 1
    /// What was left out or split to stay under Mermaid's limits, in a sentence; nil when nothing was.
    public var note: String?

    /// Creates a diagram.
    public init(text: String, part: (number: Int, of: Int)? = nil, note: String? = nil) {
        self.text = text
        self.note = note
        self.part = part
    }
}

/// Builds Mermaid diagrams of flows: `flowchart TD` for operation flows (drawn as the DOT diagrams
/// are: decisions as hexagons, groups and sub-flows as subroutines, ends as stadiums) and
/// `stateDiagram-v2` for state machines (composite states nested as `state X { }`, `[*]` for Begin
/// and End). Findings become `classDef` styles (`error`, `warning`, `note`) on their steps, with the
/// rule in the step's label (a note beside a composite state).
///
/// **Safe whatever the names are.** Node ids are generated (`s0`, `s1`, `c1_s0`, `m0`, `begin`,
/// `data`), never taken from user text, so no step can be called `end` or `class` in Mermaid's eyes.
/// User text only appears inside double-quoted labels (and a state diagram's transition labels and
/// notes), and only the characters that Mermaid would read as something else are written as entity
/// codes (Mermaid turns `#quot;`, `#lt;`, `#58;` … back into the character when it renders): `"`,
/// `<`, `>`, `&` (markup), a `#` that would start an entity code, a `%` before `%` (a directive);
/// outside quotes also `:` and `;`. Mermaid then reads a label as Markdown, so `*`, `` ` `` and an `_`
/// that could start or end emphasis get a backslash, as does a backslash before punctuation.
/// Everything else (`:` in quotes, `-`, `|`, brackets, `end` …) is written as itself, so the text
/// reads the same in every Mermaid version and setting. Line breaks become `<br>`; characters that
/// would hide or reorder text are shown visibly (`<U+202E>`, see `DisplayText`). A comment line holds
/// only the letters, digits and spaces of a flow's name.
///
/// **Checkable.** A last comment line, `%% flowlens-labels: [...]`, lists as JSON the text of every
/// label as FlowLens meant it to read (line breaks as `\n`); `scripts/validate-mermaid.py` renders
/// the diagram and compares what Mermaid shows with it.
///
/// **Limits.** Mermaid refuses a diagram over `maxTextSize` (50 000 characters) or with more than
/// `maxEdges` (500) edges by default. A diagram above `budget` is first drawn without the details
/// (data and types); a state machine still too large is drawn as a flowchart without its composites'
/// insides (each sub-machine has its own diagram); a flowchart still too large is split into parts of
/// consecutive steps, a transition to another part going to a stub that names the step and the part.
/// Each diagram says in a comment and its `note` what was done.
public struct MermaidBuilder: Sendable {
    /// Mermaid's default `maxTextSize`.
    public static let maxTextSize = 50_000
    /// Mermaid's default `maxEdges`.
    public static let maxEdges = 500

    /// The size a diagram must stay under: a margin below Mermaid's limits.
    public var budget = (characters: 45_000, edges: 450)

    /// What recorded runs did on the flow (`flowlens export --trace`), drawn on a flowchart: each
    /// transition's count in its label and a line that grows with it (`linkStyle`), what no run reached
    /// faded (class `faded`), failures in red at their step (class `failed`), and the number of runs
    /// at the start. Nil: the flow alone.
    public var trace: TraceOverlay?

    /// Creates a builder.
    public init() {}

    /// The diagrams of `flow` (one, unless it is too large), with `findings` marked. `flows` are the
    /// graph's other flows: a composite state is drawn with the sub-machine found there.
    public func diagrams(for flow: Flow, findings: [Finding], flows: [Flow] = []) -> [MermaidDiagram] {
        if flow.kind.isStateMachine {
            for detailed in [true, false] {
                let text = stateDiagram(flow, findings: findings, flows: flows, detailed: detailed)
                if fits(text) {
                    return [MermaidDiagram(text: text, note: detailed ? nil : "Drawn without data and types, to stay under Mermaid's size limits.")]
                }
            }
        }
        for detailed in [true, false] {
            let text = flowchart(flow, findings: findings, flows: flows, detailed: detailed, part: nil)
            if fits(text) {
                var notes: [String] = []
                if flow.kind.isStateMachine { notes.append("Drawn as a flowchart, its composite states as single steps, to stay under Mermaid's size limits") }
                if !detailed { notes.append("Drawn without data and types, to stay under Mermaid's size limits") }
                return [MermaidDiagram(text: flow.kind.isStateMachine || !detailed ? withNote(text, notes) : text,
                                       note: notes.isEmpty ? nil : notes.joined(separator: "; ") + ".")]
            }
        }
        return split(flow, findings: findings, flows: flows)
    }

    /// Whether `text` stays under the budget.
    func fits(_ text: String) -> Bool {
        text.count <= budget.characters && Self.edgeCount(text) <= budget.edges
    }

    /// The edges of a diagram: its lines with an arrow.
    /// (Comments are not edges, however indented; the arrows are ASCII, so they are looked for among
    /// the UTF-8 bytes: a byte of another character is never one of theirs.)
    static func edgeCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0, start = 0
            while start < bytes.count {
                let end = ByteSearch.firstOffset(of: [UInt8(ascii: "\n")], in: bytes, range: start..<bytes.count) ?? bytes.count
                var first = start
                while first < end, bytes[first] == UInt8(ascii: " ") { first += 1 }
                let isComment = end - first >= 2 && bytes[first] == UInt8(ascii: "%") && bytes[first + 1] == UInt8(ascii: "%")
                if !isComment, arrows.contains(where: { ByteSearch.contains($0, in: bytes, range: start..<end) }) { count += 1 }
                start = end + 1
            }
            return count
        }
    }

    private static let arrows = [" --> ", " -.-> ", " ==> ", " -.- ", "-->|", "-.->|", "==>|"].map { Array($0.utf8) }

    func withNote(_ text: String, _ notes: [String]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("%% " + notes.joined(separator: "; ") + ".", at: 1)
        return lines.joined(separator: "\n")
    }

    // MARK: - Escaping

    /// `text` made safe inside a double-quoted Mermaid label (see the type's documentation);
    /// `unquoted` also encodes `:` and `;`: for a state diagram's transition label or note.
    public static func label(_ text: String, unquoted: Bool = false) -> String {
        let scalars = Array(DisplayText.visible(text).unicodeScalars)
        func isWord(_ i: Int) -> Bool {
            guard scalars.indices.contains(i) else { return false }
            return scalars[i].properties.isAlphabetic || scalars[i].properties.numericType != nil
        }
        /// Whether `#` at `i` starts what Mermaid reads as an entity code (`#` letters-or-digits `;`).
        func startsEntity(_ i: Int) -> Bool {
            var j = i + 1
            while j < scalars.count, scalars[j] == "_" || (scalars[j].isASCII && isWord(j)) { j += 1 }
            return j > i + 1 && j < scalars.count && scalars[j] == ";"
        }
        /// Whether a backslash at `i` would escape what follows it in Markdown (ASCII punctuation, or
        /// the `<br>` or quote after the row).
        func escapesNext(_ i: Int) -> Bool {
            guard i + 1 < scalars.count else { return true }
            let next = scalars[i + 1]
            return "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars.contains(next)
        }
        var out = ""
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out += "#quot;"
            case "&": out += "#amp;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            // Mermaid reads labels as Markdown after decoding entity codes: a backslash keeps these.
            case "*", "`": out += "\\" + String(scalar)
            case "_" where !(isWord(i - 1) && isWord(i + 1)): out += "\\_"
            case "\\" where escapesNext(i):
                out += "\\\\"
            case "#" where startsEntity(i): out += "#35;"
            case "%" where i + 1 < scalars.count && scalars[i + 1] == "%": out += "#37;"
            case ":" where unquoted, ";" where unquoted: out += "#\(scalar.value);"
            case "\n": out += "<br>"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Several lines of a label: each escaped, joined by `<br>`.
    static func lines(_ rows: [String], unquoted: Bool = false) -> String { rows.map { label($0, unquoted: unquoted) }.joined(separator: "<br>") }

    /// The text a label is meant to show: each row as `DisplayText` shows it, one a line.
    static func meant(_ rows: [String]) -> String { rows.map { DisplayText.visible($0) }.joined(separator: "\n") }

    /// `lines` with a `;` ending each line Mermaid's pre-processing would cut: before parsing, it removes
    /// the last `;` of any line matching `style.*:\S*#.*;` or `classDef.*:\S*#.*;` (meant for style
    /// statements), which would eat a `;` of a label, or of an entity code in it. A statement may end
    /// in `;`, so an extra one is what gets cut.
    static func guarded(_ lines: [String]) -> [String] {
        lines.map { line in
            let statement = line.drop { $0 == " " }
            if statement.hasPrefix("%%") || statement.hasPrefix("classDef ") || statement.hasPrefix("class ") || statement.hasPrefix("linkStyle ") { return line }
            // Only a line holding the pattern's literal parts can match it: the pattern is tried on
            // those alone (few; most lines name no `style`), not on every line of every diagram.
            var text = line
            let mayMatch = text.withUTF8 { bytes in
                cutKeywords.contains { ByteSearch.contains($0, in: bytes) } && cutMarks.allSatisfy { bytes.contains($0) }
            }
            return mayMatch && line.contains(cutPattern) ? line + ";" : line
        }
    }

    /// The lines Mermaid's pre-processing cuts a `;` from (see `guarded`). Compiled once: a `Regex`
    /// is only read after it is made, never changed.
    nonisolated(unsafe) private static let cutPattern = try! Regex(#"(style|classDef).*:\S*#.*;"#)
    /// The pattern's literal parts: one of its keywords, and each of its marks.
    private static let cutKeywords = ["style", "classDef"].map { Array($0.utf8) }
    private static let cutMarks: [UInt8] = [UInt8(ascii: ":"), UInt8(ascii: "#"), UInt8(ascii: ";")]

    /// The `%% flowlens-labels: [...]` comment: `labels` as a JSON array, with `%` written `\u0025` so
    /// that no `%%{` in a label can be read as a directive, and `<`, `>`, `&` escaped too, so that
    /// no markup is in the file even where a Markdown viewer shows the block as text.
    static func labelsComment(_ labels: [String]) -> String {
        let hidden: (Unicode.Scalar) -> Bool = { "%<>&".unicodeScalars.contains($0) || DisplayText.isHidden($0) }
        return "%% flowlens-labels: [" + labels.map { Escaping.json($0, alsoEscaping: hidden) }.joined(separator: ",") + "]"
    }

    /// The comment line naming the flow: only letters, digits and spaces of its name.
    static func comment(_ flow: Flow, _ what: String) -> String {
        // The letters, digits and spaces of the name, its first 80 characters: read no further than
        // 32 scalars a character (a 100,000-character name was filtered whole to keep 80).
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in flow.name.unicodeScalars where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == " " {
            kept.append(scalar)
            count += 1
            if count == 80 * 32 { break }
        }
        let name = String(kept).prefix(80)
        return "%% \(what): \(name)"
    }

    // MARK: - Styles

    static let classDefinitions = Severity.allCases.reversed().map { severity in
        let style = SeverityStyle.of(severity)
        return "classDef \(style.word) fill:\(style.fill),stroke:\(style.colour),stroke-width:2px,color:#2B3340"
    } + [
        "classDef stub fill:#EEF1FA,stroke:#5F6B7A,stroke-dasharray:3 3,color:#2B3340",
        "classDef unreachable fill:#EEEEEE,stroke:#5F6B7A,stroke-dasharray:4 3,color:#5F6B7A",
        "classDef endStep fill:#E6F2EA,stroke:#5F6B7A,color:#2B3340",
        "classDef failStep fill:#FBEAEA,stroke:#C62828,color:#2B3340",
        "classDef ghost fill:#FDECEA,stroke:#C62828,stroke-dasharray:4 3,color:#C62828",
    ]

    /// The classes of a traced flowchart (`trace`): a step no run reached, and one where runs failed.
    static let traceClassDefinitions = [
        "classDef faded fill:\(TraceOverlay.fadedFill),stroke:\(TraceOverlay.fadedLine),color:\(TraceOverlay.fadedText)",
        "classDef failed fill:\(SeverityStyle.of(.error).fill),stroke:\(TraceOverlay.failureColour),stroke-width:2px,color:#2B3340",
    ]

    /// The class for a set of findings: the worst severity (`unreachable` for a step never reached).
    static func findingClass(_ findings: [Finding]) -> String? {
        if FindingPhrase.meansNeverReached(findings) { return "unreachable" }
        return SeverityStyle.worst(findings)?.word
    }

    /// `✖ may be missing: token` (see `FindingPhrase`).
    static func findingRow(_ finding: Finding) -> String { FindingPhrase.text(finding) }

    /// `✖ no such state: …`: a finding in a state machine's words.
    static func stateFindingRow(_ finding: Finding) -> String { FindingPhrase.text(finding, stateMachine: true) }

    /// The rows under a step's name: its `StepRows` (when `detailed`), then its findings.
    static func rows(_ step: Step, findings: [Finding], detailed: Bool, flows: [Flow], stateMachine: Bool = false,
                     nesting: StepRows.Nesting = .named) -> [String] {
        // A compact diagram keeps one row: that a composite's states are drawn elsewhere.
        let rows = detailed ? StepRows.rows(of: step, flows: flows, nesting: nesting).map(\.text)
            : nesting == .ownDiagram && step.kind == .subflow ? [StepRows.Row.ownStates.text] : []
        return rows + findings.sorted(by: Finding.reportOrder).map { FindingPhrase.text($0, stateMachine: stateMachine) }
    }

    // MARK: - Flowcharts

    /// A flowchart of `flow`, or of one part of it (`part`: the step indices drawn, the part's number
    /// and count, and the part each step is drawn in).
    func flowchart(_ flow: Flow, findings all: [Finding], flows: [Flow], detailed: Bool, part: Part?) -> String {
        let findings = all.filter { $0.flow == flow.id }
        let places = FindingPlaces(findings)
        let graph = FlowIndex(flow)
        let firstIndex = graph.index
        let drawn = part.map { Set($0.steps) } ?? Set(flow.steps.indices)

        var lines = ["flowchart TD"]
        lines.append("  " + Self.comment(flow, part.map { "part \($0.number) of \($0.count) of flow" } ?? "flow"))
        if let part {
            lines.append("  %% Too large for one Mermaid diagram: steps \(part.steps.first! + 1) to \(part.steps.last! + 1) of \(flow.steps.count); a transition to another part ends at a note naming it.")
        }
        var classes: [(String, String)] = []
        // The text of every label, as meant: for the `flowlens-labels` comment.
        var meant: [String] = []
        func quoted(_ rows: [String]) -> String {
            meant.append(Self.meant(rows))
            return "\"\(Self.lines(rows))\""
        }

        let entries = graph.entries
        let flowFindings = places.aboutTheFlow(firstIndex: firstIndex)
        let firstPart = part.map { $0.number == 1 } ?? true
        let explicitStart = entries.count == 1 && flow.steps[entries[0]].kind == .start
        var edges: [String] = []
        if firstPart {
            if !flow.initialData.isEmpty || !flowFindings.isEmpty {
                var rows = flow.initialData.isEmpty ? [flow.name] : ["Starts with"] + (detailed ? flow.initialData.map { value in
                    value.key + (value.type.map { " (\($0.spelling))" } ?? "") + (value.value.map { " = \($0)" } ?? "")
                } : [flow.initialData.map(\.key).joined(separator: ", ")])
                rows += flowFindings.sorted(by: Finding.reportOrder).map(Self.findingRow)
                lines.append("  data>\(quoted(rows))]")
                if let c = Self.findingClass(flowFindings) { classes.append(("data", c)) }
                edges.append("  data -.- \(explicitStart ? "s\(entries[0])" : "begin")")
            }
            if !explicitStart {
                lines.append("  begin((\(quoted(["start"] + (trace.map { [$0.titleText] } ?? [])))))")
                for entry in entries where drawn.contains(entry) { edges.append("  begin --> s\(entry)") }
            }
        }

        for i in flow.steps.indices where drawn.contains(i) {
            let step = flow.steps[i]
            let stepFindings = places.on(step, at: i, firstIndex: firstIndex)
            let shape: (String, String)
            switch step.kind {
            case .start: shape = ("([", "])")
            case .end, .fail: shape = ("([", "])")
            case .branch: shape = ("{{", "}}")
            case .group, .subflow: shape = ("[[", "]]")
            case .join where step.reads.isEmpty && step.writes.isEmpty && stepFindings.isEmpty: shape = ("((", "))")
            default: shape = step.terminal ? ("([", "])") : ("(", ")")
            }
            // A plain join is a small empty circle.
            // Failures at a step are drawn as findings are: a line each, and the step's class.
            let failures = trace.map { $0.failures(at: i).map(TraceOverlay.failureMark) } ?? []
            let runsRow = explicitStart && i == entries[0] ? (trace.map { [$0.titleText] } ?? []) : []
            let shown = step.kind == .join && shape.0 == "((" && failures.isEmpty ? "\" \""
                : quoted([step.name] + Self.rows(step, findings: stepFindings, detailed: detailed, flows: flows) + runsRow + failures)
            lines.append("  s\(i)\(shape.0)\(shown)\(shape.1)")
            if !failures.isEmpty {
                classes.append(("s\(i)", "failed"))
            } else if let trace, trace.runs > 0, trace.unreachedSteps.contains(i), Self.findingClass(TraceOverlay.besidesFading(stepFindings)) == nil {
                classes.append(("s\(i)", "faded"))
            } else if let c = Self.findingClass(stepFindings) {
                classes.append(("s\(i)", c))
            } else if step.kind == .end || step.terminal {
                classes.append(("s\(i)", "endStep"))
            } else if step.kind == .fail {
                classes.append(("s\(i)", "failStep"))
            }
        }

        var missing = MissingTargets()
        var stubs: [Int: String] = [:]
        var linkStyles: [(Int, String)] = []
        for (t, transition) in flow.transitions.enumerated() {
            guard let from = firstIndex[transition.from], drawn.contains(from) else { continue }
            var target: String
            if let to = firstIndex[transition.to] {
                if drawn.contains(to) {
                    target = "s\(to)"
                } else {
                    // In another part: a stub naming the step and its part.
                    if stubs[to] == nil {
                        stubs[to] = "x\(to)"
                        let where_ = part.map { "part \($0.partOf[to] + 1)" } ?? "another part"
                        lines.append("  x\(to)>\(quoted(["→ \(flow.steps[to].name) (\(where_))"]))]")
                        classes.append(("x\(to)", "stub"))
                    }
                    target = stubs[to]!
                }
            } else {
                let n = missing.number(for: transition.to) { n in
                    lines.append("  m\(n)[\(quoted(["no such step", transition.to]))]")
                    classes.append(("m\(n)", "ghost"))
                }
                target = "m\(n)"
            }
            let edgeFindings = places.on(transition)
            var rows: [String] = []
            var text = transition.displayLabel ?? (transition.kind == .error ? "on error" : nil)
            if let type = transition.carriedType, detailed { text = (text.map { $0 + " " } ?? "") + "(\(type.spelling))" }
            if let text { rows.append(text) }
            rows += FindingPhrase.texts(edgeFindings).map(\.text)
            if let count = trace?.edgeText(t) { rows.append(count) }
            let worst = SeverityStyle.worst(edgeFindings)
            if let width = trace?.edgeWidth(t) {
                linkStyles.append((edges.count, (worst.map { "stroke:\($0.colour)," } ?? "") + "stroke-width:\(TraceOverlay.widthText(width))px"))
            } else if let trace, trace.runs > 0, trace.untakenTransitions.contains(t) {
                linkStyles.append((edges.count, "stroke:\(worst?.colour ?? TraceOverlay.fadedLine)" + (worst == nil ? "" : ",stroke-width:2px")))
            } else if let worst {
                linkStyles.append((edges.count, "stroke:\(worst.colour),stroke-width:2px"))
            }
            let arrow = transition.kind == .error ? "-.->" : transition.kind == .parallel ? "==>" : "-->"
            edges.append("  s\(from) \(arrow)\(rows.isEmpty ? "" : "|\(quoted(rows))|") \(target)")
        }
        lines += edges
        lines += Self.classDefinitions.map { "  " + $0 }
        if trace != nil { lines += Self.traceClassDefinitions.map { "  " + $0 } }
        for (node, c) in classes { lines.append("  class \(node) \(c)") }
        for (n, style) in linkStyles { lines.append("  linkStyle \(n) \(style)") }
        lines.append("  " + Self.labelsComment(meant))
        return Self.guarded(lines).joined(separator: "\n") + "\n"
    }

    /// One part of a split flowchart.
    struct Part {
        var steps: [Int]
        var number: Int
        var count: Int
        /// The part (from 0) each step index is drawn in.
        var partOf: [Int]
    }

    /// The flow split into parts of consecutive steps, each under the budget.
    func split(_ flow: Flow, findings: [Finding], flows: [Flow]) -> [MermaidDiagram] {
        // Size each part by the steps' own lines and edges; halve until every part fits.
        var size = max(1, flow.steps.count / 2)
        while true {
            let chunks = stride(from: 0, to: flow.steps.count, by: size).map { Array($0..<min($0 + size, flow.steps.count)) }
            var partOf = Array(repeating: 0, count: flow.steps.count)
            for (n, chunk) in chunks.enumerated() { for i in chunk { partOf[i] = n } }
            let texts = chunks.enumerated().map { n, chunk in
                flowchart(flow, findings: findings, flows: flows, detailed: false, part: Part(steps: chunk, number: n + 1, count: chunks.count, partOf: partOf))
            }
            if texts.allSatisfy(fits) || size == 1 {
                let note = "Too large for one Mermaid diagram: drawn in \(texts.count) parts, without data and types."
                return texts.enumerated().map { MermaidDiagram(text: $1, part: ($0 + 1, texts.count), note: note) }
            }
            size = max(1, size / 2)
        }
    }

    // MARK: - State diagrams

    /// A `stateDiagram-v2` of a state machine, its composite states drawn nested with the machines in `flows`.
    func stateDiagram(_ flow: Flow, findings: [Finding], flows: [Flow], detailed: Bool) -> String {
        var writer = MermaidMachineWriter(flows: flows, findings: findings, detailed: detailed)
        writer.trace = trace
        writer.draw(flow, prefix: "", indent: "  ", stack: [flow.id], outer: [:])
        var lines = ["stateDiagram-v2", "  " + Self.comment(flow, "state machine")]
        lines += writer.lines
        lines += writer.crossing
        lines += Self.classDefinitions.map { "  " + $0 }
        if trace != nil { lines += Self.traceClassDefinitions.map { "  " + $0 } }
        for (node, c) in writer.classes { lines.append("  class \(node) \(c)") }
        lines.append("  " + Self.labelsComment(writer.meant))
        return Self.guarded(lines).joined(separator: "\n") + "\n"
    }
}

/// Writes one machine's states and transitions, composite states nested.
struct MermaidMachineWriter {
    let flows: [Flow]
    let findings: [Finding]
    let detailed: Bool
    var lines: [String] = []
    var classes: [(String, String)] = []
    /// Transitions out of a composite to a state around it: written at the top level, since Mermaid
    /// would make a new state of a name it meets inside a composite's block.
    var crossing: [String] = []
    /// The text of every label, as meant: for the `flowlens-labels` comment.
    var meant: [String] = []
    /// What recorded runs did on the machine drawn (not on the sub-machines inside its composites):
    /// counts in transition labels, failures at their states, unreached states faded. A state
    /// diagram has no line widths.
    var trace: TraceOverlay?
    private var clusters = 0

    init(flows: [Flow], findings: [Finding], detailed: Bool) {
        self.flows = flows
        self.findings = findings
        self.detailed = detailed
    }

    /// A quoted state description.
    private mutating func quoted(_ rows: [String]) -> String {
        meant.append(MermaidBuilder.meant(rows))
        return "\"\(MermaidBuilder.lines(rows))\""
    }

    /// A transition label or a note: text to the end of the line.
    private mutating func unquoted(_ rows: [String]) -> String {
        meant.append(MermaidBuilder.meant(rows))
        return MermaidBuilder.lines(rows, unquoted: true)
    }

    /// Draws `flow`'s states and transitions. `outer`: the ids of the states of the machines around
    /// this one, by step id, for a transition that crosses out of a composite.
    mutating func draw(_ flow: Flow, prefix: String, indent: String, stack: [String], outer: [String: String]) {
        let findings = self.findings.filter { $0.flow == flow.id }
        let places = FindingPlaces(findings)
        let graph = FlowIndex(flow)
        let firstIndex = graph.index
        let trace = prefix.isEmpty && (self.trace?.runs ?? 0) > 0 ? self.trace : nil
        func id(_ i: Int) -> String { "\(prefix)s\(i)" }
        let pseudo = Set(flow.steps.indices.filter { flow.steps[$0].kind == .start || flow.steps[$0].kind == .end })
        let entries = graph.entries
        func subMachine(_ step: Step) -> Flow? {
            guard step.kind == .subflow, let reference = step.subflow, let sub = SubMachines.machine(reference, in: flow, flows: flows),
                  !stack.contains(sub.id), stack.count <= DOTBuilder.maximumNestedMachines else { return nil }
            return sub
        }
        var visible = outer
        for (i, step) in flow.steps.enumerated().reversed() where !pseudo.contains(i) && subMachine(step) == nil { visible[step.id] = id(i) }

        let flowFindings = places.aboutTheFlow(firstIndex: firstIndex)
        var notes: [String] = []
        for (i, step) in flow.steps.enumerated() where !pseudo.contains(i) {
            let stepFindings = places.on(step, at: i, firstIndex: firstIndex)
            if let sub = subMachine(step) {
                clusters += 1
                let rows = MermaidBuilder.rows(step, findings: [], detailed: detailed, flows: flows, nesting: .drawnInside)
                lines.append("\(indent)state \(quoted([step.name] + rows)) as \(id(i)) {")
                draw(sub, prefix: "c\(clusters)_", indent: indent + "  ", stack: stack + [sub.id], outer: visible)
                lines.append("\(indent)}")
                // Mermaid cannot style a composite state: its findings go in a note.
                if !stepFindings.isEmpty {
                    notes.append("\(indent)note right of \(id(i)) : \(unquoted(stepFindings.sorted(by: Finding.reportOrder).map(MermaidBuilder.stateFindingRow)))")
                }
            } else {
                let rows = MermaidBuilder.rows(step, findings: stepFindings, detailed: detailed, flows: flows, stateMachine: true,
                                               nesting: .ownDiagram)
                let failures = trace.map { $0.failures(at: i).map(TraceOverlay.failureMark) } ?? []
                lines.append("\(indent)state \(quoted([step.name] + rows + failures)) as \(id(i))")
                if !failures.isEmpty {
                    classes.append((id(i), "failed"))
                } else if let trace, trace.unreachedSteps.contains(i), MermaidBuilder.findingClass(TraceOverlay.besidesFading(stepFindings)) == nil {
                    classes.append((id(i), "faded"))
                } else if let c = MermaidBuilder.findingClass(stepFindings) {
                    classes.append((id(i), c))
                } else if step.kind == .fail {
                    classes.append((id(i), "failStep"))
                } else if step.terminal {
                    classes.append((id(i), "endStep"))
                }
            }
        }
        if !flowFindings.isEmpty, let first = flow.steps.indices.first(where: { !pseudo.contains($0) }) {
            notes.append("\(indent)note left of \(id(first)) : \(unquoted(flowFindings.sorted(by: Finding.reportOrder).map(MermaidBuilder.stateFindingRow)))")
        }

        // Begin and End are `[*]`; a machine whose entry is not a Begin starts from `[*]` too.
        for entry in entries where !pseudo.contains(entry) { lines.append("\(indent)[*] --> \(id(entry))") }
        var missing = MissingTargets()
        for (t, transition) in flow.transitions.enumerated() {
            guard let from = firstIndex[transition.from] else { continue }
            let source = pseudo.contains(from) ? "[*]" : id(from)
            let target: String
            var crosses = false
            if let to = firstIndex[transition.to] {
                target = pseudo.contains(to) ? "[*]" : id(to)
            } else if let state = outer[transition.to], source != "[*]" {
                target = state
                crosses = true
            } else {
                let n = missing.number(for: transition.to) { n in
                    lines.append("\(indent)state \(quoted(["no such state", transition.to])) as \(prefix)m\(n)")
                    classes.append(("\(prefix)m\(n)", "ghost"))
                }
                target = "\(prefix)m\(n)"
            }
            if source == "[*]" && target == "[*]" { continue }
            let edgeFindings = places.on(transition)
            var rows: [String] = []
            if let text = transition.displayLabel ?? transition.carriedType.map(\.spelling) { rows.append(text) }
            rows += FindingPhrase.texts(edgeFindings, stateMachine: true).map(\.text)
            if let count = trace?.edgeText(t) { rows.append(count) }
            let line = "\(source) --> \(target)\(rows.isEmpty ? "" : " : \(unquoted(rows))")"
            if crosses { crossing.append("  " + line) } else { lines.append(indent + line) }
        }
        lines += notes
    }
}
