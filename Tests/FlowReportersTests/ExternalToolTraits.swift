import FlowLensTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only where `tool` is (or `FLOWLENS_REQUIRE_TOOLS=1` asks for it): otherwise it is
    /// reported as skipped, with the reason (Tests/Support/ExternalTools.swift).
    static func needs(_ tool: ExternalTool) -> Self {
        .enabled(if: tool.shouldRun, Comment(rawValue: tool.skipReason))
    }
}
