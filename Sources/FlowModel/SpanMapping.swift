/// Which OpenTelemetry span attributes say what a span is to a flow, when FlowLens reads traces
/// (`.flowlens.yml` `trace:`; docs/inputs/run-records.md).
public struct SpanMapping: Hashable, Sendable {
    /// The flow's id or name: on the span, an ancestor span, or the resource.
    public var flowAttribute = "flow.name"
    /// The step's name; a span without it is not a step (unless `stepsFromSpanNames`).
    public var stepAttribute = "flow.step"
    /// When set, a span inside a flow that has no step attribute is the step its name says.
    public var stepsFromSpanNames = false
    /// Why a failed step failed (`missing-key`, `type-mismatch` …); `error` without it.
    public var reasonAttribute = "flow.failure.reason"
    /// The data key a failure is about.
    public var keyAttribute = "flow.key"
    /// Which of several concurrent runs of one step (a group's element).
    public var instanceAttribute = "flow.instance"
    /// The flows runs name otherwise than FlowLens does: a name in the records (an OTLP flow
    /// attribute, a JSON-lines `flow`) → the flow's id or name (`trace: {flows: {…}}`). In any format.
    public var flows: [String: String] = [:]

    /// The attributes above.
    public static let `default` = SpanMapping()

    public init() {}

    /// The attribute-name settings by their name in `.flowlens.yml` (`trace:`), in the order files
    /// and dumps list them; `stepsFromSpanNames`, a flag, comes after them.
    // Key path literals capture nothing: the table is immutable, though `WritableKeyPath` is not `Sendable`.
    nonisolated(unsafe) public static let attributes: [(name: String, path: WritableKeyPath<SpanMapping, String>)] = [
        ("flowAttribute", \.flowAttribute), ("stepAttribute", \.stepAttribute), ("reasonAttribute", \.reasonAttribute),
        ("keyAttribute", \.keyAttribute), ("instanceAttribute", \.instanceAttribute),
    ]
}
