import FlowModel
import FlowRules
import FlowTrace

/// One flow library's home in FlowLens: the kinds of flow its loader produces (with the noun every
/// output calls them by, and whether they are state machines) and the rules that make sense only
/// for its flows. Its loader, conventions and enrichment passes live in the same folder
/// (`FlowLoaders/<Library>/`). FlowModel, the core rules and the renderers never name a library:
/// they read the traits a dialect's kinds carry.
public protocol Dialect: Sendable {
    /// The kinds of flow the dialect's loaders produce.
    static var kinds: [FlowKind] { get }
    /// The rules that apply only to the dialect's flows, in catalogue order (`RuleRegistry` lists
    /// them after the core rules).
    static var rules: [any Rule.Type] { get }
    /// The dialect's parts of core rules (checks of what only its flows carry).
    static var ruleExtensions: [any RuleExtension.Type] { get }
    /// The dialect's enrichment pass, run once every file of a run is loaded, over the whole graph
    /// (linking what one file defines to what another uses).
    static func link(_ graph: inout FlowGraph)
    /// The files of its own the dialect reads, with their per-file loader (`*.rb`: `ElevateLoader`);
    /// none for a dialect read from Swift (`SwiftDialect`). Discovery and `SourceLoader` ask here.
    static var fileTypes: [SourceFileType] { get }
}

extension Dialect {
    public static var ruleExtensions: [any RuleExtension.Type] { [] }
    public static var fileTypes: [SourceFileType] { [] }
    public static func link(_ graph: inout FlowGraph) {}
}

/// A dialect whose flows (or what they link to) are written in Swift: its reader gets every Swift
/// file of the run, parsed once by swift-syntax for all of them.
protocol SwiftDialect: Dialect {
    /// The dialect's flows (or implementations) in the run's Swift files.
    static func read(_ files: [ParsedSwiftFile]) -> FlowGraph
    /// Words every Swift file defining or using the dialect's flows holds (its type, protocol and
    /// member names): a file with none of any dialect's, and no name connecting it to one that has,
    /// is not parsed (`SwiftRelevance`).
    static var relevantWords: [String] { get }
}

/// Every dialect FlowLens reads. Adding a flow library is a new `FlowLoaders/<Library>/` folder and
/// one line here; its rule also has a generated page in docs/rules/ and is named by the tests that pin the catalogue
/// (docs/architecture.md counts the files).
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

    /// Every dialect's enrichment pass, in the order of `all`: `Pipeline`'s link stage, run once
    /// every file of a run is read (`SourceLoader.read`), since it joins what one file defines to
    /// what another uses.
    public static func link(_ graph: inout FlowGraph) {
        for dialect in all { dialect.link(&graph) }
    }

    /// The dialects that read Swift, in the order of `all` (their readers run in this order).
    static var swift: [any SwiftDialect.Type] { all.compactMap { $0 as? any SwiftDialect.Type } }
}

/// Every rule FlowLens has, in catalogue order.
public enum RuleRegistry {
    /// All rules, in the order `flowlens rules`, SARIF and docs/rules/ list them: the core rules
    /// (`CoreRules`), then each dialect's own (`<Library>/Rules/`, listed by its `Dialect`).
    public static let rules: [any Rule.Type] = CoreRules.all + Dialects.all.flatMap { $0.rules }

    /// The descriptions of all rules: those `rules` run on flows, then the conformance rules that
    /// `flowlens trace` applies to recorded runs (`TraceRules`), so that every rule id is listed,
    /// configured and described in one catalogue.
    public static var descriptions: [RuleDescription] { rules.map { $0.description } + TraceRules.descriptions }

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
