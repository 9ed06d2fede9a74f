/// The bounds that keep FlowLens's work on any input finite and small: a file past one of them is
/// an `invalid-input` finding ("nested deeper than 64 levels at line 12") instead of a crash, a
/// stalled CI job or a report of hundreds of megabytes. docs/reliability.md lists
/// them; `.flowlens.yml` `limits:` changes them.
public struct Limits: Hashable, Sendable {
    /// The built-in limits.
    public static let `default` = Limits()

    /// Brackets in Swift, string interpolations in Ruby, parentheses and `!` in PlantUML `!if`
    /// expressions, and YAML collections nested deeper than this make the file `invalid-input`.
    /// Every parser that recurses is bounded by it, so no input can overflow the stack.
    public var nesting: Int = 64
    /// Square brackets open at once in Swift (`[[[[1]]]]`, `[([(1)])]`; a closure's `{` starts the
    /// count again): swift-syntax's look-ahead takes time exponential in their number (20 take close
    /// to a minute).
    public var squareBrackets: Int = 10
    /// Depth of a Swift file's syntax tree, which the Swift readers walk recursively. Without deep
    /// brackets only a long chain (`flow.add(A()).add(B())…`, about two levels a call) gets near it.
    public var syntaxDepth: Int = 2_000
    /// Nodes that YAML aliases (`*name`) may add to a document beyond what is written in it (a few
    /// hundred bytes of nested aliases otherwise expand to billions of nodes).
    public var yamlAliasNodes: Int = 100_000
    /// The per-file budget: a file larger than this many bytes is not read.
    public var fileBytes: Int = 16 * 1024 * 1024
    /// Findings of one rule on one data key in one flow beyond this many are summarised in one
    /// finding, so that a report grows with the flow, not with the flow's paths.
    public var findingsPerKey: Int = 20

    /// The built-in limits.
    public init() {}

    /// Every limit by its name in `.flowlens.yml` (`limits:`), in the order files and dumps list them:
    /// the one table the configuration's reader and writer use.
    // Key path literals capture nothing: the table is immutable, though `WritableKeyPath` is not `Sendable`.
    nonisolated(unsafe) public static let settings: [(name: String, path: WritableKeyPath<Limits, Int>)] = [
        ("nesting", \.nesting), ("squareBrackets", \.squareBrackets), ("syntaxDepth", \.syntaxDepth),
        ("yamlAliasNodes", \.yamlAliasNodes), ("fileBytes", \.fileBytes), ("findingsPerKey", \.findingsPerKey),
    ]
}
