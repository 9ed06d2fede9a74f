import FlowModel
import Foundation

/// Reads PlantUML state machines, and the models their states carry, from PlantUML files
/// (`*.puml`, `*.plantuml`), one file at a time: the plain PlantUML dialect's loader, on which
/// FlowKit builds.
///
/// FlowKit (github.com/inmotionsoftware/FlowKit) generates Swift and Kotlin from PlantUML state
/// diagrams. A machine FlowKit takes (`FlowKitDialect.writtenForFlowKit`, the one place that
/// decides it) gets FlowKit's typing and the reports of what its generator refuses, in the same
/// pass, because both need the states as written; any other machine is read as PlantUML draws it.
/// This loader reads them as FlowKit's generator does:
///
/// - Each `@startuml` … `@enduml` block that is a state diagram (it uses `[*]` or `state`) is a
///   machine, named by its `title` with spaces, `-` and `_` removed (`Login Flow` → `LoginFlow`;
///   of a title on several lines, its first line); a block without a title keeps the title of the
///   block before it, else the file's name. A written title is also the machine's summary.
/// - `[*]` as a source is Begin, as a target End. `->`, `-->`, `-left->`, `-[#red]->`, `<--` …
///   are transitions (direction and style are layout only). `A --> B: T` labels the edge; FlowKit
///   reads a label on `[*] --> X` as the machine's input type and on `X --> [*]` as its output.
///   On other edges a label that is a type (`Credentials`, `[Item]`, `String?`) is the type the
///   edge carries; any other label (`submit`) is just shown.
/// - `State: Type` — the first such line of a state is its context type (default `Void`).
/// - `state X { … }` is a composite: its own machine named X, whose input is X's context type. An
///   edge belongs to the machine of its source; one whose target is in another machine crosses a
///   composite's boundary, which FlowKit cannot generate (`Transition.crossesInto`). A state
///   belongs to the machine where it is first named, as in PlantUML.
/// - Notes, `skinparam`, `hide`, `title`, `legend` and other layout statements are read and have
///   no effect. Choice, fork, join, history, entry/exit points and concurrent regions are
///   `invalid-input` findings at their line (FlowKit's generator stops on them); the rest is read.
/// - Class-diagram blocks give `ModelType`s: `class` (fields) and `enum` (cases, `name: Type` for
///   an associated value). A class with methods, an interface or an abstract class is not a model.
///   Blocks of any other diagram kind (sequence, activity) are skipped: they are not flows.
///
/// See `PlantUMLPreprocessor` for the `!` directives and comments.
public struct PlantUMLLoader: FlowLoader {
    /// What `%getenv` reads for a file.
    public var environment: @Sendable (InputFile) -> [String: String]

    /// A loader whose `%getenv` reads `environment`.
    public init(environment: @escaping @Sendable (InputFile) -> [String: String] = { _ in [:] }) {
        self.environment = environment
    }

    public func load(_ file: InputFile, contents: String) -> FlowGraph {
        loadRecordingEnvironment(file, contents: contents).graph
    }

    /// Loads one file, and names the variables `%getenv` read: the result depends on the file's
    /// text and on those variables' values only (what the cache keys a PlantUML file by).
    public func loadRecordingEnvironment(_ file: InputFile, contents: String) -> (graph: FlowGraph, environmentNamesRead: Set<String>) {
        var preprocessor = PlantUMLPreprocessor(file: file.displayPath, environment: environment(file))
        let blocks = preprocessor.blocks(contents)
        var graph = FlowGraph()
        var findings: [Finding] = []
        let baseName = ((file.path as NSString).lastPathComponent as NSString).deletingPathExtension
        var title = baseName
        var titled = false
        var ids = Set<String>()
        // A directive or marker problem inside a block (a missing `@enduml`, an `!include`) belongs to
        // the machine that block reads: that machine was not read whole.
        var blockFindings = preprocessor.findings.map { ($0, Int?.none) }
        for (b, block) in blocks.enumerated() {
            let end = b + 1 < blocks.count ? blocks[b + 1].start - 1 : Int.max
            for i in blockFindings.indices where blockFindings[i].1 == nil {
                if let line = blockFindings[i].0.location?.line, (block.start...end).contains(line) { blockFindings[i].1 = b }
            }
        }
        for (b, block) in blocks.enumerated() {
            switch PlantUMLBlockKind.of(block) {
            case .stateDiagram:
                var reader = StateDiagramReader(file: file.displayPath, block: block, title: title, titled: titled)
                let flows = reader.read(taken: &ids)
                graph.flows += flows
                title = reader.title
                titled = reader.titled
                findings += reader.findings
                if let root = flows.first(where: { $0.parent == nil }) ?? flows.first {
                    for i in blockFindings.indices where blockFindings[i].1 == b { blockFindings[i].0.flow = root.id }
                }
            case .classDiagram:
                graph.models += ModelReader.models(in: block, file: file.displayPath)
            case .other:
                continue
            }
        }
        graph.loadFindings = blockFindings.map(\.0) + findings
        return (graph, preprocessor.environmentNamesRead)
    }
}

/// What a block draws.
enum PlantUMLBlockKind {
    case stateDiagram, classDiagram, other

    static func of(_ block: PlantUMLBlock) -> PlantUMLBlockKind {
        var classes = false
        for line in block.lines {
            let text = line.text.lowercased()
            if text.contains("[*]") || text.hasPrefix("state ") || text.hasPrefix("[h]") || text.hasPrefix("[h*]") { return .stateDiagram }
            for keyword in ["class ", "enum ", "interface ", "abstract "] where text.hasPrefix(keyword) { classes = true }
        }
        return classes ? .classDiagram : .other
    }
}

/// Whether PlantUML text is a Swift/Kotlin type spelling, and its `TypeName`.
enum PlantUMLTypes {
    private static let punctuation: Set<Character> = ["<", ">", "[", "]", "(", ")", ":", ",", "?", "!", ".", "&", "-"]

    /// The type `text` spells (`String?`, `Promise<[JobItem]>`, `[String: Int]`, `()`), or nil when
    /// it is not a type (`waiting for input`, `on success`).
    static func type(_ text: String) -> TypeName? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard let first = text.first, first.isLetter || first == "_" || first == "[" || first == "(" else { return nil }
        var depth = 0
        var previous: Character = " "
        var pendingSpace = false
        for c in text {
            if c == " " || c == "\t" { pendingSpace = true; continue }
            let word = c.isLetter || c.isNumber || c == "_"
            guard word || punctuation.contains(c) else { return nil }
            // Two words separated by white space only: prose, not a type.
            if pendingSpace, word, previous.isLetter || previous.isNumber || previous == "_" || previous == "?" { return nil }
            pendingSpace = false
            // `:` and `,` only inside brackets (`[String: Int]`, `(Int, Int)`): `do: EVENT` is prose.
            if (c == ":" || c == ",") && depth == 0 { return nil }
            if "<[(".contains(c) { depth += 1 }
            if ">])".contains(c) {
                // `->` in a function type is not a closing bracket.
                if c == ">" && previous == "-" { previous = c; continue }
                depth -= 1
                if depth < 0 { return nil }
            }
            previous = c
        }
        guard depth == 0 else { return nil }
        if text.filter({ $0 != " " }) == "()" { return "Void" }
        return TypeName(text)
    }
}

/// PlantUML text as a person reads it: Creole markup (`**bold**`, `//italics//`, `""mono""`,
/// `__underline__`, `~~wave~~`, `<b>`, `<i>`, `<u>`, `<color:red>`, `<size:12>` …) removed, and
/// `\n` (also `\l`, `\r`, `%n()`) a real line break. Names, labels, descriptions and titles are
/// stored this way, so that no diagram, report or finding message shows raw markup.
public enum PlantUMLText {
    nonisolated(unsafe) private static let tag = try! Regex(
        #"(?i)</?(?:b|i|u|s|w|strike|del|color|size|font|back|plain|sub|sup|code|tt|em|strong|img|size)(?:[:=\s][^>]*)?>|<&[\w.-]+>"#)
    nonisolated(unsafe) private static let paired = try! Regex(#"(\*\*|//|""|__|~~)(.+?)\1"#)
    nonisolated(unsafe) private static let lineBreak = try! Regex(#"\\[nlr]|%n(?:ewline)?\(\)"#)

    /// The display text of `text` as written in a PlantUML file.
    public static func display(_ text: String) -> String {
        guard text.contains(where: { "\\*/\"_~<%".contains($0) }) else { return text }
        // `~` escapes the character after it (`~**` is two stars): set it aside before the markup goes.
        // `~~` is itself markup (a wavy underline), not an escape.
        var protected = ""
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "~", i + 1 < scalars.count {
                if scalars[i + 1] == "~" {
                    protected += "~~"
                } else if let kept = Unicode.Scalar(0xF0000 + scalars[i + 1].value) {
                    protected.unicodeScalars.append(kept)
                } else {
                    protected.unicodeScalars.append(scalars[i + 1])
                }
                i += 2
                continue
            }
            protected.unicodeScalars.append(scalars[i])
            i += 1
        }
        var result = protected.replacing(lineBreak, with: "\n").replacing(tag, with: "")
        // `//` in a URL is not italics.
        if !result.contains("://") {
            result = result.replacing(paired) { String($0.output[2].substring!) }
        } else {
            result = result.replacing(paired) { $0.output[1].substring! == "//" ? String($0.output[0].substring!) : String($0.output[2].substring!) }
        }
        var unescaped = ""
        for scalar in result.unicodeScalars {
            let original = scalar.value >= 0xF0000 ? Unicode.Scalar(scalar.value - 0xF0000) ?? scalar : scalar
            unescaped.unicodeScalars.append(original)
        }
        return unescaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The display text on one line (line breaks as spaces): for a machine's name, which reports
    /// print on one line.
    public static func oneLine(_ text: String) -> String {
        display(text).split(separator: "\n").joined(separator: " ")
    }
}

/// Reads one state-diagram block into its machine and the machines of its composite states.
struct StateDiagramReader {
    let file: String
    let block: PlantUMLBlock
    /// The machine's title: the block's `title`, else the one given (the previous block's or the file's).
    var title: String
    /// Whether `title` was written in a `title` statement (this block's or an earlier one's), not
    /// taken from the file's name: only a written title is the machine's summary.
    var titled: Bool
    /// The `invalid-input` findings of the block, each carrying the id of the machine it is in.
    var findings: [Finding] = []

    private struct Machine {
        var id: String
        var name: String
        var parent: Int?
        var location: SourceLocation
        var states: [Int] = []
        var beginLocation: SourceLocation?
        var endLocation: SourceLocation?
        /// The label of the first `[*] -->` edge (FlowKit's input type), and of the first labelled
        /// `--> [*]` edge (its output type), as written.
        var beginLabel: (String, SourceLocation)?
        var endLabel: (String, SourceLocation)?
        /// Each transition with the machine its target belongs to when that is another machine. Ids
        /// are given in `flows()`: the root machine's name may come from a `title` read later.
        var transitions: [(transition: Transition, crossesInto: Int?)] = []
    }

    private struct State {
        var key: String
        var name: String
        var machine: Int
        var location: SourceLocation
        /// The state's body lines (`X : text`, `state X : text`), as written, in order.
        var body: [(text: String, location: SourceLocation)] = []
        var composite: Int?
        /// A pseudo-state written as a state (`<<choice>>`, `<<fork>>`, `==bar==`): its step kind.
        var kind: StepKind?
    }

    private enum Endpoint {
        case begin(Int), end(Int), state(Int)
    }

    private var machines: [Machine] = []
    private var states: [State] = []
    private var stateIndex: [String: Int] = [:]
    private var stack: [Int] = [0]
    /// Problems with the text itself, each with the machine it was read in.
    private var errors: [(Finding, Int)] = []
    /// Valid PlantUML that FlowKit's generator cannot take: reported only for a FlowKit machine.
    private var flowKitErrors: [(Finding, Int)] = []

    init(file: String, block: PlantUMLBlock, title: String, titled: Bool = false) {
        self.file = file
        self.block = block
        self.title = title
        self.titled = titled
    }

    /// `[*]`, a history `[H]` / `[H*]` (of a composite: `X[H]`), a synchronization bar `==B==`, a quoted
    /// name, a name.
    private static let endpoint = #"\[\*\]|\[[Hh]\*?\]|[\p{L}\p{N}_.]+\[[Hh]\*?\]|==+[\p{L}\p{N}_.]+==+|"[^"]+"|[\p{L}\p{N}_.]+"#
    /// PlantUML's state arrows: a body of `-`, a style (`[#red,dashed]`) and a direction (`left`, `l`,
    /// `UP` …) in either order, more `-`, `>`; `x` (cross) and `o` (circle) decorations at the ends.
    private static let arrowStyle = #"(?:\[[^\]]*\])?"#
    private static let arrowDirection = #"(?i:left|right|up|down|le?|ri?|up?|do?)?"#
    private static let forwardArrow = "x?-+\(arrowStyle)\(arrowDirection)\(arrowStyle)-*>(?:o(?=\\s))?"
    /// `<--`: the same written backwards, the source on the right.
    private static let reverseArrow = "(?:o\\s+)?<-*\(arrowStyle)\(arrowDirection)\(arrowStyle)-+x?"
    /// A stereotype and a colour after the target (`[*] -> Idle #Yellow`, `A -up-> B #Pink : text`,
    /// `sin2 --> exitA <<exitPoint>>`): they apply to the target.
    private static let targetSuffix = #"(?:\s*<<([^>]*)>>)?(?:\s*#[\w#/\\.|-]+)?"#
    nonisolated(unsafe) private static let transitionPattern = try! Regex(
        "^(\(endpoint))\\s*(?:(\(forwardArrow))|(\(reverseArrow)))\\s*(\(endpoint))\(targetSuffix)\\s*(?::(.*))?$")
    nonisolated(unsafe) private static let descriptionPattern = try! Regex(#"^("[^"]+"|[\p{L}\p{N}_.]+)\s*:(.*)$"#)
    nonisolated(unsafe) private static let noteLinkPattern = try! Regex(#"^[\p{L}\p{N}_."]+\s*\.{2,}\s*[\p{L}\p{N}_."]+$"#)
    /// The pseudo-states PlantUML draws from a stereotype, what they are in a graph, and their name.
    private static let pseudoStereotypes: [String: (kind: StepKind, name: String)] = [
        "choice": (.branch, "choice"), "fork": (.parallel, "fork"), "join": (.join, "join"),
        "history": (.state, "history"), "history*": (.state, "deep history"),
        "entrypoint": (.state, "entry point"), "exitpoint": (.state, "exit point"),
        "inputpin": (.state, "input pin"), "outputpin": (.state, "output pin"),
        "expansioninput": (.state, "expansion input"), "expansionoutput": (.state, "expansion output"),
        "start": (.start, "start"), "end": (.end, "end"), "sdlreceive": (.state, "SDL receive"),
    ]

    /// Reads the block; `taken` holds the flow ids of the file's earlier blocks, and gets this one's.
    mutating func read(taken: inout Set<String>) -> [Flow] {
        machines = [Machine(id: "", name: "", parent: nil, location: SourceLocation(file: file, line: block.start, column: 1))]
        var skipUntil: Set<String>?  // the lines that end a multi-line note, legend …
        var readingTitle = false  // in a `title` … `end title` block, before its first line
        var skinparamDepth = 0
        var skipOpened: (line: Int, text: String)?  // where the block being skipped opened
        for line in block.lines {
            let text = line.text
            let lower = text.lowercased()
            let skippingBefore = skipUntil != nil
            defer { if !skippingBefore, skipUntil != nil { skipOpened = (line.number, text) } }
            if let ends = skipUntil {
                if ends.contains(lower.replacingOccurrences(of: " ", with: "")) {
                    skipUntil = nil
                    readingTitle = false
                } else if readingTitle {
                    setTitle(text)
                    readingTitle = false
                }
                continue
            }
            if skinparamDepth > 0 {
                skinparamDepth += text.filter { $0 == "{" }.count - text.filter { $0 == "}" }.count
                continue
            }
            let at = SourceLocation(file: file, line: line.number, column: line.column())
            if text == "}" || text.hasPrefix("} ") {
                if stack.count > 1 { stack.removeLast() } else { report("'}' closes no state block", at: at) }
                continue
            }
            if let match = try? Self.transitionPattern.wholeMatch(in: text) {
                let output = match.output
                let left = String(output[1].substring!), right = String(output[4].substring!)
                let reversed = output[3].substring != nil
                let arrow = String((output[2].substring ?? output[3].substring)!)
                let label = output[6].substring.map { String($0).trimmingCharacters(in: .whitespaces) }
                // Each name is looked for after the one before it: in `AB --> B`, B is not the B of AB.
                let leftColumn = line.column(of: left)
                let arrowColumn = line.column(of: arrow, from: leftColumn + left.utf8.count)
                let rightColumn = line.column(of: right, from: arrowColumn + arrow.utf8.count)
                if reversed {
                    transition(from: right, at: rightColumn, to: left, at: leftColumn, label: label, line: line)
                } else {
                    transition(from: left, at: leftColumn, to: right, at: rightColumn, label: label, line: line)
                }
                if let stereotype = output[5].substring, let index = stateIndex[Self.key(right)] {
                    applyStereotype(String(stereotype), to: index, at: SourceLocation(file: file, line: line.number, column: rightColumn))
                }
                continue
            }
            if lower.hasPrefix("state ") {
                declareState(String(text.dropFirst(6)).trimmingCharacters(in: .whitespaces), line: line)
                continue
            }
            if lower.hasPrefix("note ") || lower == "note" {
                // One line (`note left of X : text`, `note "text" as N1`) or several, up to `end note`.
                let oneLine = lower.hasPrefix("note \"") ? text.dropFirst(6).contains("\"") : text.contains(":")
                if !oneLine { skipUntil = ["endnote"] }
                continue
            }
            if (try? Self.noteLinkPattern.wholeMatch(in: text)) != nil { continue }
            if let match = try? Self.descriptionPattern.wholeMatch(in: text) {
                let name = String(match.output[1].substring!)
                let description = String(match.output[2].substring!).trimmingCharacters(in: .whitespaces)
                let column = line.column(of: name)
                let index = resolve(name, at: SourceLocation(file: file, line: line.number, column: column))
                describe(index, description, line: line, from: column + name.utf8.count)
                continue
            }
            if lower.hasPrefix("title") && (lower.count == 5 || lower.dropFirst(5).first == " ") {
                let rest = text.dropFirst(5).trimmingCharacters(in: .whitespaces)
                if rest.isEmpty {
                    skipUntil = ["endtitle"]
                    readingTitle = true
                } else {
                    setTitle(rest)
                }
                continue
            }
            if lower.hasPrefix("skinparam") {
                skinparamDepth = text.filter { $0 == "{" }.count - text.filter { $0 == "}" }.count
                continue
            }
            if let annotation = Self.annotation(lower) {
                if let closing = annotation { skipUntil = [closing] }
                continue
            }
            if lower == "<style>" { skipUntil = ["</style>"]; continue }
            if ["hide ", "show ", "scale ", "caption ", "header ", "footer ", "left to right direction", "top to bottom direction",
                "allowmixing", "allow_mixing", "newpage", "mainframe ", "set ", "skin "].contains(where: { lower.hasPrefix($0) }) {
                continue
            }
            if text.allSatisfy({ $0 == "-" }) || text.allSatisfy({ $0 == "|" }) {
                // Concurrent regions: each region's `[*]` is another start of the same state.
                reportForFlowKit("concurrent regions ('\(text)') are not supported by FlowKit: its generator reads one region per state", at: at)
                continue
            }
            report("PlantUML line not understood as part of a state machine: '\(text)'", at: at)
        }
        if stack.count > 1 {
            let open = machines[stack.last!]
            report("state block '\(open.name)' opened at line \(open.location.line) is not closed with '}'", at: open.location)
        }
        if let ends = skipUntil, let opened = skipOpened {
            // PlantUML rejects a note, title, legend or style block that runs to the end of the diagram.
            let closing = ends.sorted().first.map { $0.hasPrefix("end") ? "end " + $0.dropFirst(3) : $0 } ?? "its end"
            report("'\(Excerpt.quote(opened.text))' is not closed by '\(closing)' before @enduml: PlantUML rejects the diagram",
                   at: SourceLocation(file: file, line: opened.line, column: 1))
        }
        return flows(taken: &taken)
    }

    /// Text PlantUML itself rejects or FlowLens cannot read: the machine it is in was not read whole.
    private mutating func report(_ message: String, at location: SourceLocation) {
        errors.append((.invalidInput(message, at: location), stack.last!))
    }

    /// Valid PlantUML that FlowKit's generator stops on: a finding only in a FlowKit machine, on the
    /// state it is about when there is one.
    private mutating func reportForFlowKit(_ message: String, at location: SourceLocation, state: Int? = nil) {
        var finding = Finding.invalidInput(message, at: location)
        finding.step = state.map(stepID)
        flowKitErrors.append((finding, state.map { states[$0].machine } ?? stack.last!))
    }

    /// A `title`: FlowKit names the machine by its first line (a literal `\n` starts another).
    private mutating func setTitle(_ text: String) {
        let first = (text.components(separatedBy: "\\n").first ?? text).trimmingCharacters(in: .whitespaces)
        guard !first.isEmpty else { return }
        title = first
        titled = true
    }

    /// For a `legend`, `header` or `footer` statement (`center header` …): the line that closes it
    /// when it opens a block (`legend right`, `header` alone), nil when it is complete on its line
    /// (`footer Page 1`). Nil (no value) for any other line.
    private static func annotation(_ lower: String) -> String?? {
        var words = lower.split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        if first == "legend" {
            let positions: Set<String> = ["left", "right", "center", "top", "bottom"]
            return words.dropFirst().allSatisfy(positions.contains) ? .some("endlegend") : nil
        }
        if ["left", "right", "center"].contains(first), words.count > 1 { words.removeFirst() }
        guard let word = words.first, word == "header" || word == "footer" else { return nil }
        return words.count == 1 ? .some("end" + word) : .some(nil)
    }

    // MARK: - Statements

    /// `state X`, `state "Long name" as X`, `state X <<choice>>`, `state X : T`, `state X {`, `state X #color`.
    private mutating func declareState(_ text: String, line: PlantUMLLine) {
        var rest = Substring(text)
        var name: String
        var display: String?
        // Where to look for the name in the line: after `state` (`state t` is not the t of `state`),
        // and after a display name written first.
        var searchFrom = line.column() + 5
        if rest.hasPrefix("\"") {
            guard let close = rest.dropFirst().firstIndex(of: "\"") else {
                report("unterminated state name: 'state \(text)'", at: SourceLocation(file: file, line: line.number, column: line.column()))
                return
            }
            display = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
            let quoted = "\"" + display! + "\""
            let quoteColumn = line.column(of: quoted, from: searchFrom)
            searchFrom = quoteColumn + quoted.utf8.count
            if rest.lowercased().hasPrefix("as ") {
                rest = rest.dropFirst(3).drop { $0 == " " }
                name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
                rest = rest.dropFirst(name.count)
            } else {
                name = display!
                searchFrom = quoteColumn  // the name is the quoted text: located at its quote
            }
        } else {
            name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            rest = rest.dropFirst(name.count).drop { $0 == " " }
            if rest.lowercased().hasPrefix("as \"") {
                let quoted = rest.dropFirst(4)
                if let close = quoted.firstIndex(of: "\"") {
                    display = String(quoted[..<close])
                    rest = quoted[quoted.index(after: close)...]
                }
            }
        }
        let nameColumn = display == name ? searchFrom : line.column(of: name, from: searchFrom)
        let location = SourceLocation(file: file, line: line.number, column: nameColumn)
        guard !name.isEmpty else {
            report("a state declaration needs a name: 'state \(text)'", at: location)
            return
        }
        rest = rest.drop { $0 == " " }
        var opensBlock = false
        var description: String?
        while !rest.isEmpty {
            if rest.hasPrefix("<<"), let close = rest.range(of: ">>") {
                let stereotype = rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
                applyStereotype(stereotype, to: resolve(name, at: location), at: location)
                rest = rest[close.upperBound...].drop { $0 == " " }
            } else if rest.hasPrefix("#") {
                rest = rest.drop { $0 != " " && $0 != "{" && $0 != ":" }.drop { $0 == " " }
            } else if rest.hasPrefix(":") {
                var body = rest.dropFirst()
                if body.hasSuffix("{") { body = body.dropLast(); opensBlock = true }
                description = body.trimmingCharacters(in: .whitespaces)
                rest = ""
            } else if rest.hasPrefix("{") {
                opensBlock = true
                rest = rest.dropFirst().drop { $0 == " " }
                if rest.hasPrefix("}") { opensBlock = false; rest = rest.dropFirst() }
            } else {
                report("state declaration not understood: 'state \(text)'", at: location)
                return
            }
        }
        let index = resolve(name, at: location)
        if let display { states[index].name = display }
        if let description, !description.isEmpty { describe(index, description, line: line, from: nameColumn + name.utf8.count) }
        if opensBlock {
            if states[index].composite == nil {
                machines.append(Machine(id: name.generatedTypeName, name: PlantUMLText.oneLine(display ?? name),
                                        parent: states[index].machine, location: location))
                states[index].composite = machines.count - 1
            }
            stack.append(states[index].composite!)
        }
    }

    /// `<<choice>>`, `<<exitPoint>>` …: a pseudo-state PlantUML draws, and FlowKit cannot generate. Any
    /// other stereotype only styles the state.
    private mutating func applyStereotype(_ stereotype: String, to index: Int, at location: SourceLocation) {
        guard let pseudo = Self.pseudoStereotypes[stereotype.trimmingCharacters(in: .whitespaces).lowercased()] else { return }
        states[index].kind = pseudo.kind
        reportForFlowKit("\(pseudo.name) state '\(states[index].key)' is not supported by FlowKit: its generator stops on it", at: location,
                         state: index)
    }

    /// `X: text` — a body line of a state: in a FlowKit machine its first one is the state's context
    /// type, elsewhere each is a line of its description. `from` is a column before the text.
    private mutating func describe(_ index: Int, _ description: String, line: PlantUMLLine, from: Int) {
        let location = SourceLocation(file: file, line: line.number, column: line.column(of: description, from: from))
        states[index].body.append((description, location))
    }

    /// An edge from `left` (written at column `fromColumn`) to `right`. Its label is an event: shown,
    /// never a type (FlowKit's generators ignore it), except on an edge from or into `[*]`.
    private mutating func transition(from left: String, at fromColumn: Int, to right: String, at toColumn: Int, label: String?,
                                     line: PlantUMLLine) {
        let fromLocation = SourceLocation(file: file, line: line.number, column: fromColumn)
        let toLocation = SourceLocation(file: file, line: line.number, column: toColumn)
        guard let from = endpoint(left, asSource: true, at: fromLocation),
              let to = endpoint(right, asSource: false, at: toLocation) else { return }
        let label = label.flatMap { $0.isEmpty ? nil : $0 }
        let machine: Int
        let fromID: String
        switch from {
        case let .begin(m):
            machine = m
            fromID = "Begin"
            // FlowKit's input type is the label of the first `[*] -->` edge only.
            if machines[m].beginLocation == nil {
                machines[m].beginLocation = fromLocation
                if let label { machines[m].beginLabel = (label, fromLocation) }
            }
        case let .state(i):
            machine = states[i].machine
            fromID = stepID(i)
        case .end:
            report("[*] as a source is the machine's start, never its end", at: fromLocation)
            return
        }
        var transition = Transition(from: fromID, to: "", location: fromLocation)
        var targetMachine = machine
        switch to {
        case let .end(m):
            transition.to = "End"
            if machines[m].endLocation == nil { machines[m].endLocation = toLocation }
            if m == machine, machines[m].endLabel == nil, let label { machines[m].endLabel = (label, toLocation) }
            targetMachine = m
        case let .state(i):
            transition.to = stepID(i)
            targetMachine = states[i].machine
        case .begin:
            return
        }
        if let label { transition.label = PlantUMLText.display(label) }
        machines[machine].transitions.append((transition, targetMachine == machine ? nil : targetMachine))
    }

    private mutating func endpoint(_ text: String, asSource: Bool, at location: SourceLocation) -> Endpoint? {
        let container = stack.last!
        switch text {
        case "[*]": return asSource ? .begin(container) : .end(container)
        case _ where text.uppercased().hasSuffix("[H]") || text.uppercased().hasSuffix("[H*]"):
            reportForFlowKit("history state \(text) is not supported by FlowKit: its generator stops on it", at: location)
            // `X[H]` resumes composite X where it was left; a bare `[H]` the composite it is written in.
            let owner = String(text.prefix { $0 != "[" })
            if !owner.isEmpty { return .state(resolve(owner, at: location)) }
            if let composite = states.firstIndex(where: { $0.composite == container }) {
                return asSource ? .begin(container) : .state(composite)
            }
            return asSource ? .begin(container) : nil
        case _ where text.hasPrefix("=="):
            reportForFlowKit("synchronization bar \(text) (a fork or join) is not supported by FlowKit: its generator stops on it", at: location)
            let index = resolve(text, at: location)
            states[index].name = String(text.drop { $0 == "=" }.reversed().drop { $0 == "=" }.reversed())
            states[index].kind = .join
            return .state(index)
        default: return .state(resolve(text, at: location))
        }
    }

    /// A state's key: its name as written, quotes removed.
    private static func key(_ written: String) -> String {
        written.hasPrefix("\"") && written.hasSuffix("\"") && written.count >= 2 ? String(written.dropFirst().dropLast()) : written
    }

    /// The state named `written` (quotes removed), created in the current container when first named.
    private mutating func resolve(_ written: String, at location: SourceLocation) -> Int {
        let key = Self.key(written)
        if let index = stateIndex[key] { return index }
        let machine = stack.last!
        states.append(State(key: key, name: key, machine: machine, location: location))
        stateIndex[key] = states.count - 1
        machines[machine].states.append(states.count - 1)
        return states.count - 1
    }

    /// FlowKit's name for a state; a state named like the pseudo-states keeps a distinct id so that
    /// `reserved-name` can report it without also making it a duplicate.
    private func stepID(_ index: Int) -> String {
        let name = states[index].key.filter { $0 != "=" }.generatedTypeName
        return name == "Begin" || name == "End" ? name + "_state" : name
    }

    // MARK: - Flows

    private mutating func flows(taken: inout Set<String>) -> [Flow] {
        let isFlowKit = FlowKitDialect.writtenForFlowKit(bodyLines: states.flatMap { $0.body.map(\.text) })
        var machines = self.machines
        machines[0].id = PlantUMLText.oneLine(title).generatedTypeName
        machines[0].name = titled ? PlantUMLText.oneLine(title) : machines[0].id
        let typeNames = machines.enumerated().map { $0.offset == 0 ? title.generatedTypeName : $0.element.id }
        // Two machines of one file with one name (two blocks with one title, a composite named like
        // the machine) are still two flows: the later gets `#2`, so references inside the file stay exact.
        for m in machines.indices where m > 0 || !machines[0].states.isEmpty || machines[0].beginLocation != nil || machines[0].endLocation != nil {
            var id = machines[m].id
            var n = 2
            while taken.contains(id) { id = "\(machines[m].id)#\(n)"; n += 1 }
            taken.insert(id)
            machines[m].id = id
        }
        var problems = errors
        if isFlowKit { problems += flowKitErrors }
        var flows: [Flow] = []
        var produced = Set<Int>()
        // The first state holding each machine (asked once per machine: no scan of the states each time).
        var holder: [Int: Int] = [:]
        for (i, state) in states.enumerated() { if let c = state.composite, holder[c] == nil { holder[c] = i } }
        for (m, machine) in machines.enumerated() {
            if m == 0 && machine.states.isEmpty && machine.beginLocation == nil && machine.endLocation == nil { continue }
            produced.insert(m)
            let id = machine.id
            var input: TypeName?
            var output: TypeName?
            if isFlowKit {
                // FlowKit types Begin by the composite's context type, else the first `[*] -->` label.
                let compositeType: TypeName? = m == 0 ? nil : holder[m].flatMap { Self.contextType(of: states[$0]) }
                var beginType: TypeName?
                if let (label, at) = machine.beginLabel {
                    beginType = PlantUMLTypes.type(label)
                    if beginType == nil {
                        problems.append((.invalidInput("the label '\(PlantUMLText.oneLine(label))' on the first edge from [*] is the machine's input type for FlowKit, and is not a type", at: at), m))
                    }
                }
                if let (label, at) = machine.endLabel {
                    output = PlantUMLTypes.type(label)
                    if output == nil {
                        problems.append((.invalidInput("the label '\(PlantUMLText.oneLine(label))' on an edge into [*] is the machine's output type for FlowKit, and is not a type", at: at), m))
                    }
                }
                input = compositeType ?? beginType ?? "Void"
                output = output ?? "Void"
            }
            var steps = [Step(id: "Begin", name: "Begin", kind: .start, location: machine.beginLocation ?? machine.location, contentType: input)]
            var entries = ["Begin"]
            for i in machine.states {
                let state = states[i]
                var step = Step(id: stepID(i), name: PlantUMLText.display(state.name), kind: .state, location: state.location,
                                contentType: isFlowKit ? Self.contextType(of: state) ?? "Void" : nil)
                if !isFlowKit { step.details = state.body.map { PlantUMLText.display($0.text) }.filter { !$0.isEmpty } }
                if let composite = state.composite {
                    step.kind = .subflow
                    step.subflow = machines[composite].id
                }
                if let kind = state.kind { step.kind = kind }
                if step.kind == .start { entries.append(step.id) }
                steps.append(step)
            }
            if let end = machine.endLocation {
                steps.append(Step(id: "End", name: "End", kind: .end, location: end, contentType: output))
            }
            var flow = Flow(id: id, name: m == 0 ? machines[0].name : machine.name, kind: isFlowKit ? .flowKit : .plantUML, location: machine.location, steps: steps,
                            transitions: machine.transitions.map { recorded in
                                var transition = recorded.transition
                                transition.crossesInto = recorded.crossesInto.map { machines[$0].id }
                                return transition
                            }, entries: machine.beginLocation == nil && entries.count > 1 ? Array(entries.dropFirst()) : entries,
                            inputType: input, outputType: machine.endLocation == nil ? nil : output,
                            parent: machine.parent.map { machines[$0].id })
            flow.typeName = typeNames[m]
            flows.append(flow)
        }
        // Each problem belongs to the machine it was read in, else to the nearest one around it.
        for (finding, m) in problems.sorted(by: { $0.0.location ?? SourceLocation(file: "") < $1.0.location ?? SourceLocation(file: "") }) {
            var finding = finding
            var owner: Int? = m
            while let o = owner, !produced.contains(o) { owner = machines[o].parent }
            finding.flow = owner.map { machines[$0].id } ?? (produced.contains(0) ? machines[0].id : nil)
            findings.append(finding)
        }
        return flows
    }

    /// A FlowKit state's context type: its first body line.
    private static func contextType(of state: State) -> TypeName? {
        state.body.first.flatMap { PlantUMLTypes.type($0.text) }
    }
}

/// Reads the `class` and `enum` models of a class-diagram block.
enum ModelReader {
    /// Each optional part takes the spaces after it, so that a run of spaces is read one way only:
    /// written as `\s*(<…>)?\s*(<<…>>)?\s*(\{)?\s*(\})?\s*$`, a line that does not match (a tab run
    /// inside a name) was tried in every split of its run among five `\s*`, and a 1.4 KB file took
    /// 28 s (found by fuzzing).
    nonisolated(unsafe) static let header = try! Regex(#"^(abstract\s+class|abstract|class|enum|interface|annotation|entity)\s+"?([\p{L}\p{N}_.]+)"?\s*(?:(<[^>{]*>)\s*)?(?:(<<[^>]*>>)\s*)?(?:(\{)\s*)?(?:(\})\s*)?$"#)

    /// Modifiers in front of a member: `{field}` makes it a field even with a `(`, `{method}` a method.
    private static let markers = ["{field}", "{method}", "{static}", "{abstract}", "{classifier}"]

    static func models(in block: PlantUMLBlock, file: String) -> [ModelType] {
        var models: [ModelType] = []
        var open: (kind: ModelType.Kind?, name: String, members: [String], methods: Bool, location: SourceLocation)?
        for line in block.lines {
            let text = line.text
            if var current = open {
                if text.hasPrefix("}") {
                    if let kind = current.kind, !current.methods {
                        models.append(ModelType(name: current.name, kind: kind, members: current.members, location: current.location))
                    }
                    open = nil
                    continue
                }
                // A separator, alone or titled (`--`, `.. notes ..`, `== title ==`, `__ private __`).
                if ["--", "..", "==", "__"].contains(where: { text.hasPrefix($0) }) { continue }
                var member = Substring(text)
                var field = false
                while let marker = Self.markers.first(where: { member.hasPrefix($0) }) {
                    if marker == "{method}" { current.methods = true }
                    if marker == "{field}" { field = true }
                    member = member.dropFirst(marker.count).drop { $0 == " " }
                }
                member = member.drop { "+-#~* ".contains($0) }
                // A method's parameters come before any `:` (`login(user: String): Bool`); a `(` after
                // the colon is in a field's type or default value (`id: UUID = UUID()`).
                if !field, current.kind == .class, let paren = member.firstIndex(of: "("),
                   member.firstIndex(of: ":").map({ paren < $0 }) ?? true {
                    current.methods = true
                }
                let parts = member.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if let name = parts.first, !name.isEmpty {
                    var type = parts.count > 1 ? parts[1] : nil
                    if let t = type, let eq = t.firstIndex(of: "=") { type = t[..<eq].trimmingCharacters(in: .whitespaces) }
                    if current.kind == .enum {
                        current.members.append(type.map { "\(name)(\($0))" } ?? name)
                    } else {
                        current.members.append(type.map { "\(name): \($0)" } ?? name)
                    }
                }
                open = current
                continue
            }
            guard let match = try? header.wholeMatch(in: text) else { continue }
            let keyword = String(match.output[1].substring!).lowercased()
            let kind: ModelType.Kind? = keyword == "class" ? .class : keyword == "enum" ? .enum : nil
            let name = String(match.output[2].substring!)
            let location = SourceLocation(file: file, line: line.number, column: line.column(of: name, from: line.column() + keyword.utf8.count))
            if match.output[5].substring != nil && match.output[6].substring == nil {
                open = (kind, name, [], false, location)
            } else if let kind {
                models.append(ModelType(name: name, kind: kind, members: [], location: location))
            }
        }
        return models
    }
}
