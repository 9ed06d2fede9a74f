import FlowModel
import FlowRules

// The plain PlantUML dialect: PlantUMLLoader (with PlantUMLPreprocessor) reads every PlantUML state
// diagram of a run. FlowKit (`../FlowKit/`) builds on it: `FlowKitDialect` decides which of those
// diagrams its generator takes, and they become FlowKit machines; the others stay this dialect's.

extension FlowKind {
    /// A PlantUML state diagram not written for FlowKit (firmware, backends): generic state-machine
    /// checks only.
    public static let plantUML = FlowKind(rawValue: "plantuml", noun: "PlantUML state machine", machine: .described)
}

/// Plain PlantUML state diagrams: generic state-machine checks only (`MachineSemantics.described`).
public enum PlantUMLDialect: Dialect {
    public static let kinds: [FlowKind] = [.plantUML]
    public static let rules: [any Rule.Type] = []
}
