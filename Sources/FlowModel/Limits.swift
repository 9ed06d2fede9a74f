/// The bounds that keep FlowLens's work on any input finite and small: a file past one of them is
/// an `invalid-input` finding ("nested deeper than 64 levels at line 12") instead of a crash, a
/// stalled CI job or a report of hundreds of megabytes. The README's "Reliability" section lists
/// them; `.flowlens.yml` `limits:` changes them.
public struct Limits: Hashable, Sendable, Codable {
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

    private enum Keys: String, CodingKey { case nesting, squareBrackets, syntaxDepth, yamlAliasNodes, fileBytes, findingsPerKey }

    /// Reads the limits a configuration sets; the others keep their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func read(_ key: Keys, _ value: inout Int) throws {
            guard let given = try container.decodeIfPresent(Int.self, forKey: key) else { return }
            guard given > 0 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(key.stringValue)' must be a positive number")
            }
            value = given
        }
        try read(.nesting, &nesting)
        try read(.squareBrackets, &squareBrackets)
        try read(.syntaxDepth, &syntaxDepth)
        try read(.yamlAliasNodes, &yamlAliasNodes)
        try read(.fileBytes, &fileBytes)
        try read(.findingsPerKey, &findingsPerKey)
    }

    /// Every limit, by its name in `.flowlens.yml`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(nesting, forKey: .nesting)
        try container.encode(squareBrackets, forKey: .squareBrackets)
        try container.encode(syntaxDepth, forKey: .syntaxDepth)
        try container.encode(yamlAliasNodes, forKey: .yamlAliasNodes)
        try container.encode(fileBytes, forKey: .fileBytes)
        try container.encode(findingsPerKey, forKey: .findingsPerKey)
    }
}
