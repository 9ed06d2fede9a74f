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

extension SourceKind {
    /// `*.puml`, `*.plantuml`: PlantUML state machines (FlowKit's among them) and their models,
    /// one file at a time.
    public static let plantUML = SourceKind(rawValue: "plantuml")
}

/// Plain PlantUML state diagrams: generic state-machine checks only (`MachineSemantics.described`).
public enum PlantUMLDialect: Dialect {
    public static let kinds: [FlowKind] = [.plantUML]
    public static let rules: [any Rule.Type] = []
    public static let fileTypes = [SourceFileType(kind: .plantUML, suffixes: [".puml", ".plantuml"],
                                                  reading: .perFile { PlantUMLLoader(environment: $0.environment) })]
}
