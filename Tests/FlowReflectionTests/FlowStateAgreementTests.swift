import FlowLensTestSupport
import FlowLensTesting
import FlowModel
import Foundation
import Testing

/// What reflection can and cannot know about each FlowState flow of samples/flowstate.
///
/// FlowState has no flow object: steps are linked at run time, mostly inside completion closures
/// (`step.nextStep = editNameStep`), and the steps a flow is made of are often locals that only those
/// closures capture. Reflection sees the objects an app holds (a coordinator and its `firstStep`, steps
/// in stored properties, a group's `steps`, links already set) and none of what closures do. So:
///
/// - a step referenced only by closures is not in the object graph (`unseen`), and neither is a step
///   nothing references (it is deallocated: the planted `unreachable-step` cannot exist live);
/// - a local's name does not exist at run time: a step reached through a link is named by its
///   `identifier` (the source loader's id is the local's name: `idChanges`);
/// - a step whose completion may choose its next step (`chosenInClosures`) gets one transition to the
///   end, labelled "unless its completion sets a next step", instead of the source's transitions; a
///   step that no visible link leads to is a possible start (`entries`);
/// - every reflected FlowStep may write any content (its closures can), so content the source sees set
///   in a closure (a `type-mismatch`, a `content-never-set`) is unknown, and never a finding;
/// - each flow gets an `unanalyzable-flow` note saying all this.
struct FlowStateExpectation: Sendable, CustomStringConvertible {
    let name: String
    let unseen: [String]
    let idChanges: [String]
    let chosenInClosures: [String]
    let entries: [String]
    let sourceOnlyFindings: [String]

    var description: String { name }

    static let all: [FlowStateExpectation] = [
        FlowStateExpectation(
            name: "AccountSettingsFlows.deleteAccount",
            unseen: ["deleteOnServerStep", "exportDataStep", "goodbyeStep"],
            idChanges: ["Confirm deletion → confirmDeletionStep"],
            chosenInClosures: ["confirmDeletionStep"],
            entries: ["confirmDeletionStep"],
            // The planted defect: exportDataStep is built and never linked, so no live object holds it.
            sourceOnlyFindings: ["unreachable-step error step=exportDataStep key=-"]),
        FlowStateExpectation(
            name: "AccountSettingsFlows.changePassword",
            unseen: ["savePasswordStep"],
            idChanges: ["Enter password → enterPasswordStep"],
            chosenInClosures: ["enterPasswordStep"],
            entries: ["enterPasswordStep"],
            // The planted defect names a step that does not exist: Swift cannot compile it live.
            sourceOnlyFindings: ["unknown-step error step=savePasswordStep key=-"]),
        FlowStateExpectation(
            name: "AccountSettingsFlows.changeLanguage",
            unseen: ["confirmLanguageStep"],
            idChanges: ["Pick language → pickLanguageStep"],
            chosenInClosures: ["pickLanguageStep"],
            entries: ["pickLanguageStep"],
            // The planted defect is a content set in a completion (and Swift would not compile it live).
            sourceOnlyFindings: ["type-mismatch error step=confirmLanguageStep key=confirmLanguageStep.content"]),
        FlowStateExpectation(
            name: "AccountSettingsFlows.changeAvatar",
            unseen: ["cropPhotoStep", "uploadAvatarStep"],
            idChanges: ["Pick photo → pickPhotoStep"],
            chosenInClosures: ["pickPhotoStep"],
            entries: ["pickPhotoStep"],
            // Whether a completion sets the crop step's content is inside closures: unknown.
            sourceOnlyFindings: ["content-never-set note step=cropPhotoStep key=cropPhotoStep.content"]),
        FlowStateExpectation(
            name: "OnboardingCoordinator",
            unseen: [],
            idChanges: [],
            chosenInClosures: ["welcomeStep"],
            // The group is linked from welcomeStep's completion only: no visible way in.
            entries: ["welcomeStep", "permissionsStep"],
            sourceOnlyFindings: []),
        FlowStateExpectation(
            name: "ProfileFlowCoordinator.init",
            unseen: ["editNameStep", "networkStep", "updateNameStep"],
            idChanges: ["Profile → displayStep"],
            chosenInClosures: ["displayStep"],
            entries: ["displayStep"],
            sourceOnlyFindings: []),
    ]
}

@Suite("Reflection agrees with the FlowState source loader on samples/flowstate")
struct FlowStateAgreementTests {
    static let sourceGraph = FlowLens.load([packageRoot + "/samples/flowstate"])
    static let sourceFindings = FlowLens.analyze(sourceGraph).findings

    @Test("the sample has the 6 flows its README lists, and every one is built live")
    func everyFlow() {
        #expect(Set(Self.sourceGraph.flows.map(\.name)) == Set(profileAppFlows().map(\.name)))
        #expect(Set(FlowStateExpectation.all.map(\.name)) == Set(profileAppFlows().map(\.name)))
        #expect(Self.sourceGraph.flows.count == 6)
    }

    @Test("same steps, transitions, data and findings, but for what closures hide", arguments: FlowStateExpectation.all)
    func agrees(_ expected: FlowStateExpectation) throws {
        let root = try #require(profileAppFlows().first { $0.name == expected.name }).root
        let graph = try FlowReflector().graph(of: root, name: expected.name)
        try #require(graph.flows.count == 1)
        let mine = graph.flows[0]
        let theirs = try #require(Self.sourceGraph.flow(named: expected.name))
        #expect(mine.name == theirs.name && mine.kind == .flowState && theirs.kind == .flowState)

        // Steps: matched by name (the identifier); the ids differ only for locals.
        var sourceID: [String: String] = [:]
        for step in mine.steps {
            let match = try #require(theirs.steps.first { $0.name == step.name }, "\(step.name) is not in the source's flow")
            sourceID[step.id] = match.id
        }
        func map(_ id: String) -> String { sourceID[id] ?? id }
        #expect(mine.steps.filter { map($0.id) != $0.id }.map { "\($0.id) → \(map($0.id))" } == expected.idChanges)
        let seen = Set(mine.steps.map { map($0.id) })
        #expect(theirs.steps.map(\.id).filter { !seen.contains($0) }.sorted() == expected.unseen)
        for step in mine.steps {
            let match = try #require(theirs.step(map(step.id)))
            #expect(step.kind == match.kind, "\(step.name)")
            #expect(step.contentType == match.contentType && step.resultType == match.resultType, "\(step.name)")
            #expect(step.reads.map { "\(map(String($0.key.dropLast(8)))).content: \($0.type?.spelling ?? "?") \($0.optional)" }
                        == match.reads.map { "\($0.key): \($0.type?.spelling ?? "?") \($0.optional)" }, "\(step.name)")
            // What the intent returns is in its code: the source shows it, reflection cannot.
            #expect(step.implementation == nil)
            #expect(step.details == (step.kind == .parallel ? match.details : []))
            // Its closures may set any step's content.
            #expect(step.mayWriteAnything == (step.kind == .operation))
        }

        // Transitions: every visible link is one of the source's; a step whose completion may choose
        // its next step has one transition to the end instead of the source's.
        func text(_ t: Transition, _ map: (String) -> String) -> String {
            "\(map(t.from)) -> \(map(t.to)) [\(t.displayLabel ?? "-")] \(t.kind.rawValue)"
        }
        let sourceTransitions = Set(theirs.transitions.map { text($0, { $0 }) })
        let chosen = Set(expected.chosenInClosures)
        for transition in mine.transitions {
            if chosen.contains(map(transition.from)) {
                #expect(transition.to == "end" && transition.label == "unless its completion sets a next step")
            } else {
                #expect(sourceTransitions.contains(text(transition, map)), "\(text(transition, map))")
            }
        }
        #expect(Set(mine.transitions.map { map($0.from) }.filter(chosen.contains)) == chosen)
        let reflected = Set(mine.transitions.map { text($0, map) })
        for transition in theirs.transitions where !reflected.contains(text(transition, { $0 })) {
            #expect(chosen.contains(transition.from) || expected.unseen.contains(transition.from), "\(text(transition, { $0 }))")
        }
        #expect(mine.entries.map(map) == expected.entries)
        #expect(theirs.entries == [expected.entries[0]])

        // Content set before the flow starts is initial data on both sides.
        func data(_ accesses: [DataAccess], _ map: (String) -> String) -> [String] {
            accesses.map { "\(map(String($0.key.dropLast(8)))).content: \($0.type?.spelling ?? "?")" }.sorted()
        }
        #expect(data(mine.initialData, map) == data(theirs.initialData, { $0 }))

        // Findings.
        let mineFindings = findingKeys(FlowLens.analyze(graph).findings, flow: expected.name)
        let theirFindings = findingKeys(Self.sourceFindings, flow: expected.name)
        #expect(theirFindings.filter { !expected.sourceOnlyFindings.contains($0) } == mineFindings.filter { !$0.hasPrefix("unanalyzable-flow") })
        #expect(expected.sourceOnlyFindings.allSatisfy(theirFindings.contains))
        #expect(mineFindings.filter { $0.hasPrefix("unanalyzable-flow") } == ["unanalyzable-flow note step=- key=-"])
        let names = expected.chosenInClosures.map { id in mine.steps.first { map($0.id) == id }!.name }
        #expect(mine.limitations.map(\.message) == ["""
            reflection sees FlowState steps and the links set before the flow runs, not what intents and completions do: \
            the completion of '\(names[0])' may choose its next step\
            \(expected.entries.count > 1 ? ", and 'Permissions' has no visible way in (drawn as a start)" : ""); \
            check this flow with the Swift source loader
            """])
    }

    @Test("all 6 flows: the source's 4 planted defects are in closures or not in the object graph; reflection adds a note a flow")
    func totals() throws {
        var graph = FlowGraph()
        for (name, root) in profileAppFlows() { graph.merge(try FlowReflector().graph(of: root, name: name)) }
        let reflected = FlowLens.analyze(graph)
        let source = FlowLens.analyze(Self.sourceGraph)
        #expect(source.errors.count == 3 && source.warnings.isEmpty && source.notes.count == 1)
        #expect(reflected.errors.isEmpty && reflected.warnings.isEmpty && reflected.notes.count == 6)
    }
}
