import FlowModel
import Yams

/// Reads FlowLens's own format (docs/format.md): YAML, or JSON (checked by a
/// JSON parser, composed by the YAML one, which keeps every node's line and column).
public struct DeclarativeLoader: FlowLoader {
    /// The format versions this loader reads.
    public static let supportedVersions = [1]
    /// The bounds a file must keep to be read (alias expansion, nesting).
    public var limits: Limits

    /// Creates the loader.
    public init(limits: Limits = .default) { self.limits = limits }

    public func load(_ file: InputFile, contents: String) -> FlowGraph {
        let tree: YAMLTree
        do {
            guard let composed = try JSONText.compose(contents, json: file.path.lowercased().hasSuffix(".json"), limits: limits, file: file.displayPath) else {
                return FlowGraph(loadFindings: [.invalidInput("empty file: expected 'version: 1' and 'flows:'", at: SourceLocation(file: file.displayPath, line: 1, column: 1))])
            }
            tree = composed
        } catch let problem as JSONText.Problem {
            return FlowGraph(loadFindings: [problem.finding])
        } catch let problem as YAMLTree.OverBudget {
            return FlowGraph(loadFindings: [problem.finding])
        } catch {
            return FlowGraph(loadFindings: [Self.finding(for: error, file: file.displayPath)])
        }
        var parser = DocumentParser(reader: YAMLReader(file: file.displayPath, tree: tree))
        let flows = parser.parseDocument(tree.root)
        return FlowGraph(flows: flows, loadFindings: parser.reader.findings)
    }

    /// An `invalid-input` finding for a YAML/JSON syntax error, at the position the parser names.
    static func finding(for error: any Error, file: String) -> Finding {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case let YamlError.scanner(context, problem, mark, yaml),
             let YamlError.parser(context, problem, mark, yaml),
             let YamlError.composer(context, problem, mark, yaml):
            if problem.contains("cannot start any token"), isTab(at: mark, in: yaml) {
                return .invalidInput("syntax error: a tab where YAML allows only spaces (YAML never indents with tabs): replace it with spaces", at: at(mark))
            }
            let text = context.map { "\($0.text) at line \($0.mark.line), column \($0.mark.column): " } ?? ""
            return .invalidInput("syntax error: \(text)\(problem)", at: at(mark))
        case let YamlError.reader(problem, offset, _, yaml):
            var location = SourceLocation(file: file, line: 1, column: 1)
            if let offset {
                // Yams counts the offset in Characters (a CRLF is one), and columns count characters.
                for character in yaml.prefix(offset) {
                    if character.isNewline {
                        location.line += 1
                        location.column = 1
                    } else {
                        location.column += 1
                    }
                }
            }
            return .invalidInput("cannot read text: \(problem)", at: location)
        case let YamlError.duplicatedKeysInMapping(duplicates, context):
            // Yams names the first of the equal keys; the finding belongs at the second, the one to remove.
            let first = context.mark
            if duplicates.count == 1, let second = secondKey(duplicates[0], after: first, in: context.text) {
                return .invalidInput("duplicate key '\(duplicates[0])' in a mapping (first at line \(first.line))",
                                     at: SourceLocation(file: file, line: second.line, column: second.column))
            }
            return .invalidInput("duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping", at: at(context.mark))
        default:
            return .invalidInput("cannot parse: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }
}

extension DeclarativeLoader {
    /// Whether the character at `mark` (1-based line and column) of `text` is a tab, or a tab is in
    /// the white space that starts its line.
    static func isTab(at mark: Mark, in text: String) -> Bool {
        guard mark.line >= 1, let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(mark.line - 1).first else { return false }
        let characters = Array(line)
        if mark.column >= 1, mark.column <= characters.count, characters[mark.column - 1] == "\t" { return true }
        return characters.prefix { $0 == " " || $0 == "\t" }.contains("\t")
    }

    /// Where the key `key`, first written at `first` (1-based), is written again in its mapping: later
    /// on the same line (a flow mapping, `{a: 1, a: 2}`), or on a later line at the same column with only
    /// spaces before it (a block mapping). Nil when it cannot be found so.
    static func secondKey(_ key: String, after first: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        guard first.line >= 1, first.line <= lines.count, first.column >= 1 else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"].map { Array($0) }
        func isKey(_ line: [Character], at i: Int) -> Bool {
            guard i < line.count, i == 0 || " \t{,".contains(line[i - 1]) else { return false }
            for spelling in spellings where line.count >= i + spelling.count && Array(line[i..<(i + spelling.count)]) == spelling {
                var j = i + spelling.count
                while j < line.count, line[j] == " " { j += 1 }
                if j < line.count, line[j] == ":" { return true }
            }
            return false
        }
        let firstLine = lines[first.line - 1]
        for i in first.column..<max(first.column, firstLine.count) where isKey(firstLine, at: i) { return (first.line, i + 1) }
        let column = first.column - 1
        for n in first.line..<lines.count {
            let line = lines[n]
            if line.count > column, line[..<column].allSatisfy({ $0 == " " }), isKey(line, at: column) { return (n + 1, column + 1) }
        }
        return nil
    }
}

/// Walks the document and builds flows; every problem is reported through `reader`.
struct DocumentParser {
    var reader: YAMLReader

    private static let topKeys: Set<String> = ["version", "flows"]
    private static let flowKeys: Set<String> = ["name", "id", "description", "data", "outputs", "start", "steps"]
    private static let stepKeys: Set<String> = ["id", "name", "kind", "description", "implementation", "reads", "writes", "next", "group", "flow"]
    private static let transitionKeys: Set<String> = ["to", "when", "otherwise", "label", "type", "kind"]
    private static let groupKeys: Set<String> = ["inputKey", "elementKey", "elementOutputKey", "outputKey", "maxConcurrent", "allowFailure"]
    private static let accessKeys: Set<String> = ["key", "type", "optional"]
    private static let dataKeys: Set<String> = ["type", "value"]
    private static let conditionKeys: Set<String> = ["key", "equals"]
    private static let declarableKinds: [StepKind] = [.start, .end, .fail, .operation, .branch, .join, .group, .subflow]

    init(reader: YAMLReader) { self.reader = reader }

    mutating func parseDocument(_ root: YAMLNode) -> [Flow] {
        guard let top = reader.mapping(root, what: "the document", allowed: Self.topKeys) else { return [] }
        guard let versionNode = top["version"] else {
            reader.error("missing 'version: 1' at the top of the file", at: root)
            return []
        }
        guard let version = reader.integer(versionNode, what: "'version'") else { return [] }
        guard DeclarativeLoader.supportedVersions.contains(version) else {
            // Reading a newer format with the old rules would report nonsense; say so and stop.
            reader.error("unsupported version \(version): this FlowLens reads version 1", at: versionNode)
            return []
        }
        guard let flowsNode = top["flows"] else {
            reader.error("missing 'flows:' (a list of flows)", at: root)
            return []
        }
        guard let flowNodes = reader.nodes.items(flowsNode), !flowNodes.isEmpty else {
            reader.error("'flows' must be a non-empty list", at: flowsNode)
            return []
        }
        var flows: [Flow] = []
        var ids: [String: SourceLocation] = [:]
        for node in flowNodes {
            guard let flow = parseFlow(node) else { continue }
            if let first = ids[flow.id] {
                reader.error("a flow with id '\(flow.id)' is already defined at line \(first.line)", at: reader.location(node))
                continue
            }
            ids[flow.id] = flow.location ?? SourceLocation(file: reader.file)
            flows.append(flow)
        }
        return flows
    }

    private mutating func parseFlow(_ node: YAMLNode) -> Flow? {
        guard let fields = reader.mapping(node, what: "a flow", allowed: Self.flowKeys) else { return nil }
        guard let nameNode = fields["name"] else {
            reader.error("a flow needs a 'name'", at: node)
            return nil
        }
        guard let name = reader.string(nameNode, what: "'name'") else { return nil }
        let id = fields["id"].flatMap { reader.string($0, what: "'id'") } ?? name
        var flow = Flow(id: id, name: name, kind: .declarative, location: reader.location(node))
        flow.summary = fields["description"].flatMap { reader.string($0, what: "'description'") }
        if let data = fields["data"] { flow.initialData = parseData(data) }
        if let outputs = fields["outputs"] { flow.outputs = parseOutputs(outputs) }
        if let start = fields["start"], let entry = reader.string(start, what: "'start'") {
            flow.entries = [entry]
            flow.entryLocation = reader.location(start)
        }
        guard let stepsNode = fields["steps"] else {
            reader.error("flow '\(name)' needs 'steps'", at: node)
            return flow
        }
        guard let stepNodes = reader.nodes.items(stepsNode), !stepNodes.isEmpty else {
            reader.error("'steps' must be a non-empty list", at: stepsNode)
            return flow
        }
        flow.steps.reserveCapacity(stepNodes.count)
        flow.transitions.reserveCapacity(stepNodes.count)
        for stepNode in stepNodes {
            guard let (step, transitions) = parseStep(stepNode) else { continue }
            flow.steps.append(step)
            flow.transitions += transitions
        }
        return flow
    }

    private mutating func parseStep(_ node: YAMLNode) -> (Step, [Transition])? {
        guard let fields = reader.mapping(node, what: "a step", allowed: Self.stepKeys) else { return nil }
        guard let idNode = fields["id"] else {
            reader.error("a step needs an 'id'", at: node)
            return nil
        }
        guard let id = reader.string(idNode, what: "a step 'id'") else { return nil }
        var step = Step(id: id, location: reader.location(node))
        if let name = fields["name"].flatMap({ reader.string($0, what: "'name'") }) { step.name = name }
        step.summary = fields["description"].flatMap { reader.string($0, what: "'description'") }
        step.implementation = fields["implementation"].flatMap { reader.string($0, what: "'implementation'") }

        var declaredKind: StepKind?
        if let kindNode = fields["kind"], let text = reader.string(kindNode, what: "'kind'") {
            if let kind = StepKind(rawValue: text), Self.declarableKinds.contains(kind) {
                declaredKind = kind
            } else {
                reader.error("unknown step kind '\(text)' (expected \(Self.declarableKinds.map(\.rawValue).joined(separator: ", ")))", at: kindNode)
            }
        }
        let reads = fields["reads"].map { parseAccesses($0, what: "'reads'", reading: true) } ?? []
        let writes = fields["writes"].map { parseAccesses($0, what: "'writes'", reading: false) } ?? []

        // Each asked once: a step's fields are looked up by a scan of its entries.
        let groupField = fields["group"], flowField = fields["flow"]
        if groupField != nil, flowField != nil {
            reader.error("a step has either 'group' (run once per element) or 'flow' (run another flow), not both", at: fields.keyNode("flow") ?? node)
        }
        if let groupNode = groupField {
            if let kind = declaredKind, kind != .group {
                reader.error("a step with 'group' has kind group, not \(kind.rawValue)", at: fields.keyNode("group") ?? groupNode)
            }
            step.kind = .group
            if let group = parseGroup(groupNode, elementReads: reads, elementWrites: writes) {
                step.group = group
                step.reads = [group.flowRead]
                step.writes = group.flowWrite.map { [$0] } ?? []
            }
        } else {
            step.reads = reads
            step.writes = writes
        }
        if let flowNode = flowField {
            if let kind = declaredKind, kind != .subflow {
                reader.error("a step with 'flow' has kind subflow, not \(kind.rawValue)", at: fields.keyNode("flow") ?? flowNode)
            }
            step.kind = .subflow
            step.subflow = reader.string(flowNode, what: "'flow'")
            step.subflowLocation = reader.location(flowNode)
        } else if declaredKind == .subflow {
            reader.error("a subflow step needs 'flow: <flow name>'", at: node)
        }
        if groupField == nil, declaredKind == .group {
            reader.error("a group step needs 'group:' with at least inputKey and elementKey", at: node)
        }
        if groupField == nil, flowField == nil, let kind = declaredKind { step.kind = kind }

        var transitions: [Transition] = []
        if let next = fields["next"] {
            if step.kind.isExit {
                reader.error("a\(step.kind == .end ? "n" : "") \(step.kind.rawValue) step leaves the flow and cannot have 'next'", at: fields.keyNode("next") ?? next)
            } else {
                transitions = parseNext(next, from: id)
            }
        }
        return (step, transitions)
    }

    private mutating func parseNext(_ node: YAMLNode, from: String) -> [Transition] {
        if reader.nodes.kind(node) == .scalar {
            guard let to = reader.string(node, what: "'next'") else { return [] }
            return [Transition(from: from, to: to, location: reader.location(node))]
        }
        guard let items = reader.nodes.items(node) else {
            reader.error("'next' must be a step id or a list, found \(reader.describe(node))", at: node)
            return []
        }
        let fanOut = items.count > 1 && items.allSatisfy { reader.nodes.kind($0) == .scalar }
        var transitions: [Transition] = []
        var otherwiseSeen = false
        for item in items {
            if reader.nodes.kind(item) == .scalar {
                guard let to = reader.string(item, what: "a 'next' entry") else { continue }
                transitions.append(Transition(from: from, to: to, kind: fanOut ? .parallel : .normal, location: reader.location(item)))
                continue
            }
            guard let fields = reader.mapping(item, what: "a transition", allowed: Self.transitionKeys) else { continue }
            guard let toNode = fields["to"] else {
                reader.error("a transition needs 'to'", at: item)
                continue
            }
            guard let to = reader.string(toNode, what: "'to'") else { continue }
            var transition = Transition(from: from, to: to, location: reader.location(toNode))
            if let when = fields["when"] { transition.condition = parseCondition(when) }
            if let otherwise = fields["otherwise"], let flag = reader.bool(otherwise, what: "'otherwise'") {
                if !flag {
                    reader.error("'otherwise' can only be true; leave it out instead", at: otherwise)
                } else if fields["when"] != nil {
                    reader.error("a transition has either 'when' or 'otherwise', not both", at: otherwise)
                } else if otherwiseSeen {
                    reader.error("only one transition of a step can be 'otherwise'", at: otherwise)
                } else {
                    otherwiseSeen = true
                    transition.condition = .otherwise
                }
            }
            transition.label = fields["label"].flatMap { reader.string($0, what: "'label'") }
            if let typeNode = fields["type"], case let .some(type) = reader.typeName(typeNode, what: "'type'") {
                transition.carriedType = type
            }
            if let kindNode = fields["kind"], let text = reader.string(kindNode, what: "transition 'kind'") {
                switch text {
                case "normal": transition.kind = .normal
                case "error": transition.kind = .error
                default: reader.error("unknown transition kind '\(text)' (expected normal or error)", at: kindNode)
                }
            }
            transitions.append(transition)
        }
        return transitions
    }

    private mutating func parseCondition(_ node: YAMLNode) -> Condition? {
        if reader.nodes.kind(node) == .scalar {
            return reader.string(node, what: "'when'").map(Condition.expression)
        }
        guard let fields = reader.mapping(node, what: "'when'", allowed: Self.conditionKeys) else { return nil }
        guard let keyNode = fields["key"], let equalsNode = fields["equals"] else {
            reader.error("a structured 'when' needs both 'key' and 'equals'", at: node)
            return nil
        }
        guard let key = reader.string(keyNode, what: "'key'"), let value = reader.nodes.string(equalsNode) else {
            if reader.nodes.kind(equalsNode) != .scalar { reader.error("'equals' must be a string", at: equalsNode) }
            return nil
        }
        return .equals(key: key, value: value)
    }

    private mutating func parseGroup(_ node: YAMLNode, elementReads: [DataAccess], elementWrites: [DataAccess]) -> GroupSpec? {
        guard let fields = reader.mapping(node, what: "'group'", allowed: Self.groupKeys) else { return nil }
        guard let inputNode = fields["inputKey"], let elementNode = fields["elementKey"] else {
            reader.error("'group' needs 'inputKey' (the array) and 'elementKey' (what each run reads)", at: node)
            return nil
        }
        guard let input = reader.string(inputNode, what: "'inputKey'"),
              let element = reader.string(elementNode, what: "'elementKey'") else { return nil }
        var group = GroupSpec(inputKey: input, inputLocation: reader.location(inputNode), elementKey: element,
                              elementReads: elementReads, elementWrites: elementWrites)
        if let n = fields["outputKey"] {
            group.outputKey = reader.string(n, what: "'outputKey'")
            group.outputLocation = reader.location(n)
        }
        if let n = fields["elementOutputKey"] { group.elementOutputKey = reader.string(n, what: "'elementOutputKey'") }
        if let n = fields["maxConcurrent"], let value = reader.integer(n, what: "'maxConcurrent'") {
            if value < 1 { reader.error("'maxConcurrent' must be at least 1", at: n) } else { group.maxConcurrent = value }
        }
        if let n = fields["allowFailure"], let value = reader.bool(n, what: "'allowFailure'") { group.allowFailure = value }
        if group.outputKey != nil, group.elementOutputKey == nil, let n = fields["outputKey"] {
            reader.error("'outputKey' needs 'elementOutputKey': the key each run writes its result to", at: n)
        }
        return group
    }

    /// `{key: Type, ...}` or `[{key, type, optional}, ...]`.
    private mutating func parseAccesses(_ node: YAMLNode, what: String, reading: Bool) -> [DataAccess] {
        if let mapping = reader.nodes.pairs(node) {
            var accesses: [DataAccess] = []
            for (keyNode, value) in mapping {
                guard let key = reader.string(keyNode, what: "a key in \(what)") else { continue }
                guard case let .some(type) = reader.typeName(value, what: "the type of '\(key)'") else { continue }
                accesses.append(DataAccess(key: key, type: type, optional: reading && (type?.isOptional ?? false),
                                           location: reader.location(keyNode)))
            }
            return accesses
        }
        guard let items = reader.nodes.items(node) else {
            reader.error("\(what) must be a mapping of key: Type or a list of {key, type, optional}, found \(reader.describe(node))", at: node)
            return []
        }
        var accesses: [DataAccess] = []
        for item in items {
            guard let fields = reader.mapping(item, what: "an entry of \(what)", allowed: Self.accessKeys) else { continue }
            guard let keyNode = fields["key"] else {
                reader.error("an entry of \(what) needs 'key'", at: item)
                continue
            }
            guard let key = reader.string(keyNode, what: "'key'") else { continue }
            var access = DataAccess(key: key, location: reader.location(keyNode))
            if let typeNode = fields["type"], case let .some(type) = reader.typeName(typeNode, what: "'type'") {
                access.type = type
            }
            if let optionalNode = fields["optional"], let flag = reader.bool(optionalNode, what: "'optional'") {
                if !reading, flag { reader.error("'optional' applies to reads only", at: optionalNode) }
                access.optional = reading && flag
            } else {
                access.optional = reading && (access.type?.isOptional ?? false)
            }
            accesses.append(access)
        }
        return accesses
    }

    /// `outputs: [key, ...]` or `outputs: {key: Type}`: reads by the caller at the end.
    private mutating func parseOutputs(_ node: YAMLNode) -> [DataAccess] {
        if reader.nodes.kind(node) == .mapping { return parseAccesses(node, what: "'outputs'", reading: true) }
        guard let items = reader.nodes.items(node) else {
            reader.error("'outputs' must be a list of keys or a mapping of key: Type", at: node)
            return []
        }
        return items.compactMap { item in
            reader.string(item, what: "an output key").map { DataAccess(key: $0, location: reader.location(item)) }
        }
    }

    /// `data: {key: Type | null | {type, value}}`.
    private mutating func parseData(_ node: YAMLNode) -> [DataAccess] {
        guard let mapping = reader.nodes.pairs(node) else {
            reader.error("'data' must be a mapping of key: Type or key: {type, value}", at: node)
            return []
        }
        var values: [DataAccess] = []
        for (keyNode, valueNode) in mapping {
            guard let key = reader.string(keyNode, what: "a key in 'data'") else { continue }
            var access = DataAccess(key: key, location: reader.location(keyNode))
            if reader.nodes.kind(valueNode) == .mapping {
                guard let fields = reader.mapping(valueNode, what: "data value '\(key)'", allowed: Self.dataKeys) else { continue }
                let typing = ValueInference(reader: reader)
                let inferred = fields["value"].map(typing.infer)
                // An explicit type wins; a missing or empty one (`type: ~`) is inferred from the value.
                if let typeNode = fields["type"], case let .some(.some(type)) = reader.typeName(typeNode, what: "'type'") {
                    access.type = type
                } else {
                    access.type = inferred?.type
                }
                access.elementTypes = inferred?.elementTypes
                access.value = fields["value"].map(typing.display)
                if let value = fields["value"], reader.tag(value) == .str { access.stringValue = reader.nodes.string(value) }
            } else if case let .some(type) = reader.typeName(valueNode, what: "the type of '\(key)'") {
                access.type = type
            }
            values.append(access)
        }
        return values
    }
}

/// Types of literal values, as Swift would infer them.
struct ValueInference {
    /// Types the document's scalars.
    let reader: YAMLReader

    func infer(_ node: YAMLNode) -> (type: TypeName?, elementTypes: [TypeName?]?) {
        switch reader.nodes.kind(node) {
        case .scalar:
            return (scalarType(node), nil)
        case .sequence:
            let elements = reader.nodes.items(node)!.map { infer($0).type }
            let known = Set(elements.compactMap { $0 })
            if elements.isEmpty { return (TypeName.array(of: .any), []) }
            if known.count == 1, !elements.contains(nil) { return (TypeName.array(of: known.first!), elements) }
            return (TypeName.array(of: .any), elements)
        case .mapping:
            return (TypeName("[String: Any]"), nil)
        }
    }

    private func scalarType(_ node: YAMLNode) -> TypeName? {
        switch reader.tag(node) {
        case .str: return "String"
        case .int: return "Int"
        case .float: return "Double"
        case .bool: return "Bool"
        default: return nil  // null, timestamps and other YAML types have no single Swift type
        }
    }

    /// A short, one-line rendering of a literal for diagrams.
    func display(_ node: YAMLNode) -> String {
        let text = rendering(node, upTo: 61)
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// The literal as text, stopping once it is longer than `limit` characters: a large value costs
    /// no more than a short one.
    private func rendering(_ node: YAMLNode, upTo limit: Int) -> String {
        let nodes = reader.nodes
        switch nodes.kind(node) {
        case .scalar:
            let text = String(nodes.string(node)!.prefix(max(0, limit)))
            return reader.tag(node) == .str ? "\"\(text)\"" : text
        case .sequence:
            var text = "["
            for (i, item) in nodes.items(node)!.enumerated() {
                if text.count > limit { break }
                text += (i > 0 ? ", " : "") + rendering(item, upTo: limit - text.count)
            }
            return text + "]"
        case .mapping:
            var text = "{"
            for (i, pair) in nodes.pairs(node)!.enumerated() {
                if text.count > limit { break }
                text += (i > 0 ? ", " : "") + rendering(pair.key, upTo: limit - text.count)
                text += ": " + rendering(pair.value, upTo: max(0, limit - text.count))
            }
            return text + "}"
        }
    }
}
