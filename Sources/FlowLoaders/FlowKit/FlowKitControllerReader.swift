import Dispatch
import FlowModel
import SwiftSyntax

/// Reads, from Swift sources, the types that implement FlowKit state machines (FlowKit's flow
/// controllers), and what each of their handlers returns.
///
/// FlowKit generates, from a PlantUML machine `LoginFlow`, a protocol `LoginFlowStateMachine` with one
/// handler per state: `func onPrompt(state: State, context: String?) -> Promise<State.Prompt>`. A flow
/// controller adopts the protocol and returns the next state as a case of the nested enum.
///
/// - An implementation is a class, struct, enum, actor or extension whose inheritance clause names a
///   type `<X>StateMachine` with a non-empty `X` (`Module.LoginFlowStateMachine` counts by its last
///   component): machine `X`, type the declared (or extended) type's own name, located at the
///   inherited type. A type adopting two such protocols gives two implementations, with the same
///   handlers. The same machine adopted twice by types of the same name gives one implementation.
/// - Its handlers are the functions of every declaration of that type name (type bodies first, then
///   extensions, each in file then source order, extensions matched by the extended type's last
///   component) named `on<Upper…>` with exactly the argument labels `state:` and `context:`, except
///   `onTerminate` (it returns the machine's output, not a state). Local types (inside functions)
///   are not read.
/// - A handler's returns: see `HandlerScanner`. Local functions inside a handler are not read: what
///   they return is the local function's value, and the handler's `return local()` is then opaque.
/// - A handler is `opaque` when a value it returns at its own level (a `return` outside closures, or
///   the single expression of its body) contains no recognised state (`return helper(context)`,
///   `return promise` for a promise built earlier), or when it has a body but no recognised returns.
struct FlowKitControllerReader {
    /// Calls whose arguments resolve a promise (`Promise.value(.x)`, `seal.fulfill(.x)`).
    static let resolvingCalls: Set<String> = ["value", "fulfill", "resolve"]

    /// The implementations in already parsed files: files in the order given, then declarations in
    /// source order.
    func implementations(in files: [ParsedSwiftFile]) -> [MachineImplementation] {
        let indexes = files.indices.parallelMap { i in
            let indexer = ControllerIndexer(fileIndex: i)
            indexer.walk(files[i].tree)
            return ControllerIndex(adoptions: indexer.adoptions, parts: indexer.parts)
        }
        let parts = indexes.flatMap(\.parts)
        // Type bodies first, then extensions; each group in file, then source order.
        let ordered = parts.filter { !$0.isExtension } + parts.filter(\.isExtension)

        var handlers: [String: [StateHandler]] = [:]
        var seen = Set<String>()
        var result: [MachineImplementation] = []
        for adoption in indexes.flatMap(\.adoptions) where seen.insert("\(adoption.machine)\u{0}\(adoption.typeName)").inserted {
            if handlers[adoption.typeName] == nil {
                handlers[adoption.typeName] = ordered.filter { $0.typeName == adoption.typeName }.flatMap { part in
                    part.members.compactMap { item in
                        item.decl.as(FunctionDeclSyntax.self).flatMap { Self.handler($0, file: files[part.fileIndex]) }
                    }
                }
            }
            result.append(MachineImplementation(machine: adoption.machine, typeName: adoption.typeName,
                                                location: files[adoption.fileIndex].location(adoption.type),
                                                handlers: handlers[adoption.typeName]!))
        }
        return result
    }

    /// The machine `<X>StateMachine` names, for a non-empty `X`.
    static func machineName(_ type: TypeSyntax) -> String? {
        let name = baseTypeName(type)
        let suffix = "StateMachine"
        guard name.hasSuffix(suffix), name.count > suffix.count else { return nil }
        return String(name.dropLast(suffix.count))
    }

    /// The handler `function` is, if it is one.
    static func handler(_ function: FunctionDeclSyntax, file: ParsedSwiftFile) -> StateHandler? {
        let name = function.name.text
        guard name.hasPrefix("on"), name != "onTerminate", let first = name.dropFirst(2).first, first.isUppercase else { return nil }
        let parameters = Array(function.signature.parameterClause.parameters)
        guard parameters.count == 2, parameters[0].firstName.text == "state", parameters[1].firstName.text == "context" else { return nil }
        let state = String(name.dropFirst(2))
        let context = parameters[1].type
        var handler = StateHandler(state: state, contextType: contextTypeName(context), location: file.location(function.name),
                                   contextLocation: file.location(context))
        if let body = function.body {
            let scanner = HandlerScanner(file: file, state: state)
            scanner.scan(body)
            handler.returns = scanner.returns
            handler.opaque = scanner.opaque
        }
        return handler
    }

    /// The context's type as FlowLens compares it: written without trivia (comments inside it dropped),
    /// `()` spelled `Void`.
    static func contextTypeName(_ type: TypeSyntax) -> TypeName? {
        let text = type.tokens(viewMode: .sourceAccurate).map(\.text).joined()
        guard let name = TypeName(text) else { return nil }
        return name.spelling == "()" ? "Void" : name
    }
}

/// What one file holds for the reader.
struct ControllerIndex {
    var adoptions: [ControllerIndexer.Adoption]
    var parts: [ControllerIndexer.Part]
}

/// Finds, in one file, the types adopting `<X>StateMachine` and every type declaration or extension
/// (with its members), at file scope or nested in types. Function, initializer and property bodies are
/// skipped: local types are not read.
final class ControllerIndexer: SyntaxVisitor {
    /// A type naming `<machine>StateMachine` in its inheritance clause.
    struct Adoption {
        let machine: String
        let typeName: String
        let type: TypeSyntax
        let fileIndex: Int
    }

    /// A declaration or extension of a type, whose functions may be handlers.
    struct Part {
        let typeName: String
        let isExtension: Bool
        let members: MemberBlockItemListSyntax
        let fileIndex: Int
    }

    let fileIndex: Int
    private(set) var adoptions: [Adoption] = []
    private(set) var parts: [Part] = []

    init(fileIndex: Int) {
        self.fileIndex = fileIndex
        super.init(viewMode: .sourceAccurate)
    }

    private func add(name: String, isExtension: Bool, inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax) {
        parts.append(Part(typeName: name, isExtension: isExtension, members: members.members, fileIndex: fileIndex))
        for inherited in inheritance?.inheritedTypes ?? [] {
            for type in Self.components(inherited.type) {
                if let machine = FlowKitControllerReader.machineName(type) {
                    adoptions.append(Adoption(machine: machine, typeName: name, type: type, fileIndex: fileIndex))
                }
            }
        }
    }

    /// The named types of an inherited type: `A & B` is both, `@preconcurrency A` is `A`.
    static func components(_ type: TypeSyntax) -> [TypeSyntax] {
        if let composition = type.as(CompositionTypeSyntax.self) { return composition.elements.flatMap { components($0.type) } }
        if let attributed = type.as(AttributedTypeSyntax.self) { return components(attributed.baseType) }
        return [type]
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        add(name: node.name.text, isExtension: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        add(name: node.name.text, isExtension: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        add(name: node.name.text, isExtension: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        add(name: node.name.text, isExtension: false, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        add(name: baseTypeName(node.extendedType), isExtension: true, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    // Protocols are requirements, not implementations; bodies hold no members.
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// Reads the states one handler returns.
///
/// A returned state is an implicit member `.name(args)` or `.name` (not `.init`), or an explicit
/// `X.State.name(args)` / `X.State.name` whose base ends with the handler's state (`AppState.Login.home`
/// in `onLogin`), written in return position:
/// - the value of a `return` (in the handler or any closure in it);
/// - the single expression of a closure (`.back { .prompt(context) }`, `{ t -> S in .home(()) }`) or of
///   the handler's body;
/// - an argument of a call named `value`, `fulfill` or `resolve` (`Promise.value(.x)`,
///   `seal.fulfill(.x)`), wherever it is;
/// - a branch of a ternary, or the single expression of a branch of an `if` / `switch` expression, that
///   is itself in return position; `try`, `await` and parentheses are looked through.
///
/// Patterns (`case .login(let creds):`) are never values. Local functions and types are not read.
/// Each state is counted once, in source order, at the `.` before its name.
final class HandlerScanner: SyntaxVisitor {
    let file: ParsedSwiftFile
    /// The handler's state (`Login` for `onLogin`): the base an explicit case must end with.
    let state: String

    /// Found states by UTF-8 offset, so a state reached twice (`return Promise.value(.x)`) counts once.
    private var found: [Int: ReturnedState] = [:]
    /// The values returned at the handler's own level (not inside closures).
    private var ownReturns: [ExprSyntax] = []
    private var closureDepth = 0
    private var hasBody = false

    init(file: ParsedSwiftFile, state: String) {
        self.file = file
        self.state = state
        super.init(viewMode: .sourceAccurate)
    }

    /// Scans a handler's body.
    func scan(_ body: CodeBlockSyntax) {
        hasBody = true
        if body.statements.count == 1, let only = body.statements.first, let expression = BranchScanner.expression(of: only) {
            // A single-expression body returns it.
            ownReturns.append(expression)
            record(expression)
        }
        walk(body)
    }

    /// The states returned, in source order.
    var returns: [ReturnedState] {
        found.sorted { $0.key < $1.key }.map(\.value)
    }

    /// See `FlowKitControllerReader`: some own-level return holds no recognised state, or nothing is recognised.
    var opaque: Bool {
        guard hasBody else { return false }
        if found.isEmpty { return true }
        return ownReturns.contains { value in
            let start = value.positionAfterSkippingLeadingTrivia.utf8Offset, end = value.endPositionBeforeTrailingTrivia.utf8Offset
            return !found.keys.contains { $0 >= start && $0 < end }
        }
    }

    // MARK: - The walk

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        if let value = node.expression {
            if closureDepth == 0 { ownReturns.append(value) }
            record(value)
        }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        closureDepth += 1
        if node.statements.count == 1, let only = node.statements.first, let expression = BranchScanner.expression(of: only) {
            record(expression)
        }
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) {
        closureDepth -= 1
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if Self.isResolving(node) {
            for argument in node.arguments { record(argument.expression) }
        }
        return .visitChildren
    }

    // Local functions, types and computed variables return their own values; patterns are not values.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SwitchCaseLabelSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: - Values in return position

    private static func isResolving(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.calleeName.map(FlowKitControllerReader.resolvingCalls.contains) ?? false
    }

    /// Records the states `value`, in return position, evaluates to.
    private func record(_ value: ExprSyntax) {
        let value = BranchScanner.unwrapped(value)
        if let call = value.as(FunctionCallExprSyntax.self), Self.isResolving(call) {
            for argument in call.arguments { record(argument.expression) }
            return
        }
        if let member = returnedCase(value) {
            let offset = member.period.positionAfterSkippingLeadingTrivia.utf8Offset
            found[offset] = ReturnedState(caseName: member.declName.baseName.text, location: file.location(member.period))
            return
        }
        if let ternary = value.as(TernaryExprSyntax.self) {
            record(ternary.thenExpression)
            record(ternary.elseExpression)
        } else if let sequence = value.as(SequenceExprSyntax.self) {
            // Unfolded: `c ? a : d ? b : e` is [c, ?a:, d, ?b:, e]; a ternary binds loosest, so each
            // middle is a branch, and so is what follows the last one when it is a single operand.
            let elements = Array(sequence.elements)
            guard let last = elements.lastIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }) else { return }
            for element in elements {
                if let ternary = element.as(UnresolvedTernaryExprSyntax.self) { record(ternary.thenExpression) }
            }
            if last == elements.count - 2 { record(elements[last + 1]) }
        } else if let conditional = value.as(IfExprSyntax.self) {
            recordBranch(conditional.body.statements)
            switch conditional.elseBody {
            case let .ifExpr(next)?: record(ExprSyntax(next))
            case let .codeBlock(block)?: recordBranch(block.statements)
            case nil: break
            }
        } else if let choice = value.as(SwitchExprSyntax.self) {
            for item in choice.cases {
                if case let .switchCase(branch) = item { recordBranch(branch.statements) }
            }
        }
    }

    /// The single expression of an `if` / `switch` expression's branch.
    private func recordBranch(_ statements: CodeBlockItemListSyntax) {
        guard statements.count == 1, let only = statements.first, let expression = BranchScanner.expression(of: only) else { return }
        record(expression)
    }

    /// The member access naming a case, when `value` is `.name(...)`, `.name` or `X.State.name(...)`.
    private func returnedCase(_ value: ExprSyntax) -> MemberAccessExprSyntax? {
        let member = value.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
            ?? value.as(MemberAccessExprSyntax.self)
        guard let member, member.declName.baseName.tokenKind != .keyword(.`init`) else { return nil }
        guard let base = member.base else { return member }
        return base.dottedPath?.last == state ? member : nil
    }
}
