import FlowModel

/// The rules that apply to every flow, whatever library it is written for, in catalogue order. A new
/// core rule is added here and nowhere else; a rule for one library's flows is listed by its dialect
/// (FlowLoaders/<Library>/), and `RuleRegistry` lists both.
public enum CoreRules {
    public static let all: [any Rule.Type] = [
        InvalidInputRule.self,
        UnreachableStepRule.self,
        DeadEndRule.self,
        UnknownStepRule.self,
        DuplicateStepRule.self,
        MissingDataKeyRule.self,
        TypeMismatchRule.self,
        UnusedDataKeyRule.self,
        UnmatchedCaseRule.self,
        UnknownOperationRule.self,
        StuckStepRule.self,
        UnanalyzableFlowRule.self,
        UnusedSuppressionRule.self,
        SuppressionWithoutReasonRule.self,
        InvalidConfigurationRule.self,
    ]
}
