import FlowModel

/// `unanalyzable-flow`: a flow whose loader could not read part of it from the source alone.
public struct UnanalyzableFlowRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.unanalyzableFlow,
        tags: ["analysis-coverage"],
        severity: .note,
        summary: "A flow is recognised, but part of it cannot be read from the source alone.",
        rationale: """
            Some flows are decided at run time (a progression driven by flags in a struct, not by \
            enum cases). FlowLens says so instead of guessing, so that a clean report is never \
            mistaken for a checked flow. Check such a flow with the reflection API from a test.
            """,
        triggeringExamples: [
            """
            struct FileAccessProgression: Progression {
                let fileURL: URL
                private var done = false
                mutating func updateOrDeferNext() throws -> Deferred<FileAccessProgression>? { // finding
                    done = true
                    return nil
                }
                typealias Result = Bool
                var result: Bool? { done ? true : nil }
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            enum Ping: Progression {
                case send(URL)
                case received(Int)
                init(host: URL) { self = .send(host) }
                mutating func updateOrDeferNext() throws -> Deferred<Ping>? {
                    switch self {
                    case let .send(url):
                        return .future { resolve in Pinger.ping(url) { ms in resolve { .received(ms) } } }
                    case .received:
                        return nil
                    }
                }
                var result: Int? { if case let .received(ms) = self { return ms }; return nil }
            }
            """,
        ],
        exampleFileName: "Example.swift")

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        context.flow.limitations.map { limitation in
            context.finding(Self.description, limitation.message, at: limitation.location ?? context.flow.location)
        }
    }
}
