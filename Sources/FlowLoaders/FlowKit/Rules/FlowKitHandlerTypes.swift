import FlowModel
import FlowRules

/// `type-mismatch`'s part for FlowKit: a handler's context type differs from its state's.
struct FlowKitHandlerTypes: RuleExtension {
    static let host: any Rule.Type = TypeMismatchRule.self

    init() {}

    /// A FlowKit handler must take exactly the context type its state declares (`()` is `Void`):
    /// the generated protocol requires that signature.
    func check(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        var findings: [Finding] = []
        guard !flow.implementations.isEmpty else { return [] }  // no Swift code implements the machine
        let index = FlowKitHandlers.Index(context.analysis)
        for implementation in flow.implementations {
            for handler in implementation.handlers {
                guard let written = handler.contextType, let step = index.step(handledBy: handler),
                      let expected = step.contentType, written.spelling != expected.spelling else { continue }
                let name = FlowKitHandlers.qualifiedName(handler, of: implementation)
                findings.append(context.finding(
                    TypeMismatchRule.description,
                    "\(name) takes context \(written), but state '\(step.name)' of \(flow.name) is declared with \(expected)",
                    at: handler.contextLocation ?? handler.location, step: step.id,
                    related: RelatedLocation.list(step.location, "'\(step.name)' is declared with \(expected) here")))
            }
        }
        return findings
    }
}
