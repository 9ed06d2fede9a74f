import FlowModel
import FlowRules

// The Elevate dialect: ElevateLoader reads Ruby tasks (`background`, `on_started`, `on_finish` blocks).
extension FlowKind {
    /// An Elevate (Ruby) task.
    public static let elevate = FlowKind(rawValue: "elevate", noun: "Elevate task")
}

extension SourceKind {
    /// `*.rb`: Elevate tasks in RubyMotion sources, one file at a time.
    public static let ruby = SourceKind(rawValue: "ruby")
}

/// Elevate: Ruby tasks whose `background` blocks run off the main thread.
public enum ElevateDialect: Dialect {
    public static let kinds: [FlowKind] = [.elevate]
    public static let rules: [any Rule.Type] = [UIAccessInTaskRule.self]
    public static let fileTypes = [SourceFileType(kind: .ruby, suffixes: [".rb"], reading: .perFile { ElevateLoader(limits: $0.limits) })]
}
