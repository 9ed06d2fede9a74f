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
struct YAMLTree {
    /// The document's root node.
    let root: Node
    /// Composed with the basic resolver: a plain scalar has no tag of its own, whatever Yams says.
    let plainScalarsUntagged: Bool

    /// The single document of `text`; nil for an empty one. Throws Yams's errors.
    static func compose(_ text: String) throws -> YAMLTree? {
        if !text.utf8.contains(UInt8(ascii: "!")), let root = try? Yams.compose(yaml: text, Resolver.basic) {
            return YAMLTree(root: root, plainScalarsUntagged: true)
        }
        return try Yams.compose(yaml: text).map { YAMLTree(root: $0, plainScalarsUntagged: false) }
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
    /// The document was composed with the basic resolver (`YAMLTree`): plain scalars are typed here.
    let plainScalarsUntagged: Bool
    private(set) var findings: [Finding] = []

    init(file: String, plainScalarsUntagged: Bool) {
        self.file = file
        self.plainScalarsUntagged = plainScalarsUntagged
    }

    /// The resolved tag (`str`, `int`, `null` ...) of `node`: how a plain scalar such as `3` or `~`
    /// is typed, as Yams's default resolver types it.
    func tag(_ node: Node) -> Tag.Name {
        if plainScalarsUntagged, case let .scalar(scalar) = node, scalar.style == .plain {
            return YAMLTree.implicitTag(of: scalar.string)
        }
        return Tag.Name(rawValue: node.tag.rawValue)
    }

    func location(_ node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ message: String, at node: Node) {
        findings.append(.invalidInput(message, at: location(node)))
    }

    mutating func error(_ message: String, at location: SourceLocation) {
        findings.append(.invalidInput(message, at: location))
    }

    /// The entries of a mapping, each key a string. Keys outside `allowed` (and not `x-` extensions)
    /// are reported. Returns nil, after reporting, when `node` is not a mapping.
    mutating func mapping(_ node: Node, what: String, allowed: Set<String>? = nil) -> Fields? {
        guard let mapping = node.mapping else {
            error("\(what) must be a mapping, found \(describe(node))", at: node)
            return nil
        }
        var fields = Fields(node: node)
        fields.entries.reserveCapacity(mapping.count)
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
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
                   !mapping.contains(where: { $0.key.scalar?.string == meant }) {
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
    mutating func string(_ node: Node, what: String) -> String? {
        guard let scalar = node.scalar, tag(node) != .null else {
            error("\(what) must be a string, found \(describe(node))", at: node)
            return nil
        }
        guard !scalar.string.isEmpty else {
            error("\(what) must not be empty", at: node)
            return nil
        }
        return scalar.string
    }

    /// A scalar string that may be null/empty (an unknown type).
    mutating func optionalString(_ node: Node, what: String) -> String?? {
        if let scalar = node.scalar {
            if tag(node) == .null || scalar.string.isEmpty { return .some(nil) }
            return .some(scalar.string)
        }
        error("\(what) must be a string, found \(describe(node))", at: node)
        return nil
    }

    /// A type name: a string, or null/empty for an unknown type. An unquoted `[T]` is a YAML list,
    /// the most common slip in this format, so it gets its own message.
    mutating func typeName(_ node: Node, what: String) -> TypeName?? {
        if let items = node.sequence, items.count == 1, let inner = items.first?.scalar?.string {
            error("\(what) must be a string: quote array types, as in \"[\(inner)]\" (unquoted, YAML reads [\(inner)] as a list)", at: node)
            return nil
        }
        if let items = node.mapping, items.count == 1, let pair = items.first,
           let k = pair.key.scalar?.string, let v = pair.value.scalar?.string {
            error("\(what) must be a string: quote dictionary types, as in \"[\(k): \(v)]\"", at: node)
            return nil
        }
        if node.scalar != nil, [Tag.Name.int, .float, .bool].contains(tag(node)) {
            error("\(what) must be a type name such as String, found \(describe(node)); to give a value, write {value: \(node.scalar!.string)}", at: node)
            return nil
        }
        guard case let .some(text) = optionalString(node, what: what) else { return nil }
        return .some(text.flatMap(TypeName.init))
    }

    mutating func bool(_ node: Node, what: String) -> Bool? {
        if tag(node) == .bool, let value = node.bool { return value }
        error("\(what) must be true or false, found \(describe(node))", at: node)
        return nil
    }

    mutating func integer(_ node: Node, what: String) -> Int? {
        if tag(node) == .int, let value = node.int { return value }
        error("\(what) must be an integer, found \(describe(node))", at: node)
        return nil
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case let .scalar(scalar):
            switch tag(node) {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .float: return "a number"
            default: return "'\(scalar.string)'"
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
        let keyNode: Node
        let value: Node
    }

    let node: Node
    var entries: [Entry] = []

    // By position, so that a look-up copies the one node it returns, not the whole entry (for a
    // flow of 100,000 steps these copies were a tenth of reading it).
    subscript(key: String) -> Node? {
        for i in entries.indices where entries[i].key == key { return entries[i].value }
        return nil
    }

    func keyNode(_ key: String) -> Node? {
        for i in entries.indices where entries[i].key == key { return entries[i].keyNode }
        return nil
    }
}
