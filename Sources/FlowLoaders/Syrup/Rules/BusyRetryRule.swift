import FlowModel
import FlowRules

/// `busy-retry`: a step that, on some path, runs again at once with nothing changed (a Syrup branch
/// that leaves `self` as it was and returns `nil`), so on that path the flow spins forever.
public struct BusyRetryRule: Rule {
    public static let description = RuleDescription(
        id: "busy-retry",
        tags: ["flow-graph", "correctness"],
        severity: .warning,
        summary: "On some path a step runs itself again at once with nothing changed: the flow spins forever there.",
        rationale: """
            Syrup asks a progression for its next step again as soon as `updateOrDeferNext` returns \
            `nil`. A branch that moves on in some paths but, in another (a `catch` that handles one \
            error code, an `if` without an `else`), neither changes `self`, returns a `Deferred` nor \
            throws, re-runs the same case at once, forever: a busy loop instead of a retry or an \
            error. The finding names the conditions of that path. A step that never moves on at all \
            is `stuck-step`.
            """,
        triggeringExamples: [
            """
            import Syrup

            enum Unzip: Progression {
                case open(URL)
                case extract(Data)
                case done(Data)
                init(archive: URL) { self = .open(archive) }
                mutating func updateOrDeferNext() throws -> Deferred<Unzip>? {
                    switch self {
                    case let .open(url):
                        do {
                            self = .extract(try Data(contentsOf: url))
                        } catch let error as CocoaError {
                            if error.code == .fileReadNoPermission { throw error }
                        }
                        return nil // finding
                    case let .extract(data):
                        self = .done(data)
                    case .done:
                        break
                    }
                    return nil
                }
                var result: Data? { if case let .done(d) = self { return d }; return nil }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            import Syrup

            enum Unzip: Progression {
                case open(URL)
                case done(Data)
                init(archive: URL) { self = .open(archive) }
                mutating func updateOrDeferNext() throws -> Deferred<Unzip>? {
                    switch self {
                    case let .open(url):
                        do {
                            self = .done(try Data(contentsOf: url))
                        } catch let error as CocoaError where error.code == .fileNoSuchFile {
                            self = .done(Data())
                        }
                    case .done:
                        break
                    }
                    return nil
                }
                var result: Data? { if case let .done(d) = self { return d }; return nil }
            }
            """,
        ],
        exampleFileName: "Unzip.swift")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        let steps = analysis.flow.steps, transitions = context.flow.transitions
        // Only reachable steps: an unreachable step is `unreachable-step`'s.
        return analysis.reachable.compactMap { i in
            // One that never moves on is `stuck-step`'s.
            guard !StuckStepRule.isStuck(i, in: analysis),
                  // The transitions leaving the step, in flow order (not every transition: a long flow's steps × transitions),
                  // read in place (copying each step and transition cost more than the test).
                  let t = analysis.transitionsLeaving[i].first(where: { transitions[$0].to == steps[i].id && transitions[$0].kind == .retry })
            else { return nil }
            let step = steps[i], retry = transitions[t]
            let when = retry.condition?.text ?? "on some path"
            return context.finding(Self.description,
                                   "step '\(step.name)' runs itself again at once, forever, when \(when): that path neither moves on nor fails",
                                   at: retry.location ?? step.location, step: step.id)
        }
    }
}
