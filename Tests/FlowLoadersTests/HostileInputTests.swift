import Foundation
import FlowModel
@testable import FlowLoaders
import SwiftParser
import SwiftSyntax
import Testing

/// Hostile inputs (issues 16 and 20): each file here crashed, hung or blew up before, and is now an
/// `invalid-input` finding with its place, found in little time; the realistic files next to them
/// must still load without one.
@Suite struct HostileInputTests {
    private func invalid(_ graph: FlowGraph) -> [Finding] { graph.loadFindings.filter { $0.rule == RuleID.invalidInput } }

    /// `0` inside `count` square brackets, all open at once.
    private func squares(_ count: Int) -> String { String(repeating: "[", count: count) + "0" + String(repeating: "]", count: count) }

    // MARK: Swift

    /// A screen whose flow is built inside many nested calls, `depth` deep, on line 4.
    private func nestedCalls(_ depth: Int) -> String {
        """
        import Flow_iOS

        final class DeepViewController {
            func run() { Flow().add(operation: wrap(\(String(repeating: "wrap(", count: depth))LoadOp()\(String(repeating: ")", count: depth)))).start() }
        }
        """
    }

    @Test func deeplyNestedSwiftCallsAreInvalidInputNotACrash() {
        let graph = load([(name: "Deep.swift", text: nestedCalls(4_000))])
        let findings = invalid(graph)
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("nested deeper than 64 levels at line 4") == true)
        #expect(findings.first?.location?.file == "Deep.swift")
        #expect(findings.first?.location?.line == 4)
    }

    @Test func nestedClosuresAndArraysAreBoundedToo() {
        let closures = "let handlers = " + String(repeating: "{ ", count: 3_000) + String(repeating: "} ", count: 3_000) + "\n"
        let tuples = "struct Pairs {\n    let cells = " + String(repeating: "(1, ", count: 500) + "2" + String(repeating: ")", count: 500) + "\n}\n"
        let arrays = "struct Matrix {\n    let cells = " + String(repeating: "[1, ", count: 500) + "2" + String(repeating: "]", count: 500) + "\n}\n"
        for (name, text, message) in [("Closures.swift", closures, "nested deeper than 64 levels at line 1"),
                                      ("Pairs.swift", tuples, "nested deeper than 64 levels at line 2"),
                                      ("Matrix.swift", arrays, "more than 10 square brackets open at once at line 2")] {
            // A file that names a flow library is parsed, so its limits are checked.
            let findings = invalid(load([(name: name, text: text + "// for the Flow_iOS screens\n")]))
            #expect(findings.map(\.message) == [message], "\(name)")
            // One that cannot define or use a flow is not parsed at all (`SwiftRelevance`).
            #expect(invalid(load([(name: name, text: text)])).isEmpty, "\(name)")
        }
    }

    /// swift-syntax's look-ahead is exponential in the square brackets open at once: 20 took 51 s,
    /// and parentheses between them do not help (18 `[(` took 35 s).
    @Test func nestedSquareBracketsStopBeforeTheParser() {
        let direct = "enum Fixtures {\n    static let grid = " + squares(24) + "\n}\n"
        let mixed = "enum Fixtures {\n    static let pairs = " + String(repeating: "[(", count: 16) + "0" + String(repeating: ")]", count: 16) + "\n}\n"
        for (text, column) in [(direct, 33), (mixed, 44)] {
            let findings = invalid(load([(name: "Grid.swift", text: text + "// used by the Flow_iOS operations\n")]))
            #expect(findings.count == 1)
            #expect(findings.first?.message == "more than 10 square brackets open at once at line 2")
            #expect(findings.first?.location?.column == column)
        }
    }

    /// A closure starts the count again: the look-ahead never enters one.
    @Test func squareBracketsAroundClosuresAreFine() {
        let text = "let handlers = " + String(repeating: "[{ ", count: 20) + "1" + String(repeating: " }]", count: 20) + "\n"
        #expect(invalid(load([(name: "Handlers.swift", text: text)])).isEmpty)
    }

    /// Brackets in strings, comments and interpolations do not count, and ordinary nesting is read.
    @Test func bracketsInStringsAndCommentsAreNotNesting() {
        let noise = String(repeating: "(", count: 200) + String(repeating: "[", count: 40)
        let text = """
            import Flow_iOS

            // \(noise)
            /* \(noise) /* nested \(noise) */ */
            final class QuietViewController {
                let banner = "\(noise)"
                let raw = #"\(noise) \\(x"#
                let block = \"\"\"
                    \(noise)
                    \"\"\"
                let table = [[["a": [1, 2]], ["b": [3]]]]
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["title": "\\(banner.count) \\(String(describing: (1, (2, 3))))"])
                        .add(operation: ShowOp())
                        .start()
                }
            }
            """
        let graph = load([(name: "Quiet.swift", text: text)])
        #expect(invalid(graph).isEmpty, "\(invalid(graph).map(\.message))")
        #expect(graph.flows.count == 1)
    }

    /// A backtick up to the next one on its line is one identifier to swift-syntax (Swift 6's raw
    /// identifiers), whatever is between: a `//`, `/*` or `"` there hides nothing, and the brackets
    /// after it count. (Found by fuzzing `flowstate`: `` `// defect: <rule>` `` then 100 `[` took minutes.)
    @Test func backtickIdentifiersHideNoBrackets() {
        let deep = squares(24)
        for (opening, column) in [("`// defect: <rule> — <why>`", 58), ("`/* not a comment`", 47), ("`say \"hi`", 38)] {
            let text = "import FlowState\n\nenum Fixtures {\n    static let \(opening) = \(deep)\n}\n"
            let findings = invalid(load([(name: "Raw.swift", text: text)]))
            #expect(findings.map(\.message) == ["more than 10 square brackets open at once at line 4"], "\(opening)")
            #expect(findings.first?.location?.column == column, "\(opening)")
        }
        // A backtick without a mate on its line is punctuation: the comment after it is one.
        let lone = "import FlowState\n\nlet a = 1 ` // \(deep)\n`x` = [`[[[[[[[[[[[[`]\n"
        #expect(SwiftNesting.check(lone, limits: Limits()) == nil)
        // Brackets inside a raw identifier are its name, not nesting; ordinary escaped names read as before.
        #expect(SwiftNesting.check("let `[[[[[[[[[[[[[[[[` = 1\nlet `class` = [[1]]\n", limits: Limits()) == nil)
    }

    /// A raw string's `"""` closed on its own line (`#"""#`, `##"""a"##`) opens a one-line string to
    /// swift-syntax, not a multi-line one: the code after it is code, and its brackets count. (Found by
    /// fuzzing `flowstate`: `##"""##` hid 19 `[` in a generic argument, and the look-ahead took seconds.)
    @Test func rawStringsClosedOnTheirLineHideNoBrackets() {
        // Twelve: past the limit, and few enough that a scan missing them does not make the parse slow.
        let deep = squares(12)
        for opening in ["##\"\"\"##", "#\"\"\"#", "##\"\"\"a\"##", "#\"\"\" x \"\" \"#"] {
            let before = "    static let s = \(opening); static let t = "
            let text = "import FlowState\n\nenum Fixtures {\n\(before)\(deep)\n}\n"
            let findings = invalid(load([(name: "Raw.swift", text: text)]))
            #expect(findings.map(\.message) == ["more than 10 square brackets open at once at line 4"], "\(opening)")
            // At the eleventh `[`.
            #expect(findings.first?.location?.column == before.utf8.count + 11, "\(opening)")
        }
        // A multi-line raw string is one when its line does not close it: its brackets are text.
        let multiline = "let s = #\"\"\"\n\(deep) \"\"# not yet\n\"\"\"#\nlet t = [[1]]\n"
        #expect(SwiftNesting.check(multiline, limits: Limits()) == nil)
        // Without `#`s, `"""` always opens a multi-line string (swift-syntax reports the text after it).
        #expect(SwiftNesting.check("let s = \"\"\" \"\(deep)\n\"\"\"\n", limits: Limits()) == nil)
    }

    /// A carriage return ends a `//` comment and an unterminated one-line string, as a line feed does
    /// (swift-syntax's lexer ends a line at either), and a backslash before either escapes nothing
    /// (`lexEscapedCharacter` leaves the line end): what follows is code, and its brackets count.
    @Test func lineEndsEndCommentsAndOneLineStringsAsTheLexerSays() {
        let deep = squares(12)
        for before in ["// a comment\r", "let s = \"unterminated\r", "let s = #\"raw\r", "/// docs\r\r",
                       // A backslash before a line end escapes nothing: the line end still ends the string.
                       "let s = \"continued\\\n", "let s = \"continued\\\r\n", "let s = #\"continued\\#\n",
                       // `'…'` is a (wrong) one-line string to swift-syntax: the `"` in it opens nothing.
                       "let c = '\"'; ", "let c = 'a\\'\"'; ", "let c = '\\(\"\")\"'; ", "let c = '\"\n",
                       // An interpolation ends at the `)` matching its `\(`, brackets inside it open or not;
                       // in a one-line string, a line end ends it and the string.
                       "let s = \"\\( [ ) ] \"; ", "let s = \"\\(x\nlet y = (1)); ", "let s = \"a \\(\"b \\(x\nlet y = (1)); "] {
            let text = "import FlowState\n\nenum Fixtures {\n\(before)    static let t = \(deep)\n}\n"
            let findings = invalid(load([(name: "CR.swift", text: text)]))
            #expect(findings.map(\.message).count == 1, "\(before.debugDescription)")
            #expect(findings.first?.message.hasPrefix("more than 10 square brackets open at once") == true, "\(before.debugDescription)")
        }
        // Line feeds after a carriage return (Windows line ends) change nothing: the comment ended already.
        #expect(SwiftNesting.check("// [[[[[[[[[[[[[[\r\nlet a = [[1]]\r\n", limits: Limits()) == nil)
        // In a multi-line string a backslash before the line end continues the line; the line is counted.
        let continued = "let s = \"\"\"\n  a \\\n  b\n  \"\"\"\nlet t = \(deep)\n"
        #expect(SwiftNesting.check(continued, limits: Limits())?.line == 5)
        // A multi-line string's interpolation may span lines; after it, the string's text is text.
        #expect(SwiftNesting.check("let s = \"\"\"\n  \\(f(\n  1)) \(deep)\n  \"\"\"\n", limits: Limits()) == nil)
    }

    /// A regex literal is one token to swift-syntax: a `"` or `//` in it opens nothing, and the
    /// brackets after it count; the brackets in it are its pattern's, not nesting. (A scan of the
    /// bytes read `/"/` as a string to the line's end: 26 `[` after it took 14 s to parse.)
    @Test func regexLiteralsAreTheirOwnTokens() {
        let deep = squares(12)
        for regex in ["/\"/", "#/\"/#", "/a\"b\"\"\"/", "#/ // \"/#", "#/\n  \" [(\n  /#", "/'/", "/\\/\"/"] {
            let text = "import FlowState\n\nenum Fixtures {\n    static let r = \(regex); static let t = \(deep)\n}\n"
            let findings = invalid(load([(name: "Regex.swift", text: text)]))
            #expect(findings.map(\.message) == ["more than 10 square brackets open at once at line \(regex.contains("\n") ? 6 : 4)"], "\(regex)")
        }
        let pattern = "let r = /" + String(repeating: "[", count: 12) + "a" + String(repeating: "]", count: 12) + "/\n"
        #expect(SwiftNesting.check(pattern, limits: Limits()) == nil)
        // `/` between operands is division: the brackets after two of them count.
        #expect(SwiftNesting.check("let q = a / b / c; let t = \(deep)\n", limits: Limits()) != nil)
    }

    /// In code that does not parse, a closing bracket closes only one of its own kind: stray `)`s
    /// after six `[` leave them open, so eight more make fourteen, too many (a count too low could
    /// let the look-ahead run away; one too high only names a broken file's problem differently).
    @Test func aStrayClosingBracketClosesOnlyItsOwnKind() {
        let text = "let t = [[[[[[ ) ) ) ) ) ) [[[[[[[[0]]]]]]]]\n"
        #expect(SwiftNesting.check(text, limits: Limits()) == SwiftNesting.Problem(
            message: "more than 10 square brackets open at once at line 1", line: 1, column: 27 + 5))
        // Balanced, the same brackets are fine.
        #expect(SwiftNesting.check("let t = [[[[[[ ]]]]]] [[[[[[[[0]]]]]]]]\n", limits: Limits()) == nil)
    }

    /// A flow built as one long chain has a syntax tree as deep as the chain: past the limit it is
    /// reported, not walked (the readers recurse).
    @Test func anOverlyLongCallChainIsInvalidInput() {
        let chain = (0..<1_500).map { "            .add(operation: Step\($0)Op())" }.joined(separator: "\n")
        let text = "import Flow_iOS\n\nfinal class LongViewController {\n    func run() {\n        Flow()\n\(chain)\n            .start()\n    }\n}\n"
        let findings = invalid(load([(name: "Long.swift", text: text)]))
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("syntax nested deeper than 2000 levels") == true)
    }

    /// The raw walk that says whether a tree is too deep (before the node-by-node one looks for the
    /// node) counts depth as the node-by-node walk does: exactly at each file's own depth.
    @Test func theRawDepthWalkAgreesWithTheNodeWalk() throws {
        let chain = (0..<120).map { "    .add(operation: Step\($0)Op())" }.joined(separator: "\n")
        let texts = [nestedCalls(40), "let flow = Flow()\n\(chain)\n    .start()\n", "#if DEBUG\nstruct A { var b: [[Int: String?]] = [[:]] }\n#endif\n", ""]
            + (try swiftSampleTexts())
        #expect(texts.count > 8)
        for text in texts {
            let tree = Parser.parse(source: text)
            var deepest = 0
            var stack: [(Syntax, Int)] = [(Syntax(tree), 1)]
            while let (node, depth) = stack.popLast() {
                deepest = max(deepest, depth)
                for child in node.children(viewMode: .all) { stack.append((child, depth + 1)) }
            }
            #expect(SwiftNesting.isDeeper(than: deepest - 1, tree))
            #expect(!SwiftNesting.isDeeper(than: deepest, tree))
            #expect(SwiftNesting.firstNode(deeperThan: deepest, in: tree) == nil)
            #expect(SwiftNesting.firstNode(deeperThan: deepest - 1, in: tree) != nil)
        }
    }

    @Test func aLongButReasonableChainStillLoads() {
        let chain = (0..<150).map { "            .add(operation: Step\($0)Op())" }.joined(separator: "\n")
        let text = "import Flow_iOS\n\nfinal class LongViewController {\n    func run() {\n        Flow()\n\(chain)\n            .start()\n    }\n}\n"
        let graph = load([(name: "Long.swift", text: text)])
        #expect(invalid(graph).isEmpty)
        #expect(graph.flows.first?.steps.count ?? 0 >= 150)
    }

    @Test func theLimitsAreConfigurable() {
        var loader = SourceLoader()
        loader.limits.nesting = 4
        let text = "let flow = Flow(g(h(i(j(1)))))\n"
        let graph = loader.load([SourceText(file: InputFile(path: "Small.swift"), contents: text)])
        #expect(graph.loadFindings.map(\.message) == ["nested deeper than 4 levels at line 1"])
    }

    // MARK: Ruby

    private func interpolated(_ depth: Int) -> String {
        var literal = "\"name\""
        for _ in 0..<depth { literal = "\"<#{\(literal)}>\"" }
        return """
            class SyncController < UIViewController
              include Elevate

              def sync
                launch(:sync, label: \(literal))
              end
            end
            """
    }

    @Test func deeplyNestedRubyInterpolationIsInvalidInput() {
        let graph = load([(name: "sync_controller.rb", text: interpolated(3_000))])
        let findings = invalid(graph)
        #expect(findings.count == 1, "\(findings.map { "\($0.location?.line ?? 0) \($0.message)" })")
        #expect(findings.first?.message == "string interpolation nested deeper than 64 levels at line 5")
    }

    @Test func moderatelyNestedRubyInterpolationIsRead() {
        #expect(invalid(load([(name: "sync_controller.rb", text: interpolated(12))])).isEmpty)
    }

    // MARK: PlantUML preprocessor

    @Test func deepPreprocessorExpressionsAreInvalidInput() {
        for condition in [String(repeating: "(", count: 5_000) + "1" + String(repeating: ")", count: 5_000),
                          String(repeating: "!", count: 5_000) + "0",
                          String(repeating: "%not(", count: 2_000) + "1" + String(repeating: ")", count: 2_000)] {
            let text = "@startuml\n!if \(condition)\n[*] --> Idle\n!endif\nIdle --> [*]\n@enduml\n"
            let findings = invalid(load([(name: "Deep.puml", text: text)]))
            #expect(findings.contains { $0.message.contains("nested deeper than 64 levels") && $0.location?.line == 2 },
                    "\(findings.map(\.message))")
        }
    }

    @Test func preprocessorVariablesCannotDoubleForever() {
        let doubling = (0..<80).map { _ in "!$label = $label + $label" }.joined(separator: "\n")
        let text = "@startuml\n!$label = \"ab\"\n\(doubling)\n[*] --> Idle\nIdle --> [*]\n@enduml\n"
        let findings = invalid(load([(name: "Doubling.puml", text: text)]))
        #expect(findings.contains { $0.message.contains("longer than 65536 bytes") })
    }

    @Test func numbersThatOverflowAreJoinedNotATrap() {
        let text = "@startuml\n!$big = 9223372036854775807 + 1\n!if $big == \"92233720368547758071\"\n[*] --> Idle\nIdle --> [*]\n!endif\n@enduml\n"
        let graph = load([(name: "Big.puml", text: text)])
        #expect(invalid(graph).isEmpty)
        #expect(graph.flows.first?.steps.contains { $0.name == "Idle" } == true)
    }

    // MARK: YAML and JSON

    @Test func aYAMLAliasBombIsInvalidInput() {
        var lines = ["version: 1", "flows:", "  - name: Bomb", "    data:", "      grid:", "        value:", "          - &l0 [ok, ok, ok, ok, ok, ok, ok, ok, ok]"]
        for level in 1...9 {
            lines.append("          - &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        lines += ["    steps:", "      - {id: done, kind: end}"]
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count < 1_000)
        let findings = invalid(load(text))
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("aliases expand the document past 100000 nodes") == true)
    }

    @Test func ordinaryAliasesStillLoad() {
        let text = """
            version: 1
            flows:
              - name: Shared types
                data:
                  origin: &address {type: String, value: "Main St 1"}
                  destination: *address
                steps:
                  - &reader {id: route, reads: {origin: String, destination: String}, next: done}
                  - {id: done, kind: end}
            """
        let graph = load(text)
        #expect(invalid(graph).isEmpty)
        #expect(graph.flows.first?.initialData.map(\.key) == ["origin", "destination"])
    }

    @Test func deeplyNestedYAMLValuesAreInvalidInput() {
        let text = "version: 1\nflows:\n  - name: Deep\n    data:\n      tree: {value: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}\n    steps:\n      - {id: done, kind: end}\n"
        let findings = invalid(load(text))
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("nested deeper than 64 levels") == true)
    }

    /// A flow whose data `x` has the type `type` (quoted), written by one step and read by the next.
    private func typed(_ type: String) -> String {
        """
        version: 1
        flows:
          - name: Deep types
            data:
              seed: "\(type)"
            steps:
              - {id: make, reads: {seed: "\(type)"}, writes: {x: "\(type)"}, next: use}
              - {id: use, reads: {x: "\(type)"}, next: done}
              - {id: done, kind: end}
        """
    }

    /// Found by hand (a generic nested 20,000 deep overflowed the stack in `TypeName`; 5,000 deep took
    /// 47 s and 60 s in the fuzz build): a type nested past the limit is invalid input at its place,
    /// read as an unknown type, so its keys are still written and read and no rule guesses about it.
    @Test func typesNestedPastTheLimitAreInvalidInputNotACrash() {
        for (open, close) in [("Array<", ">"), ("Optional<", ">"), ("Dictionary<String,", ">"), ("[", "]"), ("(", ")"), ("Swift.Optional< ", " >")] {
            let type = String(repeating: open, count: 20_000) + "Int" + String(repeating: close, count: 20_000)
            let graph = load(typed(type))
            let findings = invalid(graph)
            #expect(findings.count == 4, "\(open)")
            #expect(findings.allSatisfy { $0.message.contains("nests its brackets deeper than 64 levels") }, "\(open)")
            #expect(findings.compactMap(\.location?.line).sorted() == [5, 7, 7, 8], "\(open)")
            let steps = graph.flows.first?.steps ?? []
            #expect(steps.first?.writes.map(\.key) == ["x"] && steps.first?.writes.first?.type == nil, "\(open)")
            #expect(steps.dropFirst().first?.reads.map(\.key) == ["x"], "\(open)")
        }
    }

    @Test func typesNestedUpToTheLimitAreRead() {
        let type = String(repeating: "Array<", count: 64) + "Int" + String(repeating: ">", count: 64)
        let graph = load(typed(type))
        #expect(invalid(graph).isEmpty)
        let written = graph.flows.first?.steps.first?.writes.first?.type
        #expect(written?.spelling == String(repeating: "[", count: 64) + "Int" + String(repeating: "]", count: 64))
    }

    @Test func validJSONThatYAMLRejectsLoads() throws {
        let longKey = String(repeating: "k", count: 2_000)
        let object: [String: Any] = [
            "version": 1,
            "flows": [[
                "name": "Greeting \u{1F600} \u{1F30D}",
                "data": [longKey: "String"],
                "steps": [["id": "wave", "reads": [longKey: "String"], "next": "done"], ["id": "done", "kind": "end"]],
            ]],
        ]
        // As Python's json.dumps writes it: every non-ASCII character escaped, as surrogate pairs outside the BMP.
        var text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
        text = text.replacingOccurrences(of: "\u{1F600}", with: "\\ud83d\\ude00").replacingOccurrences(of: "\u{1F30D}", with: "\\uD83C\\uDF0D")
        #expect(text.contains("\\ud83d\\ude00"))
        let graph = load(text, file: "greeting.flow.json")
        #expect(invalid(graph).isEmpty, "\(invalid(graph).map(\.message))")
        #expect(graph.flows.first?.name == "Greeting \u{1F600} \u{1F30D}")
        #expect(graph.flows.first?.initialData.first?.key == longKey)
    }

    @Test func invalidJSONGetsJSONsMessageAndPlace() {
        let text = "{\n  \"version\": 1,\n  \"flows\": [\n    {\"name\": \"Broken\", \"steps\": [}]\n  ]\n}\n"
        let findings = invalid(load(text, file: "broken.flow.json"))
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("invalid JSON") == true || findings.first?.message.hasPrefix("syntax error") == true)
        #expect(findings.first?.location?.line == 4)
    }

    // MARK: Files

    @Test func aFileOverTheBudgetIsNotRead() throws {
        let folder = NSTemporaryDirectory() + "flowlens-budget-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.flow.yaml"
        try Data(("version: 1\nflows:\n" + String(repeating: "# padding\n", count: 200)).utf8).write(to: URL(fileURLWithPath: path))
        var loader = SourceLoader()
        loader.limits.fileBytes = 1_000
        let graph = loader.load(files: [InputFile(path: path, displayPath: "big.flow.yaml")])
        #expect(graph.loadFindings.map(\.message) == ["file is larger than 1000 bytes (limits.fileBytes), not read"])
    }

    @Test func brokenAndLoopingLinksNamedLikeFlowFilesAreReported() throws {
        let folder = NSTemporaryDirectory() + "flowlens-links-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/gone.flow.yaml", withDestinationPath: "missing/gone.flow.yaml")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop.flow.yml", withDestinationPath: "loop.flow.yml")
        try FileManager.default.createSymbolicLink(atPath: folder + "/notes.txt", withDestinationPath: "nowhere.txt")
        let (files, findings) = InputDiscovery.discover([folder], workingDirectory: folder)
        #expect(files.isEmpty)
        #expect(findings.map { "\($0.location?.file ?? "") \($0.message)" }.sorted() == [
            "gone.flow.yaml broken symbolic link (it points to 'missing/gone.flow.yaml', which does not exist): not read",
            "loop.flow.yml symbolic link loop (it points to 'loop.flow.yml'): not read",
        ])
    }
}

/// `limits:` in `.flowlens.yml`.
@Suite struct LimitsConfigurationTests {
    @Test func limitsAreReadAndWrongOnesReported() throws {
        let folder = NSTemporaryDirectory() + "flowlens-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/.flowlens.yml"
        try Data("version: 1\nlimits:\n  nesting: 100\n  yamlAliasNodes: 5000\n  squareBrackets: -3\n  nestng: 9\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let (configuration, findings) = ConfigurationLoader.load(path, knownRules: [], workingDirectory: folder)
        #expect(configuration.limits.nesting == 100)
        #expect(configuration.limits.yamlAliasNodes == 5_000)
        #expect(configuration.limits.squareBrackets == Limits.default.squareBrackets)
        #expect(findings.map { "\($0.location?.line ?? 0) \($0.message)" } == [
            "5 'squareBrackets' in 'limits' must be a positive integer",
            "6 unknown key 'nestng' in 'limits' of .flowlens.yml (expected nesting, squareBrackets, syntaxDepth, yamlAliasNodes, fileBytes, findingsPerKey)",
        ])
    }

    @Test func aConfigurationFileIsBoundedAsAFlowFileIs() throws {
        let folder = NSTemporaryDirectory() + "flowlens-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/.flowlens.yml"
        // Nine levels of nine aliases: 9⁹ nodes once expanded, from a few hundred bytes.
        var lines = ["version: 1", "x-grid:", "  - &l0 [ok, ok, ok, ok, ok, ok, ok, ok, ok]"]
        for level in 1...9 { lines.append("  - &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let (configuration, findings) = ConfigurationLoader.load(path, knownRules: [], workingDirectory: folder)
        #expect(findings.map(\.rule) == [RuleID.invalidInput])
        #expect(findings.first?.message.hasPrefix("aliases expand the document past 100000 nodes") == true)
        #expect(configuration.limits == Limits.default)
        // Deep nesting too, in a file with no alias (composed from libyaml's events).
        try Data(("version: 1\nx-deep: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(ConfigurationLoader.load(path, knownRules: [], workingDirectory: folder).1.map(\.message) == ["nested deeper than 64 levels at line 2"])
    }
}
