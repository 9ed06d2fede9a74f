import FlowLensTestSupport
import FlowModel
import Foundation
import Testing
@testable import FlowLoaders

/// The Swift readers pass over a body whose text cannot hold what they look for
/// (`ParsedSwiftFile.mentions`): the Flow-iOS index walks only bodies naming `getData`, `setData`,
/// `class` or `enum`, and its flow finder only files and bodies naming `Flow`. These tests hold the
/// things that live inside bodies, each written so that it is lost if its word is dropped from the
/// list, or if words are matched inside longer names.
@Suite("Swift readers: bodies passed over without a walk")
struct BodySkippingTests {
    private func holds(_ text: String, _ words: [String], in range: Range<Int>? = nil) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            SwiftRelevance.containsWord(bytes, words.map { Array($0.utf8) }, in: range ?? 0..<bytes.count)
        }!
    }

    @Test("a word counts only whole: not inside a longer name, and only within the range asked")
    func wholeWords() {
        #expect(holds("let flow = Flow()", ["Flow"]))
        #expect(holds("Flow_iOS.Flow()", ["Flow"]))
        #expect(holds("`Flow`()", ["Flow"]))
        #expect(holds("Flow", ["Flow"]))
        #expect(!holds("class A: FlowOperation, FlowOperationCreator {}", ["Flow"]))
        #expect(!holds("import Flow_iOS; let subFlow = 1; let Flow2 = 2", ["Flow"]))
        #expect(!holds("self.getDataSource()", ["getData"]))
        #expect(holds("self.getData(name: k)", ["setData", "getData"]))
        // A non-ASCII neighbour is taken as a boundary: found too often, never missed.
        #expect(holds("éFlow()", ["Flow"]))
        let text = "func a() { Flow() }\nfunc b() { print(1) }"
        let split = text.utf8.count / 2
        #expect(holds(text, ["Flow"], in: 0..<split))
        #expect(!holds(text, ["Flow"], in: split..<text.utf8.count))
        #expect(!holds(text, ["Flow"], in: 12..<15))  // "low": part of the word only
        #expect(!holds("", ["Flow"]))
        #expect(!holds("Flow", ["Flow"], in: 2..<40))  // clamped to the text
    }

    @Test("inside bodies the index still finds local String enums' keys, local operation classes and their writes; a flow built with Flow_iOS.Flow() in an accessor; bodies naming none are passed over")
    func keptFromBodies() throws {
        let graph = load(Self.keptFromBodiesSources)
        try #require(graph.flows.count == 1, "flows: \(graph.flows.map(\.id))")
        let flow = graph.flows[0]
        #expect(flow.id == "Screen.flow")
        let prepare = try #require(flow.steps.first { $0.id == "Prepare" })
        // The key comes from the enum declared inside mainLogic, the condition from the same body.
        #expect(prepare.writes.map(\.key) == ["session.token"])
        #expect(prepare.writes.first?.condition == "ready holds")
        let use = try #require(flow.steps.first { $0.id == "Use" })
        #expect(use.reads.map(\.key) == ["session.token", "audited"])
    }

    static let keptFromBodiesSources: [(name: String, text: String)] = [
        (name: "Ops.swift", text: """
            import Flow_iOS

            class Prepare: FlowOperation {
                override func mainLogic() {
                    enum Key: String { case token = "session.token" }
                    if ready { self.setData(name: Key.token.rawValue, value: "abc") }
                    finishSuccessfully()
                }
                var ready: Bool { true }
            }

            func operations() -> [FlowOperation] {
                final class Audit: FlowOperation {
                    override func mainLogic() { setData(name: "audited", value: true) }
                }
                return [Audit()]
            }
            """),
        (name: "Screen.swift", text: """
            import Flow_iOS

            final class Screen {
                var flow: Flow_iOS.Flow {
                    get { Flow_iOS.Flow().add(operation: Prepare()).add(operation: Use()) }
                }
                func layout() { let frame = (0, 0); _ = frame }
            }

            class Use: FlowOperation {
                override func mainLogic() {
                    let token: String = getData(name: "session.token")
                    let audited: Bool = getData(name: "audited")
                    _ = (token, audited)
                }
            }
            """),
    ]

    /// An operation class declared inside a function whose text names neither `getData` nor
    /// `setData`: only the word `class` has its body walked.
    static let localOperation = (name: "Local.swift", text: """
        import Flow_iOS

        final class Screen {
            func run() {
                final class Audit: FlowOperation {
                    override func mainLogic() { finishSuccessfully() }
                }
                Flow().add(operation: Audit()).start()
            }
        }
        """)

    @Test("an operation class declared inside a function is an operation")
    func localOperationClass() throws {
        let reader = FlowIOSReader()
        let flows = reader.flows(in: SwiftSources.parse([SourceText(file: InputFile(path: Self.localOperation.name), contents: Self.localOperation.text)]))
        try #require(flows.count == 1, "flows: \(flows.map(\.id))")
        #expect(try json(flows) == json(everyBody(flows: [Self.localOperation])))
        #expect(flows[0].steps.map(\.implementation).contains("Audit"))
    }

    private func json(_ flows: [Flow]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(flows), as: UTF8.self)
    }

    private func everyBody(flows files: [(name: String, text: String)]) -> [Flow] {
        var reader = FlowIOSReader()
        reader.walksEveryBody = true
        return reader.flows(in: SwiftSources.parse(files.map { SourceText(file: InputFile(path: $0.name), contents: $0.text) }))
    }

    @Test("the Flow-iOS reader reads the same flows whether it passes over bodies or walks them all: the sample app, and 40 variants of it with lines dropped, repeated and moved, local types and flows added")
    func sameAsWalkingEveryBody() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("samples/flow-ios/PhotoShare").path
        let sample = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted().filter { $0.hasSuffix(".swift") }.map {
            (name: $0, text: try String(contentsOfFile: folder + "/" + $0, encoding: .utf8))
        }
        let insertions = [
            "enum Keys: String { case token = \"session.token\" }",
            "final class Late: FlowOperation { override func mainLogic() { finishSuccessfully() } }",
            "Flow_iOS.Flow().add(operation: Late()).start()",
            "let flow = Flow(); flow.add(operation: Late()); flow.start()",
            "if ok { setData(name: Keys.token.rawValue, value: 1) }",
            "// getData Flow class enum",
        ]
        var random = SplitMix64(seed: 16)
        var variants = [sample]
        for _ in 0..<40 {
            variants.append(sample.map { file in
                var lines = file.text.components(separatedBy: "\n")
                for _ in 0..<random.below(5) {
                    let i = random.below(lines.count)
                    switch random.below(4) {
                    case 0: lines.remove(at: i)
                    case 1: lines.insert(lines[i], at: random.below(lines.count))
                    case 2: lines.insert(lines.remove(at: i), at: random.below(lines.count))
                    default: lines.insert(insertions[random.below(insertions.count)], at: i)
                    }
                }
                return (file.name, lines.joined(separator: "\n"))
            })
        }
        var flowsRead = 0
        for files in variants + [[Self.localOperation], [Self.keptFromBodiesSources[0], Self.keptFromBodiesSources[1]]] {
            let skipping = FlowIOSReader().flows(in: SwiftSources.parse(files.map { SourceText(file: InputFile(path: $0.name), contents: $0.text) }))
            #expect(try json(skipping) == json(everyBody(flows: files)))
            flowsRead += skipping.count
        }
        #expect(flowsRead > 40 * 5)
    }

    @Test("FlowState's reader runs only when a file names a step type (a Flow-iOS app's `Flow` is not enough), and never misses a flow it would find")
    func flowStateGate() throws {
        func texts(_ list: [String]) -> [SourceText] {
            list.enumerated().map { SourceText(file: InputFile(path: "F\($0.offset).swift"), contents: $0.element) }
        }
        let flowIOS = texts(["import Flow_iOS\nfinal class VC { func run() { Flow().add(operation: A()).start() } }"])
        #expect(!SwiftSourcesLoader.mayHoldFlows(of: FlowStateDialect.self, in: flowIOS, relevant: nil))
        #expect(SwiftSourcesLoader.mayHoldFlows(of: FlowIOSDialect.self, in: flowIOS, relevant: nil))
        #expect(SwiftSourcesLoader.mayHoldFlows(of: FlowStateDialect.self, in: texts(["let s = ConcurentFlowStep(identifier: \"x\", steps: [])"]), relevant: nil))
        // Each sample file alone: wherever the reader finds a flow, the gate lets it run.
        var found = 0
        for text in try swiftSampleTexts() {
            let files = texts([text])
            let flows = FlowStateReader().flows(in: SwiftSources.parse(files))
            if !flows.isEmpty {
                found += 1
                #expect(SwiftSourcesLoader.mayHoldFlows(of: FlowStateDialect.self, in: files, relevant: nil))
            }
        }
        #expect(found >= 3)
    }
}
