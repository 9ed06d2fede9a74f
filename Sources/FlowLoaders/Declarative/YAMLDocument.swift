import FlowModel
import Yams

/// A composed YAML (or JSON) document, and how its plain scalars are typed.
///
/// Yams's default resolver types every untagged plain scalar (`3`, `true`, `~`) by trying seven
/// `NSRegularExpression`s on it, and it does so for every mapping key while composing (its
/// duplicate-key check hashes keys with their types): most of the time of loading a large flow.
/// A document with no `!` in its text can carry no explicit tag, so it is composed with Yams's
/// basic resolver (no regular expressions: every plain scalar is a string to Yams) and
/// `YAMLReader.tag(_:)` types the plain scalars the reader asks about itself, with the default rules
/// (`YAMLTree.implicitTag(of:)`). A document with a `!`, or one that the basic resolver rejects (its
/// duplicate-key check sees `1` and `"1"` as one key), is composed again with the default resolver,
/// so every error, type and message stays what the default resolver gives.
///
/// Composed, a document is `YAMLNodes` (see there for when libyaml's events are read directly, with
/// no Yams tree at all), checked against `YAMLBudget` before anything walks it.
struct YAMLTree {
    /// The document's nodes.
    let nodes: YAMLNodes
    /// Composed with the basic resolver: a plain scalar has no tag of its own, whatever Yams says.
    let plainScalarsUntagged: Bool

    /// The document's root node.
    var root: YAMLNode { nodes.root }

    /// Thrown for a document over `YAMLBudget`'s bounds: `finding` says which.
    struct OverBudget: Error {
        let finding: Finding
    }

    /// The single document of `text`; nil for an empty one. Throws Yams's errors, and `OverBudget`.
    static func compose(_ text: String, limits: Limits, file: String) throws -> YAMLTree? {
        let bytes = text.utf8.count
        if !text.utf8.contains(UInt8(ascii: "!")) {
            switch YAMLNodes.composedFromEvents(text) {
            case .empty:
                return nil
            case let .document(nodes):
                if let problem = YAMLBudget.check(nodes, sourceBytes: bytes, limits: limits, file: file) { throw OverBudget(finding: problem) }
                return YAMLTree(nodes: nodes, plainScalarsUntagged: true)
            case .needsYams:
                if let root = try? Yams.compose(yaml: text, Resolver.basic) {
                    return try converted(root, plainScalarsUntagged: true, bytes: bytes, limits: limits, file: file)
                }
            }
        }
        return try Yams.compose(yaml: text).map { try converted($0, plainScalarsUntagged: false, bytes: bytes, limits: limits, file: file) }
    }

    /// A tree Yams composed, bounded and then converted (converting expands its aliases).
    private static func converted(_ root: Node, plainScalarsUntagged: Bool, bytes: Int, limits: Limits, file: String) throws -> YAMLTree {
        if let problem = YAMLBudget.check(root, sourceBytes: bytes, limits: limits, file: file) { throw OverBudget(finding: problem) }
        guard let nodes = YAMLNodes(converting: root, resolved: !plainScalarsUntagged) else {
            throw OverBudget(finding: .invalidInput("the document has more than 2³¹ nodes", at: SourceLocation(file: file, line: 1, column: 1)))
        }
        return YAMLTree(nodes: nodes, plainScalarsUntagged: plainScalarsUntagged)
    }

    /// The tag YAML 1.1's default rules give an untagged plain scalar: what `Resolver.default` says,
    /// asked only for the strings that can match one of its rules. Every rule (bool, int, float,
    /// merge, null, timestamp, value) matches from the start of the string, and each alternative
    /// begins with one of the characters below, or matches the empty string (null); those starting
    /// with a letter are booleans or nulls, at most five characters.
    static func implicitTag(of string: String) -> Tag.Name {
        guard let first = string.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: "="):
            break
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
             UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            // ICU's `$` also matches before one line terminator at the end (at most 2 bytes more).
            guard string.utf8.count <= 5 + 3 else { return .str }
        default:
            return .str
        }
        return Resolver.default.resolveTag(of: Node.scalar(.init(string)))
    }
}

/// Strict, position-aware access to a composed YAML/JSON document.
///
/// Every problem becomes an `invalid-input` finding at the node's line and column; reading goes on
/// with what is valid, so one typo does not hide the rest of the file.
struct YAMLReader {
    let file: String
    /// The document read.
    let nodes: YAMLNodes
    /// The document was composed with the basic resolver (`YAMLTree`): plain scalars are typed here.
    let plainScalarsUntagged: Bool
    private(set) var findings: [Finding] = []

    init(file: String, tree: YAMLTree) {
        self.file = file
        nodes = tree.nodes
        plainScalarsUntagged = tree.plainScalarsUntagged
    }

    /// The resolved tag (`str`, `int`, `null` ...) of `node`: how a plain scalar such as `3` or `~`
    /// is typed, as Yams's default resolver types it.
    func tag(_ node: YAMLNode) -> Tag.Name {
        if plainScalarsUntagged, nodes.isPlainScalar(node), let text = nodes.string(node) {
            return YAMLTree.implicitTag(of: text)
        }
        return nodes.tag(node)
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        let (line, column) = nodes.position(node)
        return SourceLocation(file: file, line: line, column: column)
    }

    mutating func error(_ message: String, at node: YAMLNode) {
        findings.append(.invalidInput(message, at: location(node)))
    }

    mutating func error(_ message: String, at location: SourceLocation) {
        findings.append(.invalidInput(message, at: location))
    }

    /// The entries of a mapping, each key a string. Keys outside `allowed` (and not `x-` extensions)
    /// are reported. Returns nil, after reporting, when `node` is not a mapping.
    mutating func mapping(_ node: YAMLNode, what: String, allowed: Set<String>? = nil) -> Fields? {
        guard let mapping = nodes.pairs(node) else {
            error("\(what) must be a mapping, found \(describe(node))", at: node)
            return nil
        }
        var fields = Fields(node: node)
        fields.entries.reserveCapacity(mapping.count)
        for (keyNode, value) in mapping {
            guard let key = nodes.string(keyNode) else {
                error("\(what) keys must be strings", at: keyNode)
                continue
            }
            if key.hasPrefix("x-") { continue }
            if let allowed, !allowed.contains(key) {
                let hint = nearest(key, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
                var finding = Finding.invalidInput("unknown key '\(key)' in \(what)\(hint)", at: location(keyNode))
                // Renaming is certain only with one closest key that the mapping does not have already
                // (two equal keys are a duplicate-key error).
                if let meant = Spelling.unique(to: key, in: allowed),
                   !mapping.contains(where: { nodes.string($0.key) == meant }) {
                    finding.fix = Fix.rename(key, to: meant, at: location(keyNode))
                }
                findings.append(finding)
                continue
            }
            fields.entries.append(Fields.Entry(key: key, keyNode: keyNode, value: value))
        }
        return fields
    }

    /// A scalar read as a non-empty string; reports and returns nil otherwise.
    mutating func string(_ node: YAMLNode, what: String) -> String? {
        guard let text = nodes.string(node), tag(node) != .null else {
            error("\(what) must be a string, found \(describe(node))", at: node)
            return nil
        }
        guard !text.isEmpty else {
            error("\(what) must not be empty", at: node)
            return nil
        }
        return text
    }

    /// A scalar string that may be null/empty (an unknown type).
    mutating func optionalString(_ node: YAMLNode, what: String) -> String?? {
        if let text = nodes.string(node) {
            if tag(node) == .null || text.isEmpty { return .some(nil) }
            return .some(text)
        }
        error("\(what) must be a string, found \(describe(node))", at: node)
        return nil
    }

    /// A type name: a string, or null/empty for an unknown type. An unquoted `[T]` is a YAML list,
    /// the most common slip in this format, so it gets its own message.
    mutating func typeName(_ node: YAMLNode, what: String) -> TypeName?? {
        if let items = nodes.items(node), items.count == 1, let inner = nodes.string(items[0]) {
            error("\(what) must be a string: quote array types, as in \"[\(inner)]\" (unquoted, YAML reads [\(inner)] as a list)", at: node)
            return nil
        }
        if let items = nodes.pairs(node), items.count == 1, let k = nodes.string(items[0].key), let v = nodes.string(items[0].value) {
            error("\(what) must be a string: quote dictionary types, as in \"[\(k): \(v)]\"", at: node)
            return nil
        }
        if let text = nodes.string(node), [Tag.Name.int, .float, .bool].contains(tag(node)) {
            error("\(what) must be a type name such as String, found \(describe(node)); to give a value, write {value: \(text)}", at: node)
            return nil
        }
        guard case let .some(text) = optionalString(node, what: what) else { return nil }
        if let text, TypeName.nestsTooDeeply(text) {
            // Reported, and read as an unknown type: the key is still written or read.
            error("\(what) nests its brackets deeper than \(TypeName.maximumNesting) levels", at: node)
            return .some(nil)
        }
        return .some(text.flatMap(TypeName.init))
    }

    mutating func bool(_ node: YAMLNode, what: String) -> Bool? {
        if tag(node) == .bool, let text = nodes.string(node), let value = Bool.construct(from: Node.Scalar(text)) { return value }
        error("\(what) must be true or false, found \(describe(node))", at: node)
        return nil
    }

    mutating func integer(_ node: YAMLNode, what: String) -> Int? {
        if tag(node) == .int, let text = nodes.string(node), let value = Int.construct(from: Node.Scalar(text)) { return value }
        error("\(what) must be an integer, found \(describe(node))", at: node)
        return nil
    }

    func describe(_ node: YAMLNode) -> String {
        switch nodes.kind(node) {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar:
            switch tag(node) {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .float: return "a number"
            // A bounded excerpt: a file that is one long scalar must not be copied into the finding.
            default: return "'\(Excerpt.quote(nodes.string(node)!))'"
            }
        }
    }

    private func nearest(_ key: String, in allowed: Set<String>) -> String? {
        Spelling.closest(to: key, in: allowed)
    }
}

/// The string-keyed entries of one mapping, in document order.
struct Fields {
    struct Entry {
        let key: String
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    let node: YAMLNode
    var entries: [Entry] = []

    subscript(key: String) -> YAMLNode? {
        for i in entries.indices where entries[i].key == key { return entries[i].value }
        return nil
    }

    func keyNode(_ key: String) -> YAMLNode? {
        for i in entries.indices where entries[i].key == key { return entries[i].keyNode }
        return nil
    }
}
