import FlowLoaders
import FlowModel
import FlowRules
import Testing

@Suite("RuleID")
struct RuleIDTests {
    /// Every constant of `RuleID`: an output that names a rule by one of them must name a real rule.
    static let constants = [
        RuleID.invalidInput, RuleID.invalidConfiguration, RuleID.missingDataKey, RuleID.typeMismatch, RuleID.unusedDataKey,
        RuleID.contentNeverSet, RuleID.unreachableStep, RuleID.duplicateStep, RuleID.deadEnd, RuleID.stuckStep,
        RuleID.unknownStep, RuleID.unknownOperation, RuleID.crossingTransition, RuleID.missingHandler,
        RuleID.unimplementedTransition, RuleID.unmatchedCase, RuleID.nestedCase, RuleID.reservedName,
        RuleID.uiAccessInTask, RuleID.unanalyzableFlow,
    ]

    @Test("each constant is the id of a registered rule, and no two are the same", arguments: constants)
    func registered(id: String) {
        #expect(RuleRegistry.rule(id: id) != nil)
        #expect(Self.constants.filter { $0 == id }.count == 1)
    }
}
