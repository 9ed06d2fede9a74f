import FlowModel
import FlowRules

/// `machine-name`: a FlowKit machine whose name is not a Swift type name, or that generates the same
/// types as another FlowKit machine.
public struct MachineNameRule: Rule {
    public static let description = RuleDescription(
        id: "machine-name",
        severity: .error,
        summary: "A FlowKit machine's name is not a valid Swift type name, or another FlowKit machine has the same name.",
        rationale: """
            FlowKit generates `<Name>State` and `<Name>StateMachine` from a machine's name (its title, \
            else its file's name, without spaces, `-` and `_`; a composite state's name for the machine \
            it generates). A name that is not a Swift identifier (`2-Step Login` → `2StepLogin`) does not \
            compile, and two machines with one name, in one file or two, declare the same types twice. \
            Only FlowKit machines are checked: other state diagrams generate no code.
            """,
        triggeringExamples: [
            """
            @startuml /' finding '/
            title 2-Step Login
            [*] --> EnterCode
            EnterCode: String
            EnterCode --> [*]: Session
            @enduml
            """,
            """
            ' file: Onboarding.puml
            @startuml
            title Profile Setup
            [*] --> Name
            Name: String
            Name --> [*]
            @enduml
            ' file: Settings.puml
            @startuml /' finding '/
            title Profile-Setup
            [*] --> Avatar
            Avatar: Data?
            Avatar --> [*]
            @enduml
            """,
        ],
        nonTriggeringExamples: [
            """
            @startuml
            title Two-Step Login
            [*] --> EnterCode
            EnterCode: String
            EnterCode --> [*]: Session
            @enduml
            """,
            """
            ' file: heater.puml
            @startuml
            title 2-zone heater (firmware)
            [*] --> Idle
            Idle : waiting for a demand
            Idle --> Heating : DEMAND
            Heating --> Idle : SATISFIED
            @enduml
            """,
        ],
        exampleFileName: "Example.puml",
        runsOnPartlyReadFlows: true)

    /// Names Swift reserves even with a capital first letter.
    private static let reservedTypeNames: Set<String> = ["Self", "Any", "Type", "Protocol"]

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        guard flow.kind.machine == .generated, let typeName = flow.typeName else { return [] }
        var findings: [Finding] = []
        if !Self.isTypeName(typeName) {
            findings.append(context.finding(
                Self.description,
                "FlowKit names machine '\(flow.name)' \(typeName), which is not a valid Swift type name: the generated \(typeName)State does not compile",
                at: flow.location))
        }
        // The first machine of a name is the one the others clash with.
        let firsts = context.session.shared(FirstMachines.init)
        if let first = firsts.byTypeName[typeName].map({ context.session.graph.flows[$0] }), first.id != flow.id {
            let place = first.location.map { " at \($0)" } ?? ""
            findings.append(context.finding(
                Self.description,
                "machine '\(flow.name)' generates \(typeName)State and \(typeName)StateMachine, as machine '\(first.name)'\(place) does: the types are declared twice",
                at: flow.location, related: RelatedLocation.list(first.location, "machine '\(first.name)' is named \(typeName) here")))
        }
        return findings
    }

    /// Whether `name` is an identifier Swift accepts as a type's name.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            && !reservedTypeNames.contains(name)
    }
}

/// The first generated machine of each type name in the graph, by its index in the graph's flows.
private struct FirstMachines {
    var byTypeName: [String: Int] = [:]

    init(_ graph: FlowGraph) {
        for (i, flow) in graph.flows.enumerated() where flow.kind.machine == .generated {
            if let name = flow.typeName, byTypeName[name] == nil { byTypeName[name] = i }
        }
    }
}
