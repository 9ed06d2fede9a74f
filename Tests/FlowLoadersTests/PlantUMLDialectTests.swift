import FlowModel
import FlowRules
import Foundation
import Testing
@testable import FlowLoaders

// PlantUML state diagrams as their authors write them: every arrow and colour PlantUML accepts,
// `\n` and Creole markup shown as plain text, descriptions on several lines; and the verdicts that
// depend on what kind of diagram it is (FlowKit's or anyone's), on a machine that never ends, and on
// a file that could not be read whole. Each fixture is our own, in a real project's style.

private func load(_ files: [(String, String)]) -> FlowGraph {
    SourceLoader().load(files.map { SourceText(file: InputFile(path: $0.0), contents: $0.1) })
}

/// `file:line rule` of every finding of a run over `files`.
private func findings(_ files: [(String, String)]) -> [String] {
    Analyzer().analyze(load(files)).map { "\($0.location?.file ?? "-"):\($0.location?.line ?? 0) \($0.rule)" }
}

@Suite("PlantUML: syntax and text as PlantUML shows it")
struct PlantUMLSyntaxTests {
    @Test("colours after targets, directions, styles, `state X #color`: all transitions, nothing reported")
    func arrowsAndColours() throws {
        let text = """
            @startuml
            state Charging #LightGreen
            state "Low battery" as Low #Orange;line:red
            [*] -> Sleeping #Yellow
            Sleeping -up-> Charging #Pink : USB in
            Charging -down-> Sleeping : USB out
            Sleeping -left-> Low #red
            Low -right-> Sleeping
            Low -[#red]-> Off : 3 %
            Charging -[dashed]-> Full #00FF00 : 100 %
            Full -[#blue,bold]up-> Sleeping : USB out
            @enduml
            """
        let graph = load([("charger.puml", text)])
        #expect(graph.loadFindings == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.transitions.map { "\($0.from)>\($0.to)\($0.label.map { ":" + $0 } ?? "")" } == [
            "Begin>Sleeping", "Sleeping>Charging:USB in", "Charging>Sleeping:USB out", "Sleeping>Low", "Low>Sleeping",
            "Low>Off:3 %", "Charging>Full:100 %", "Full>Sleeping:USB out",
        ])
        #expect(flow.step("Low")?.name == "Low battery")
    }

    @Test("`\\n` is a line break and Creole markup is removed, in names, labels, descriptions and the title")
    func displayText() throws {
        let text = """
            @startuml
            title <b>Ticket</b> machine\\n(kiosk)
            state "**Choose**\\nticket" as Choose
            state "<i>Pay</i> by <color:green>card</color>" as Pay
            [*] --> Choose
            Choose --> Pay : <u>confirm</u>\\nselection
            Pay --> Print : //approved//
            Print : prints the ticket
            Print : then ejects the ~~card~~
            Print --> [*] : ""done""
            @enduml
            """
        let graph = load([("kiosk.puml", text)])
        #expect(graph.loadFindings == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.name == "Ticket machine")
        #expect(flow.id == "Ticketmachine")
        #expect(flow.steps.map(\.name) == ["Begin", "Choose\nticket", "Pay by card", "Print", "End"])
        #expect(flow.transitions.compactMap(\.label) == ["confirm\nselection", "approved", "done"])
        #expect(flow.step("Print")?.details == ["prints the ticket", "then ejects the card"])
    }

    @Test("PlantUMLText keeps what is not markup: a URL's //, a lone *, ~ escapes")
    func displayEdgeCases() {
        #expect(PlantUMLText.display("see https://example.com/a") == "see https://example.com/a")
        #expect(PlantUMLText.display("2 * 3") == "2 * 3")
        #expect(PlantUMLText.display("~**not bold**") == "**not bold**")
        #expect(PlantUMLText.display("~~wavy~~ and ~<b>") == "wavy and <b>")
        #expect(PlantUMLText.display("a\\lb\\rc") == "a\nb\nc")
        #expect(PlantUMLText.oneLine("Sign Up\\nv2") == "Sign Up v2")
    }
}

@Suite("PlantUML: FlowKit machines and other state diagrams")
struct PlantUMLDialectTests {
    @Test("between states a label is an event: a type-like label never gives a type-mismatch")
    func labelsAreEvents() {
        let text = """
            @startuml
            title Scanner
            [*] --> Scan
            Scan: Void
            Scan --> Quantity : Barcode
            Quantity: Int
            Quantity --> Confirm : EvNewValue
            Confirm: Order
            Confirm --> [*] : Order
            @enduml
            """
        #expect(findings([("Scanner.puml", text)]) == [])
    }

    @Test("FlowKit's naming rules only apply to FlowKit machines; a controller makes a plain diagram one")
    func controllerMakesFlowKit() throws {
        let diagram = """
            @startuml
            title Door
            [*] --> Closed
            Closed --> Fail : JAMMED
            Fail --> Closed : RESET
            Closed --> [*]
            @enduml
            """
        // No body line: nothing says it is FlowKit's, so `Fail` is an ordinary name.
        #expect(findings([("Door.puml", diagram)]) == [])
        let controller = """
            final class DoorController: DoorStateMachine {
                func onBegin(state: DoorState, context: Void) -> Promise<DoorState.Begin> { .value(.closed(())) }
                func onClosed(state: DoorState, context: Void) -> Promise<DoorState.Closed> { .value(.fail(())) }
                func onFail(state: DoorState, context: Void) -> Promise<DoorState.Fail> { .value(.closed(())) }
            }
            """
        let graph = load([("Door.puml", diagram), ("DoorController.swift", controller)])
        #expect(try #require(graph.flows.first { $0.id == "Door" }).kind == .flowKit)
        #expect(findings([("Door.puml", diagram), ("DoorController.swift", controller)]).contains("Door.puml:4 reserved-name"))
    }

    @Test("a machine with no end runs forever on purpose: only a trap state is reported, a self-loop-only state is stuck")
    func forever() {
        let text = """
            @startuml
            title Pump
            [*] --> Off
            Off : motor stopped
            Off --> Priming : START
            Priming --> Pumping : PRIMED
            Pumping --> Off : STOP
            Pumping --> DryRun : NO_FLOW
            DryRun --> Off : RESET
            Priming --> Locked : PRIME_TIMEOUT
            Pumping --> Waiting : TANK_FULL
            Waiting --> Waiting : POLL
            @enduml
            """
        #expect(findings([("pump.puml", text)]) == ["pump.puml:10 dead-end", "pump.puml:11 stuck-step"])
    }

    @Test("a machine that lives inside a composite which never ends is not trapped in it")
    func livesInComposite() {
        let text = """
            @startuml
            [*] --> Operating
            state Operating {
              [*] --> Monitoring
              Monitoring --> Alarming : THRESHOLD
              Alarming --> Monitoring : ACK
            }
            @enduml
            """
        #expect(findings([("monitor.puml", text)]) == [])
        // An inside that ends leaves the composite with nowhere to go: that is a trap.
        let ending = text.replacingOccurrences(of: "Alarming --> Monitoring : ACK", with: "Alarming --> [*] : ACK")
        #expect(findings([("monitor.puml", ending)]) == ["monitor.puml:2 dead-end"])
    }

    @Test("a stereotype after a transition's target applies to the target (`sin2 --> exitA <<exitPoint>>`)")
    func stereotypeAfterTarget() throws {
        let text = """
            @startuml
            [*] --> Check
            Check --> Decide <<choice>>
            Decide --> Approve : [score > 600]
            Decide --> Reject : [else]
            Approve --> [*]
            Reject --> [*]
            @enduml
            """
        let graph = load([("loan.puml", text)])
        #expect(graph.loadFindings == [])
        #expect(try #require(graph.flows.first).step("Decide")?.kind == .branch)
        #expect(findings([("loan.puml", text)]) == [])
    }

    @Test("in a plain diagram, edges into and out of a composite are ordinary: no dead end, loop or unreachable state")
    func crossingInPlainDiagram() {
        let text = """
            @startuml
            title Elevator door
            [*] --> Closed
            Closed --> Opening : OPEN
            state Moving {
              [*] --> Accelerating
              Accelerating --> Cruising
              Cruising --> Braking
              Braking --> Arrived
              Arrived --> Opening
            }
            Closed --> Cruising : RESUME
            Opening --> Open
            Open --> Closed : TIMEOUT
            Open --> [*] : SHUTDOWN
            @enduml
            """
        #expect(findings([("door.puml", text)]) == [])
    }

    @Test("a composite's inner state without a way on is a dead end when only a completion edge leaves the composite")
    func compositeCompletion() {
        let text = """
            @startuml
            [*] --> Boot
            state Boot {
              [*] --> SelfTest
              SelfTest --> Load : ok
              SelfTest --> Halted : fault
              Load --> [*]
            }
            Boot --> Run
            Run --> [*]
            @enduml
            """
        #expect(findings([("boot.puml", text)]) == ["boot.puml:6 dead-end"])
    }

    @Test("a plain diagram or composite without `[*] -->` does not say where it starts: nothing in it is unreachable")
    func noStart() {
        let text = """
            @startuml
            title Settings menu
            state Display {
              Brightness --> Contrast : next
              Contrast --> Brightness : next
            }
            Home --> Display : MENU
            Display --> Home : BACK
            Home : clock shown
            Home --> Off : HOLD
            Off --> [*]
            @enduml
            """
        #expect(findings([("menu.puml", text)]) == [])
        // With a start, the same group is checked: Contrast is only entered from Brightness, which
        // nothing enters; Idle's self-loop is no problem, the composite's MENU/BACK events leave it.
        let started = """
            @startuml
            title Settings menu
            [*] --> Home
            state Display {
              [*] --> Idle
              Idle --> Idle : tick
              Brightness --> Contrast : next
              Contrast --> Brightness : next
            }
            Home --> Display : MENU
            Display --> Home : BACK
            Home --> Off : HOLD
            Off --> [*]
            @enduml
            """
        #expect(findings([("menu.puml", started)]) == ["menu.puml:7 unreachable-step", "menu.puml:7 unreachable-step"])
    }

    @Test("a half-read machine gets its invalid-input and no graph finding, whatever was cut off")
    func halfRead() throws {
        let truncated = """
            @startuml
            title Wash cycle
            [*] --> Fill
            Fill --> Wash : full
            Wash --> Rinse : timer
            Rinse --> Sp
            """
        #expect(findings([("wash.puml", truncated)]) == ["wash.puml:1 invalid-input"])
        let unclosed = """
            @startuml
            [*] --> Idle
            Idle --> Busy : job
            state Busy {
              [*] --> Working
            Busy --> Idle : done
            @enduml
            """
        let graph = load([("job.puml", unclosed)])
        #expect(graph.loadFindings.map(\.flow) == ["Busy"])
        #expect(findings([("job.puml", unclosed)]) == ["job.puml:4 invalid-input"])
    }

    @Test("machine-name: a title that is not a Swift identifier, and two FlowKit machines of one name, in one file or two")
    func machineNames() {
        let bad = "@startuml\ntitle 3D Secure\n[*] --> Challenge\nChallenge: String\nChallenge --> [*]\n@enduml\n"
        #expect(findings([("Secure.puml", bad)]) == ["Secure.puml:1 machine-name"])
        let twice = """
            @startuml
            title Sign In
            [*] --> Form
            Form: Credentials
            Form --> [*]
            @enduml
            @startuml
            title Sign-In
            [*] --> Code
            Code: String
            Code --> [*]
            @enduml
            """
        #expect(findings([("SignIn.puml", twice)]) == ["SignIn.puml:7 machine-name"])
        // Plain diagrams generate no code: their names are free.
        let plain = "@startuml\ntitle 3D printer\n[*] --> Idle\nIdle : nozzle cold\nIdle --> [*]\n@enduml\n"
        #expect(findings([("printer.puml", plain)]) == [])
    }
}
