import FlowLensTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only where `tool` is (or `FLOWLENS_REQUIRE_TOOLS=1` asks for it): otherwise it is
    /// reported as skipped, with the reason (Tests/Support/ExternalTools.swift).
    static func needs(_ tool: ExternalTool) -> Self {
        .enabled(if: tool.shouldRun, Comment(rawValue: tool.skipReason))
    }
}

/// In CI (`scripts/test.sh` exports `FLOWLENS_REQUIRE_TOOLS=1` after `scripts/bootstrap.sh --test`)
/// every tool the bootstrap installs must be there: a missing one fails here, by name, as well as in
/// the tests that need it.
@Suite("The test tools")
struct ExternalToolsTests {
    @Test("every tool scripts/bootstrap.sh --test installs is present (FLOWLENS_REQUIRE_TOOLS=1)",
          .enabled(if: ExternalTool.required, "only with FLOWLENS_REQUIRE_TOOLS=1 (scripts/test.sh)"),
          arguments: ExternalTool.allCases)
    func present(_ tool: ExternalTool) {
        #expect(tool.isAvailable, "\(tool.rawValue): \(tool.needs) is missing, although scripts/bootstrap.sh --test installs it")
    }
}
