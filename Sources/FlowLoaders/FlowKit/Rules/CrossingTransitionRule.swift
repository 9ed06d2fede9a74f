import FlowModel
import FlowRules

/// `crossing-transition`: a FlowKit edge between a composite state's inside and its outside.
public struct CrossingTransitionRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.crossingTransition,
        severity: .error,
        summary: "A FlowKit transition crosses the boundary of a composite state.",
        rationale: """
            FlowKit generates every composite state as a machine of its own, run as a sub-flow by the \
            state that contains it. A transition belongs to the machine of its source, so an edge from \
            a state inside a composite to a state outside it (or the other way) cannot be generated. \
            Leave the composite through its own [*] and let the composite state's handler choose where \
            to go next. In a state diagram not written for FlowKit such an edge is ordinary PlantUML and \
            is not reported.
            """,
        triggeringExamples: [
            """
            @startuml
            [*] --> Prompt
            Prompt: String?
            Prompt --> SignUp
            state SignUp {
                [*] --> EnterInfo
                EnterInfo: String?
                EnterInfo --> Prompt /' finding '/
                EnterInfo --> [*]: Credentials
            }
            SignUp --> [*]
            @enduml
            """,
        ],
        nonTriggeringExamples: [
            """
            @startuml
            [*] --> Prompt
            Prompt: String?
            Prompt --> SignUp
            state SignUp {
                [*] --> EnterInfo
                EnterInfo: String?
                EnterInfo --> [*]: Credentials
            }
            SignUp --> Prompt
            SignUp --> [*]
            @enduml
            """,
            """
            @startuml
            title Kettle (firmware)
            [*] --> Off
            Off --> Heating : SWITCH_ON
            state Heating {
                [*] --> Boiling
                Boiling : element on
                Boiling --> Off : DRY_BOIL
            }
            Heating --> Off : SWITCH_OFF
            @enduml
            """,
        ],
        exampleFileName: "Example.puml")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        // In any other PlantUML diagram an edge into or out of a composite is ordinary.
        guard flow.kind.machine == .generated else { return [] }
        return flow.transitions.compactMap { transition in
            guard let other = transition.crossesInto else { return nil }
            let source = context.analysis.step(id: transition.from)?.name ?? transition.from
            let target = transition.to == "End" ? "the end ([*]) of machine '\(other)'" : "'\(transition.to)' in machine '\(other)'"
            return context.finding(
                Self.description,
                "the transition from '\(source)' (machine '\(flow.name)') to \(target) crosses a composite state's boundary: FlowKit generates each composite as a machine of its own and cannot generate it",
                at: transition.location, step: transition.from, edge: EdgeReference(from: transition.from, to: transition.to))
        }
    }
}
