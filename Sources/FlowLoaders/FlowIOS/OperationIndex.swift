import FlowModel
import SwiftSyntax

/// How a data key is written in an operation.
enum KeyExpression: Hashable {
    /// A string literal, or a constant resolved to its literal.
    case literal(String)
    /// `primaryInputParamKey`: the key the class (or a subclass) returns from its override.
    case primaryInput
    /// `primaryOutputParamKey`.
    case primaryOutput
    /// A name or member path (`emailKey`, `Keys.email`, `Keys.email.rawValue`), resolved once every
    /// file's constants are known (`inType`: the type it is written in, for unqualified names).
    case constant(path: [String], inType: String?)
    /// Anything else: not known before run time.
    case dynamic

    /// The key as written in `expression`, inside type `type`.
    init(_ expression: ExprSyntax, inType type: String?) {
        switch expression.simpleName {
        case "primaryInputParamKey": self = .primaryInput; return
        case "primaryOutputParamKey": self = .primaryOutput; return
        default: break
        }
        if let literal = expression.stringLiteralValue {
            self = .literal(literal)
        } else if let path = expression.dottedPath {
            self = .constant(path: path, inType: type)
        } else {
            self = .dynamic
        }
    }

    /// Constants replaced by their literal (or `.dynamic` when no constant has that name).
    func resolved(_ constants: ConstantTable) -> KeyExpression {
        guard case let .constant(path, type) = self else { return self }
        return constants.resolve(path: path, inType: type).map(KeyExpression.literal) ?? .dynamic
    }
}

/// A `getData` or `setData` call in an operation class.
struct AccessSite {
    var key: KeyExpression
    var type: TypeName?
    var optional: Bool
    var location: FlowModel.SourceLocation
    var facts: ValueFacts = .unknown
    /// For a write: when it happens, if not on every successful run (see `MaybeWrites`).
    var condition: String?
}

/// What pass 1 learns about one class.
struct ClassFacts {
    var name: String
    var superclass: String?
    var conformances: Set<String>
    var location: FlowModel.SourceLocation
    var reads: [AccessSite] = []
    var writes: [AccessSite] = []
    var primaryInput: KeyExpression?
    var primaryOutput: KeyExpression?
}

/// String constants: `static let emailKey = "email"` in a type (`Keys.emailKey`) or at file scope,
/// and `enum Keys: String { case email }` raw values (`Keys.email.rawValue`). Each is stored under
/// its full type path (`LoginOp.Keys.user.rawValue`), so nested types of the same name in different
/// types do not collide.
struct ConstantTable {
    private(set) var values: [String: String] = [:]

    /// Adds `name` declared in the type at `typePath` (`Outer.Inner`), or at file scope.
    mutating func add(_ name: String, in typePath: String?, value: String) {
        let key = typePath.map { "\($0).\(name)" } ?? name
        if values[key] == nil { values[key] = value }  // files merge in order: the first declaration wins
    }

    /// The String raw values of the enum named `type` (by its simple name or path), sorted; nil when
    /// no such enum is known, or several types have that name.
    func rawValues(ofEnum type: String) -> [String]? {
        let suffix = "." + type
        var byType: [String: [String]] = [:]
        for (key, value) in values where key.hasSuffix(".rawValue") {
            let parts = key.split(separator: ".")
            guard parts.count >= 3 else { continue }
            let owner = parts.dropLast(2).joined(separator: ".")
            guard owner == type || owner.hasSuffix(suffix) else { continue }
            byType[owner, default: []].append(value)
        }
        guard byType.count == 1 else { return nil }
        return byType.values.first!.sorted()
    }

    mutating func merge(_ other: ConstantTable) {
        values.merge(other.values) { a, _ in a }
    }

    /// The literal a constant reference names, looked up as Swift does: in the enclosing types from
    /// the innermost out, then at file scope. A qualified path (`Keys.email`) that names no type in
    /// that chain is still found when exactly one type path ends with it (a type in another file).
    func resolve(path original: [String], inType typePath: String?) -> String? {
        var path = original
        let context = typePath.map { $0.split(separator: ".").map(String.init) } ?? []
        if path.first == "self" || path.first == "Self" {
            guard !context.isEmpty else { return nil }
            path = context + path.dropFirst()
        }
        for depth in stride(from: context.count, through: 0, by: -1) {
            if let value = values[(context.prefix(depth) + path).joined(separator: ".")] { return value }
        }
        guard path.count > 1 else { return nil }  // a bare name is never a member of an unrelated type
        let suffix = "." + path.joined(separator: ".")
        let matches = Set(values.filter { $0.key.hasSuffix(suffix) }.map(\.value))
        return matches.count == 1 ? matches.first : nil
    }
}

/// Pass 1: every class and string constant in one file.
final class FileIndexer: SyntaxVisitor {
    let file: ParsedSwiftFile
    var classes: [ClassFacts] = []
    var constants = ConstantTable()
    /// Stored property types per class, for `self.x` values.
    var propertyTypes: [String: [String: TypeName]] = [:]
    /// The classes, structs and enums the walk is inside, innermost last. A class's calls are
    /// collected in this same walk (a second walk of each class body was a seventh of `check`):
    /// those in its member block and not inside a nested struct, enum or class, which has its own.
    private var types: [(collector: AccessCollector, index: Int, members: Range<AbsolutePosition>)?] = []

    /// See `FlowIOSReader.walksEveryBody`.
    let walksEveryBody: Bool

    init(_ file: ParsedSwiftFile, walksEveryBody: Bool = false) {
        self.file = file
        self.walksEveryBody = walksEveryBody
        super.init(viewMode: .sourceAccurate)
    }

    func run() -> Self {
        // Only facts are kept (no node), so the walk's nodes are freed after it: on a folder of
        // Flow-iOS files they were a third of `check`'s peak memory.
        walk(file.transientTree)
        return self
    }

    /// Inside a body (a function's, an accessor's, an `if`'s) the index keeps only `getData` and
    /// `setData` calls and what local classes and enums declare (its constants are at file or type
    /// scope): a body whose text names none of them is not walked, which is most of an app's code.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        bodies += 1
        return visitIfMentioned(node)
    }

    override func visitPost(_ node: CodeBlockSyntax) { bodies -= 1 }

    /// The bodies the walk is in (`visitPost` follows every `visit`, children walked or not).
    private var bodies = 0

    /// The same holds for each statement of a body walked (an operation's `mainLogic` names
    /// `getData`): one naming none of them (a log line, a loop that only counts) is passed over,
    /// closures and all.
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        bodies == 0 ? .visitChildren : visitIfMentioned(node)
    }

    static let bodyWords = ["getData", "setData", "class", "enum"].map { Array($0.utf8) }

    /// A function, initializer or subscript naming none of them is passed over whole: nothing in its
    /// signature (attributes, parameters, their types and default values) is kept either (passing
    /// over them took a tenth off the index's CPU on the app-shaped benchmark corpus).
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { visitIfMentioned(node) }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { visitIfMentioned(node) }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { visitIfMentioned(node) }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { visitIfMentioned(node) }

    /// Walks `node` when its text names one of `bodyWords` (or every body is walked).
    private func visitIfMentioned(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        walksEveryBody || file.mentions(Self.bodyWords, in: node) ? .visitChildren : .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // `let`/`static let` constants with a string literal, in a type or at file scope (not locals).
        guard node.bindingSpecifier.tokenKind == .keyword(.let) else { return .visitChildren }
        let inFunction = node.enclosing(CodeBlockSyntax.self) != nil || node.enclosing(ClosureExprSyntax.self) != nil
        guard !inFunction else { return .visitChildren }
        let type = node.enclosingTypePath
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer?.value.stringLiteralValue else { continue }
            constants.add(name, in: type, value: value)
        }
        return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
        guard let enumDecl = node.enclosing(EnumDeclSyntax.self) else { return .visitChildren }
        let isString = enumDecl.inheritanceClause?.inheritedTypes.contains { baseTypeName($0.type) == "String" } ?? false
        guard isString else { return .visitChildren }
        let raw = node.rawValue.flatMap { $0.value.stringLiteralValue } ?? node.name.text
        constants.add("\(node.name.text).rawValue", in: enumDecl.typePath(named: enumDecl.name.text), value: raw)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let inherited = node.inheritanceClause?.inheritedTypes.map { baseTypeName($0.type) } ?? []
        var facts = ClassFacts(name: node.name.text, superclass: inherited.first, conformances: Set(inherited),
                               location: file.location(node.name))
        var properties: [String: TypeName] = [:]
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                if let annotation = binding.typeAnnotation, let type = typeName(annotation.type) {
                    properties[name] = type.unwrappedIfImplicitlyUnwrapped
                }
                if name == "primaryInputParamKey" || name == "primaryOutputParamKey",
                   let returned = Self.returnedExpression(binding) {
                    let key = KeyExpression(returned, inType: node.typePath(named: node.name.text))
                    if name == "primaryInputParamKey" { facts.primaryInput = key } else { facts.primaryOutput = key }
                }
            }
        }
        propertyTypes[node.name.text] = properties
        let collector = AccessCollector(file: file, typeName: node.typePath(named: node.name.text), properties: properties)
        types.append((collector, classes.count, node.memberBlock.position..<node.memberBlock.endPosition))
        classes.append(facts)
        return .visitChildren  // nested classes are classes too
    }

    override func visitPost(_ node: ClassDeclSyntax) {
        guard let type = types.popLast(), let (collector, index, _) = type else { return }
        classes[index].reads = collector.reads
        classes[index].writes = collector.writes
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        types.append(nil)
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        types.append(nil)
        return .visitChildren
    }

    override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let type = types.last, let (collector, _, members) = type, members.contains(node.position) { collector.collect(node) }
        return .visitChildren
    }

    /// `{ return "x" }`, `{ "x" }` or `{ get { return "x" } }`.
    static func returnedExpression(_ binding: PatternBindingSyntax) -> ExprSyntax? {
        if let initializer = binding.initializer { return initializer.value }
        guard let accessors = binding.accessorBlock?.accessors else { return nil }
        let statements: CodeBlockItemListSyntax?
        switch accessors {
        case let .getter(items): statements = items
        case let .accessors(list): statements = list.first { $0.accessorSpecifier.text == "get" }?.body?.statements
        }
        guard let only = statements?.first?.item else { return nil }
        if let ret = only.as(ReturnStmtSyntax.self) { return ret.expression }
        return only.as(ExprSyntax.self)
    }
}

/// The `getData`/`setData` calls inside one class body (nested types excluded), told them one by one
/// by `FileIndexer`'s walk.
final class AccessCollector {
    let file: ParsedSwiftFile
    let ownerName: String
    let properties: [String: TypeName]
    var reads: [AccessSite] = []
    var writes: [AccessSite] = []

    init(file: ParsedSwiftFile, typeName: String, properties: [String: TypeName]) {
        self.file = file
        self.ownerName = typeName
        self.properties = properties
    }

    /// A call in the class body: kept when it is a `getData` or a `setData`.
    func collect(_ node: FunctionCallExprSyntax) {
        switch node.calledExpression.calleeName {
        case "getData" where node.argument("name") != nil: reads.append(read(node))
        case "setData" where node.argument("name") != nil && node.argument("value") != nil: writes.append(write(node))
        default: break
        }
    }

    /// The key an expression names. A bare name declared in the function (a parameter, a local, a
    /// loop variable) is a run-time value, never a constant of the same name.
    private func key(_ expression: ExprSyntax) -> KeyExpression {
        if let ref = expression.as(DeclReferenceExprSyntax.self),
           let body = Self.outermostBody(of: expression), LocalNames.declared(in: body).contains(ref.baseName.text) {
            return .dynamic
        }
        return KeyExpression(expression, inType: ownerName)
    }

    /// Where a call's name is: `getData` in `self.getData(...)`.
    private func nameLocation(_ call: FunctionCallExprSyntax) -> FlowModel.SourceLocation {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return file.location(member.declName) }
        return file.location(call.calledExpression)
    }

    private func read(_ call: FunctionCallExprSyntax) -> AccessSite {
        let optional = call.argument("isOptional")?.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
        return AccessSite(key: key(call.argument("name")!), type: Self.readType(call), optional: optional,
                          location: nameLocation(call))
    }

    /// Locals per function body, built once however many writes the body makes.
    private var localsByBody: [SyntaxIdentifier: LocalTypes] = [:]
    /// What is learnt of each body's statements for its writes' conditions, kept however many writes it makes.
    private var maybeWrites: [SyntaxIdentifier: MaybeWrites.Body] = [:]

    private func write(_ call: FunctionCallExprSyntax) -> AccessSite {
        // The value's type from the enclosing function's locals and the class's stored properties.
        let scope: Syntax = call.enclosing(CodeBlockSyntax.self).map(Syntax.init) ?? Syntax(call)
        let body = Self.outermostBody(of: call)
        let function = body ?? scope
        let locals = localsByBody[function.id] ?? LocalTypes(function, properties: properties)
        localsByBody[function.id] = locals
        let facts = ValueTypes.facts(call.argument("value")!, locals: locals)
        let writes = body.map { body in maybeWrites[body.id] ?? MaybeWrites.Body(body, in: file) }
        if let body { maybeWrites[body.id] = writes }
        return AccessSite(key: key(call.argument("name")!), type: facts.type, optional: false, location: nameLocation(call),
                          facts: facts, condition: writes?.condition(of: call))
    }

    /// The body of the function or accessor a call is in (closures inside it included).
    static func outermostBody(of node: some SyntaxProtocol) -> Syntax? {
        var current = node.parent
        var found: Syntax?
        while let node = current {
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(AccessorDeclSyntax.self) {
                return Syntax(node)
            }
            if node.is(CodeBlockSyntax.self) { found = node }
            if node.is(MemberBlockSyntax.self) { break }
            current = node.parent
        }
        return found
    }

    /// True when `node` is the only statement of a function or getter body (an implicit return).
    static func isImplicitReturn(_ node: Syntax) -> Bool {
        guard let item = node.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
              list.count == 1 else { return false }
        return list.parent?.is(CodeBlockSyntax.self) == true || list.parent?.is(AccessorBlockSyntax.self) == true
    }

    /// The declared result type of the function, or the type of the computed property, around `node`.
    static func returnType(around node: Syntax) -> TypeName? {
        var current = node.parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return nil }  // a closure's result type is not written here
            if let function = node.as(FunctionDeclSyntax.self) { return function.signature.returnClause.flatMap { typeName($0.type) } }
            if let binding = node.as(PatternBindingSyntax.self) { return binding.typeAnnotation.flatMap { typeName($0.type) } }
            current = node.parent
        }
        return nil
    }

    /// The type a `getData` call reads, from its context: `let x: T = getData(...)`, `guard let x: T = ...`,
    /// `getData(...) as? T`, `return getData(...)` in a function returning `T?`. Run-time exact: for
    /// `let x: T? = getData(...)` Swift infers the generic parameter as `T`, so the read is of `T`.
    static func readType(_ call: FunctionCallExprSyntax) -> TypeName? {
        var node = Syntax(call)
        // `getData(...) as? T` / `as! T`: unfolded, the call is followed by the cast in a sequence.
        if let sequence = node.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if let i = elements.firstIndex(where: { $0.id == call.id }), i + 2 < elements.count,
               elements[i + 1].is(UnresolvedAsExprSyntax.self), let type = elements[i + 2].as(TypeExprSyntax.self) {
                return typeName(type.type)?.unwrapped
            }
        }
        if let parent = node.parent, let cast = parent.as(AsExprSyntax.self) { return typeName(cast.type)?.unwrapped }
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { node = parent }
        // `return getData(...)`, or the single expression of a body: the function's return type.
        if node.parent?.is(ReturnStmtSyntax.self) == true || Self.isImplicitReturn(node) {
            return returnType(around: node)?.unwrapped.unwrappedIfImplicitlyUnwrapped
        }
        guard let clause = node.parent?.as(InitializerClauseSyntax.self) else { return nil }
        if let binding = clause.parent?.as(PatternBindingSyntax.self), let annotation = binding.typeAnnotation {
            return typeName(annotation.type)?.unwrapped.unwrappedIfImplicitlyUnwrapped
        }
        if let condition = clause.parent?.as(OptionalBindingConditionSyntax.self), let annotation = condition.typeAnnotation {
            return typeName(annotation.type)?.unwrapped
        }
        return nil
    }
}
