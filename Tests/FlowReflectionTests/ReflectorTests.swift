import FlowLensTestSupport
import FlowLensTesting
import FlowModel
import Foundation
import Testing

// Operations for these tests (the PhotoShare ones are in PhotoShare/Operations.swift).

/// Writes `token`.
final class SignInOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensWrites: [DataAccess] { [.write("token", String.self)] }
}

/// Reads `token`.
final class FetchInboxOp: FlowOperation, FlowLensStepDescribing {
    static var flowLensReads: [DataAccess] { [.read("token", String.self)] }
}

/// Describes nothing: what it reads and writes is unknown.
final class OpaqueOp: FlowOperation {}

/// Describes itself as reading and writing nothing.
final class NoDataOp: FlowOperation, FlowLensStepDescribing {}

/// One link of a long chain.
final class ChainOp: FlowOperation {}

/// A grouped operation that describes its element keys.
final class ResizeOp: FlowOperation, FlowOperationCreator, FlowLensStepDescribing {
    static func create() -> FlowOperation { ResizeOp() }
    static var flowLensPrimaryInputKey: String? { "photo" }
    static var flowLensPrimaryOutputKey: String? { "thumbnail" }
    static var flowLensReads: [DataAccess] { [.read("photo", String.self)] }
    static var flowLensWrites: [DataAccess] { [.write("thumbnail", String.self)] }
}

/// A grouped operation that does not describe itself.
final class OpaqueGroupOp: FlowOperation, FlowOperationCreator {
    static func create() -> FlowOperation { OpaqueGroupOp() }
}

/// An app's dependency container: flows in properties, and a reference back to itself.
final class AppContainer {
    var me: AppContainer?
    var inboxFlow: Flow
    var settings: [String: Any] = ["theme": "dark", "retries": 3]
    var children: [AppContainer] = []

    init(inboxFlow: Flow) { self.inboxFlow = inboxFlow }
}

/// A workflow engine of its own, which describes itself to FlowLens.
final class ReturnsEngine: FlowLensFlowDescribing {
    var stages = ["scan", "refund"]

    func flowLensFlow() -> FlowModel.Flow {
        FlowModel.Flow(
            id: "", name: "Returns", kind: .reflected,
            steps: [
                Step(id: "scan", name: "Scan parcel", writes: [.write("parcelID", String.self)]),
                Step(id: "refund", name: "Refund", reads: [.read("parcelID", String.self), .read("orderID", String.self)]),
                Step(id: "done", kind: .end),
            ],
            transitions: [Transition(from: "scan", to: "refund"), Transition(from: "refund", to: "done")])
    }
}

/// Holds an engine: the described flow takes the property's path as its id.
struct Warehouse {
    let returns = ReturnsEngine()
}

/// Something with no flow in it.
struct Person {
    let name: String
    let friends: [String]
}

@Suite("FlowReflector")
struct ReflectorTests {
    // MARK: Cycles

    @Test("a FlowState chain that loops back terminates, with the loop as transitions")
    func flowStateCycle() throws {
        let ask = FlowStep(String.self, Bool.self, identifier: "Ask") { _ in nil }
        let check = FlowStep(Bool.self, String.self, identifier: "Check") { _ in nil }
        let retry = FlowStep(String.self, String.self, identifier: "Retry") { _ in nil }
        ask.nextStep = check
        check.nextStep = retry
        retry.nextStep = ask
        defer { dismantleChain(from: ask) }
        let graph = try FlowReflector().graph(of: ask)
        let flow = try #require(graph.flows.first)
        #expect(graph.flows.count == 1)
        #expect(flow.steps.map(\.name) == ["Ask", "Check", "Retry"])
        #expect(flow.transitions.map { "\($0.from)->\($0.to)" } == ["Ask->Check", "Check->Retry", "Retry->Ask"])
    }

    @Test("an object that references itself (and a cycle through an array) is visited once")
    func selfReference() throws {
        let container = AppContainer(inboxFlow: Flow().add(operation: SignInOp()).add(operation: FetchInboxOp()))
        container.me = container
        container.children = [container]
        defer { container.me = nil; container.children = [] }
        let graph = try FlowReflector().graph(of: container)
        #expect(graph.flows.map(\.id) == ["AppContainer.inboxFlow"])
        #expect(graph.flows[0].steps.map(\.id) == ["start", "SignInOp", "FetchInboxOp", "finish"])
    }

    @Test("a combine() join with several parents is one step, placed after all of them")
    func joinIsOneStep() throws {
        let flow = Flow()
            .setDataBucket(dataBucket: ["mode": "a"])
            .add(operation: NoDataOp())
            .add(operation: SignInOp(), flowCase: FlowCase(key: "mode", value: "a"))
            .add(operation: NoDataOp())
            .add(operation: SignInOp(), flowCase: FlowCase(key: "mode", value: "b"))
            .combine()
            .add(operation: FetchInboxOp())
        let reflected = try #require(try FlowReflector().graph(of: flow).flows.first)
        #expect(reflected.steps.map(\.id) == ["start", "NoDataOp", "SignInOp", "NoDataOp#2", "SignInOp#2", "combine", "FetchInboxOp", "finish"])
        #expect(reflected.transitions.map { "\($0.from)->\($0.to)" } == [
            "start->NoDataOp", "NoDataOp->SignInOp", "NoDataOp->SignInOp#2", "SignInOp->NoDataOp#2",
            "NoDataOp#2->combine", "SignInOp#2->combine", "combine->FetchInboxOp", "FetchInboxOp->finish",
        ])
        #expect(FlowLens.analyze(FlowGraph(flows: [reflected])).findings.isEmpty)
    }

    // MARK: Deep graphs

    // The time limit guards against a hang, not speed: in the whole suite, run in parallel on two
    // cores, a test's time counts while it waits for a core (this one, 1 s alone, was at 135 s, and a
    // 1-minute limit failed a CI run), so it is generous.
    @Test("a 10,000-step FlowState chain is walked without recursion", .timeLimit(.minutes(10)))
    func deepFlowState() throws {
        let first = FlowStep(Any.self, Any.self, identifier: "step0") { _ in nil }
        var last = first
        for i in 1..<10_000 {
            let next = FlowStep(Any.self, Any.self, identifier: "step\(i)") { _ in nil }
            last.nextStep = next
            last = next
        }
        defer { dismantleChain(from: first) }
        let flow = try #require(try FlowReflector().graph(of: first).flows.first)
        #expect(flow.steps.filter { $0.kind != .end }.count == 10_000)
        #expect(flow.transitions.count == 10_000)
        #expect(flow.steps.first?.name == "step0")
        #expect(flow.steps.filter { $0.kind != .end }.last?.name == "step9999")
    }

    @Test("a 10,000-operation Flow-iOS chain is walked without recursion", .timeLimit(.minutes(10)))  // generous: see above
    func deepFlowIOS() throws {
        let flow = Flow()
        for _ in 0..<10_000 { flow.add(operation: ChainOp()) }
        defer { flow.dismantle() }
        let reflected = try #require(try FlowReflector().graph(of: flow, name: "Long").flows.first)
        #expect(reflected.steps.count == 10_002)
        #expect(reflected.steps[1].id == "ChainOp" && reflected.steps[10_000].id == "ChainOp#10000")
        #expect(reflected.transitions.count == 10_001)
        #expect(reflected.transitions.last.map { "\($0.from)->\($0.to)" } == "ChainOp#10000->finish")
    }

    @Test("the walk stops at maximumObjects with an error instead of running away, or returning half a graph")
    func objectLimit() throws {
        let container = AppContainer(inboxFlow: Flow().add(operation: NoDataOp()))
        let error = try #require(throws: FlowReflectionError.self) { try FlowReflector(maximumObjects: 3).graph(of: [[[container]]]) }
        #expect(error.description.hasPrefix("stopped after 3 objects in Array (at Array.[0].[0]"))
        #expect(try FlowReflector().graph(of: [[[container]]]).flows.count == 1)
    }

    @Test("plain values are not walked element by element: 2 million bytes count as one object")
    func plainValuesAreLeaves() throws {
        let container = AppContainer(inboxFlow: Flow().add(operation: NoDataOp()))
        container.settings = ["avatar": [UInt8](repeating: 7, count: 2_000_000), "tags": Set(["a", "b"]), "scores": ["x": 1.5]]
        #expect(try FlowReflector(maximumObjects: 100).graph(of: container).flows.map(\.id) == ["AppContainer.inboxFlow"])
    }

    // MARK: What a type says about itself

    @Test("a custom engine's FlowLensFlowDescribing flow is used as it is, named by its path")
    func describedFlow() throws {
        let graph = try FlowReflector().graph(of: Warehouse())
        let flow = try #require(graph.flows.first)
        #expect(graph.flows.count == 1)
        #expect(flow.id == "Warehouse.returns" && flow.name == "Returns")
        #expect(flow.steps.map(\.id) == ["scan", "refund", "done"])
        // Its declared reads are checked: nobody sets orderID.
        let findings = FlowLens.analyze(graph).findings
        #expect(findings.map { "\($0.rule) \($0.step ?? "-") \($0.key ?? "-")" } == ["missing-data-key refund orderID"])
        // A described id is kept.
        let engine = ReturnsEngine()
        #expect(try FlowReflector().graph(of: engine).flows.first?.id == "ReturnsEngine")
    }

    @Test("FlowLensStepDescribing gives an operation's keys and a group's element keys")
    func describedSteps() throws {
        let flow = Flow()
            .setDataBucket(dataBucket: ["photos": ["a.png", "b.png"]])
            .add(operation: SignInOp())
            .add(operation: FetchInboxOp())
            .addGrouped(operationCreator: ResizeOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "photos", outputKey: "thumbnails", maxConcurrentOperationCount: 2, allowFailure: true))
        let reflected = try #require(try FlowReflector().graph(of: flow).flows.first)
        let fetch = try #require(reflected.step("FetchInboxOp"))
        #expect(fetch.reads.map(\.key) == ["token"] && fetch.reads[0].type == "String")
        #expect(fetch.writes.isEmpty)
        #expect(!fetch.mayReadAnything && !fetch.mayWriteAnything)
        let group = try #require(reflected.step("ResizeOp")?.group)
        #expect(group.inputKey == "photos" && group.outputKey == "thumbnails")
        #expect(group.elementKey == "photo" && group.elementOutputKey == "thumbnail")
        #expect(group.maxConcurrent == 2 && group.allowFailure)
        #expect(reflected.step("ResizeOp")?.reads.map(\.type) == ["[String]"])
        #expect(reflected.step("ResizeOp")?.writes.map(\.type) == ["[String]"])
        #expect(FlowLens.analyze(FlowGraph(flows: [reflected])).findings.map { "\($0.rule) \($0.key ?? "-")" } == ["unused-data-key thumbnails"])
    }

    // MARK: Unknown is never guessed

    @Test("an operation without FlowLensStepDescribing may read and write anything: no missing-data-key")
    func opaqueOperation() throws {
        // FetchInboxOp reads `token`. Only an opaque operation runs before it: it may have set it.
        let opaque = Flow().add(operation: OpaqueOp()).add(operation: FetchInboxOp())
        let reflected = try FlowReflector().graph(of: opaque)
        let step = try #require(reflected.flows.first?.step("OpaqueOp"))
        #expect(step.reads.isEmpty && step.writes.isEmpty && step.mayReadAnything && step.mayWriteAnything)
        #expect(FlowLens.analyze(reflected).findings.isEmpty)
        // The same flow with an operation that says it writes nothing: now `token` is missing.
        let described = try FlowReflector().graph(of: Flow().add(operation: NoDataOp()).add(operation: FetchInboxOp()))
        #expect(FlowLens.analyze(described).findings.map { "\($0.rule) \($0.key ?? "-")" } == ["missing-data-key token"])
    }

    @Test("a grouped operation without a description: its element keys are unknown, never guessed")
    func opaqueGroup() throws {
        let flow = Flow()
            .setDataBucket(dataBucket: ["photos": ["a.png", 3]])
            .addGrouped(operationCreator: OpaqueGroupOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "photos", outputKey: "results"))
            .add(operation: FetchInboxOp())
            .setDidFinishBlock { flow in _ = flow.dataBucket["results"] }
        let graph = try FlowReflector().graph(of: flow)
        let step = try #require(graph.flows.first?.step("OpaqueGroupOp"))
        #expect(step.kind == .group && step.mayReadAnything && step.mayWriteAnything)
        // No type-mismatch on the mixed array (the element type is unknown), no missing `token`.
        #expect(FlowLens.analyze(graph).findings.isEmpty)
    }

    @Test("blocks are closures: the start step (will-start) and the finish step (did-finish) may read anything")
    func blocksAreUnknown() throws {
        let plain = try #require(try FlowReflector().graph(of: Flow().add(operation: SignInOp())).flows.first)
        #expect(!plain.steps[0].mayReadAnything && !plain.steps.last!.mayReadAnything)
        // Without a block, `token` is written for nobody.
        #expect(FlowLens.analyze(FlowGraph(flows: [plain])).findings.map(\.rule) == ["unused-data-key"])

        let finished = Flow().add(operation: SignInOp()).setDidFinishBlock { flow in _ = flow.dataBucket["token"] }
        let withFinish = try #require(try FlowReflector().graph(of: finished).flows.first)
        #expect(!withFinish.steps[0].mayReadAnything && withFinish.steps.last!.mayReadAnything)
        #expect(FlowLens.analyze(FlowGraph(flows: [withFinish])).findings.isEmpty)

        let started = Flow().setDataBucket(dataBucket: ["locale": "pt"]).setWillStartBlock { flow in _ = flow.dataBucket["locale"] }
        let withStart = try #require(try FlowReflector().graph(of: started).flows.first)
        #expect(withStart.steps[0].mayReadAnything && !withStart.steps.last!.mayReadAnything)
        #expect(FlowLens.analyze(FlowGraph(flows: [withStart])).findings.isEmpty)
    }

    @Test("the data bucket's live values give types, element types and case values")
    func liveBucket() throws {
        let flow = Flow()
            .setDataBucket(dataBucket: ["plan": "enterprise", "count": 3, "mixed": ["a", 1], "when": Date(timeIntervalSince1970: 0)])
            .add(operation: NoDataOp())
            .add(operation: NoDataOp(), flowCase: FlowCase(key: "plan", value: "free"))
            .add(operation: NoDataOp(), flowCase: FlowCase(key: "plan", value: "pro"))
        let graph = try FlowReflector().graph(of: flow, name: "Billing")
        let data = try #require(graph.flows.first?.initialData)
        #expect(data.map(\.key) == ["count", "mixed", "plan", "when"])
        #expect(data.map { $0.type?.spelling ?? "?" } == ["Int", "[Any]", "String", "Date"])
        #expect(data[1].elementTypes == ["String", "Int"])
        #expect(data[2].stringValue == "enterprise" && data[2].value == "\"enterprise\"")
        let rules = FlowLens.analyze(graph).findings.map(\.rule)
        #expect(rules.contains("unmatched-case"))
    }

    // MARK: Nothing to find

    @Test("nothing flow-like: a readable FlowReflectionError")
    func nothingFound() throws {
        let error = try #require(throws: FlowReflectionError.self) {
            try FlowReflector().graph(of: Person(name: "Anna", friends: ["Ben"]))
        }
        #expect(error.description == """
            no flow found in Person: FlowLens recognises Flow-iOS Flow objects, FlowState FlowStep chains, \
            Syrup progressions, and types adopting FlowLensFlowDescribing
            """)
        #expect(throws: FlowReflectionError.self) { try FlowReflector().graph(of: 42) }
        #expect(throws: FlowReflectionError.self) { try FlowReflector().graph(of: [String: Int]()) }
    }
}

/// A Syrup-style progression value.
enum SignUpProgression {
    case enterEmail(draft: String)
    case verify(code: Int)
    case done
}

@Suite("FlowReflector: Syrup progressions")
struct SyrupReflectionTests {
    @Test("a progression value is its current case, with its values and a note that the rest is in code")
    func currentCase() throws {
        let graph = try FlowReflector().graph(of: SignUpProgression.verify(code: 42), name: "SignUp")
        let flow = try #require(graph.flows.first)
        #expect(flow.kind == .syrup)
        #expect(flow.steps.map { "\($0.id) \($0.kind.rawValue) \($0.details)" } == ["verify state [\"code: 42\"]", "end end []"])
        #expect(flow.transitions.map { "\($0.from)->\($0.to) \($0.label ?? "-")" } == ["verify->end the next case is chosen in code"])
        // Unknown is never guessed: no dead end, only the note.
        #expect(FlowLens.analyze(graph).findings.map { "\($0.rule) \($0.severity.rawValue) \($0.message)" } == [
            "unanalyzable-flow note SignUpProgression is reflected in its current case 'verify' only: the cases it moves to are in updateOrDeferNext's code, which reflection cannot read; check it with the Swift source loader",
        ])
        #expect(try FlowReflector().graph(of: SignUpProgression.done).flows.first?.steps.first?.id == "done")
    }
}
