import FlowModel
import FlowRules

/// `unimplemented-transition`: a FlowKit transition that no handler ever takes.
public struct UnimplementedTransitionRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unimplementedTransition,
        severity: .warning,
        summary: "A FlowKit transition of the diagram is never returned by its state's Swift handler.",
        rationale: """
            The diagram promises a way from one state to another, but the handler of the source state \
            never returns that case, so the transition is dead in practice and the diagram no longer \
            tells the truth about the app. A handler whose result FlowLens cannot read (it returns \
            what another function computes) is not reported.
            """,
        triggeringExamples: [
            """
            ' file: Search.puml
            @startuml
            [*] --> Query
            Query --> Results
            Query --> Help /' finding '/
            Help --> Query
            Results --> [*]
            @enduml
            // file: SearchController.swift
            final class SearchController: SearchStateMachine {
                func onBegin(state: SearchState, context: Void) -> Promise<SearchState.Begin> { .value(.query(())) }
                func onQuery(state: SearchState, context: Void) -> Promise<SearchState.Query> {
                    return searchView.run().map { .results(()) }
                }
                func onHelp(state: SearchState, context: Void) -> Promise<SearchState.Help> { .value(.query(())) }
                func onResults(state: SearchState, context: Void) -> Promise<SearchState.Results> { .value(.end(())) }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            ' file: Search.puml
            @startuml
            [*] --> Query
            Query --> Results
            Query --> Help
            Help --> Query
            Results --> [*]
            @enduml
            // file: SearchController.swift
            final class SearchController: SearchStateMachine {
                func onBegin(state: SearchState, context: Void) -> Promise<SearchState.Begin> { .value(.query(())) }
                func onQuery(state: SearchState, context: Void) -> Promise<SearchState.Query> {
                    return searchView.run().map { $0.wantsHelp ? .help(()) : .results(()) }
                }
                func onHelp(state: SearchState, context: Void) -> Promise<SearchState.Help> { .value(.query(())) }
                func onResults(state: SearchState, context: Void) -> Promise<SearchState.Results> { .value(.end(())) }
            }
            """,
        ],
        exampleFileName: "Example.puml")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        guard !flow.implementations.isEmpty else { return [] }  // no Swift code implements the machine
        let index = FlowKitHandlers.Index(context.analysis)
        var findings: [Finding] = []
        for (i, implementation) in flow.implementations.enumerated() {
            for transition in flow.transitions where transition.crossesInto == nil {
                guard let source = index.step(transition.from),
                      let handler = index.handler(for: FlowKitHandlers.state(of: source), inImplementation: i), !handler.opaque else { continue }
                let caseName = index.caseName(of: transition)
                guard !handler.returns.contains(where: { $0.caseName == caseName }) else { continue }
                let target = index.step(transition.to)?.name ?? transition.to
                let name = FlowKitHandlers.qualifiedName(handler, of: implementation)
                let related = RelatedLocation.list(handler.location, "\(name) is here")
                findings.append(context.finding(
                    Self.description,
                    "the transition '\(source.name)' → '\(target)' is never taken: \(name) never returns .\(caseName)",
                    at: transition.location, step: transition.from, edge: EdgeReference(from: transition.from, to: transition.to),
                    related: related))
            }
        }
        return findings
    }
}
