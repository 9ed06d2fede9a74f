import FlowModel
import Yams

/// Strict, position-aware access to a composed YAML/JSON document.
///
/// Every problem becomes an `invalid-input` finding at the node's line and column; reading goes on
/// with what is valid, so one typo does not hide the rest of the file.
struct YAMLReader {
    let file: String
    private(set) var findings: [Finding] = []

    init(file: String) { self.file = file }

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
        guard let scalar = node.scalar, node.tagName != .null else {
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
            if node.tagName == .null || scalar.string.isEmpty { return .some(nil) }
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
        if node.scalar != nil, [Tag.Name.int, .float, .bool].contains(node.tagName) {
            error("\(what) must be a type name such as String, found \(describe(node)); to give a value, write {value: \(node.scalar!.string)}", at: node)
            return nil
        }
        guard case let .some(text) = optionalString(node, what: what) else { return nil }
        return .some(text.flatMap(TypeName.init))
    }

    mutating func bool(_ node: Node, what: String) -> Bool? {
        if node.tagName == .bool, let value = node.bool { return value }
        error("\(what) must be true or false, found \(describe(node))", at: node)
        return nil
    }

    mutating func integer(_ node: Node, what: String) -> Int? {
        if node.tagName == .int, let value = node.int { return value }
        error("\(what) must be an integer, found \(describe(node))", at: node)
        return nil
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case let .scalar(scalar):
            switch node.tagName {
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

    subscript(key: String) -> Node? { entries.first { $0.key == key }?.value }

    func keyNode(_ key: String) -> Node? { entries.first { $0.key == key }?.keyNode }
}

extension Node {
    /// The resolved tag (`str`, `int`, `null` ...): how a plain scalar such as `3` or `~` is typed.
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
