// libyaml, as Yams builds and links it: its module is visible to every target that depends on Yams
// (SwiftPM passes the module maps of a dependency's C targets on). Read here for its events, which
// Yams does not make public.
import CYaml
import FlowModel
import Foundation
import Yams

/// A node of a composed document: its number in `YAMLNodes`.
typealias YAMLNode = Int

/// A composed YAML (or JSON) document, its nodes in arrays and addressed by number.
///
/// The flow reader walks every node of a file once or twice, and a flow file of 100,000 steps has
/// millions: as Yams's `Node` values (an enum of reference-counted structs, each with a `Tag` object)
/// composing, bounding, walking and freeing the tree was more than half the time of checking it.
/// Here a node is a number; its kind, style, position and text or children are entries of arrays.
///
/// A document is composed from libyaml's events directly when nothing in it needs Yams: no `!` in the
/// text (no explicit tags), no anchors or aliases, one document, every mapping key a scalar and no two
/// keys of a mapping the same text. That is what Yams, with its basic resolver, would compose, node
/// for node (`composedFromEvents`). Any other document, and any libyaml error, is composed by Yams as
/// before (`YAMLTree.compose`), so every error, tag and message is Yams's, and converted
/// (`init(converting:resolved:)`).
struct YAMLNodes {
    enum Kind: UInt8 {
        case scalar, mapping, sequence
    }

    /// One node, in 32-bit fields: past 2³¹ nodes, children, lines or columns `add` and `close`
    /// refuse (the event path leaves the text to Yams; converting Yams's tree fails with a finding).
    private struct Record {
        var kind: Kind
        /// libyaml's scalar style (`Node.Scalar.Style`'s raw value); 0 for a collection.
        var style: UInt8
        /// 1 for the root.
        var depth: Int32
        var line: Int32
        var column: Int32
        /// A scalar: its index in `strings`. A collection: where its children start in `children`
        /// (a mapping's as key, value, key, value …).
        var first: Int32
        /// A collection's number of children (twice the pairs of a mapping).
        var count: Int32
    }

    private var records: [Record] = []
    private var strings: [String] = []
    private var children: [Int32] = []
    /// The resolved tag of each node, when the document was composed by Yams with its default
    /// resolver; nil when every node's tag follows from its kind (`str`, `map`, `seq`: the basic
    /// resolver's, and what libyaml's events give a document without tags).
    private var tags: [Tag.Name]?
    /// The document's root.
    private(set) var root: YAMLNode = 0

    // MARK: - Reading

    var count: Int { records.count }

    func kind(_ node: YAMLNode) -> Kind { records[node].kind }

    /// The text of a scalar; nil for a collection.
    func string(_ node: YAMLNode) -> String? {
        let record = records[node]
        return record.kind == .scalar ? strings[Int(record.first)] : nil
    }

    /// libyaml's style of a scalar (`Node.Scalar.Style`'s raw value); 0 for a collection.
    func style(_ node: YAMLNode) -> UInt8 { records[node].style }

    /// Whether `node` is a plain (unquoted, not block) scalar.
    func isPlainScalar(_ node: YAMLNode) -> Bool {
        records[node].kind == .scalar && records[node].style == UInt8(Node.Scalar.Style.plain.rawValue)
    }

    /// The tag the document was composed with (for a plain scalar of a document composed with the
    /// basic resolver, `str`: `YAMLReader.tag(_:)` types those itself).
    func tag(_ node: YAMLNode) -> Tag.Name {
        if let tags { return tags[node] }
        switch records[node].kind {
        case .scalar: return .str
        case .mapping: return .map
        case .sequence: return .seq
        }
    }

    /// Line and column (from 1; columns in Unicode scalars, as libyaml counts them).
    func position(_ node: YAMLNode) -> (line: Int, column: Int) {
        (Int(records[node].line), Int(records[node].column))
    }

    /// Nesting depth: 1 for the root.
    func depth(_ node: YAMLNode) -> Int { Int(records[node].depth) }

    /// A sequence's items; nil for any other node.
    func items(_ node: YAMLNode) -> Items? {
        let record = records[node]
        guard record.kind == .sequence else { return nil }
        return Items(nodes: children[Int(record.first)..<Int(record.first + record.count)])
    }

    /// A mapping's entries in document order; nil for any other node.
    func pairs(_ node: YAMLNode) -> Pairs? {
        let record = records[node]
        guard record.kind == .mapping else { return nil }
        return Pairs(nodes: children[Int(record.first)..<Int(record.first + record.count)])
    }

    /// A sequence's items, from 0.
    struct Items: RandomAccessCollection {
        fileprivate let nodes: ArraySlice<Int32>
        var startIndex: Int { 0 }
        var endIndex: Int { nodes.count }
        subscript(position: Int) -> YAMLNode { Int(nodes[nodes.startIndex + position]) }
    }

    /// A mapping's entries, from 0.
    struct Pairs: RandomAccessCollection {
        fileprivate let nodes: ArraySlice<Int32>
        var startIndex: Int { 0 }
        var endIndex: Int { nodes.count / 2 }
        subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) {
            (Int(nodes[nodes.startIndex + 2 * position]), Int(nodes[nodes.startIndex + 2 * position + 1]))
        }
    }

    // MARK: - Building

    private init() {}

    private mutating func add(_ kind: Kind, style: UInt8, depth: Int, line: Int, column: Int, string: String? = nil) -> Int32? {
        guard records.count < Int32.max, line < Int32.max, column < Int32.max, depth < Int32.max else { return nil }
        var first: Int32 = 0
        if let string {
            first = Int32(strings.count)
            strings.append(string)
        }
        records.append(Record(kind: kind, style: style, depth: Int32(depth), line: Int32(line), column: Int32(column), first: first, count: 0))
        return Int32(records.count - 1)
    }

    /// Gives collection `node` the children at the end of `pending` from `start`, and drops them there.
    private mutating func close(_ node: Int32, children pending: inout [Int32], from start: Int) -> Bool {
        guard children.count + (pending.count - start) < Int32.max else { return false }
        records[Int(node)].first = Int32(children.count)
        records[Int(node)].count = Int32(pending.count - start)
        children += pending[start...]
        pending.removeSubrange(start...)
        return true
    }

    /// What composing `text` from libyaml's events gave.
    enum Events {
        /// The document, node for node what Yams composes with its basic resolver.
        case document(YAMLNodes)
        /// No document (an empty file, or only comments).
        case empty
        /// Yams must compose it: a tag, an anchor or alias, a key that is not a scalar or repeats
        /// another, more than one document, or a libyaml error (whose message is Yams's to give).
        case needsYams
    }

    /// `text` composed from libyaml's events, as `Yams.compose(yaml: text, Resolver.basic)` would
    /// compose it when that gives the same tree (see `Events`).
    static func composedFromEvents(_ text: String) -> Events {
        if text.utf8.isEmpty { return .empty }  // libyaml wants a buffer; Yams finds no document
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard let base = bytes.baseAddress, yaml_parser_initialize(&parser) == 1 else { return .needsYams }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, base, bytes.count)
            var composer = EventComposer()
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return .needsYams }
                let step = composer.take(event)
                yaml_event_delete(&event)
                switch step {
                case .more: continue
                case let .done(result): return result
                }
            }
        }
    }

    /// Builds the nodes from events, in document order (so `records` is in pre-order: a collection
    /// before its children).
    private struct EventComposer {
        enum Step {
            case more
            case done(Events)
        }

        var nodes = YAMLNodes()
        /// Open collections: the node, and where its children start in `pending`.
        var open: [(node: Int32, start: Int)] = []
        /// Children of the open collections, innermost last.
        var pending: [Int32] = []
        var documents = 0
        var composed = false

        mutating func take(_ event: yaml_event_t) -> Step {
            let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
            switch event.type {
            case YAML_STREAM_START_EVENT:
                return .more
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                return documents > 1 ? .done(.needsYams) : .more
            case YAML_DOCUMENT_END_EVENT:
                return .more
            case YAML_STREAM_END_EVENT:
                return .done(composed ? .document(nodes) : .empty)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                guard scalar.anchor == nil, scalar.tag == nil else { return .done(.needsYams) }
                let bytes = UnsafeBufferPointer(start: UnsafePointer(scalar.value), count: scalar.length)
                // Yams decodes with Foundation, which drops a byte order mark at the start.
                let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? String(bytes: bytes, encoding: .utf8)! : String(decoding: bytes, as: UTF8.self)
                guard let node = nodes.add(.scalar, style: UInt8(truncatingIfNeeded: scalar.style.rawValue),
                                           depth: open.count + 1, line: line, column: column, string: text) else { return .done(.needsYams) }
                return added(node)
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                return opened(.sequence, anchor: start.anchor, tag: start.tag, line: line, column: column)
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                return opened(.mapping, anchor: start.anchor, tag: start.tag, line: line, column: column)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let (node, start) = open.popLast() else { return .done(.needsYams) }
                if event.type == YAML_MAPPING_END_EVENT, !keysAreDistinctScalars(pending[start...]) { return .done(.needsYams) }
                guard nodes.close(node, children: &pending, from: start) else { return .done(.needsYams) }
                return added(node)
            default:  // an alias, or an event libyaml does not make
                return .done(.needsYams)
            }
        }

        /// A collection starts: its children follow until its end event.
        private mutating func opened(_ kind: Kind, anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?,
                                     line: Int, column: Int) -> Step {
            guard anchor == nil, tag == nil,
                  let node = nodes.add(kind, style: 0, depth: open.count + 1, line: line, column: column) else { return .done(.needsYams) }
            open.append((node, pending.count))
            return .more
        }

        /// A finished node joins its parent's children, or is the root.
        private mutating func added(_ node: Int32) -> Step {
            if open.isEmpty {
                nodes.root = Int(node)
                composed = true
            } else {
                pending.append(node)
            }
            return .more
        }

        /// Whether every key among `entries` (key, value, key, value …) is a scalar and no two have
        /// the same text: Yams's duplicate check (with the basic resolver every scalar's tag is
        /// `str`, so two keys are one when their texts are equal Swift strings) finds nothing.
        private func keysAreDistinctScalars(_ entries: ArraySlice<Int32>) -> Bool {
            var keys: [String] = []
            keys.reserveCapacity(entries.count / 2)
            var i = entries.startIndex
            while i < entries.endIndex {
                guard let key = nodes.string(Int(entries[i])) else { return false }
                keys.append(key)
                i += 2
            }
            if keys.count <= 8 {
                for a in keys.indices { for b in keys.indices where b > a && keys[a] == keys[b] { return false } }
                return true
            }
            return Set(keys).count == keys.count
        }
    }

    /// A tree Yams composed, as nodes: `resolved` keeps each node's tag (a document composed with the
    /// default resolver); otherwise tags follow from the kinds. Aliases are expanded (as in the tree):
    /// the caller has bounded the tree first (`YAMLBudget`). Nil past 2³¹ nodes.
    init?(converting root: Node, resolved: Bool) {
        if resolved { tags = [] }
        var pending: [Int32] = []
        guard let root = convert(root, depth: 1, pending: &pending) else { return nil }
        self.root = Int(root)
    }

    /// Recursive, as deep as the tree (which `YAMLBudget` has bounded by `Limits.nesting`).
    private mutating func convert(_ node: Node, depth: Int, pending: inout [Int32]) -> Int32? {
        let line = node.mark?.line ?? 1, column = node.mark?.column ?? 1
        let added: Int32?
        switch node {
        case let .scalar(scalar):
            added = add(.scalar, style: UInt8(truncatingIfNeeded: scalar.style.rawValue), depth: depth, line: line, column: column, string: scalar.string)
        case .sequence:
            added = add(.sequence, style: 0, depth: depth, line: line, column: column)
        case .mapping:
            added = add(.mapping, style: 0, depth: depth, line: line, column: column)
        case .alias:
            // Only an emitter's tree holds one: Yams composes an alias as a copy of its anchor.
            added = add(.scalar, style: 0, depth: depth, line: line, column: column, string: "")
        }
        guard let id = added else { return nil }
        tags?.append(Tag.Name(rawValue: node.tag.rawValue))
        let start = pending.count
        switch node {
        case let .sequence(sequence):
            for item in sequence {
                guard let child = convert(item, depth: depth + 1, pending: &pending) else { return nil }
                pending.append(child)
            }
        case let .mapping(mapping):
            for (key, value) in mapping {
                guard let k = convert(key, depth: depth + 1, pending: &pending) else { return nil }
                pending.append(k)
                guard let v = convert(value, depth: depth + 1, pending: &pending) else { return nil }
                pending.append(v)
            }
        case .scalar, .alias:
            return id
        }
        return close(id, children: &pending, from: start) ? id : nil
    }
}

/// For the tests and the `yaml` and `json` fuzz targets: composing a text from libyaml's events
/// against Yams composing it with its basic resolver (what the event path must equal, node for node).
@_spi(Fuzzing) public enum YAMLComposition {
    /// What the comparison found.
    public enum Comparison: Equatable, Sendable {
        /// The events composed a document, the same as Yams's.
        case composed
        /// Neither found a document.
        case empty
        /// The event path left the text to Yams (see `YAMLNodes.Events`).
        case leftToYams
        /// They differ: how.
        case differs(String)
    }

    /// `text` composed both ways.
    public static func compare(_ text: String) -> Comparison {
        let yams = Result { try Yams.compose(yaml: text, Resolver.basic) }
        switch YAMLNodes.composedFromEvents(text) {
        case .needsYams:
            return .leftToYams
        case .empty:
            if case .success(.none) = yams { return .empty }
            return .differs("no document from the events; Yams: \(yams)")
        case let .document(nodes):
            guard case let .success(root?) = yams else { return .differs("a document from the events; Yams: \(yams)") }
            guard let converted = YAMLNodes(converting: root, resolved: false) else { return .differs("Yams's tree not converted") }
            let (mine, theirs) = (nodes.outline(), converted.outline())
            guard mine != theirs else { return .composed }
            let first = (0..<min(mine.count, theirs.count)).first { mine[$0] != theirs[$0] } ?? min(mine.count, theirs.count)
            return .differs("node \(first): \(first < mine.count ? mine[first] : "none") from the events, \(first < theirs.count ? theirs[first] : "none") from Yams")
        }
    }
}

extension YAMLNodes {
    /// Every node from the root down, one line each in document order: depth, position, kind,
    /// style, tag, text or number of children.
    func outline() -> [String] {
        var lines: [String] = []
        var stack = [root]
        while let node = stack.popLast() {
            let (line, column) = position(node)
            var text = "\(depth(node)) \(line):\(column) \(kind(node)) style \(style(node)) tag \(tag(node).rawValue)"
            if let string = string(node) { text += " \(string.debugDescription)" }
            if let items = items(node) {
                text += " [\(items.count)]"
                stack += items.reversed()
            }
            if let pairs = pairs(node) {
                text += " {\(pairs.count)}"
                stack += pairs.reversed().flatMap { [$0.value, $0.key] }
            }
            lines.append(text)
        }
        return lines
    }
}
