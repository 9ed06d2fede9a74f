import FlowModel
import Testing
@testable import FlowLoaders

// IR-level tests of the Flow-iOS loader (`Sources/FlowLoaders/FlowIOS`): what it reads from Swift
// sources, and how it replays the builder calls the way Flow-iOS's own `Flow.swift` builds its tree
// (`addNodeToTree`, `combineCases`, `pickOperationToRun`). Every fixture is in memory; line and
// column numbers are 1-based, as in the fixture text (its first line is line 1).

// MARK: - Helpers

private func loc(_ file: String, _ line: Int, _ column: Int) -> FlowModel.SourceLocation {
    FlowModel.SourceLocation(file: file, line: line, column: column)
}

/// Each transition as `from -> to [condition] (label)`.
private func edges(_ flow: Flow) -> [String] {
    flow.transitions.map { transition in
        var text = "\(transition.from) -> \(transition.to)"
        if let condition = transition.condition { text += " [\(condition.text)]" }
        if let label = transition.label { text += " (\(label))" }
        return text
    }
}

/// Each access as `key: Type @ file:line:col`, with ` optional` after the type for optional reads.
private func accesses(_ list: [DataAccess]) -> [String] {
    list.map { access in
        let type = access.type?.spelling ?? "?"
        let place = access.location?.description ?? "-"
        return "\(access.key): \(type)\(access.optional ? " optional" : "") @ \(place)"
    }
}

/// The one flow of `graph`.
private func onlyFlow(_ graph: FlowGraph) throws -> Flow {
    try #require(graph.flows.count == 1, "flows: \(graph.flows.map(\.id))")
    return graph.flows[0]
}

/// Operations without data, for the tree-shape tests.
private let caseOps = (name: "Ops.swift", text: """
    import Flow_iOS

    class Root: FlowOperation {}
    class A1: FlowOperation {}
    class A2: FlowOperation {}
    class B1: FlowOperation {}
    class After: FlowOperation {}
    """)

// MARK: - Cases

@Suite("Flow-iOS loader: cases")
struct FlowIOSLoaderCaseTests {
    @Test("the op added before the first flowCase is the root; plain adds continue the branch; a later flowCase is a sibling; combine joins every leaf and the chain continues")
    func casesAndCombine() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": "pro"])
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: A2())
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .add(operation: After())
                        .start()
                }
            }
            """)]))
        #expect(flow.id == "Screen.run")
        #expect(flow.name == "Screen.run")
        #expect(flow.kind == .flowIOS)
        #expect(flow.location == loc("VC.swift", 3, 9))
        #expect(flow.entries == ["start"])
        #expect(flow.steps.map(\.id) == ["start", "Root", "A1", "A2", "B1", "combine", "After", "finish"])
        #expect(flow.steps.map(\.kind) == [.start, .operation, .operation, .operation, .operation, .join, .operation, .end])
        #expect(flow.steps.map(\.implementation) == [nil, "Root", "A1", "A2", "B1", nil, "After", nil])
        #expect(flow.steps.map(\.location) == [
            loc("VC.swift", 3, 9), loc("VC.swift", 5, 13), loc("VC.swift", 6, 13), loc("VC.swift", 7, 13),
            loc("VC.swift", 8, 13), loc("VC.swift", 9, 13), loc("VC.swift", 10, 13), loc("VC.swift", 11, 13),
        ])
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 [plan = free]",
            "Root -> B1 [plan = pro]",
            "A1 -> A2",
            "A2 -> combine",
            "B1 -> combine",
            "combine -> After",
            "After -> finish",
        ])
        #expect(flow.transitions[1].condition == .equals(key: "plan", value: "free"))
        #expect(flow.transitions[2].condition == .equals(key: "plan", value: "pro"))
        // A case edge is located at its FlowCase(...), any other edge at the `.add` of its target (or
        // of the leaf that finishes).
        #expect(flow.transitions.map(\.location) == [
            loc("VC.swift", 5, 13), loc("VC.swift", 6, 45), loc("VC.swift", 8, 45), loc("VC.swift", 7, 13),
            loc("VC.swift", 9, 13), loc("VC.swift", 9, 13), loc("VC.swift", 10, 13), loc("VC.swift", 10, 13),
        ])
        #expect(flow.steps.allSatisfy { $0.unresolved.isEmpty })
    }

    @Test("branches without combine() end the flow: every branch leaf goes to finish")
    func branchesWithoutCombine() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: A2())
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "Root", "A1", "A2", "B1", "finish"])
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 [plan = free]",
            "Root -> B1 [plan = pro]",
            "A1 -> A2",
            "A2 -> finish",
            "B1 -> finish",
        ])
        // A leaf's way to finish is located at the leaf's own `.add`.
        #expect(flow.transitions[4].location == loc("VC.swift", 6, 13))
        #expect(flow.transitions[5].location == loc("VC.swift", 7, 13))
    }

    @Test("combine() with no open case does nothing, and a second combine() after a join adds no second join")
    func combineWithoutOpenCase() throws {
        let graph = load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func plain() {
                    Flow()
                        .add(operation: Root())
                        .combine()
                        .add(operation: After())
                        .start()
                }
                func twice() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .combine()
                        .add(operation: After())
                        .start()
                }
            }
            """)])
        #expect(graph.flows.map(\.id) == ["Screen.plain", "Screen.twice"])
        let plain = graph.flows[0], twice = graph.flows[1]
        #expect(plain.steps.map(\.id) == ["start", "Root", "After", "finish"])
        #expect(edges(plain) == ["start -> Root", "Root -> After", "After -> finish"])
        #expect(twice.steps.map(\.id) == ["start", "Root", "A1", "B1", "combine", "After", "finish"])
        #expect(edges(twice) == [
            "start -> Root",
            "Root -> A1 [plan = free]",
            "Root -> B1 [plan = pro]",
            "A1 -> combine",
            "B1 -> combine",
            "combine -> After",
            "After -> finish",
        ])
    }

    @Test("a flowCase as the very first add makes the start the case root")
    func caseAsFirstAdd() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .add(operation: After())
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "A1", "B1", "combine", "After", "finish"])
        #expect(edges(flow) == [
            "start -> A1 [plan = free]",
            "start -> B1 [plan = pro]",
            "A1 -> combine",
            "B1 -> combine",
            "combine -> After",
            "After -> finish",
        ])
        #expect(flow.transitions[0].condition == .equals(key: "plan", value: "free"))
        #expect(flow.transitions[0].location == loc("VC.swift", 4, 45))
    }

    @Test("a flowCase right after combine() makes the join the next case root")
    func caseAfterCombine() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .add(operation: A2(), flowCase: FlowCase(key: "region", value: "eu"))
                        .add(operation: After(), flowCase: FlowCase(key: "region", value: "us"))
                        .combine()
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "Root", "A1", "B1", "combine", "A2", "After", "combine#2", "finish"])
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 [plan = free]",
            "Root -> B1 [plan = pro]",
            "A1 -> combine",
            "B1 -> combine",
            "combine -> A2 [region = eu]",
            "combine -> After [region = us]",
            "A2 -> combine#2",
            "After -> combine#2",
            "combine#2 -> finish",
        ])
    }

    @Test("the legacy `case:` label is a flowCase")
    func legacyCaseLabel() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), case: FlowCase(key: "format", value: "zip"))
                        .add(operation: B1(), case: FlowCase(key: "format", value: "pdf"))
                        .start()
                }
            }
            """)]))
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 [format = zip]",
            "Root -> B1 [format = pdf]",
            "A1 -> finish",
            "B1 -> finish",
        ])
        #expect(flow.transitions[1].condition == .equals(key: "format", value: "zip"))
        #expect(flow.transitions[1].location == loc("VC.swift", 5, 41))
    }

    @Test("a root with exactly one case takes it without checking: no condition, and the label says so")
    func singleCaseIsNotChecked() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: A2())
                        .start()
                }
            }
            """)]))
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 (plan = free (only case: not checked))",
            "A1 -> A2",
            "A2 -> finish",
        ])
        #expect(flow.transitions[1].condition == nil)
        #expect(flow.transitions[1].location == loc("VC.swift", 5, 45))
    }

    @Test("a flowCase on another key inside a branch is not nested: it is one more branch of the root")
    func nestedCaseIsASibling() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: B1(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .add(operation: A2(), flowCase: FlowCase(key: "region", value: "eu"))
                        .combine()
                        .start()
                }
            }
            """)]))
        #expect(edges(flow) == [
            "start -> Root",
            "Root -> A1 [plan = free]",
            "Root -> B1 [plan = pro]",
            "Root -> A2 [region = eu]",
            "A1 -> combine",
            "B1 -> combine",
            "A2 -> combine",
            "combine -> finish",
        ])
        #expect(flow.transitions[3].condition == .equals(key: "region", value: "eu"))
    }

    @Test("case keys and values given as constants resolve to their literal")
    func caseConstants() throws {
        let flow = try onlyFlow(load([caseOps, (name: "Keys.swift", text: """
            enum Plan { static let key = "plan"; static let free = "free" }
            enum Region: String { case eu }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: Root())
                        .add(operation: A1(), flowCase: FlowCase(key: Plan.key, value: Plan.free))
                        .add(operation: B1(), flowCase: FlowCase(key: "region", value: Region.eu.rawValue))
                        .start()
                }
            }
            """)]))
        #expect(flow.transitions[1].condition == .equals(key: "plan", value: "free"))
        #expect(flow.transitions[2].condition == .equals(key: "region", value: "eu"))
    }
}

// MARK: - Groups

@Suite("Flow-iOS loader: groups")
struct FlowIOSLoaderGroupTests {
    static let imageOps = (name: "ImageOps.swift", text: """
        import Flow_iOS

        class UploadOp: FlowOperation, FlowOperationCreator {
            static func create() -> FlowOperation { return UploadOp() }
            override var primaryInputParamKey: String { return "image" }
            override var primaryOutputParamKey: String { "url" }
            override func mainLogic() {
                guard let image: String = getData(name: primaryInputParamKey) else { return }
                setData(name: self.primaryOutputParamKey, value: "https://cdn/" + image)
                setData(name: "log", value: 1)
            }
        }

        class CountOp: FlowOperation, FlowOperationCreator {
            static func create() -> FlowOperation { return CountOp() }
            override func mainLogic() {
                guard let n: Int = getData(name: primaryInputParamKey) else { return }
                setData(name: primaryOutputParamKey, value: n)
            }
        }
        """)

    @Test("addGrouped is a group step: input/output keys, element keys from the primary-key overrides, concurrency and failure policy")
    func groupSpec() throws {
        let flow = try onlyFlow(load([Self.imageOps, (name: "Gallery.swift", text: """
            class Gallery {
                func upload() {
                    Flow()
                        .setDataBucket(dataBucket: ["images": ["a.jpg", "b.jpg"], "numbers": [1, 2]])
                        .addGrouped(operationCreator: UploadOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "urls", maxConcurrentOperationCount: 2, allowFailure: true))
                        .addGrouped(operationCreator: CountOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "numbers", outputKey: "counts"))
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "UploadOp", "CountOp", "finish"])
        #expect(edges(flow) == ["start -> UploadOp", "UploadOp -> CountOp", "CountOp -> finish"])

        let upload = try #require(flow.step("UploadOp"))
        #expect(upload.kind == .group)
        #expect(upload.implementation == "UploadOp")
        #expect(upload.location == loc("Gallery.swift", 5, 13))
        #expect(upload.details == ["2 at once, failures skipped"])
        let group = try #require(upload.group)
        #expect(group.inputKey == "images")
        #expect(group.inputLocation == loc("Gallery.swift", 5, 105))
        #expect(group.outputKey == "urls")
        #expect(group.outputLocation == loc("Gallery.swift", 5, 126))
        #expect(group.elementKey == "image")
        #expect(group.elementOutputKey == "url")
        #expect(group.maxConcurrent == 2)
        #expect(group.allowFailure == true)
        #expect(accesses(group.elementReads) == ["image: String @ ImageOps.swift:8:35"])
        #expect(accesses(group.elementWrites) == ["url: String @ ImageOps.swift:9:9", "log: Int @ ImageOps.swift:10:9"])
        // In the flow, the group reads the array of what each run reads, and writes the array of its outputs.
        #expect(accesses(upload.reads) == ["images: [String] @ Gallery.swift:5:105"])
        #expect(accesses(upload.writes) == ["urls: [String] @ Gallery.swift:5:126"])
        #expect(upload.unresolved.isEmpty)

        // FlowOperation's defaults: "" for both primary keys, 3 at once, failures not allowed.
        let count = try #require(flow.step("CountOp"))
        let defaults = try #require(count.group)
        #expect(defaults.inputKey == "numbers")
        #expect(defaults.inputLocation == loc("Gallery.swift", 6, 104))
        #expect(defaults.outputKey == "counts")
        #expect(defaults.outputLocation == loc("Gallery.swift", 6, 126))
        #expect(defaults.elementKey == "")
        #expect(defaults.elementOutputKey == "")
        #expect(defaults.maxConcurrent == 3)
        #expect(defaults.allowFailure == false)
        #expect(accesses(defaults.elementReads) == [": Int @ ImageOps.swift:17:28"])
        #expect(accesses(defaults.elementWrites) == [": Int @ ImageOps.swift:18:9"])
        #expect(accesses(count.reads) == ["numbers: [Int] @ Gallery.swift:6:104"])
        #expect(accesses(count.writes) == ["counts: [Int] @ Gallery.swift:6:126"])
        #expect(count.details == ["3 at once"])

        #expect(accesses(flow.initialData) == ["images: [String] @ Gallery.swift:4:41", "numbers: [Int] @ Gallery.swift:4:71"])
        #expect(flow.initialData[0].elementTypes == ["String", "String"])
    }

    @Test("a grouped class that is not in the sources: the group may read and write anything")
    func unknownGroupedClass() throws {
        let flow = try onlyFlow(load([(name: "Gallery.swift", text: """
            class Gallery {
                func upload() {
                    Flow()
                        .addGrouped(operationCreator: Missing.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "urls"))
                        .start()
                }
            }
            """)]))
        let step = try #require(flow.step("Missing"))
        #expect(step.kind == .group)
        #expect(step.group?.elementKey == "")
        #expect(step.unresolved == [.implementationNotFound("Missing")])
        #expect(accesses(step.reads) == ["images: [Any] @ Gallery.swift:4:104"])
        #expect(accesses(step.writes) == ["urls: [Any] @ Gallery.swift:4:125"])
    }
}

// MARK: - Reads and writes

@Suite("Flow-iOS loader: reads and writes")
struct FlowIOSLoaderAccessTests {
    static let keys = (name: "Keys.swift", text: """
        enum FlowKeys {
            static let email = "email"
            static let password = "password"
        }
        let phoneKey = "phone"
        """)

    static let readsOp = (name: "ReadsOp.swift", text: """
        import Foundation
        import Flow_iOS

        class ReadsOp: FlowOperation {
            enum Keys: String { case email; case nick = "nick_name" }
            static let cityKey = "city"
            override var primaryInputParamKey: String { return "input" }
            override func mainLogic() {
                guard let a: String = getData(name: "a") else { return }
                if let b: Int = getData(name: "b") { log(message: "b") }
                let c: Bool? = getData(name: "c")
                let d: String? = getData(name: "d", isOptional: true)
                let e = getData(name: "e") as? [String]
                guard let f: Date = self.getData(name: primaryInputParamKey) else { return }
                guard let g: [String] = getData(name: self.primaryInputParamKey) else { return }
                guard let h: String = getData(name: FlowKeys.email) else { return }
                guard let i: String = getData(name: cityKey) else { return }
                guard let j: String = getData(name: phoneKey) else { return }
                guard let k: String = getData(name: Keys.email.rawValue) else { return }
                guard let l: String = getData(name: Keys.nick.rawValue) else { return }
                finishSuccessfully()
            }
        }
        """)

    static let writesOp = (name: "WritesOp.swift", text: """
        import Foundation
        import Flow_iOS

        class WritesOp: FlowOperation {
            var cachedName: String = ""
            override func mainLogic() {
                let annotated: Double = 1
                let inferred = 42
                let anything = compute()
                setData(name: "s", value: "text")
                setData(name: "i", value: 7)
                setData(name: "dbl", value: 1.5)
                setData(name: "flag", value: true)
                setData(name: "list", value: ["a", "b"])
                setData(name: "mixed", value: ["a", 1])
                setData(name: "dict", value: ["k": 1])
                setData(name: "date", value: Date())
                setData(name: "profile", value: UserProfile(name: "x"))
                setData(name: "annotated", value: annotated)
                setData(name: "inferred", value: inferred)
                setData(name: "cast", value: anything as String)
                setData(name: "url", value: "url_" + cachedName)
                setData(name: "property", value: self.cachedName)
                self.setData(name: "unknown", value: anything)
                setData(name: someKey(), value: 1)
                finishSuccessfully()
            }
            func compute() -> Any { return 1 }
            func someKey() -> String { return "dyn" }
        }
        """)

    static let screen = (name: "VC.swift", text: """
        class Screen {
            func run() {
                Flow()
                    .add(operation: ReadsOp())
                    .add(operation: WritesOp())
                    .start()
            }
        }
        """)

    @Test("read types come from annotations and legacy casts; keys from literals, primaryInputParamKey and constants in any file; only isOptional: true is optional")
    func reads() throws {
        let flow = try onlyFlow(load([Self.keys, Self.readsOp, Self.writesOp, Self.screen]))
        let step = try #require(flow.step("ReadsOp"))
        #expect(accesses(step.reads) == [
            "a: String @ ReadsOp.swift:9:31",             // guard let a: String = getData(...)
            "b: Int @ ReadsOp.swift:10:25",               // if let b: Int = getData(...)
            "c: Bool @ ReadsOp.swift:11:24",              // let c: Bool? = getData(...): reads a Bool, required
            "d: String optional @ ReadsOp.swift:12:26",   // isOptional: true
            "e: [String] @ ReadsOp.swift:13:17",          // getData(...) as? [String]
            "input: Date @ ReadsOp.swift:14:34",          // self.getData(name: primaryInputParamKey)
            "input: [String] @ ReadsOp.swift:15:33",      // name: self.primaryInputParamKey
            "email: String @ ReadsOp.swift:16:31",        // FlowKeys.email, another file
            "city: String @ ReadsOp.swift:17:31",         // cityKey, a static let of the class
            "phone: String @ ReadsOp.swift:18:31",        // phoneKey, a file-scope let of another file
            "email: String @ ReadsOp.swift:19:31",        // Keys.email.rawValue
            "nick_name: String @ ReadsOp.swift:20:31",    // Keys.nick.rawValue with an explicit raw value
        ])
        #expect(step.writes.isEmpty)
        #expect(step.unresolved.isEmpty)
    }

    @Test("written types come from literals, initializer calls, typed locals and properties, casts and concatenation; anything else is unknown")
    func writes() throws {
        let flow = try onlyFlow(load([Self.keys, Self.readsOp, Self.writesOp, Self.screen]))
        let step = try #require(flow.step("WritesOp"))
        #expect(step.reads.isEmpty)
        #expect(accesses(step.writes) == [
            "s: String @ WritesOp.swift:10:9",
            "i: Int @ WritesOp.swift:11:9",
            "dbl: Double @ WritesOp.swift:12:9",
            "flag: Bool @ WritesOp.swift:13:9",
            "list: [String] @ WritesOp.swift:14:9",
            "mixed: [Any] @ WritesOp.swift:15:9",
            "dict: [String:Int] @ WritesOp.swift:16:9",
            "date: Date @ WritesOp.swift:17:9",
            "profile: UserProfile @ WritesOp.swift:18:9",
            "annotated: Double @ WritesOp.swift:19:9",
            "inferred: Int @ WritesOp.swift:20:9",
            "cast: String @ WritesOp.swift:21:9",
            "url: String @ WritesOp.swift:22:9",
            "property: String @ WritesOp.swift:23:9",
            "unknown: ? @ WritesOp.swift:24:14",
        ])
        let byKey = Dictionary(step.writes.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byKey["s"]?.stringValue == "text")
        #expect(byKey["s"]?.value == "\"text\"")
        #expect(byKey["i"]?.stringValue == nil)
        #expect(byKey["list"]?.elementTypes == ["String", "String"])
        #expect(byKey["mixed"]?.elementTypes == ["String", "Int"])
        #expect(byKey["unknown"]?.type == nil)
        // A key that is not a constant (`setData(name: someKey(), ...)`): the step may write any key.
        #expect(step.unresolved == [.dynamicWriteKey(loc("WritesOp.swift", 25, 9))])
        #expect(step.mayWriteAnything)
        #expect(!step.mayReadAnything)
    }

    @Test("reads and writes of an intermediate base class in another file belong to the subclass, base first")
    func inheritedAccesses() throws {
        let flow = try onlyFlow(load([
            (name: "AppOperation.swift", text: """
                import Flow_iOS

                class AppOperation: FlowOperation {
                    override var primaryInputParamKey: String { return "item" }
                }
                """),
            (name: "Base.swift", text: """
                import Foundation

                class AuthenticatedOperation: AppOperation {
                    func requireToken() -> String? {
                        guard let token: String = getData(name: "accessToken") else { return nil }
                        return token
                    }
                    func touch() { setData(name: "lastSeen", value: Date()) }
                }
                """),
            (name: "Profile.swift", text: """
                class LoadProfileOp: AuthenticatedOperation {
                    override func mainLogic() {
                        guard let token = requireToken() else { return }
                        guard let item: Int = getData(name: primaryInputParamKey) else { return }
                        setData(name: "profile", value: UserProfile(token: token))
                        touch()
                    }
                }
                """),
            (name: "VC.swift", text: """
                class Screen {
                    func run() {
                        Flow()
                            .add(operation: LoadProfileOp())
                            .start()
                    }
                }
                """),
        ]))
        let step = try #require(flow.step("LoadProfileOp"))
        #expect(step.unresolved.isEmpty)
        #expect(accesses(step.reads) == ["accessToken: String @ Base.swift:5:35", "item: Int @ Profile.swift:4:31"])
        #expect(accesses(step.writes) == ["lastSeen: Date @ Base.swift:8:20", "profile: UserProfile @ Profile.swift:5:9"])
    }

    @Test("each operation's own nested `enum Keys: String` resolves its own raw values")
    func nestedKeysEnumsPerOperation() throws {
        let flow = try onlyFlow(load([(name: "Ops.swift", text: """
            class LoginOp: FlowOperation {
                enum Keys: String { case user = "email" }
                override func mainLogic() { guard let user: String = getData(name: Keys.user.rawValue) else { return } }
            }
            class ProfileOp: FlowOperation {
                enum Keys: String { case user = "userID" }
                override func mainLogic() { guard let user: String = getData(name: Keys.user.rawValue) else { return } }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: LoginOp())
                        .add(operation: ProfileOp())
                        .start()
                }
            }
            """)]))
        #expect(flow.step("LoginOp")?.reads.map(\.key) == ["email"])
        #expect(flow.step("ProfileOp")?.reads.map(\.key) == ["userID"])
    
    }

    @Test("a class whose superclasses do not reach FlowOperation in the sources is not an operation")
    func notAnOperation() throws {
        let flow = try onlyFlow(load([(name: "Ops.swift", text: """
            class Helper: NSObject {
                func go() { setData(name: "x", value: 1) }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow().add(operation: Helper()).start()
                }
            }
            """)]))
        let step = try #require(flow.step("Helper"))
        #expect(step.writes.isEmpty)
        #expect(step.unresolved == [.implementationNotFound("Helper")])
    }
}

// MARK: - Flows

@Suite("Flow-iOS loader: flows")
struct FlowIOSLoaderFlowTests {
    @Test("a Flow variable built by separate statements, including flow.add(...).add(...)")
    func variableFlow() throws {
        let flow = try onlyFlow(load([caseOps, (name: "Form.swift", text: """
            class Form {
                func submit() {
                    let email: String = field()
                    let flow = Flow()
                    flow.setDataBucket(dataBucket: ["email": email])
                    flow.add(operation: A1()).add(operation: A2())
                    flow.add(operation: B1())
                    flow.start()
                }
            }
            """)]))
        #expect(flow.id == "Form.submit")
        #expect(flow.location == loc("Form.swift", 4, 20))
        #expect(flow.steps.map(\.id) == ["start", "A1", "A2", "B1", "finish"])
        #expect(flow.steps.map(\.location) == [
            loc("Form.swift", 4, 20), loc("Form.swift", 6, 13), loc("Form.swift", 6, 34), loc("Form.swift", 7, 13),
            loc("Form.swift", 8, 13),
        ])
        #expect(edges(flow) == ["start -> A1", "A1 -> A2", "A2 -> B1", "B1 -> finish"])
        #expect(accesses(flow.initialData) == ["email: String @ Form.swift:5:41"])
        #expect(flow.initialData[0].stringValue == nil)
    }

    @Test("flows are named Type.function, numbered #1, #2... when a body has several, and named after the extended type in an extension")
    func flowNames() throws {
        let graph = load([caseOps, (name: "Screen.swift", text: """
            class Screen {
                func twice() {
                    Flow().add(operation: A1()).start()
                    var flow = Flow()
                    flow.add(operation: A2())
                    flow.start()
                    flow = Flow()
                    flow.add(operation: B1())
                    flow.start()
                }
                init() {
                    Flow().add(operation: After()).start()
                }
                var computed: Flow { Flow().add(operation: Root()) }
            }

            extension Screen {
                func again() {
                    Flow().add(operation: Root()).start()
                }
            }
            """)])
        #expect(graph.flows.map(\.id) == ["Screen.twice#1", "Screen.twice#2", "Screen.twice#3", "Screen.init", "Screen.computed", "Screen.again"])
        #expect(graph.flows.map(\.name) == graph.flows.map(\.id))
        #expect(graph.flows.map { $0.steps.map(\.id) } == [
            ["start", "A1", "finish"], ["start", "A2", "finish"], ["start", "B1", "finish"],
            ["start", "After", "finish"], ["start", "Root", "finish"], ["start", "Root", "finish"],
        ])
        #expect(graph.flows.map(\.location) == [
            loc("Screen.swift", 3, 9), loc("Screen.swift", 4, 20), loc("Screen.swift", 7, 16),
            loc("Screen.swift", 12, 9), loc("Screen.swift", 14, 26), loc("Screen.swift", 19, 9),
        ])
    }

    @Test("an operation created in a local, and initializer arguments shown as details")
    func operationInALocal() throws {
        let flow = try onlyFlow(load([caseOps, (name: "Ops2.swift", text: """
            class PrintOp: FlowOperation {
                init(message: String) { super.init() }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    let op = A2()
                    let typed: B1 = make()
                    Flow()
                        .add(operation: op)
                        .add(operation: typed)
                        .add(operation: PrintOp(message: "Hello"))
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "A2", "B1", "PrintOp", "finish"])
        #expect(flow.step("PrintOp")?.details == ["message: Hello"])
        #expect(flow.steps.allSatisfy { $0.unresolved.isEmpty })
    }

    @Test("setDataBucket: keys (literals and constants), types, element types and values; the last call wins")
    func dataBucket() throws {
        let flow = try onlyFlow(load([caseOps, (name: "Keys.swift", text: """
            enum FlowKeys {
                static let password = "password"
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    let password: String = field()
                    Flow()
                        .setDataBucket(dataBucket: ["stale": true])
                        .setDataBucket(dataBucket: ["email": "a@b.c", FlowKeys.password: password, "count": 3, "tags": ["x", "y"], "mixed": ["a", 1]])
                        .add(operation: A1())
                        .start()
                }
            }
            """)]))
        #expect(accesses(flow.initialData) == [
            "email: String @ VC.swift:6:41",
            "password: String @ VC.swift:6:59",
            "count: Int @ VC.swift:6:88",
            "tags: [String] @ VC.swift:6:100",
            "mixed: [Any] @ VC.swift:6:120",
        ])
        #expect(flow.initialData.map(\.stringValue) == ["a@b.c", nil, nil, nil, nil])
        #expect(flow.initialData.map(\.value) == ["\"a@b.c\"", nil, "3", "[\"x\", \"y\"]", "[\"a\", 1]"])
        #expect(flow.initialData.map(\.elementTypes) == [nil, nil, nil, ["String", "String"], ["String", "Int"]])
        #expect(flow.steps[0].unresolved.isEmpty)
    }

    @Test("a bucket that is not a dictionary literal: the start may hold any key")
    func dynamicBucket() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run(bucket: [String: Any]) {
                    Flow()
                        .setDataBucket(dataBucket: ["email": "a@b.c"])
                        .setDataBucket(dataBucket: bucket)
                        .add(operation: A1())
                        .start()
                }
            }
            """)]))
        #expect(flow.initialData.isEmpty)
        #expect(flow.steps[0].unresolved == [.dynamicWriteKey(loc("VC.swift", 5, 40))])
    }

    @Test("did-finish blocks: flow.dataBucket[\"k\"] as? T reads are optional finish reads, with any closure parameter name, also inside a closure passed to a helper")
    func finishReads() throws {
        let graph = load([caseOps, (name: "Keys.swift", text: """
            enum FlowKeys {
                static let count = "count"
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: A1())
                        .setDidFinishBlock(block: { done in
                            let name = done.dataBucket["name"] as? String ?? "?"
                            let count = done.dataBucket[FlowKeys.count]! as? Int
                            print(name, count as Any)
                        })
                        .start()
                }
                func other() {
                    Flow()
                        .add(operation: A1())
                        .setDidFinishBlock(block: wrap(block: { flow in
                            if let tags = flow.dataBucket["tags"] as? [String] { print(tags) }
                        }))
                        .start()
                }
            }
            """)])
        #expect(graph.flows.map(\.id) == ["Screen.run", "Screen.other"])
        let run = try #require(graph.flows.first?.steps.last)
        #expect(run.id == "finish")
        #expect(run.kind == .end)
        #expect(run.location == loc("VC.swift", 10, 13))
        #expect(accesses(run.reads) == ["name: String optional @ VC.swift:6:28", "count: Int optional @ VC.swift:7:29"])
        let other = try #require(graph.flows.last?.steps.last)
        #expect(accesses(other.reads) == ["tags: [String] optional @ VC.swift:16:31"])
    }

    @Test("setDidFinishBlock: the last call wins, as at run time, and each read is listed once")
    func lastFinishBlockWins() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: A1())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["first"] as? String as Any) })
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["second"] as? String as Any) })
                        .start()
                }
            }
            """)]))
        let finish = try #require(flow.steps.last)
        #expect(accesses(finish.reads) == ["second: String optional @ VC.swift:6:55"])
    
    }

    @Test("an operation class that is not in the sources is kept as a step that may read and write anything")
    func unknownOperation() throws {
        let flow = try onlyFlow(load([caseOps, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: LegacySyncOp())
                        .add(operation: A1())
                        .start()
                }
            }
            """)]))
        #expect(flow.steps.map(\.id) == ["start", "LegacySyncOp", "A1", "finish"])
        let step = try #require(flow.step("LegacySyncOp"))
        #expect(step.kind == .operation)
        #expect(step.implementation == "LegacySyncOp")
        #expect(step.location == loc("VC.swift", 4, 13))
        #expect(step.unresolved == [.implementationNotFound("LegacySyncOp")])
        #expect(step.mayWriteAnything && step.mayReadAnything)
    }

    @Test("a Flow() chain in a stored property initializer is a flow (README: 'in any function, initializer or property')")
    func storedPropertyFlow() throws {
        let graph = load([caseOps, (name: "VC.swift", text: """
            class Screen {
                let loginFlow = Flow()
                    .add(operation: A1())
                    .add(operation: A2())
            }
            """)])
        #expect(graph.flows.map(\.id) == ["Screen.loginFlow"])
        #expect(graph.flows.first.map(edges) == ["start -> A1", "A1 -> A2", "A2 -> finish"])
    
    }

    @Test("`return getData(name:)` in a function returning T? reads a T (as the loader's readType documents)")
    func returnedRead() throws {
        let flow = try onlyFlow(load([(name: "Ops.swift", text: """
            class TokenOp: FlowOperation {
                func token() -> String? {
                    return getData(name: "token")
                }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() { Flow().add(operation: TokenOp()).start() }
            }
            """)]))
        let step = try #require(flow.step("TokenOp"))
        #expect(step.reads.map(\.key) == ["token"])
        #expect(step.reads.first?.type == "String")
    
    }
}

// MARK: - Determinism

@Suite("Flow-iOS loader: determinism")
struct FlowIOSLoaderDeterminismTests {
    static let files: [(name: String, text: String)] = [
        (name: "Keys.swift", text: """
            enum FlowKeys {
                static let email = "email"
            }
            enum Plan: String { case free, pro }
            """),
        (name: "Base.swift", text: """
            class AuthenticatedOperation: FlowOperation {
                func requireToken() -> String? {
                    guard let token: String = getData(name: "accessToken") else { return nil }
                    return token
                }
            }
            """),
        (name: "Ops.swift", text: """
            class LoginOp: FlowOperation {
                override func mainLogic() {
                    guard let email: String = getData(name: FlowKeys.email) else { return }
                    setData(name: "accessToken", value: "t_" + email)
                }
            }
            class ProfileOp: AuthenticatedOperation {
                override func mainLogic() { setData(name: "profile", value: Profile()) }
            }
            class UploadOp: FlowOperation, FlowOperationCreator {
                static func create() -> FlowOperation { return UploadOp() }
                override var primaryInputParamKey: String { return "image" }
                override func mainLogic() { guard let image: String = getData(name: primaryInputParamKey) else { return } }
            }
            """),
        (name: "Login.swift", text: """
            class LoginScreen {
                func login() {
                    Flow()
                        .setDataBucket(dataBucket: [FlowKeys.email: "a@b.c", "plan": Plan.pro.rawValue])
                        .add(operation: LoginOp())
                        .add(operation: ProfileOp(), flowCase: FlowCase(key: "plan", value: Plan.free.rawValue))
                        .add(operation: LoginOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .addGrouped(operationCreator: UploadOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "urls"))
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["profile"] as? Profile as Any) })
                        .start()
                }
                func twice() {
                    Flow().add(operation: LoginOp()).start()
                    let flow = Flow()
                    flow.add(operation: ProfileOp())
                    flow.start()
                }
            }
            extension LoginScreen {
                func again() { Flow().add(operation: ProfileOp()).start() }
            }
            """),
    ]

    @Test("loading the same files in another order, or again, gives identical flows (ids, names, order, content)")
    func orderAndRepetition() {
        let reference = load(Self.files).flows
        #expect(reference.map(\.id) == ["LoginScreen.login", "LoginScreen.twice#1", "LoginScreen.twice#2", "LoginScreen.again"])
        #expect(reference.first?.step("ProfileOp")?.reads.map(\.key) == ["accessToken"])
        let orders: [[Int]] = [[3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2], [0, 1, 2, 3]]
        for order in orders {
            for _ in 0..<5 {
                let flows = load(order.map { Self.files[$0] }).flows
                #expect(flows == reference, "order \(order)")
            }
        }
    }

    @Test("flows of several files: every flow is the same whatever the order; they are listed file by file, in the order the files are given")
    func flowsInSeveralFiles() {
        let second = (name: "Other.swift", text: """
            class OtherScreen {
                func go() { Flow().add(operation: LoginOp()).start() }
            }
            """)
        let forward = load(Self.files + [second]).flows
        let backward = load([second] + Self.files.reversed()).flows
        #expect(forward.map(\.id) == ["LoginScreen.login", "LoginScreen.twice#1", "LoginScreen.twice#2", "LoginScreen.again", "OtherScreen.go"])
        #expect(backward.map(\.id) == ["OtherScreen.go", "LoginScreen.login", "LoginScreen.twice#1", "LoginScreen.twice#2", "LoginScreen.again"])
        #expect(Dictionary(uniqueKeysWithValues: forward.map { ($0.id, $0) }) == Dictionary(uniqueKeysWithValues: backward.map { ($0.id, $0) }))
    }
}
