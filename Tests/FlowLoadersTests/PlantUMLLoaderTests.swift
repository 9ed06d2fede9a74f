import FlowModel
import Foundation
import FlowLensTestSupport
import Testing
@testable import FlowLoaders

// Behaviour tests of the FlowKit PlantUML loader (`Sources/FlowLoaders/PlantUML/PlantUMLLoader.swift`)
// and its preprocessor (`PlantUMLPreprocessor.swift`). Fixtures are in memory and loaded through
// `SourceLoader`, as `flowlens check` loads a folder; locations are found in the fixture text
// (`loc(text, "needle")` is where `needle` starts: 1-based line, UTF-8 column), so every location
// assertion is exact.

// MARK: - Helpers

private let pumlFile = "Login.puml"

/// Loads `text` as the PlantUML file `file`, `%getenv` reading `environment`.
private func loadPUML(_ text: String, file: String = pumlFile, environment: [String: String] = [:]) -> FlowGraph {
    SourceLoader(environment: environment).load([SourceText(file: InputFile(path: file), contents: text)])
}

/// The flow with id `id`.
private func machine(_ graph: FlowGraph, _ id: String) throws -> Flow {
    try #require(graph.flows.first { $0.id == id }, "flows: \(graph.flows.map(\.id))")
}

/// A position in a PlantUML file.
private func pos(_ line: Int, _ column: Int, file: String = pumlFile) -> FlowModel.SourceLocation {
    FlowModel.SourceLocation(file: file, line: line, column: column)
}

/// Where the `occurrence`-th `needle` starts in `text` (1-based line and UTF-8 column).
private func loc(_ text: String, _ needle: String, _ occurrence: Int = 1, file: String = pumlFile) -> FlowModel.SourceLocation {
    location(of: needle, in: text, occurrence: occurrence, file: file)
}

/// Each step as `id kind contentType`, with `'name'` when the name differs from the id and `-> flow`
/// for a subflow.
private func steps(_ flow: Flow) -> [String] {
    flow.steps.map { step in
        var text = "\(step.id) \(step.kind.rawValue) \(step.contentType?.spelling ?? "nil")"
        if step.name != step.id { text += " '\(step.name)'" }
        if let subflow = step.subflow { text += " -> \(subflow)" }
        return text
    }
}

/// Each transition as `from -> to`, then `: label`, `carries T` and `crosses into M` when set.
private func edges(_ flow: Flow) -> [String] {
    flow.transitions.map { transition in
        var text = "\(transition.from) -> \(transition.to)"
        if let label = transition.label { text += " : \(label)" }
        if let carried = transition.carriedType { text += " carries \(carried.spelling)" }
        if let other = transition.crossesInto { text += " crosses into \(other)" }
        if transition.kind != .normal { text += " !\(transition.kind.rawValue)" }
        return text
    }
}

private func invalid(_ location: FlowModel.SourceLocation, _ message: String) -> Reported {
    Reported(location: location, message: message)
}

// MARK: - Fixtures

/// The FlowKit README's login machine, with a composite state.
private let login = """
    @startuml
    title Login Flow
    [*] --> Prompt
    Prompt: String?
    Prompt --> Authenticate: Credentials
    Prompt --> CreateAccount
    Prompt --> ForgotPass: submit
    state CreateAccount {
        [*] --> EnterInfo
        EnterInfo: String?
        EnterInfo --> Submit: Credentials
        Submit: Credentials
        Submit --> [*]: Credentials
    }
    CreateAccount: String?
    CreateAccount --> Authenticate: Credentials
    ForgotPass --> Prompt
    Authenticate: Credentials
    Authenticate --> Prompt: String
    Authenticate --> [*]: OAuthToken
    note left of Prompt
      asks for the user name
    end note
    @enduml
    """

// MARK: - Machines and composites

@Suite("PlantUML loader: machines")
struct PlantUMLMachineTests {
    @Test("the login machine: a top machine named by its title and a sub-machine per composite state")
    func loginMachine() throws {
        let graph = loadPUML(login)
        #expect(graph.reported == [])
        #expect(graph.models == [])
        #expect(graph.flows.map(\.id) == ["LoginFlow", "CreateAccount"])

        let root = try machine(graph, "LoginFlow")
        #expect(root.name == "Login Flow")  // the title as written; the id is FlowKit's type name
        #expect(root.kind == .flowKit)
        #expect(root.typeName == "LoginFlow" && root.kind == .flowKit)
        #expect(root.location == pos(1, 1))
        #expect(root.summary == nil)
        #expect(root.parent == nil)
        #expect(root.entries == ["Begin"])
        #expect(root.inputType == TypeName("Void"))
        #expect(root.outputType == TypeName("OAuthToken"))
        #expect(steps(root) == ["Begin start Void", "Prompt state String?", "Authenticate state Credentials",
                                "CreateAccount subflow String? -> CreateAccount", "ForgotPass state Void", "End end OAuthToken"])
        #expect(root.steps.map(\.location) == [loc(login, "[*] --> Prompt"), loc(login, "Prompt"), loc(login, "Authenticate"),
                                               loc(login, "CreateAccount"), loc(login, "ForgotPass"), loc(login, "[*]: OAuthToken")])
        #expect(edges(root) == [
            "Begin -> Prompt",
            "Prompt -> Authenticate : Credentials",
            "Prompt -> CreateAccount",
            "Prompt -> ForgotPass : submit",
            "CreateAccount -> Authenticate : Credentials",
            "ForgotPass -> Prompt",
            "Authenticate -> Prompt : String",
            "Authenticate -> End : OAuthToken",
        ])
        #expect(root.transitions.map(\.location) == [pos(3, 1), pos(5, 1), pos(6, 1), pos(7, 1), pos(16, 1), pos(17, 1),
                                                     pos(19, 1), pos(20, 1)])

        let sub = try machine(graph, "CreateAccount")
        #expect(sub.name == "CreateAccount")
        #expect(sub.kind == .flowKit)
        #expect(sub.location == loc(login, "CreateAccount {"))
        #expect(sub.location == pos(8, 7))
        #expect(sub.parent == "LoginFlow")
        #expect(sub.summary == nil)
        #expect(sub.entries == ["Begin"])
        #expect(sub.inputType == TypeName("String?"))
        #expect(sub.outputType == TypeName("Credentials"))
        #expect(steps(sub) == ["Begin start String?", "EnterInfo state String?", "Submit state Credentials", "End end Credentials"])
        #expect(sub.steps.map(\.location) == [pos(9, 5), pos(9, 13), loc(login, "Submit:"), loc(login, "[*]: Credentials")])
        #expect(sub.steps.map(\.location) == [pos(9, 5), pos(9, 13), pos(11, 19), pos(13, 16)])
        #expect(edges(sub) == ["Begin -> EnterInfo", "EnterInfo -> Submit : Credentials", "Submit -> End : Credentials"])
        #expect(sub.transitions.map(\.location) == [pos(9, 5), pos(11, 5), pos(13, 5)])
    }

    @Test("a composite without a context type takes its input from the label on its inner [*] edge; without an inner end it has no output")
    func compositeInputFromInnerBegin() throws {
        let text = """
            @startuml
            [*] --> Home
            Home: Void
            Home --> Wizard
            state Wizard {
              [*] --> Step1: Draft
              Step1 --> Step2
            }
            Wizard --> Home
            @enduml
            """
        let graph = loadPUML(text, file: "app.puml")
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["App", "Wizard"])
        let wizard = try machine(graph, "Wizard")
        #expect(wizard.parent == "App")
        #expect(wizard.inputType == TypeName("Draft"))
        #expect(wizard.outputType == nil)
        #expect(steps(wizard) == ["Begin start Draft", "Step1 state Void", "Step2 state Void"])
        #expect(edges(wizard) == ["Begin -> Step1 : Draft", "Step1 -> Step2"])
        let app = try machine(graph, "App")
        #expect(app.outputType == nil)
        #expect(steps(app) == ["Begin start Void", "Home state Void", "Wizard subflow Void -> Wizard"])
    }

    @Test("a composite's context type wins over the label on its inner [*] edge")
    func compositeContextTypeWins() throws {
        let text = """
            @startuml
            [*] --> Wizard
            state Wizard {
              [*] --> Step1: Draft
            }
            Wizard: Order
            @enduml
            """
        let wizard = try machine(loadPUML(text), "Wizard")
        #expect(wizard.inputType == TypeName("Order"))
        #expect(steps(wizard) == ["Begin start Order", "Step1 state Void"])
    }

    @Test("nested composites: each is a machine whose parent is the machine of the composite holding it")
    func nestedComposites() throws {
        let text = """
            @startuml
            title Shop
            [*] --> Checkout
            state Checkout {
              [*] --> Payment
              state Payment {
                [*] --> Card
                Card --> [*]: Receipt
              }
              Payment: Order
              Payment --> [*]: Receipt
            }
            Checkout --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["Shop", "Checkout", "Payment"])
        #expect(graph.flows.map(\.parent) == [nil, "Shop", "Checkout"])
        let payment = try machine(graph, "Payment")
        #expect(payment.inputType == TypeName("Order"))
        #expect(payment.outputType == TypeName("Receipt"))
        #expect(payment.location == pos(6, 9))
        let checkout = try machine(graph, "Checkout")
        #expect(steps(checkout) == ["Begin start Void", "Payment subflow Order -> Payment", "End end Receipt"])
        #expect(checkout.outputType == TypeName("Receipt"))
    }

    @Test("`state X {}` with nothing inside is a plain state, not a composite")
    func emptyBraces() throws {
        let text = """
            @startuml
            [*] --> Later
            state Later {}
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["Login"])
        #expect(steps(try machine(graph, "Login")) == ["Begin start nil", "Later state nil"])
    }

    @Test("a composite with a display name: the machine is named by its code, the step shows the display name")
    func compositeWithDisplayName() throws {
        let text = """
            @startuml
            [*] --> CreateAccount
            state "Create an account" as CreateAccount {
              [*] --> EnterInfo
            }
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["Login", "CreateAccount"])
        #expect(steps(try machine(graph, "Login")) == ["Begin start nil", "CreateAccount subflow nil 'Create an account' -> CreateAccount"])
        #expect(try machine(graph, "CreateAccount").name == "Create an account")
    }
}

// MARK: - Titles

@Suite("PlantUML loader: titles")
struct PlantUMLTitleTests {
    @Test("`title Login Flow` gives the machine the id LoginFlow (FlowKit's type name) and the name Login Flow")
    func title() throws {
        let graph = loadPUML("@startuml\ntitle Login Flow\n[*] --> A\n@enduml\n", file: "other.puml")
        let flow = try #require(graph.flows.first)
        #expect(flow.id == "LoginFlow")
        #expect(flow.name == "Login Flow")
        #expect(flow.typeName == "LoginFlow")
        #expect(flow.location == pos(1, 1, file: "other.puml"))
    }

    @Test("without a title the machine is named after the file: app.puml → App")
    func fileName() throws {
        let graph = loadPUML("@startuml\n[*] --> A\n@enduml\n", file: "app.puml")
        #expect(graph.flows.map(\.id) == ["App"])
        #expect(graph.flows.map(\.name) == ["App"])
        #expect(graph.flows.first?.summary == nil)
        let nested = loadPUML("@startuml\n[*] --> A\n@enduml\n", file: "flows/sign-up_flow.plantuml")
        #expect(nested.flows.map(\.id) == ["Signupflow"])
    }

    @Test("FlowKit removes spaces, '-' and '_' from a title and raises its first letter")
    func titleSpelling() throws {
        let graph = loadPUML("@startuml\ntitle  login-flow_v2 screen \n[*] --> A\n@enduml\n")
        #expect(graph.flows.map(\.id) == ["Loginflowv2screen"])
        #expect(graph.flows.first?.name == "login-flow_v2 screen")
    }

    @Test("a title written after the states still names the machine")
    func titleAfterStates() throws {
        let graph = loadPUML("@startuml\n[*] --> A\nA --> [*]\ntitle Late Title\n@enduml\n")
        #expect(graph.flows.map(\.id) == ["LateTitle"])
    }

    @Test("a title on several lines (`title` … `end title`): FlowKit uses its first line")
    func multiLineTitle() throws {
        let text = """
            @startuml
            title
              Checkout Flow
              second line, not part of the name
            end title
            [*] --> A
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["CheckoutFlow"])
        #expect(steps(try #require(graph.flows.first)) == ["Begin start nil", "A state nil"])
        #expect(graph.flows.map(\.name) == ["Checkout Flow"])
        let closed = loadPUML("@startuml\ntitle\nOne\nendtitle\n[*] --> A\n@enduml\n")
        #expect(closed.flows.map(\.id) == ["One"])
    }

    @Test("a title's first display line (before a literal \\n) names the machine")
    func titleWithNewline() throws {
        let graph = loadPUML("@startuml\ntitle Sign Up\\nversion 2\n[*] --> A\n@enduml\n")
        #expect(graph.flows.map(\.id) == ["SignUp"])
    }

    @Test("a state block without a title keeps the previous block's title; a later title replaces it")
    func titleCarriesOver() throws {
        let text = """
            @startuml
            title Login Flow
            [*] --> A
            @enduml

            @startuml
            [*] --> B
            @enduml

            @startuml
            title Other
            [*] --> C
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        // Two machines of one file with one name are two flows.
        #expect(graph.flows.map(\.id) == ["LoginFlow", "LoginFlow#2", "Other"])
        #expect(graph.flows.map(\.name) == ["Login Flow", "Login Flow", "Other"])
        #expect(graph.flows.map { $0.typeName } == ["LoginFlow", "LoginFlow", "Other"])
        #expect(graph.flows.map(\.location) == [pos(1, 1), pos(6, 1), pos(10, 1)])
        #expect(graph.flows.map { $0.steps.map(\.id) } == [["Begin", "A"], ["Begin", "B"], ["Begin", "C"]])
    }
}

// MARK: - Transitions

@Suite("PlantUML loader: transitions")
struct PlantUMLTransitionTests {
    @Test("every PlantUML state arrow is a transition: length, direction, style and reversed arrows are layout only")
    func arrows() throws {
        let text = """
            @startuml
            [*] -> A
            A --> B
            B ---> C
            C -left-> D
            D -l-> E
            E -[#red]-> F
            F -[#blue,dashed]-> G
            G -down[#red]-> H
            H -[#red]up-> I
            I -UP-> J
            K <-- J
            L <-[#red]- K
            L -[hidden]-> M
            M-->N
            N <-left- O
            O -ri-> P
            P -do-> Q
            Q -[bold]right[#green]-> R
            R x--> S
            S -->o T
            T --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(edges(flow) == [
            "Begin -> A", "A -> B", "B -> C", "C -> D", "D -> E", "E -> F", "F -> G", "G -> H", "H -> I", "I -> J",
            "J -> K", "K -> L", "L -> M", "M -> N", "O -> N", "O -> P", "P -> Q", "Q -> R", "R -> S", "S -> T", "T -> End",
        ])
        #expect(flow.steps.map(\.id) == ["Begin", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
                                         "P", "Q", "R", "S", "T", "End"])
        // A reversed edge is located at its source, written on the right.
        #expect(flow.transitions[10].location == loc(text, "J", 2))
        #expect(flow.transitions[10].location == pos(12, 7))
        #expect(flow.step("K")?.location == pos(12, 1))
        #expect(flow.transitions[14].location == pos(16, 11))
    }

    @Test("a reversed arrow with a label: B <-- A : T is A → B labelled T")
    func reversedWithLabel() throws {
        let text = "@startuml\n[*] --> A\nB <-- A : Credentials\nA <- B : back\n@enduml\n"
        let flow = try #require(loadPUML(text).flows.first)
        #expect(edges(flow) == ["Begin -> A", "A -> B : Credentials", "B -> A : back"])
        #expect(flow.transitions.map(\.location) == [pos(2, 1), pos(3, 7), pos(4, 6)])
    }

    @Test("the state after an arrow is located where it is written, even when its name is inside the source's name")
    func targetColumns() throws {
        let text = "@startuml\n[*] --> AB\nAB --> B\nB --> BB\n@enduml\n"
        let flow = try #require(loadPUML(text).flows.first)
        #expect(flow.steps.map(\.location) == [pos(2, 1), pos(2, 9), pos(3, 8), pos(4, 7)])
        #expect(flow.transitions.map(\.location) == [pos(2, 1), pos(3, 1), pos(4, 1)])
    }

    @Test("labels between states are events, never types (also in a FlowKit machine); [*] edges type Begin and End")
    func labels() throws {
        let text = """
            @startuml
            [*] --> Prompt: String?
            Prompt: String?
            Prompt --> Auth: Credentials
            Prompt --> List : [Item]
            Prompt --> Maybe: String?
            Prompt --> Help: submit
            Prompt --> Retry : on success
            Prompt --> Pair: (String, Int)
            Prompt --> Jobs: Promise<[JobItem]>
            Prompt --> Cancel: Cancel the order
            Prompt --> Empty :
            Auth --> [*]: OAuthToken
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.inputType == TypeName("String?"))
        #expect(flow.outputType == TypeName("OAuthToken"))
        #expect(flow.kind == .flowKit)
        #expect(edges(flow) == [
            "Begin -> Prompt : String?",
            "Prompt -> Auth : Credentials",
            "Prompt -> List : [Item]",
            "Prompt -> Maybe : String?",
            "Prompt -> Help : submit",
            "Prompt -> Retry : on success",
            "Prompt -> Pair : (String, Int)",
            "Prompt -> Jobs : Promise<[JobItem]>",
            "Prompt -> Cancel : Cancel the order",
            "Prompt -> Empty",
            "Auth -> End : OAuthToken",
        ])
        // The edge carries its target's context type: Auth takes Void whatever the label says.
        #expect(flow.step("Auth")?.contentType == TypeName("Void"))
        #expect(flow.step("Begin")?.contentType == TypeName("String?"))
        #expect(flow.step("End")?.contentType == TypeName("OAuthToken"))
    }

    @Test("in a FlowKit machine `[*] --> X: T` types Begin (the first `[*] -->` only); `X --> [*]: T` types End")
    func beginAndEndLabels() throws {
        let text = """
            @startuml
            [*] --> A: Order
            [*] --> B: Cart
            A --> [*]: Receipt
            B --> [*]: Refund
            A: Order
            @enduml
            """
        let flow = try #require(loadPUML(text).flows.first)
        #expect(flow.inputType == TypeName("Order"))
        #expect(flow.outputType == TypeName("Receipt"))
        #expect(steps(flow) == ["Begin start Order", "A state Order", "B state Void", "End end Receipt"])
        // The first edge from [*] has no label: the input is Void, a later label does not count.
        let unlabelled = try #require(loadPUML("@startuml\n[*] --> A\n[*] --> B: Cart\nA: Order\nB: Cart\n@enduml\n").flows.first)
        #expect(unlabelled.inputType == TypeName("Void"))
        #expect(unlabelled.step("Begin")?.contentType == TypeName("Void"))
        #expect(flow.steps.map(\.location) == [pos(2, 1), pos(2, 9), pos(3, 9), pos(4, 7)])
        #expect(edges(flow) == ["Begin -> A : Order", "Begin -> B : Cart", "A -> End : Receipt", "B -> End : Refund"])
    }

    @Test("in a FlowKit machine a label on a [*] edge that is not a type is reported; in any other diagram it is an event")
    func proseOnPseudoStateEdges() throws {
        let text = """
            @startuml
            [*] --> A: start here
            A --> [*]: all done
            A: Order
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(2, 1), "the label 'start here' on the first edge from [*] is the machine's input type for FlowKit, and is not a type"),
            invalid(pos(3, 7), "the label 'all done' on an edge into [*] is the machine's output type for FlowKit, and is not a type"),
        ])
        #expect(graph.loadFindings.map(\.flow) == ["Login", "Login"])
        let flow = try #require(graph.flows.first)
        #expect(flow.inputType == TypeName("Void"))
        #expect(flow.outputType == TypeName("Void"))
        #expect(edges(flow) == ["Begin -> A : start here", "A -> End : all done"])

        let plain = loadPUML("@startuml\n[*] --> A: power on\nA --> [*]: shutdown\nA : motor running\n@enduml\n")
        #expect(plain.reported == [])
        let machine = try #require(plain.flows.first)
        #expect(machine.kind != .flowKit)
        #expect(machine.inputType == nil && machine.outputType == nil)
        #expect(edges(machine) == ["Begin -> A : power on", "A -> End : shutdown"])
    }

    @Test("[*] as a source is Begin; as a target End; `[*] --> [*]` and an edge out of [*] as End are not transitions")
    func pseudoStates() throws {
        let text = "@startuml\n[*] --> A\nA --> [*]\n@enduml\n"
        let flow = try #require(loadPUML(text).flows.first)
        #expect(steps(flow) == ["Begin start nil", "A state nil", "End end nil"])  // no body line: not typed
        #expect(flow.outputType == nil)
        #expect(edges(flow) == ["Begin -> A", "A -> End"])
    }
}

// MARK: - State types and names

@Suite("PlantUML loader: states")
struct PlantUMLStateTests {
    @Test("`State: Type`: the first line wins; generic, optional, array, dictionary and () types")
    func contextTypes() throws {
        let text = """
            @startuml
            [*] --> Idle
            Idle: String?
            Idle: Int
            Idle --> Jobs
            Jobs: Promise<[JobItem]>
            Jobs --> Scores
            Scores : [String: Int]
            Scores --> Nothing
            Nothing: ()
            Nothing --> Handler
            Handler: (String) -> Void
            state Loading : [User]
            state "Enter info" as EnterInfo : Credentials
            Handler --> Loading
            Loading --> EnterInfo
            EnterInfo --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(steps(flow) == [
            "Begin start Void", "Idle state String?", "Jobs state Promise<[JobItem]>", "Scores state [String:Int]",
            "Nothing state Void", "Handler state (String)->Void", "Loading state [User]", "EnterInfo state Credentials 'Enter info'",
            "End end Void",
        ])
        #expect(flow.step("Scores")?.contentType == TypeName("[String: Int]"))
        #expect(flow.step("Loading")?.location == pos(13, 7))
        #expect(flow.step("EnterInfo")?.location == pos(14, 23))
    }

    @Test("a prose description (`Idle : waiting for input`) makes the diagram a plain one: its body lines are descriptions")
    func proseDescription() throws {
        let text = """
            @startuml
            [*] --> Idle
            Idle : waiting for input
            Idle : String
            Idle --> Busy
            state Busy : doing the work
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.kind != .flowKit)
        #expect(steps(flow) == ["Begin start nil", "Idle state nil", "Busy state nil"])
        #expect(flow.steps.map(\.details) == [[], ["waiting for input", "String"], ["doing the work"]])
    }

    @Test("a description line names a state when it is first: the state is located there")
    func descriptionFirst() throws {
        let text = "@startuml\nReady: Token\n[*] --> Ready\n@enduml\n"
        let flow = try #require(loadPUML(text).flows.first)
        #expect(steps(flow) == ["Begin start Void", "Ready state Token"])
        #expect(flow.step("Ready")?.location == pos(2, 1))
    }

    @Test("state names: display names, quoted names, FlowKit spelling, and the reserved End")
    func stateNames() throws {
        let text = """
            @startuml
            state "Enter info" as EnterInfo
            state Review as "Review order"
            [*] --> EnterInfo
            EnterInfo --> "Long name"
            "Long name" --> create_account
            create_account --> sign-up
            Review --> End
            End --> [*]
            "Long name" : Draft
            @enduml
            """
        let graph = loadPUML(text)
        let flow = try #require(graph.flows.first)
        #expect(steps(flow) == [
            "Begin start Void", "EnterInfo state Void 'Enter info'", "Review state Void 'Review order'", "Longname state Draft 'Long name'",
            "Createaccount state Void 'create_account'", "End_state state Void 'End'", "End end Void",
        ])
        #expect(flow.step("EnterInfo")?.location == pos(2, 23))
        #expect(flow.step("Review")?.location == pos(3, 7))
        #expect(flow.step("Longname")?.location == pos(5, 15))
        #expect(flow.step("Createaccount")?.location == pos(6, 17))
        #expect(flow.step("End_state")?.location == pos(8, 12))
        #expect(edges(flow).contains("Longname -> Createaccount"))
        #expect(edges(flow).contains("Review -> End_state"))
        #expect(edges(flow).contains("End_state -> End"))
        // `sign-up` is not a PlantUML state name.
        #expect(graph.reported == [invalid(pos(7, 1), "PlantUML line not understood as part of a state machine: 'create_account --> sign-up'")])
    }

    @Test("`state X` declares a state where it is written; stereotypes that only colour a state are ignored")
    func declarations() throws {
        let text = """
            @startuml
            state Idle
            state Busy <<Warning>> #pink
            state t
            [*] --> Idle
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(steps(flow) == ["Begin start nil", "Idle state nil", "Busy state nil", "T state nil 't'"])
        #expect(flow.steps.map(\.location) == [pos(5, 1), pos(2, 7), pos(3, 7), pos(4, 7)])
    }
}

// MARK: - Crossing edges

@Suite("PlantUML loader: composite boundaries")
struct PlantUMLCrossingTests {
    private let text = """
        @startuml
        title Photo Upload
        [*] --> Camera
        Camera --> Upload
        Camera --> Review
        state Upload {
          [*] --> Compress
          Compress --> Send
          Send --> Camera
          Send --> Review
          Send --> [*]: URL
        }
        Camera --> Compress
        Send --> [*]
        Upload: Data
        Upload --> [*]: URL
        @enduml
        """

    @Test("an edge belongs to the machine of its source; one whose target is in another machine crosses into it")
    func crossing() throws {
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["PhotoUpload", "Upload"])
        let root = try machine(graph, "PhotoUpload")
        #expect(edges(root) == [
            "Begin -> Camera", "Camera -> Upload", "Camera -> Review",
            "Camera -> Compress crosses into Upload",
            "Upload -> End : URL",
        ])
        // The root's End is first drawn by the crossing edge from inside Upload.
        #expect(steps(root) == ["Begin start Void", "Camera state Void", "Upload subflow Data -> Upload", "Review state Void", "End end URL"])
        #expect(root.step("End")?.location == pos(14, 10))
        #expect(root.outputType == TypeName("URL"))

        let upload = try machine(graph, "Upload")
        #expect(edges(upload) == [
            "Begin -> Compress", "Compress -> Send",
            "Send -> Camera crosses into PhotoUpload",
            "Send -> Review crosses into PhotoUpload",
            "Send -> End : URL",
            "Send -> End crosses into PhotoUpload",
        ])
        #expect(upload.transitions.map(\.location) == [pos(7, 3), pos(8, 3), pos(9, 3), pos(10, 3), pos(11, 3), pos(14, 1)])
        // States belong to the machine where they are first named: Review is the root's, Compress is Upload's.
        #expect(steps(upload) == ["Begin start Data", "Compress state Void", "Send state Void", "End end URL"])
        #expect(upload.outputType == TypeName("URL"))
    }

    @Test("a crossing edge into a machine without a title names the machine after the file")
    func crossingIntoUntitledRoot() throws {
        let text = "@startuml\n[*] --> A\nstate S {\n  [*] --> X\n  X --> A\n}\n@enduml\n"
        let graph = loadPUML(text, file: "app.puml")
        #expect(edges(try machine(graph, "S")) == ["Begin -> X", "X -> A crosses into App"])
    }
}

// MARK: - Notes, comments and layout

@Suite("PlantUML loader: notes, comments, layout")
struct PlantUMLLayoutTests {
    @Test("notes of every form and note links are read and have no effect")
    func notes() throws {
        let text = """
            @startuml
            [*] --> A
            note "a floating note" as N1
            note left of A : short text
            note right of A
              A --> Hidden
              state Hidden2
            end note
            note as N2
              B --> Hidden3
            endnote
            note on link
              more text
            end note
            note top of A #pink
              text
            endnote
            N1 .. A
            N2 ... A
            A --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(steps(flow) == ["Begin start nil", "A state nil", "End end nil"])
        #expect(edges(flow) == ["Begin -> A", "A -> End"])
    }

    @Test("a note inside a composite, even one holding a '}', does not close the composite")
    func noteInComposite() throws {
        let text = """
            @startuml
            [*] --> S
            state S {
              [*] --> X
              note right of X
                }
              end note
              note left of X : }
              X --> Y
            }
            S --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(edges(try machine(graph, "S")) == ["Begin -> X", "X -> Y"])
        #expect(edges(try machine(graph, "Login")) == ["Begin -> S", "S -> End"])
    }

    @Test("' comment lines, /' … '/ comments on one line or several, and a /* */ header before @startuml")
    func comments() throws {
        let text = """
            /*
             * Copyright. @startuml here is not a diagram.
             * !include nothing.puml
             */
            /* one line */
            @startuml
            ' a comment line: [*] --> Hidden
              ' an indented comment
            ' a comment with /' in it
            [*] --> A /' an inline comment '/
            /' several
            A --> Hidden2
            lines '/
            A --> B /' a comment that
            goes on '/
            B /' inside '/ --> C
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.location == pos(6, 1))
        #expect(steps(flow) == ["Begin start nil", "A state nil", "B state nil", "C state nil"])
        #expect(edges(flow) == ["Begin -> A", "A -> B", "B -> C"])
        #expect(flow.transitions.map(\.location) == [pos(10, 1), pos(14, 1), pos(16, 1)])
    }

    @Test("skinparam (one line and blocks), hide, direction, legend, header, footer, caption, scale and style are layout only")
    func layout() throws {
        let text = """
            @startuml
            header
              multi-line header
            endheader
            left header
              aligned block
            end header
            skinparam backgroundColor #EEEEEE
            skinparam state {
              BackgroundColor<<Warning>> Red
              BorderColor Gray
            }
            skinparam state { FontSize 10 }
            hide empty description
            left to right direction
            top to bottom direction
            scale 600 width
            legend right
              A --> Legend
            endlegend
            legend
              text
            end legend
            header page header
            center footer page footer
            right footer Page: 1
            caption figure 1
            <style>
              stateDiagram { BackgroundColor red }
            </style>
            !theme plain
            [*] --> A
            A --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.id == "Login")
        #expect(steps(flow) == ["Begin start nil", "A state nil", "End end nil"])
    }
}

// MARK: - Preprocessor

@Suite("PlantUML loader: preprocessor")
struct PlantUMLPreprocessorTests {
    private let platform = """
        !$p = %getenv("PLATFORM")
        @startuml
        title Login $p
        [*] --> Start
        !if ($p == "ios")
        Start --> FaceID
        !else
        Start --> Password
        !endif
        @enduml
        """

    @Test("`!$p = %getenv(\"PLATFORM\")` reads the environment; `$p` is substituted; `!if`/`!else` choose lines")
    func getenv() throws {
        let ios = loadPUML(platform, environment: ["PLATFORM": "ios"])
        #expect(ios.reported == [])
        let flow = try #require(ios.flows.first)
        #expect(flow.id == "Loginios")
        #expect(flow.name == "Login ios")
        #expect(edges(flow) == ["Begin -> Start", "Start -> FaceID"])
        #expect(flow.step("FaceID")?.location == pos(6, 11))

        let unset = loadPUML(platform, environment: [:])
        #expect(unset.reported == [])
        let other = try #require(unset.flows.first)
        #expect(other.id == "Login")
        #expect(edges(other) == ["Begin -> Start", "Start -> Password"])
        #expect(other.step("Password")?.location == pos(8, 11))
    }

    @Test("`!elseif`, nested `!if`, and `%getenv` inside a line")
    func elseifAndNesting() throws {
        let text = """
            @startuml
            !$p = %getenv("PLATFORM")
            !$tier = %getenv("TIER")
            [*] --> Start
            !if $p == "ios"
            Start --> Apple
            !elseif $p == "android"
              !if $tier == "pro"
            Start --> AndroidPro
              !else
            Start --> AndroidFree
              !endif
            !elseif $p == "android"
            Start --> NeverTaken
            !else
            Start --> Web
            !endif
            Start --> %getenv("TIER")Plan
            @enduml
            """
        func targets(_ environment: [String: String]) -> [String] {
            let graph = loadPUML(text, environment: environment)
            #expect(graph.reported == [])
            return graph.flows.first?.transitions.map(\.to) ?? []
        }
        #expect(targets(["PLATFORM": "ios", "TIER": "pro"]) == ["Start", "Apple", "ProPlan"])
        #expect(targets(["PLATFORM": "android", "TIER": "pro"]) == ["Start", "AndroidPro", "ProPlan"])
        #expect(targets(["PLATFORM": "android", "TIER": "free"]) == ["Start", "AndroidFree", "FreePlan"])
        #expect(targets(["PLATFORM": "web", "TIER": "x"]) == ["Start", "Web", "XPlan"])
    }

    @Test("`!define`, `!ifdef`, `!ifndef`, `!undef`")
    func defines() throws {
        let text = """
            !define DEBUG
            @startuml
            [*] --> Start
            !ifdef DEBUG
            Start --> Debug
            !endif
            !ifndef RELEASE
            Start --> NotRelease
            !endif
            !undef DEBUG
            !ifdef DEBUG
            Start --> Never
            !endif
            !define TARGET Done
            Start --> TARGET
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.transitions.map(\.to) == ["Start", "Debug", "NotRelease", "Done"])
    }

    @Test("`!$x ?= value` sets a variable only when it is not set; values join with +")
    func conditionalAssignment() throws {
        let text = """
            @startuml
            !$x = "b"
            !$x ?= "a"
            !$y ?= "a"
            !$z = $x + $y + "c"
            !$n = 1 + 2
            [*] --> S$x
            S$x --> S$y
            S$y --> S$z
            S$z --> N$n
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.steps.map(\.id) == ["Begin", "Sb", "Sa", "Sbac", "N3"])
    }

    @Test("conditions: &&, ||, !, parentheses, comparisons and functions")
    func expressions() throws {
        let text = """
            @startuml
            !$a = "1"
            !$b = "2"
            !$c = %getenv("C")
            [*] --> S
            !if ($a == "1" && $b == "2") || !($c == "3")
            S --> T1
            !endif
            !if $a == "1" && ($b == "3" || $c == "3")
            S --> T2
            !endif
            !if !%variable_exists("$missing") && %strlen("ab" + $a) == 3 && %upper("x") == "X"
            S --> T3
            !endif
            !if $b > $a && %not($c) && $a != $b
            S --> T4
            !endif
            !if %false() || %lower("A") == "b"
            S --> Never
            !endif
            @enduml
            """
        let graph = loadPUML(text, environment: ["C": ""])
        #expect(graph.reported == [])
        #expect(graph.flows.first?.transitions.map(\.to) == ["S", "T1", "T3", "T4"])
        let three = loadPUML(text, environment: ["C": "3"])
        #expect(three.reported == [])
        #expect(three.flows.first?.transitions.map(\.to) == ["S", "T1", "T2", "T3"])
    }

    @Test("`!pragma` and `!theme` are accepted silently")
    func pragma() throws {
        let text = "@startuml\n!pragma layout smetana\n!theme cerulean\n[*] --> A\n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.steps.map(\.id) == ["Begin", "A"])
    }

    @Test("`!include` is reported naming the directive; the rest of the file is still read")
    func include() throws {
        let text = """
            @startuml
            !include common.iuml
              !include_many other.iuml
            [*] --> A
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(2, 1), "unsupported PlantUML directive '!include': FlowLens cannot know what it adds to the diagram"),
            invalid(pos(3, 3), "unsupported PlantUML directive '!include_many': FlowLens cannot know what it adds to the diagram"),
        ])
        #expect(graph.flows.first?.steps.map(\.id) == ["Begin", "A"])
    }

    @Test("`!procedure` … `!endprocedure` is reported and its body is not read; a macro `!define` too")
    func procedure() throws {
        let text = """
            @startuml
            !procedure $step($from, $to)
            $from --> $to
            this line is not PlantUML
            !endprocedure
            !define LINK(a, b) a --> b
            [*] --> A
            A --> B
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(2, 1), "unsupported PlantUML directive '!procedure': FlowLens cannot know what it adds to the diagram"),
            invalid(pos(6, 1), "unsupported PlantUML directive '!define' with parameters (a macro): FlowLens cannot know what it adds to the diagram"),
        ])
        #expect(edges(try #require(graph.flows.first)) == ["Begin -> A", "A -> B"])
    }

    @Test("`!endif` without `!if`, `!else` without `!if` and a second `!else` are reported")
    func strayDirectives() throws {
        let text = """
            @startuml
            [*] --> A
            !endif
            !else
            !if 1
            A --> B
            !else
            A --> C
            !else
            A --> D
            !endif
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(3, 1), "!endif without an !if"),
            invalid(pos(4, 1), "!else without an !if"),
            invalid(pos(9, 1), "a second !else for the !if at line 5"),
        ])
        #expect(graph.flows.first?.transitions.map(\.to) == ["A", "B"])
    }

    @Test("`!if` without `!endif` is reported at the `!if`; the lines it makes active are read")
    func unclosedIf() throws {
        let text = """
            @startuml
            [*] --> A
            !if 1 == 1
            A --> B
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [invalid(pos(3, 1), "!if at line 3 has no !endif")])
        #expect(graph.flows.first?.transitions.map(\.to) == ["A", "B"])
    }

    @Test("an expression that cannot be evaluated is reported")
    func badExpression() throws {
        let text = "@startuml\n[*] --> A\n!if ($a == \n!endif\n!if %nope(1)\n!endif\n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(3, 1), "cannot evaluate PlantUML expression '($a ==': an operand is missing"),
            invalid(pos(5, 1), "cannot evaluate PlantUML expression '%nope(1)': unsupported function %nope"),
        ])
    }

    @Test("a whole @startuml block inside a false `!if` is not read")
    func blockInsideFalseIf() throws {
        let text = """
            !if %getenv("WITH_EXTRA") == "1"
            @startuml
            title Extra
            [*] --> X
            @enduml
            !endif
            @startuml
            title Main
            [*] --> Y
            @enduml
            """
        let without = loadPUML(text)
        #expect(without.reported == [])
        #expect(without.flows.map(\.id) == ["Main"])
        let with = loadPUML(text, environment: ["WITH_EXTRA": "1"])
        #expect(with.reported == [])
        #expect(with.flows.map(\.id) == ["Extra", "Main"])
    }
}

// MARK: - Unsupported constructs and invalid input

@Suite("PlantUML loader: invalid input")
struct PlantUMLInvalidInputTests {
    @Test("in a FlowKit machine choice, fork, join and history are reported at their line; the rest of the file is read")
    func pseudoStates() throws {
        let text = """
            @startuml
            [*] --> Pick
            state Pick <<choice>>
            Pick --> A: yes
            Pick --> B
            state F <<fork>>
            state J <<join>>
            A --> F
            F --> J
            A --> [H]
            [H*] --> B
            B --> Outer[H]
            B --> ==Sync==
            B --> C
            A: Order
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(3, 7), "choice state 'Pick' is not supported by FlowKit: its generator stops on it"),
            invalid(pos(6, 7), "fork state 'F' is not supported by FlowKit: its generator stops on it"),
            invalid(pos(7, 7), "join state 'J' is not supported by FlowKit: its generator stops on it"),
            invalid(pos(10, 7), "history state [H] is not supported by FlowKit: its generator stops on it"),
            invalid(pos(11, 1), "history state [H*] is not supported by FlowKit: its generator stops on it"),
            invalid(pos(12, 7), "history state Outer[H] is not supported by FlowKit: its generator stops on it"),
            invalid(pos(13, 7), "synchronization bar ==Sync== (a fork or join) is not supported by FlowKit: its generator stops on it"),
        ])
        #expect(Set(graph.loadFindings.map(\.flow)) == ["Login"])
        #expect(graph.loadFindings.map(\.step) == ["Pick", "F", "J", nil, nil, nil, nil])  // marked on the state
        let flow = try #require(graph.flows.first)
        #expect(steps(flow) == ["Begin start Void", "Pick branch Void", "A state Order", "B state Void", "F parallel Void",
                                "J join Void", "Outer state Void", "Sync join Void", "C state Void"])
        // Read as PlantUML draws them: `[H*] -->` starts the machine again, `Outer[H]` re-enters Outer,
        // a bar is a join; a bare `[H]` outside any composite leads nowhere.
        #expect(edges(flow) == ["Begin -> Pick", "Pick -> A : yes", "Pick -> B", "A -> F", "F -> J", "Begin -> B",
                                "B -> Outer", "B -> Sync", "B -> C"])

        // The same shapes in a diagram not written for FlowKit are ordinary PlantUML.
        let plain = loadPUML(text.replacingOccurrences(of: "A: Order", with: "A : waits for the user"))
        #expect(plain.reported == [])
        #expect(try #require(plain.flows.first).steps.map(\.kind) == [.start, .branch, .state, .state, .parallel, .join, .state, .join, .state])
    }

    @Test("a concurrent region separator inside a composite is reported")
    func concurrentRegions() throws {
        let text = """
            @startuml
            [*] --> Active
            state Active {
              [*] --> X
              --
              [*] --> Y
              ||
              [*] --> Z
            }
            @enduml
            """
        #expect(loadPUML(text).reported == [])  // ordinary PlantUML
        let graph = loadPUML(text.replacingOccurrences(of: "[*] --> Active", with: "[*] --> Active\nActive: Session"))
        #expect(graph.reported == [
            invalid(pos(6, 3), "concurrent regions ('--') are not supported by FlowKit: its generator reads one region per state"),
            invalid(pos(8, 3), "concurrent regions ('||') are not supported by FlowKit: its generator reads one region per state"),
        ])
        #expect(edges(try machine(graph, "Active")) == ["Begin -> X", "Begin -> Y", "Begin -> Z"])
    }

    @Test("a line that is not part of a state machine is reported with its text")
    func unknownLine() throws {
        let text = "@startuml\n[*] --> A\n  this is not plantuml\nA -> \n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [
            invalid(pos(3, 3), "PlantUML line not understood as part of a state machine: 'this is not plantuml'"),
            invalid(pos(4, 1), "PlantUML line not understood as part of a state machine: 'A ->'"),
        ])
        #expect(graph.flows.first?.steps.map(\.id) == ["Begin", "A"])
    }

    @Test("a '}' that closes no state block is reported")
    func extraBrace() throws {
        let text = "@startuml\n[*] --> A\nstate S {\n  [*] --> X\n}\n}\nA --> B\n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [invalid(pos(6, 1), "'}' closes no state block")])
        #expect(edges(try machine(graph, "Login")) == ["Begin -> A", "A -> B"])
    }

    @Test("a state block that is never closed is reported at its name; what it holds is still read")
    func unclosedComposite() throws {
        let text = "@startuml\n[*] --> A\nstate \"Sign up\" as S {\n  [*] --> X\n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [invalid(pos(3, 20), "state block 'Sign up' opened at line 3 is not closed with '}'")])
        #expect(graph.loadFindings.map(\.flow) == ["S"])
        #expect(graph.flows.map(\.id) == ["Login", "S"])
        #expect(edges(try machine(graph, "S")) == ["Begin -> X"])
    }

    @Test("a missing @enduml is reported at @startuml; the block is still read")
    func missingEnduml() throws {
        let text = "' header\n@startuml\n[*] --> A\nA --> B\n"
        let graph = loadPUML(text)
        #expect(graph.reported == [invalid(pos(2, 1), "@startuml at line 2 has no @enduml")])
        #expect(graph.loadFindings.map(\.flow) == ["Login"])  // the machine it could not read whole
        #expect(graph.flows.first?.steps.map(\.id) == ["Begin", "A", "B"])
    }

    @Test("two blocks, the first without @enduml: reported, and both are read")
    func missingEndumlBeforeNextBlock() throws {
        let text = """
            @startuml
            title First
            [*] --> A
            @startuml
            title Second
            [*] --> B
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [invalid(pos(1, 1), "@startuml at line 1 has no @enduml before the next @startuml")])
        #expect(graph.flows.map(\.id) == ["First", "Second"])
        #expect(graph.flows.map(\.location) == [pos(1, 1), pos(4, 1)])
    }
}

// MARK: - Class diagrams and other blocks

@Suite("PlantUML loader: models and other diagrams")
struct PlantUMLModelTests {
    @Test("class and enum blocks give models; interfaces, abstract classes and classes with methods do not")
    func models() throws {
        let text = """
            @startuml
            class User {
              {field} +userId: UUID = UUID.randomUUID()
              +firstName: String
              -lastName : String?
              #tags: [String: Int]
              ..
              ~onChange: (String) -> Void
              -- private --
              {static} +count: Int
            }
            enum R {
              login: Credentials
              register
            }
            interface Service {
              +fetch(): User
            }
            class Controller {
              +name: String
              +start(user: User): Void
            }
            abstract class Base {
              +id: Int
            }
            class Empty
            class Tagged <<Entity>> {
              __ identity __
              +id: UUID
            }
            class Forced {
              {method} +run
            }
            User --> R
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows == [])
        #expect(graph.models == [
            ModelType(name: "User", kind: .class,
                      members: ["userId: UUID", "firstName: String", "lastName: String?", "tags: [String: Int]",
                                "onChange: (String) -> Void", "count: Int"],
                      location: pos(2, 7)),
            ModelType(name: "R", kind: .enum, members: ["login(Credentials)", "register"], location: pos(12, 6)),
            ModelType(name: "Empty", kind: .class, members: [], location: pos(26, 7)),
            ModelType(name: "Tagged", kind: .class, members: ["id: UUID"], location: pos(27, 7)),
        ])
    }

    @Test("a line with a long run of tabs or spaces is read once, whether it is a model's header or not")
    func longWhitespaceRuns() throws {
        // Before, a line that is no header was tried in every split of its run among five `\s*`: this
        // file did not finish (a 1.4 KB fuzz input with 300 tabs took 28 s).
        let tabs = String(repeating: "\t", count: 400), spaces = String(repeating: " ", count: 300)
        let text = "@startuml\nenum Login\(tabs)ViewResult {\n  login\n}\nclass Token\(spaces)<<Entity>>\(spaces){\(spaces)\n  +id: Int\n}\n@enduml\n"
        let graph = loadPUML(text)
        #expect(graph.models == [ModelType(name: "Token", kind: .class, members: ["id: Int"], location: pos(5, 7))])
    }

    @Test("the model header reads every line as the pattern written with a space run before each part did")
    func headerPatternUnchanged() throws {
        // The pattern before the fix (exponential on a long run of spaces in a line it rejects).
        let old = try Regex(#"^(abstract\s+class|abstract|class|enum|interface|annotation|entity)\s+"?([\p{L}\p{N}_.]+)"?\s*(<[^>{]*>)?\s*(<<[^>]*>>)?\s*(\{)?\s*(\})?\s*$"#)
        let pieces = ["class", "enum", "abstract", "abstract class", "interface", "entity", "Klasse", " ", "  ", "\t", " \t ", "\"",
                      "User", "Login.Result", "日本", "<T>", "<K, V>", "<<Entity>>", "<<a b>>", "<", ">", "{", "}", "{}", ":", "x", "(", "#"]
        var random = SplitMix64(seed: 17)
        var matched = 0
        for _ in 0..<20_000 {
            var line = ["class", "enum", "abstract class", "interface"][Int(random.next() % 4)]
            for _ in 0..<Int(random.next() % 9) { line += pieces[Int(random.next() % UInt64(pieces.count))] }
            let a = try old.wholeMatch(in: line), b = try ModelReader.header.wholeMatch(in: line)
            #expect((a == nil) == (b == nil), "\(line.debugDescription)")
            guard let a, let b else { continue }
            matched += 1
            for group in 1...6 {
                #expect(a.output[group].substring == b.output[group].substring, "\(line.debugDescription) group \(group)")
            }
        }
        #expect(matched > 1_000)
    }

    @Test("a file with a state diagram and a class diagram gives both")
    func mixedFile() throws {
        let text = """
            @startuml
            title Login Flow
            [*] --> Prompt
            Prompt: Credentials
            @enduml

            @startuml
            class Credentials {
              +user: String
              +password: String
            }
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["LoginFlow"])
        #expect(graph.models.map(\.name) == ["Credentials"])
        #expect(graph.models.first?.members == ["user: String", "password: String"])
    }

    @Test("a sequence diagram (no [*], no state) gives no flow and no finding")
    func sequenceDiagram() throws {
        let text = """
            @startuml
            Alice -> Bob: hi
            Bob --> Alice: hello
            @enduml
            """
        let graph = loadPUML(text)
        #expect(graph.flows == [])
        #expect(graph.models == [])
        #expect(graph.reported == [])
    }
}

// MARK: - Files

@Suite("PlantUML loader: files")
struct PlantUMLFileTests {
    @Test("CRLF line endings read exactly as LF")
    func crlf() throws {
        let lf = loadPUML(login)
        let crlf = loadPUML(login.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(crlf.reported == [])
        #expect(crlf.flows == lf.flows)
        #expect(crlf.flows.count == 2)
    }

    @Test("CRLF and CR line endings: directives, comments and findings keep their line numbers")
    func crlfPreprocessor() throws {
        let text = """
            !$p = %getenv("PLATFORM")
            @startuml
            /' a comment
            on two lines '/
            [*] --> Start
            !if $p == "ios"
            Start --> FaceID
            !else
            Start --> Password
            !endif
            !include other.puml
            Idle => Busy
            @enduml
            """
        for newline in ["\r\n", "\r"] {
            let graph = loadPUML(text.replacingOccurrences(of: "\n", with: newline), environment: ["PLATFORM": "ios"])
            #expect(graph.reported == [
                invalid(pos(11, 1), "unsupported PlantUML directive '!include': FlowLens cannot know what it adds to the diagram"),
                invalid(pos(12, 1), "PlantUML line not understood as part of a state machine: 'Idle => Busy'"),
            ])
            let flow = try #require(graph.flows.first)
            #expect(flow.location == pos(2, 1))
            #expect(edges(flow) == ["Begin -> Start", "Start -> FaceID"])
            #expect(flow.steps.map(\.location) == [pos(5, 1), pos(5, 9), pos(7, 11)])
        }
    }

    @Test("an empty file, or one without @startuml, gives nothing")
    func empty() throws {
        for text in ["", "\n\n", "' only a comment\n"] {
            let graph = loadPUML(text)
            #expect(graph.flows == [])
            #expect(graph.models == [])
            #expect(graph.reported == [])
        }
    }

    @Test("the same input gives the same graph")
    func deterministic() throws {
        let text = login + "\n" + """
            @startuml
            [*] --> Pick
            state Pick <<choice>>
            Idle : waiting for input
            class User {
              +name: String
            }
            @enduml
            """
        let first = loadPUML(text), second = loadPUML(text)
        #expect(first.flows == second.flows)
        #expect(first.models == second.models)
        #expect(first.reported == second.reported)
        #expect(!first.reported.isEmpty)
    }

    @Test("the .plantuml extension is read too")
    func plantumlExtension() throws {
        let graph = loadPUML("@startuml\n[*] --> A\n@enduml\n", file: "Flow.plantuml")
        #expect(graph.flows.map(\.id) == ["Flow"])
        #expect(graph.flows.first?.kind == .plantUML)
    }
}

@Suite("PlantUML blocks that run to @enduml")
struct UnclosedPlantUMLBlockTests {
    @Test("a note without 'end note' (PlantUML rejects the diagram) is invalid-input where it opens; a closed one is read")
    func unclosedNote() throws {
        let text = """
            @startuml
            [*] --> Idle
            Idle --> Busy : start
            note right of Busy
              Busy polls the server
            Busy --> [*]
            @enduml
            """
        let graph = loadPUML(text)
        let finding = try #require(graph.loadFindings.first { $0.rule == RuleID.invalidInput })
        #expect(finding.location?.line == 4)
        #expect(finding.message.contains("'note right of Busy' is not closed by 'end note'"), "\(finding.message)")
        let closed = loadPUML(text.replacingOccurrences(of: "  Busy polls the server\n", with: "  Busy polls the server\nend note\n"))
        #expect(closed.loadFindings.isEmpty, "\(closed.loadFindings)")
        // A legend that runs to the end is the same mistake.
        let legend = loadPUML("@startuml\n[*] --> A\nlegend\n  A is the only state\nA --> [*]\n@enduml\n")
        #expect(legend.loadFindings.contains { $0.message.contains("'legend' is not closed by 'end legend'") }, "\(legend.loadFindings)")
    }
}
