import FlowModel
import FlowRules

/// One flow library's home in FlowLens: the kinds of flow its loader produces (with the noun every
/// output calls them by, and whether they are state machines) and the rules that make sense only
/// for its flows. Its loader, conventions and enrichment passes live in the same folder
/// (`FlowLoaders/<Library>/`). FlowModel, the core rules and the renderers never name a library:
/// they read the traits a dialect's kinds carry.
public protocol Dialect {
    /// The kinds of flow the dialect's loaders produce.
    static var kinds: [FlowKind] { get }
    /// The rules that apply only to the dialect's flows (each also listed in `RuleRegistry`).
    static var rules: [any Rule.Type] { get }
    /// The dialect's parts of core rules (checks of what only its flows carry).
    static var ruleExtensions: [any RuleExtension.Type] { get }
}

extension Dialect {
    public static var ruleExtensions: [any RuleExtension.Type] { [] }
}

/// Every dialect FlowLens reads. Adding a flow library is a new `FlowLoaders/<Library>/` folder and
/// one line here (and a line in `RuleRegistry` per rule of its own).
public enum Dialects {
    /// The dialects, in the order their kinds are listed.
    public static let all: [any Dialect.Type] = [
        FlowIOSDialect.self,
        FlowStateDialect.self,
        SyrupDialect.self,
        ElevateDialect.self,
        PlantUMLDialect.self,
        FlowKitDialect.self,
    ]

    /// Every kind of flow: FlowLens's own formats and each dialect's.
    public static var kinds: [FlowKind] { [.declarative] + all.flatMap { $0.kinds } + [.reflected] }
}

/// Every rule FlowLens has, in catalogue order.
public enum RuleRegistry {
    /// All rules, in the order `flowlens rules`, SARIF and the README list them: the core rules
    /// (`CoreRules`), then each dialect's own (`<Library>/Rules/`, listed by its `Dialect`).
    public static let rules: [any Rule.Type] = CoreRules.all + Dialects.all.flatMap { $0.rules }

    /// The descriptions of all rules.
    public static var descriptions: [RuleDescription] { rules.map { $0.description } }

    /// The rule with `id`.
    public static func rule(id: String) -> (any Rule.Type)? { rules.first { $0.description.id == id } }
}


extension Analyzer {
    /// An analyzer running every rule in `RuleRegistry`.
    public init() { self.init(running: RuleRegistry.rules.map { $0.init() }) }

    /// An analyzer running `rules`, which may be fewer than FlowLens has, with the dialects' parts
    /// of them: a suppression naming any rule in `RuleRegistry` is still a known one.
    public init(running rules: [any Rule]) {
        self.init(rules: rules, extensions: Dialects.all.flatMap { $0.ruleExtensions }.map { $0.init() },
                  knownRules: Set(RuleRegistry.descriptions.map(\.id)))
    }
}
