import FlowModel
import FlowRules

/// `content-never-set`: a FlowState step whose `Content` is a real type but that nothing gives content.
///
/// The FlowState loader keeps a step's content under the key `"<step id>.content"`: every `FlowStep`
/// reads it (optionally, typed by its `Content`), and `x.content = value` is a write of it by the step
/// whose intent or completion contains the assignment, or initial data when the flow is being set up.
public struct ContentNeverSetRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.contentNeverSet,
        tags: ["data-flow"],
        severity: .note,
        summary: "A FlowState step has a Content type, but nothing ever sets its content.",
        rationale: """
            A `FlowStep`'s `Content` is what it shows or works on; its handler receives `content` when \
            the step starts and whenever it is set. When no code sets `content` (before the flow \
            starts, or from another step's completion), the step always runs with `nil`: either the \
            assignment was forgotten, or the step needs no content and its `Content` should be `Any`. \
            Steps whose `Content` is `Any`, `Void` or optional are not reported.
            """,
        triggeringExamples: [
            """
            class GreetingCoordinator {
                func start() {
                    let showName = FlowStep(String.self, Void.self, identifier: "Show name", { step in // finding
                        return NameViewController().results
                    })
                    showName.start()
                }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            class GreetingCoordinator {
                func start() {
                    let showName = FlowStep(String.self, Void.self, identifier: "Show name", { step in
                        return NameViewController().results
                    })
                    let download = FlowStep(Any.self, String.self, identifier: "Download name", { step in
                        return NameDownloader().results
                    }) { step, name in
                        showName.content = name
                        step.nextStep = showName
                    }
                    download.start()
                }
            }
            """,
            """
            class ProfileCoordinator {
                func show(profile: UserProfile) {
                    let display = FlowStep(UserProfile.self, ProfileAction.self, identifier: "Profile", { _ in
                        ProfileViewController().results
                    })
                    display.content = profile
                    display.start()
                }
            }
            """,
        ],
        exampleFileName: "Example.swift")

    public init() {}

    /// Content types a step can run without: nothing to forget.
    static func tolerates(_ type: TypeName) -> Bool {
        type.isAny || type.isOptional || ["Void", "()", "Never"].contains(type.spelling)
    }

    public func check(_ context: RuleContext) -> [Finding] {
        guard context.flow.kind == .flowState else { return [] }
        let analysis = context.analysis
        let flow = context.flow
        // A step whose writes are not all known may set any content.
        if flow.steps.contains(where: \.mayWriteAnything) { return [] }
        var written = Set(flow.initialData.map(\.key))
        for step in flow.steps { written.formUnion(step.writes.map(\.key)) }
        return analysis.reachable.compactMap { i in
            let step = analysis.step(i)
            let key = FlowStateDialect.contentKey(step.id)
            guard let content = step.contentType, !Self.tolerates(content),
                  step.reads.contains(where: { $0.key == key }), !written.contains(key) else { return nil }
            return context.finding(
                Self.description,
                "step '\(step.name)' takes content of type \(content), but nothing sets its content, so it always starts with nil; set '\(step.id).content' before it starts, or make its Content Any",
                at: step.location, step: step.id, key: key)
        }
    }
}
