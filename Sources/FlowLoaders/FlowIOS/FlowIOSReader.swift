import Dispatch
import FlowModel
import Foundation
import SwiftParser
import SwiftSyntax

/// Reads Flow-iOS flows from Swift sources (`../shared/flow-libraries.md` §1).
///
/// Pass 1 indexes, in every file, the string constants and the classes with their `getData`/`setData`
/// calls and primary-key overrides. Pass 2 finds every flow (`Flow()` chains and `Flow` variables
/// built by separate statements), replays its builder calls exactly as Flow-iOS builds its operation
/// tree, and turns the tree into the IR with each operation's reads and writes resolved through its
/// class hierarchy. Both passes run on all cores; output order follows the files and positions.
public struct FlowIOSReader: BatchFlowLoader {
    /// Creates the loader.
    public init() {}

    /// Walk every body, even those whose text cannot hold what a pass looks for (`FileIndexer`'s and
    /// `FlowFinder`'s word checks): for tests, which check that both ways read the same flows.
    var walksEveryBody = false

    public func load(_ files: [SourceText]) -> FlowGraph {
        FlowGraph(flows: flows(in: SwiftSources.parse(files)))
    }

    /// The Flow-iOS flows in already parsed files.
    func flows(in parsed: [ParsedSwiftFile]) -> [Flow] {
        // Index every file in parallel; merge in file order so results never depend on timing.
        let indexes = parsed.parallelMap(heaviestFirst: { $0.text.utf8.count }) { FileIndexer($0, walksEveryBody: walksEveryBody).run() }
        var constants = ConstantTable()
        var classes: [String: ClassFacts] = [:]
        for i in parsed.indices {
            let index = indexes[i]
            constants.merge(index.constants)
            for facts in index.classes where classes[facts.name] == nil { classes[facts.name] = facts }
        }
        let operations = OperationCatalog(classes: classes, constants: constants)
        let table = constants

        return parsed.parallelMap(heaviestFirst: { $0.text.utf8.count }) { file in
            FlowFinder(file: file, operations: operations, constants: table, walksEveryBody: walksEveryBody).flows()
        }.flatMap { $0 }
    }
}

/// The operation classes of the sources, with inherited accesses and resolved keys.
struct OperationCatalog: Sendable {
    /// A class's data accesses with keys resolved.
    struct Operation: Sendable {
        var name: String
        var reads: [DataAccess]
        var writes: [DataAccess]
        var elementKey: String
        var elementOutputKey: String
        var isCreator: Bool
        var unresolved: [Unresolved]
    }

    let operations: [String: Operation]

    init(classes: [String: ClassFacts], constants: ConstantTable) {
        var operations: [String: Operation] = [:]
        for name in classes.keys {
            // The chain up to FlowOperation, through intermediate base classes of the same sources.
            var chain: [ClassFacts] = []
            var current = classes[name]
            var seen = Set<String>()
            var isOperation = false
            while let facts = current, seen.insert(facts.name).inserted {
                chain.append(facts)
                if facts.superclass == "FlowOperation" { isOperation = true; break }
                current = facts.superclass.flatMap { classes[$0] }
            }
            guard isOperation else { continue }
            let input = chain.lazy.compactMap(\.primaryInput).first?.resolved(constants)
            let output = chain.lazy.compactMap(\.primaryOutput).first?.resolved(constants)
            // FlowOperation's own defaults are "" (the key a grouped element is stored under).
            func literal(_ key: KeyExpression?) -> String? {
                switch key?.resolved(constants) {
                case let .literal(value)?: return value
                case .primaryInput?: if case let .literal(value)? = input { return value }; return input == nil ? "" : nil
                case .primaryOutput?: if case let .literal(value)? = output { return value }; return output == nil ? "" : nil
                default: return nil
                }
            }
            var operation = Operation(name: name, reads: [], writes: [], elementKey: literal(.primaryInput) ?? "",
                                      elementOutputKey: literal(.primaryOutput) ?? "",
                                      isCreator: chain.contains { $0.conformances.contains("FlowOperationCreator") }, unresolved: [])
            // Base classes first: their helpers typically run before the subclass's own logic.
            for facts in chain.reversed() {
                for site in facts.reads {
                    guard let key = literal(site.key) else { operation.unresolved.append(.dynamicReadKey(site.location)); continue }
                    operation.reads.append(DataAccess(key: key, type: site.type, optional: site.optional, location: site.location))
                }
                for site in facts.writes {
                    guard let key = literal(site.key) else { operation.unresolved.append(.dynamicWriteKey(site.location)); continue }
                    var write = DataAccess(key: key, type: site.type, location: site.location,
                                           elementTypes: site.facts.elementTypes, value: site.facts.display,
                                           stringValue: site.facts.stringValue, condition: site.condition)
                    write.possibleValues = site.facts.possibleStrings ?? site.facts.rawValueOf.flatMap { constants.rawValues(ofEnum: $0) }
                    operation.writes.append(write)
                }
            }
            operations[name] = operation
        }
        self.operations = operations
    }

    subscript(name: String) -> Operation? { operations[name] }
}

/// A builder call on a flow, in source order.
struct BuilderCall {
    let name: String
    let call: FunctionCallExprSyntax
}

/// Pass 2 for one file: every flow in it.
struct FlowFinder {
    let file: ParsedSwiftFile
    let operations: OperationCatalog
    let constants: ConstantTable
    /// See `FlowIOSReader.walksEveryBody`.
    var walksEveryBody = false

    static let builderMethods: Set<String> = ["setDataBucket", "add", "combine", "addGrouped", "setWillStartBlock", "setDidFinishBlock", "start"]

    /// Every flow starts at a `Flow()` (or `Flow_iOS.Flow()`) in the body that builds it: a file or
    /// a body whose text never has the word `Flow` builds none, and is not walked.
    static let creationWord = [Array("Flow".utf8)]

    func flows() -> [Flow] {
        guard walksEveryBody || file.mentions(Self.creationWord, in: file.tree) else { return [] }
        final class Bodies: SyntaxVisitor {
            var bodies: [(Syntax, String)] = []
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body { bodies.append((Syntax(body), node.name.text)) }
                return .skipChildren
            }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body { bodies.append((Syntax(body), "init")) }
                return .skipChildren
            }
            override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body, let binding = node.enclosing(PatternBindingSyntax.self),
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                    bodies.append((Syntax(body), name))
                }
                return .skipChildren
            }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
                // A computed property written without `get { }`.
                if case let .getter(items)? = node.accessorBlock?.accessors {
                    bodies.append((Syntax(items), name))
                    return .skipChildren
                }
                // A stored property of a type whose initial value builds a flow (`let loginFlow = Flow()...`,
                // `lazy var flow: Flow = { ... }()`).
                if let initializer = node.initializer, node.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true {
                    bodies.append((Syntax(initializer.value), name))
                    return .skipChildren
                }
                return .visitChildren
            }
        }
        // Every node below comes from this one root, freed (with all it visited) when the file's
        // flows are built: the file's tree is kept for later readers, its visited nodes need not be.
        let tree = file.transientTree
        let visitor = Bodies(viewMode: .sourceAccurate)
        visitor.walk(tree)
        var result: [Flow] = []
        for (body, function) in visitor.bodies {
            guard walksEveryBody || file.mentions(Self.creationWord, in: body) else { continue }
            let owner = body.enclosingTypePath
            let base = [owner, function].compactMap { $0 }.joined(separator: ".")
            let found = instances(in: body)
            guard !found.isEmpty else { continue }
            let locals = LocalTypes(body)  // only for bodies that build a flow: most do not
            for (n, instance) in found.enumerated() {
                let name = found.count > 1 ? "\(base)#\(n + 1)" : base
                result.append(FlowBuilder(file: file, operations: operations, constants: constants, ownerType: owner,
                                          locals: locals).flow(named: name, instance))
            }
        }
        // Top-level code (a script or playground page) is one more body, named after the file.
        let topLevel = instances(in: Syntax(tree), skippingDeclarations: true)
        let stem = ((file.file.displayPath as NSString).lastPathComponent as NSString).deletingPathExtension
        for (n, instance) in topLevel.enumerated() {
            result.append(FlowBuilder(file: file, operations: operations, constants: constants, ownerType: nil,
                                      locals: LocalTypes()).flow(named: topLevel.count > 1 ? "\(stem)#\(n + 1)" : stem, instance))
        }
        return result
    }

    /// One `Flow()` and every builder call made on it, in source order.
    struct Instance {
        let creation: FunctionCallExprSyntax
        var calls: [BuilderCall]
    }

    /// The flows created in `body`: chains rooted at `Flow()`, and calls on a variable holding one.
    func instances(in body: Syntax, skippingDeclarations: Bool = false) -> [Instance] {
        final class Chains: SyntaxVisitor {
            let skipping: Bool
            var chains: [(root: ExprSyntax, calls: [BuilderCall], outer: ExprSyntax)] = []
            init(skipping: Bool) {
                self.skipping = skipping
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                // Properties' accessors are bodies of their own; a stored `let flow = Flow()...` is not.
                if skipping, node.bindings.contains(where: { $0.accessorBlock != nil }) { return .skipChildren }
                return .visitChildren
            }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }
            override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { skipping ? .skipChildren : .visitChildren }

            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                // Only the outermost call of a chain: `a.b().c()` is visited once, at `.c()`.
                if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id,
                   member.parent?.is(FunctionCallExprSyntax.self) == true {
                    return .visitChildren
                }
                var calls: [BuilderCall] = []
                var current: ExprSyntax = ExprSyntax(node)
                while let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                      let base = member.base, FlowFinder.builderMethods.contains(member.declName.baseName.text) {
                    calls.insert(BuilderCall(name: member.declName.baseName.text, call: call), at: 0)
                    current = base
                }
                if let call = current.as(FunctionCallExprSyntax.self), call.calledExpression.calleeName == "Flow",
                   call.arguments.isEmpty, call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.dottedPath == ["Flow_iOS", "Flow"] {
                    chains.append((ExprSyntax(call), calls, ExprSyntax(node)))
                } else if !calls.isEmpty, current.simpleName != nil {
                    chains.append((current, calls, ExprSyntax(node)))
                }
                return .visitChildren
            }
        }
        let visitor = Chains(skipping: skippingDeclarations)
        visitor.walk(body)
        var instances: [Instance] = []
        var variables: [String: Int] = [:]
        for chain in visitor.chains.sorted(by: { $0.outer.position < $1.outer.position }) {
            if let creation = chain.root.as(FunctionCallExprSyntax.self), creation.calledExpression.calleeName == "Flow" {
                instances.append(Instance(creation: creation, calls: chain.calls))
                if let name = Self.assignedName(of: chain.outer) { variables[name] = instances.count - 1 }
            } else if let name = chain.root.simpleName, let index = variables[name] {
                instances[index].calls += chain.calls
            }
        }
        // Other libraries have a type named `Flow` too (`XCTAssertEqual(Flow().text, ...)`): a `Flow()`
        // is Flow-iOS's only when Flow-iOS's API is used on it.
        return instances.filter { $0.calls.contains(where: Self.isFlowIOSCall) }
    }

    /// A builder call only Flow-iOS's `Flow` has: `add(operation:)`, `addGrouped`, `setDataBucket`,
    /// `combine()`, the start and finish blocks (a bare `start()` is too common a name to tell).
    static func isFlowIOSCall(_ call: BuilderCall) -> Bool {
        switch call.name {
        case "add": return call.call.argument("operation") != nil
        case "start": return false
        default: return true
        }
    }

    /// `flow` in `let flow = <chain>`, `var flow: Flow = <chain>`, `flow = <chain>`, `self.flow = <chain>`.
    static func assignedName(of expression: ExprSyntax) -> String? {
        if let binding = expression.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        if let list = expression.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == expression.id {
                return elements[0].simpleName
            }
        }
        return nil
    }
}

extension FlowIOSReader {
    /// Parses `files` with swift-syntax and does nothing else: the baseline the benchmark compares
    /// `check` against. Returns the number of tokens, so the work cannot be optimised away.
    public static func parseOnly(_ files: [SourceText], parallel: Bool) -> Int {
        let tokens: @Sendable (SourceText) -> Int = { file in parsedTokens(of: file).count }
        return (parallel ? files.parallelMap(tokens) : files.map(tokens)).reduce(0, +)
    }

    /// The baseline's work on one file: its tree, and the number of its tokens.
    private static func parsedTokens(of file: SourceText) -> (tree: SourceFileSyntax, count: Int) {
        let tree = Parser.parse(source: file.contents)
        return (tree, tree.tokens(viewMode: .sourceAccurate).reduce(0) { n, _ in n + 1 })
    }

    /// The two passes besides its parse that `check` cannot spare a file it parses, each alone, on
    /// all cores, for the benchmark: the nesting scan (swift-syntax's lexer over the file, before the
    /// parser may run; see `SwiftNesting`) and one visitor walk of the parsed tree, the least a
    /// reader does (`parseAndWalk` parses too: subtract `parseOnly`). Each returns a count, so the
    /// work cannot be optimised away.
    public static func nestingScanOnly(_ files: [SourceText]) -> Int {
        files.parallelMap { SwiftNesting.check($0.contents, limits: .default) == nil ? 1 : 0 }.reduce(0, +)
    }

    /// See `nestingScanOnly`: parsing every file as `parseOnly` does, then one `SyntaxVisitor` walk.
    public static func parseAndWalk(_ files: [SourceText]) -> Int {
        final class Calls: SyntaxVisitor {
            var count = 0
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                count += 1
                return .visitChildren
            }
        }
        return files.parallelMap { file in
            let (tree, tokens) = parsedTokens(of: file)
            let calls = Calls(viewMode: .sourceAccurate)
            calls.walk(tree)
            return tokens + calls.count
        }.reduce(0, +)
    }
}
