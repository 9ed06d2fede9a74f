import FlowModel
import Testing
@testable import FlowLoaders

// IR-level tests of the FlowState reader (`Sources/FlowLoaders/FlowState`): every step form and every
// transition form of issue 5, with exact ids, names, kinds, types, labels and positions. Fixtures
// are in memory; line and column numbers are 1-based, as in the fixture text (its first line is
// line 1). Rule-level tests of FlowState flows are in Tests/FlowRulesTests/FlowStateRuleTests.swift
// (this target does not depend on FlowRules).

// MARK: - Helpers

/// The FlowState flows of one in-memory Swift file.
private func flowStateFlows(_ text: String, file: String = "C.swift") -> [Flow] {
    load([(file, text)]).flows.filter { $0.kind == .flowState }
}

/// The one FlowState flow of `text`.
private func onlyFlow(_ text: String, file: String = "C.swift") throws -> Flow {
    let flows = flowStateFlows(text, file: file)
    try #require(flows.count == 1, "flows: \(flows.map(\.id))")
    return flows[0]
}

private func loc(_ line: Int, _ column: Int, _ file: String = "C.swift") -> FlowModel.SourceLocation {
    FlowModel.SourceLocation(file: file, line: line, column: column)
}

/// Each transition as `from -> to [condition] (label) {parallel}`.
private func edges(_ flow: Flow) -> [String] {
    flow.transitions.map { transition in
        var text = "\(transition.from) -> \(transition.to)"
        if let condition = transition.condition { text += " [\(condition.text)]" }
        if let label = transition.label { text += " (\(label))" }
        if transition.kind != .normal { text += " {\(transition.kind.rawValue)}" }
        return text
    }
}

/// Each access as `key: Type @ line:col`, with ` optional` after the type for optional reads.
private func accesses(_ list: [DataAccess]) -> [String] {
    list.map { access in
        let type = access.type?.spelling ?? "?"
        let place = access.location.map { "\($0.line):\($0.column)" } ?? "-"
        return "\(access.key): \(type)\(access.optional ? " optional" : "") @ \(place)"
    }
}

// MARK: - The README's flow

/// FlowState's example coordinator (README and Example/ExampleFlowCoordinator.swift), shortened.
private let exampleCoordinator = """
    class ExampleFlowCoordinator: NavigationFlowCoordinator {
        init() {
            let nav = UINavigationController()
            let displayStep = FlowStep(String.self, DisplayStringAction.self, identifier: "Display", { step in
                let vc = DisplayStringViewController()
                return vc.results
            })
            let editStep = FlowStep(String.self, String.self, identifier: "Edit String", { step in
                return StringEntryViewController().results
            }) { step, results in
                displayStep.content = results
            }
            displayStep.setCompletion { step, action in
                guard let action = action else { return }
                switch action {
                case .editString:
                    editStep.content = step.content
                    step.nextStep = editStep
                case .downloadString:
                    step.nextStep = nil
                }
            }
            super.init(navigationController: nav, identifier: "String Flow", firstStep: displayStep)
        }
    }
    """

@Suite("FlowState reader: the README's coordinator")
struct FlowStateExampleTests {
    @Test("steps bound to locals of init: ids are the names, names the identifiers, typed Content → Result; the flow is Type.init and starts at super.init's firstStep")
    func steps() throws {
        let flow = try onlyFlow(exampleCoordinator)
        #expect(flow.id == "ExampleFlowCoordinator.init")
        #expect(flow.name == "ExampleFlowCoordinator.init")
        #expect(flow.kind == .flowState)
        #expect(flow.location == loc(2, 5))
        #expect(flow.steps.map(\.id) == ["displayStep", "editStep", "end"])
        #expect(flow.steps.map(\.name) == ["Display", "Edit String", "end"])
        #expect(flow.steps.map(\.kind) == [.operation, .operation, .end])
        #expect(flow.steps.map(\.contentType) == ["String", "String", nil])
        #expect(flow.steps.map(\.resultType) == ["DisplayStringAction", "String", nil])
        #expect(flow.steps.map(\.implementation) == ["DisplayStringViewController", "StringEntryViewController", nil])
        // Steps at their `FlowStep`; the end at the first `nextStep = nil`.
        #expect(flow.steps.map(\.location) == [loc(4, 27), loc(8, 24), loc(20, 17)])
        #expect(flow.entries == ["displayStep"])
        #expect(flow.entryLocation == loc(23, 85))
    }

    @Test("switch cases label the edges; nil ends the flow; a completion that may leave nextStep unset also ends it otherwise; a step whose nextStep is never set ends it")
    func transitions() throws {
        let flow = try onlyFlow(exampleCoordinator)
        #expect(edges(flow) == [
            "displayStep -> editStep [.editString]",
            "displayStep -> end [.downloadString]",
            "displayStep -> end [otherwise]",
            "editStep -> end",
        ])
        #expect(flow.transitions[0].condition == .expression(".editString"))
        #expect(flow.transitions[2].condition == .otherwise)
        // At the `nextStep` assignment; the otherwise edge at the completion; the never-set one at the step.
        #expect(flow.transitions.map(\.location) == [loc(18, 17), loc(20, 17), loc(13, 35), loc(8, 24)])
    }

    @Test("content: each step reads its own content key optionally as its Content; `x.content = result` writes it typed by the writer's Result, `= step.content` by its Content")
    func data() throws {
        let flow = try onlyFlow(exampleCoordinator)
        #expect(accesses(flow.steps[0].reads) == ["displayStep.content: String optional @ 4:36"])
        #expect(accesses(flow.steps[0].writes) == ["editStep.content: String @ 17:17"])
        #expect(accesses(flow.steps[1].reads) == ["editStep.content: String optional @ 8:33"])
        #expect(accesses(flow.steps[1].writes) == ["displayStep.content: String @ 11:13"])
        #expect(flow.initialData.isEmpty)
        // A step's content is a live property: every key written is read by its step, whenever.
        #expect(flow.outputs.map(\.key) == ["editStep.content", "displayStep.content"])
        #expect(flow.outputs.allSatisfy { $0.optional })
        #expect(flow.limitations.isEmpty)
    }
}

// MARK: - Step forms

@Suite("FlowState reader: step forms")
struct FlowStateStepFormTests {
    @Test("stored-property steps make the type one flow, over its extensions in other files: `let`, `lazy var`, and an annotated property assigned in init; setCompletion({ }) in parentheses; $0/$1")
    func propertySteps() throws {
        let graph = load([
            ("Coordinator.swift", """
                final class SignUpCoordinator {
                    let emailStep = FlowStep(Any.self, String.self, identifier: "Email", { _ in EmailViewController().results })
                    var passwordStep: FlowStep<String, Credentials>
                    lazy var finishStep = FlowStep(Credentials.self, Any.self, identifier: "Finish", { step in
                        return nil
                    })
                    init() {
                        self.passwordStep = FlowStep(String.self, Credentials.self, identifier: "Password") { step in
                            let handler = FlowStepHandler(String.self, Credentials.self)
                            return handler
                        }
                    }
                }
                """),
            ("Coordinator+Wiring.swift", """
                extension SignUpCoordinator {
                    func wire() {
                        emailStep.setCompletion({ step, email in
                            self.passwordStep.content = email
                            step.nextStep = self.passwordStep
                        })
                        passwordStep.setCompletion { $0.nextStep = self.finishStep; self.finishStep.content = $1 }
                    }
                    func begin() { emailStep.start() }
                }
                """),
        ])
        try #require(graph.flows.count == 1, "\(graph.flows.map(\.id))")
        let flow = graph.flows[0]
        #expect(flow.id == "SignUpCoordinator")
        #expect(flow.kind == .flowState)
        #expect(flow.location == loc(1, 13, "Coordinator.swift"))
        #expect(flow.steps.map(\.id) == ["emailStep", "finishStep", "passwordStep", "end"])
        #expect(flow.steps.map(\.name) == ["Email", "Finish", "Password", "end"])
        #expect(flow.steps.map(\.kind) == [.operation, .operation, .operation, .end])
        #expect(flow.steps.map(\.contentType) == ["Any", "Credentials", "String", nil])
        #expect(flow.steps.map(\.resultType) == ["String", "Any", "Credentials", nil])
        #expect(flow.steps.map(\.location) == [loc(2, 21, "Coordinator.swift"), loc(4, 27, "Coordinator.swift"),
                                               loc(8, 29, "Coordinator.swift"), loc(1, 13, "Coordinator.swift")])
        // What each intent returns: a view controller's handler, nothing, a handler it makes.
        #expect(flow.steps.map(\.implementation) == ["EmailViewController", nil, "FlowStepHandler<String, Credentials>", nil])
        #expect(flow.steps[1].details == ["completes at once: its intent returns nil"])
        #expect(edges(flow) == [
            "emailStep -> passwordStep",
            "finishStep -> end",
            "passwordStep -> finishStep",
        ])
        #expect(flow.transitions.map(\.location) == [loc(5, 13, "Coordinator+Wiring.swift"), loc(4, 27, "Coordinator.swift"),
                                                     loc(7, 38, "Coordinator+Wiring.swift")])
        // An `Any` content is read by nobody: nothing to check.
        #expect(flow.steps[0].reads.isEmpty)
        #expect(accesses(flow.steps[0].writes) == ["passwordStep.content: String @ 4:13"])
        #expect(accesses(flow.steps[2].writes) == ["finishStep.content: Credentials @ 7:69"])
        #expect(flow.entries == ["emailStep"])
        #expect(flow.entryLocation == nil)
    }

    @Test("completion as the fifth argument; intent and completion as multiple trailing closures; a `var` binding; a later setCompletion replaces the initializer's completion")
    func completionForms() throws {
        let flow = try onlyFlow("""
            class Forms {
                func build() {
                    let last = FlowStep(Any.self, Any.self, identifier: "Last", { _ in nil })
                    var second = FlowStep(Int.self, Any.self, identifier: "Second") { _ in
                        SecondView().results
                    } _: { step, _ in
                        step.nextStep = last
                    }
                    let first = FlowStep(Any.self, Int.self, identifier: "First", { _ in FirstView().results }, { step, count in
                        second.content = count
                        step.nextStep = last
                    })
                    first.setCompletion { step, count in
                        second.content = count
                        step.nextStep = second
                    }
                    first.start()
                }
            }
            """)
        #expect(flow.id == "Forms.build")
        #expect(flow.steps.map(\.id) == ["last", "second", "first", "end"])
        #expect(flow.steps.map(\.implementation) == [nil, "SecondView", "FirstView", nil])
        #expect(edges(flow) == [
            "last -> end",
            "second -> last",
            "first -> second",
        ])
        // The replaced completion's write and transition are gone: only line 14's write is left.
        #expect(accesses(flow.steps[2].writes) == ["second.content: Int @ 14:13"])
        #expect(accesses(flow.steps[1].reads) == ["second.content: Int optional @ 4:31"])
        #expect(flow.entries == ["first"])
    }

    @Test("ConcurentFlowStep is a parallel step: parallel edges to its steps (inline ones too, by identifier), which all lead to its join; the group's nextStep leaves from the join; a child's own nextStep is overwritten by the group")
    func concurrentGroup() throws {
        let flow = try onlyFlow("""
            class SyncCoordinator {
                func sync() {
                    let done = FlowStep(Any.self, Any.self, identifier: "Done", { _ in nil })
                    let photos = FlowStep(Any.self, Int.self, identifier: "Photos", { _ in PhotoSync().results })
                    photos.nextStep = done
                    let group = ConcurentFlowStep(identifier: "Sync all", steps: [photos, FlowStep(Any.self, Int.self, identifier: "Contacts", { _ in nil })])
                    group.nextStep = done
                    let coordinator = NavigationFlowCoordinator(navigationController: UINavigationController(), identifier: "Sync", firstStep: group)
                    coordinator.start()
                }
            }
            """)
        #expect(flow.steps.map(\.id) == ["done", "photos", "group", "group.join", "Contacts", "end"])
        #expect(flow.steps.map(\.name) == ["Done", "Photos", "Sync all", "Sync all done", "Contacts", "end"])
        #expect(flow.steps.map(\.kind) == [.operation, .operation, .parallel, .join, .operation, .end])
        #expect(flow.steps[2].contentType == nil && flow.steps[2].reads.isEmpty)
        #expect(flow.steps[2].location == loc(6, 21))
        #expect(flow.steps[4].location == loc(6, 79))
        #expect(edges(flow) == [
            "done -> end",
            "photos -> group.join",
            "group -> photos {parallel}",
            "group -> Contacts {parallel}",
            "group.join -> done",
            "Contacts -> group.join",
        ])
        #expect(flow.transitions[2].location == loc(6, 71))
        #expect(flow.transitions[4].location == loc(7, 9))
        #expect(flow.entries == ["group"])
        #expect(flow.entryLocation == loc(8, 132))
    }

    @Test("a name that is declared but is not a FlowStep (another Startable) is a plain step; an undeclared name stays a transition to a missing step; an expression FlowLens cannot follow ends the flow there and says so")
    func otherTargets() throws {
        let flow = try onlyFlow("""
            class Host {
                func run() {
                    let child = ChildCoordinator()
                    let a = FlowStep(Any.self, Int.self, identifier: "A", { _ in AView().results })
                    let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in BView().results })
                    let c = FlowStep(Any.self, Any.self, identifier: "C", { _ in CView().results })
                    a.nextStep = child
                    b.nextStep = missingStep
                    c.nextStep = makeNext()
                    a.start()
                }
            }
            """)
        #expect(flow.steps.map(\.id) == ["a", "b", "c", "child", "end"])
        #expect(flow.steps[3].kind == .operation)
        #expect(flow.steps[3].implementation == "ChildCoordinator")
        #expect(flow.steps[3].location == loc(3, 13))
        #expect(edges(flow) == [
            "a -> child",
            "b -> missingStep",
            "c -> end (makeNext() (not read))",
            "child -> end",
        ])
        #expect(flow.transitions[1].location == loc(8, 9))
        #expect(flow.limitations == [Limitation(
            message: "the next step of 'C' is `makeNext()`, which FlowLens does not follow; the flow is drawn as ending there",
            location: loc(9, 9))])
    }
}

// MARK: - Transition forms and labels

@Suite("FlowState reader: transitions")
struct FlowStateTransitionTests {
    private let router = """
        class Router {
            func route(isNew: Bool) {
                let a = FlowStep(Any.self, Int.self, identifier: "A", { _ in AView().results })
                let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in BView().results })
                let c = FlowStep(Any.self, Any.self, identifier: "C", { _ in CView().results })
                let d = FlowStep(Any.self, Any.self, identifier: "D", { _ in DView().results })
                a.setCompletion { step, count in
                    if let count = count, count > 3 {
                        step.nextStep = b
                    } else if isNew {
                        step.nextStep = c
                    } else {
                        step.nextStep = count == 0 ? d : nil
                    }
                }
                b.setCompletion { step, _ in
                    switch step.identifier {
                    case "B", "b": step.nextStep = c
                    default: step.nextStep = d
                    }
                }
                if isNew {
                    c.nextStep = d
                }
                a.start()
            }
        }
        """

    @Test("if / else if / else conditions, a ternary's two ways, switch cases and default; no otherwise edge when every path sets nextStep")
    func labels() throws {
        let flow = try onlyFlow(router)
        #expect(flow.id == "Router.route")
        #expect(edges(flow).prefix(6) == [
            "a -> b [count != nil && count > 3]",
            "a -> c [not (count != nil && count > 3), isNew]",
            "a -> d [not (count != nil && count > 3), !isNew, count == 0]",
            "a -> end [not (count != nil && count > 3), !isNew, count != 0]",
            "b -> c [\"B\", \"b\"]",
            "b -> d [otherwise]",
        ])
        #expect(flow.transitions[5].condition == .otherwise)
        #expect(flow.transitions.prefix(6).map(\.location) == [loc(9, 17), loc(11, 17), loc(13, 17), loc(13, 17), loc(18, 28), loc(19, 22)])
    }

    @Test("`x.nextStep = y` while the flow is set up: unconditional needs no otherwise edge; under an `if` it gets one")
    func setupAssignments() throws {
        let flow = try onlyFlow(router)
        #expect(Array(edges(flow).dropFirst(6)) == [
            "c -> d [isNew]",
            "c -> end [otherwise]",
            "d -> end",
        ])
        #expect(flow.transitions[6].location == loc(23, 13))
        // The otherwise edge of a step without a completion is located at the step.
        #expect(flow.transitions[7].location == loc(5, 17))
        #expect(flow.entries == ["a"])
    }

    @Test("guard's else is labelled by the failed condition; a step set on every path after it needs no otherwise edge; `if let x` labels `x != nil`")
    func guardAndIfLet() throws {
        let flow = try onlyFlow("""
            class Names {
                func edit() {
                    let done = FlowStep(Any.self, Any.self, identifier: "Done", { _ in nil })
                    let save = FlowStep(String.self, Bool.self, identifier: "Save", { _ in SaveView().results })
                    let edit = FlowStep(Any.self, String.self, identifier: "Edit", { _ in EditView().results })
                    edit.setCompletion { step, newName in
                        guard let name = newName else {
                            step.nextStep = nil
                            return
                        }
                        save.content = name
                        step.nextStep = save
                    }
                    save.setCompletion { step, saved in
                        if let saved {
                            step.nextStep = saved ? done : edit
                        }
                    }
                    edit.start()
                }
            }
            """)
        #expect(edges(flow) == [
            "done -> end",
            "save -> done [saved != nil, saved]",
            "save -> edit [saved != nil, !saved]",
            "save -> end [otherwise]",
            "edit -> end [newName == nil]",
            "edit -> save",
        ])
        #expect(flow.transitions[3].location == loc(14, 28))
        #expect(flow.transitions[4].location == loc(8, 17))
        #expect(flow.steps.last?.location == loc(8, 17))
        // `name` is bound from the result, so it has edit's Result type.
        #expect(accesses(flow.steps[2].writes) == ["save.content: String @ 11:13"])
    }

    @Test("`step` is whatever the completion calls its first parameter; another step's nextStep set inside a completion leaves that step")
    func parameterNamesAndOtherSteps() throws {
        let flow = try onlyFlow("""
            class Pair {
                func run() {
                    let x = FlowStep(Any.self, Any.self, identifier: "X", { _ in XView().results })
                    let y = FlowStep(Any.self, Any.self, identifier: "Y", { _ in YView().results })
                    let z = FlowStep(Any.self, Any.self, identifier: "Z", { _ in ZView().results })
                    x.setCompletion { current, _ in
                        current.nextStep = y
                        y.nextStep = z
                    }
                    x.start()
                }
            }
            """)
        #expect(edges(flow) == [
            "x -> y",
            "y -> z",
            "y -> end [otherwise]",
            "z -> end",
        ])
    }
}

// MARK: - Data and start

@Suite("FlowState reader: content and start")
struct FlowStateDataTests {
    @Test("content set while the flow is set up is initial data typed by its value (a parameter, a literal); names bound from the result param keep its Result type; an optional chain is untyped")
    func contentWrites() throws {
        let flow = try onlyFlow("""
            class ProfileFlow {
                func run(profile: UserProfile) {
                    let show = FlowStep(UserProfile.self, Action.self, identifier: "Show", { _ in ShowVC().results })
                    show.content = profile
                    let edit = FlowStep(String.self, String.self, identifier: "Edit", { _ in EditVC().results })
                    let save = FlowStep(String.self, UserProfile.self, identifier: "Save", { _ in SaveVC().results })
                    let note = FlowStep(String.self, Any.self, identifier: "Note", { _ in NoteVC().results })
                    note.content = "Saved"
                    edit.setCompletion { step, newName in
                        guard let name = newName else { return }
                        save.content = name
                        step.nextStep = save
                    }
                    save.setCompletion { step, saved in
                        if let saved {
                            show.content = saved
                        }
                        step.nextStep = note
                    }
                    show.setCompletion { step, _ in
                        edit.content = step.content?.name
                        step.nextStep = edit
                    }
                    show.start()
                }
            }
            """)
        #expect(accesses(flow.initialData) == ["show.content: UserProfile @ 4:9", "note.content: String @ 8:9"])
        #expect(flow.initialData.map(\.value) == ["profile", "\"Saved\""])
        #expect(flow.initialData[1].stringValue == "Saved")
        #expect(accesses(flow.steps.map(\.writes).flatMap { $0 }) == [
            "edit.content: ? @ 21:13",
            "save.content: String @ 11:13",
            "show.content: UserProfile @ 16:17",
        ])
        #expect(flow.outputs.map(\.key) == ["show.content", "note.content", "edit.content", "save.content"])
        #expect(accesses(flow.outputs) == [
            "show.content: UserProfile optional @ 3:29",
            "note.content: String optional @ 7:29",
            "edit.content: String optional @ 5:29",
            "save.content: String optional @ 6:29",
        ])
        #expect(flow.entries == ["show"])
    }

    @Test("the start: firstStep of a NavigationFlowCoordinator (a name that is no step included), else the first step started, else the first step")
    func start() throws {
        let flows = flowStateFlows("""
            class Starts {
                func coordinator() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in nil })
                    b.start()
                    _ = NavigationFlowCoordinator(navigationController: UINavigationController(), firstStep: a)
                }
                func started() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in nil })
                    b.start()
                }
                func nothing() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in nil })
                }
                func ghost() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    _ = NavigationFlowCoordinator(firstStep: welcomeStep)
                }
                func inline() {
                    _ = NavigationFlowCoordinator(firstStep: FlowStep(Any.self, Any.self, identifier: "Only", { _ in nil }))
                }
            }
            """)
        #expect(flows.map(\.id) == ["Starts.coordinator", "Starts.started", "Starts.nothing", "Starts.ghost", "Starts.inline"])
        #expect(flows.map(\.entries) == [["a"], ["b"], ["a"], ["welcomeStep"], ["Only"]])
        #expect(flows.map(\.entryLocation) == [loc(6, 98), nil, nil, loc(19, 50), loc(22, 50)])
        #expect(flows[4].steps.map(\.id) == ["Only", "end"])
    }
}

// MARK: - Which flows

@Suite("FlowState reader: flows")
struct FlowStateGroupingTests {
    @Test("one flow per function that binds steps (Type.function), none for a factory that returns an unbound step or a function without steps, a file's top-level code named after the file, overloads numbered")
    func grouping() {
        let graph = load([
            ("Screens.swift", """
                class Screens {
                    func first() {
                        let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    }
                    func second() {
                        let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    }
                    func second(animated: Bool) {
                        let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    }
                    func makeStep() -> FlowStep<Any, Any> {
                        return FlowStep(Any.self, Any.self, identifier: "Made", { _ in nil })
                    }
                    func other() {
                        print("no steps")
                    }
                }
                """),
            ("Script.swift", """
                let hello = FlowStep(Any.self, Any.self, identifier: "Hello", { _ in nil })
                hello.start()
                """),
        ])
        #expect(graph.flows.map(\.id) == ["Screens.first", "Screens.second", "Screens.second#2", "Script"])
        #expect(graph.flows.allSatisfy { $0.kind == .flowState })
        #expect(graph.flows[3].location == loc(1, 1, "Script.swift"))
        #expect(graph.flows[3].steps.map(\.id) == ["hello", "end"])
    }

    @Test("Swift files without FlowState steps give no FlowState flow, and a Flow-iOS flow in the same file is still read")
    func otherLibraries() {
        let graph = load([("Mixed.swift", """
            class Mixed {
                func legacy() {
                    Flow().add(operation: SomeOp()).start()
                }
                func modern() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                }
            }
            """)])
        #expect(graph.flows.map(\.id) == ["Mixed.legacy", "Mixed.modern"])
        #expect(graph.flows.map(\.kind) == [.flowIOS, .flowState])
    }
}
