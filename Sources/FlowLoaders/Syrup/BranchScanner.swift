import FlowModel
import SwiftSyntax

/// What one branch of `switch self` in `updateOrDeferNext` does, read from its syntax.
struct BranchFacts {
    /// A way on found in the branch (not yet deduplicated).
    struct Target {
        var to: String
        var label: String?
        var location: FlowModel.SourceLocation
    }

    /// Normal ways on, in source order: `self = .x`, a Deferred resolving to `.x`, compose's mappings.
    var targets: [Target] = []
    /// Where the branch first throws (`throw`, `try`, `resolve { throw ... }`, `Deferred(throwing:)`).
    var errorLocation: FlowModel.SourceLocation?
    /// The branch assigns `self`.
    var changesSelf = false
    /// The branch returns (or builds) a Deferred, or composes a sub-progression.
    var returnsDeferred = false
    /// The branch calls a function that never returns (`fatalError`, Syrup's `completedStep`).
    var neverReturns = false
    /// The branch composes a sub-progression: its type as written (nil when it cannot be read), and where.
    var compose: (type: String?, location: FlowModel.SourceLocation)?
    /// Ways on the branch takes whose target cannot be read (`self = make()`), with where.
    var unreadable: [FlowModel.SourceLocation] = []
    /// Paths that end with `self` unchanged and `nil` returned (see `RetryPaths`): their conditions,
    /// and the `return nil` ending them (nil when the branch's end is reached).
    var retries: [(conditions: [String], location: FlowModel.SourceLocation?)] = []

    /// True when the branch changes `self`, returns a Deferred, throws, or never returns: otherwise it
    /// leaves the progression in the same case.
    var movesOn: Bool { changesSelf || returnsDeferred || errorLocation != nil || neverReturns }

    mutating func merge(_ other: BranchFacts) {
        targets += other.targets
        if errorLocation == nil { errorLocation = other.errorLocation }
        changesSelf = changesSelf || other.changesSelf
        returnsDeferred = returnsDeferred || other.returnsDeferred
        neverReturns = neverReturns || other.neverReturns
        if compose == nil { compose = other.compose }
        unreadable += other.unreadable
        retries += other.retries
    }
}

/// The labels the Syrup reader puts on transitions.
enum SyrupLabel {
    /// A case a Deferred resolves to.
    static let async = "async"
    /// An error exit.
    static let error = "throws"
    /// A branch that does nothing: the progression stays in its case.
    static let stays = "stays"
    /// A path of a branch that moves on elsewhere, but leaves the case as it was (a busy retry).
    static func retries(when condition: String) -> String { "retries when \(condition)" }
    /// compose's `mapNext`: the case the sub-progression's steps are wrapped in.
    static func whileRunning(_ sub: String?) -> String { "while \(sub.map(shortName) ?? "the sub-progression") runs" }
    /// compose's `mapResult` / `flatMapResult`: the case after the sub-progression's result.
    static func whenFinished(_ sub: String?) -> String { "when \(sub.map(shortName) ?? "the sub-progression") finishes" }

    private static func shortName(_ path: String) -> String { path.split(separator: ".").last.map(String.init) ?? path }
}

/// Reads one branch of a progression's `switch self`.
///
/// Contexts: the branch itself (sync: `self = .x`, `throw`, `try`, `return <Deferred>`); closures that
/// are not a Deferred's (only `self = .x` counts there); `Deferred.future { resolve in ... }`, where
/// only what is passed to `resolve` counts; a value a Deferred resolves to (`resolve { .x }`,
/// `Deferred { .x }`, `.unit { .x }`), where every case reference and every throw counts; and
/// compose's `mapNext`/`mapResult`/`flatMapResult`, where every case reference counts.
final class BranchScanner {
    enum Context {
        case sync
        case closure
        case future(resolver: String)
        case deferred
        case compose(label: String)

        var countsErrors: Bool {
            switch self {
            case .sync, .deferred, .compose: return true
            case .closure, .future: return false
            }
        }

        var isSync: Bool {
            switch self {
            case .sync, .closure: return true
            default: return false
            }
        }
    }

    let file: ParsedSwiftFile
    /// The progression's simple type name (`Self.x` and `TypeName.x` are its cases).
    let typeName: String
    let cases: Set<String>
    /// Types of the names bound by the branch's pattern (`case let .read(access)` → `access: FileAccess`).
    let bindings: [String: TypeSyntax]
    private(set) var facts = BranchFacts()
    /// Locals of the branch initialised with a value (`let sub = FileRead.open(url)`), for compose.
    private var locals: [String: ExprSyntax] = [:]
    private var localTypes: [String: TypeSyntax] = [:]

    /// Free functions that never return: a branch calling one stops the progression there.
    static let neverReturning: Set<String> = ["fatalError", "preconditionFailure", "completedStep", "abort", "exit"]

    init(file: ParsedSwiftFile, typeName: String, cases: Set<String>, bindings: [String: TypeSyntax]) {
        self.file = file
        self.typeName = typeName
        self.cases = cases
        self.bindings = bindings
    }

    /// Scans the statements of a branch.
    func scan(branch statements: CodeBlockItemListSyntax) {
        let declarations = LocalDeclarations(viewMode: .sourceAccurate)
        declarations.walk(statements)
        for (name, annotation, initializer) in declarations.found where locals[name] == nil && localTypes[name] == nil {
            if let annotation { localTypes[name] = annotation } else if let initializer { locals[name] = initializer }
        }
        // Only a call written as a statement of the branch itself stops it on every path.
        for item in statements {
            if let call = Self.expression(of: item)?.as(FunctionCallExprSyntax.self),
               let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
               Self.neverReturning.contains(callee.baseName.text) {
                facts.neverReturns = true
            }
        }
        scan(Syntax(statements), .sync, caught: false)
        if facts.movesOn {
            facts.retries = RetryPaths(branch: statements).paths.map { path in
                (path.conditions, path.end.map { file.location($0) })
            }
        }
    }

    /// The expression a code block item holds, if it is one.
    static func expression(of item: CodeBlockItemSyntax) -> ExprSyntax? {
        if let expression = item.item.as(ExprSyntax.self) { return expression }
        return item.item.as(ExpressionStmtSyntax.self)?.expression
    }

    // MARK: - The walk

    private func scan(_ node: Syntax, _ context: Context, caught: Bool) {
        // Nested functions and types do not run as part of the branch; patterns construct nothing.
        if let declaration = node.as(DeclSyntax.self), !declaration.is(VariableDeclSyntax.self) { return }
        if node.is(PatternSyntax.self) || node.is(SwitchCaseLabelSyntax.self) { return }

        if let statement = node.as(ThrowStmtSyntax.self) {
            if context.countsErrors, !caught { error(at: statement.throwKeyword) }
        } else if let expression = node.as(TryExprSyntax.self) {
            if context.countsErrors, !caught, expression.questionOrExclamationMark == nil { error(at: expression.tryKeyword) }
        } else if let statement = node.as(DoStmtSyntax.self), !statement.catchClauses.isEmpty {
            scan(Syntax(statement.body), context, caught: true)
            for clause in statement.catchClauses { scan(Syntax(clause), context, caught: caught) }
            return
        } else if let closure = node.as(ClosureExprSyntax.self) {
            // A closure runs later, or not at all: a `do` around it does not catch what it throws.
            let inner: Context
            switch context {
            case .sync, .closure: inner = .closure
            default: inner = context
            }
            scan(Syntax(closure.statements), inner, caught: false)
            return
        } else if let statement = node.as(ReturnStmtSyntax.self), case .sync = context {
            if let value = statement.expression, !Self.unwrapped(value).is(NilLiteralExprSyntax.self) {
                facts.returnsDeferred = true
            }
        } else if let sequence = node.as(SequenceExprSyntax.self), context.isSync, Self.assignsSelf(sequence) {
            facts.changesSelf = true
            let targets = Array(sequence.elements.dropFirst(2)).flatMap { caseTargets($0) }
            if targets.isEmpty { facts.unreadable.append(file.location(sequence)) }
            for (name, at) in targets { facts.targets.append(.init(to: name, label: nil, location: file.location(at))) }
        } else if let call = node.as(FunctionCallExprSyntax.self), handle(call, context, caught: caught) {
            return
        } else if let member = node.as(MemberAccessExprSyntax.self), isCaseReference(member) {
            switch context {
            case .deferred:
                facts.targets.append(.init(to: member.declName.baseName.text, label: SyrupLabel.async, location: file.location(member)))
            case let .compose(label):
                facts.targets.append(.init(to: member.declName.baseName.text, label: label, location: file.location(member)))
            default:
                break
            }
        }
        for child in node.children(viewMode: .sourceAccurate) { scan(child, context, caught: caught) }
    }

    /// Deferred constructors, compose, and calls of a future's resolver. True when the call was handled.
    private func handle(_ call: FunctionCallExprSyntax, _ context: Context, caught: Bool) -> Bool {
        if case let .future(resolver) = context, call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == resolver {
            for argument in Self.arguments(of: call) { scan(argument, .deferred, caught: false) }
            return true
        }
        guard context.isSync else { return false }
        if let form = Self.deferredForm(call.calledExpression) {
            facts.returnsDeferred = true
            switch form {
            case .future:
                for argument in Self.arguments(of: call) {
                    if let closure = argument.as(ClosureExprSyntax.self) {
                        scan(Syntax(closure.statements), .future(resolver: Self.firstParameter(of: closure) ?? "$0"), caught: false)
                    } else {
                        scan(argument, context, caught: caught)
                    }
                }
            case .value:
                if call.argument("throwing") != nil { error(at: call.calledExpression) }
                for argument in Self.arguments(of: call) { scan(argument, .deferred, caught: false) }
            }
            return true
        }
        if call.calledExpression.calleeName == "compose", Self.isOnSelf(call.calledExpression) {
            facts.returnsDeferred = true
            let first = call.arguments.first(where: { $0.label == nil })?.expression
            let sub = first.flatMap { progressionType(of: $0) }
            if facts.compose == nil { facts.compose = (sub, file.callLocation(call)) }
            for argument in call.arguments {
                switch argument.label?.text {
                case "mapNext"?: scan(Syntax(argument.expression), .compose(label: SyrupLabel.whileRunning(sub)), caught: false)
                case "mapResult"?, "flatMapResult"?: scan(Syntax(argument.expression), .compose(label: SyrupLabel.whenFinished(sub)), caught: false)
                default: scan(Syntax(argument.expression), context, caught: caught)
                }
            }
            // `compose(sub, mapNext: .x) { result in ... }`: the trailing closure maps the result.
            if let trailing = call.trailingClosure {
                scan(Syntax(trailing), .compose(label: SyrupLabel.whenFinished(sub)), caught: false)
            }
            for extra in call.additionalTrailingClosures {
                let label = extra.label.text == "mapNext" ? SyrupLabel.whileRunning(sub) : SyrupLabel.whenFinished(sub)
                scan(Syntax(extra.closure), .compose(label: label), caught: false)
            }
            return true
        }
        return false
    }

    private func error(at node: some SyntaxProtocol) {
        if facts.errorLocation == nil { facts.errorLocation = file.location(node) }
    }

    // MARK: - Syntax helpers

    enum DeferredForm {
        /// `Deferred.future { resolve in ... }`, `.future { ... }`.
        case future
        /// `Deferred { .x }`, `Deferred(running:)`, `Deferred(throwing:)`, `Deferred.unit { .x }`, `.unit { }`.
        case value
    }

    /// The form of a Deferred built by calling `callee`, or nil when it builds none.
    static func deferredForm(_ callee: ExprSyntax) -> DeferredForm? {
        if isDeferredType(callee) { return .value }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
        if let base = member.base, !isDeferredType(base) { return nil }
        switch member.declName.baseName.text {
        case "future": return .future
        case "unit", "init": return .value
        default: return nil
        }
    }

    /// `Deferred`, `Deferred<T>`, `Syrup.Deferred`.
    private static func isDeferredType(_ expression: ExprSyntax) -> Bool {
        if let generic = expression.as(GenericSpecializationExprSyntax.self) { return isDeferredType(generic.expression) }
        return expression.dottedPath?.last == "Deferred"
    }

    /// `compose(...)` or `self.compose(...)`.
    private static func isOnSelf(_ callee: ExprSyntax) -> Bool {
        if callee.is(DeclReferenceExprSyntax.self) { return true }
        guard let member = callee.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) else { return false }
        return base.baseName.tokenKind == .keyword(.self)
    }

    /// A call's arguments and trailing closures, in source order.
    private static func arguments(of call: FunctionCallExprSyntax) -> [Syntax] {
        var result = call.arguments.map { Syntax($0.expression) }
        if let trailing = call.trailingClosure { result.append(Syntax(trailing)) }
        result += call.additionalTrailingClosures.map { Syntax($0.closure) }
        return result
    }

    /// `resolve` in `{ resolve in ... }` or `{ (resolve) in ... }`.
    private static func firstParameter(of closure: ClosureExprSyntax) -> String? {
        switch closure.signature?.parameterClause {
        case let .simpleInput(list)?: return list.first?.name.text
        case let .parameterClause(clause)?: return clause.parameters.first.map { ($0.secondName ?? $0.firstName).text }
        case nil: return nil
        }
    }

    /// Removes `try`, `await` and parentheses around a single value.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let inner = expression.as(TryExprSyntax.self) { return unwrapped(inner.expression) }
        if let inner = expression.as(AwaitExprSyntax.self) { return unwrapped(inner.expression) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return unwrapped(only.expression)
        }
        return expression
    }

    /// `self = ...` as an unfolded sequence.
    static func assignsSelf(_ sequence: SequenceExprSyntax) -> Bool {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self),
              let target = elements[0].as(DeclReferenceExprSyntax.self) else { return false }
        return target.baseName.tokenKind == .keyword(.self)
    }

    /// The cases an assigned value names: `.x(...)`, `.x`, `Self.x(...)`, `Type.x`, either side of a
    /// ternary, each branch of an `if`/`switch` expression.
    private func caseTargets(_ expression: ExprSyntax) -> [(String, Syntax)] {
        let value = Self.unwrapped(expression)
        if let ternary = value.as(UnresolvedTernaryExprSyntax.self) { return caseTargets(ternary.thenExpression) }
        if let ternary = value.as(TernaryExprSyntax.self) { return caseTargets(ternary.thenExpression) + caseTargets(ternary.elseExpression) }
        if let call = value.as(FunctionCallExprSyntax.self) { return caseTargets(call.calledExpression) }
        if let member = value.as(MemberAccessExprSyntax.self), isCaseReference(member) {
            return [(member.declName.baseName.text, Syntax(member))]
        }
        if let ifExpression = value.as(IfExprSyntax.self) {
            var result: [(String, Syntax)] = []
            var current: IfExprSyntax? = ifExpression
            while let branch = current {
                result += lastExpression(branch.body.statements).map(caseTargets) ?? []
                switch branch.elseBody {
                case let .ifExpr(next)?: current = next
                case let .codeBlock(block)?: result += lastExpression(block.statements).map(caseTargets) ?? []; current = nil
                case nil: current = nil
                }
            }
            return result
        }
        if let switchExpression = value.as(SwitchExprSyntax.self) {
            return switchExpression.cases.flatMap { element -> [(String, Syntax)] in
                guard case let .switchCase(branch) = element else { return [] }
                return lastExpression(branch.statements).map(caseTargets) ?? []
            }
        }
        return []
    }

    private func lastExpression(_ items: CodeBlockItemListSyntax) -> ExprSyntax? {
        items.last.flatMap(Self.expression(of:))
    }

    /// A reference to one of the progression's cases: `.x`, `Self.x`, `TypeName.x`, `TypeName<T>.x`.
    func isCaseReference(_ member: MemberAccessExprSyntax) -> Bool {
        guard cases.contains(member.declName.baseName.text) else { return false }
        guard let base = member.base else { return true }
        return Self.typeReference(base).map { $0 == "Self" || $0 == typeName } ?? false
    }

    /// The simple name of a type written as an expression: `Foo`, `Module.Foo`, `Foo<Bar>`.
    static func typeReference(_ expression: ExprSyntax) -> String? {
        if let generic = expression.as(GenericSpecializationExprSyntax.self) { return typeReference(generic.expression) }
        if let ref = expression.as(DeclReferenceExprSyntax.self), ref.baseName.tokenKind == .keyword(.Self) { return "Self" }
        return expression.dottedPath?.last
    }

    /// The type of the sub-progression passed to compose: an initializer (`FileAccess(fileURL: u)`), a
    /// case of another progression (`HTTPRequest.get(url: u)`), a name bound by the branch's pattern,
    /// or a local initialised with one of those.
    private func progressionType(of expression: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < 4 else { return nil }
        let value = Self.unwrapped(expression)
        if let call = value.as(FunctionCallExprSyntax.self) {
            return typePath(call.calledExpression, allowingMember: true)
        }
        if let member = value.as(MemberAccessExprSyntax.self) {
            return typePath(ExprSyntax(member), allowingMember: true)
        }
        if let name = value.simpleName {
            if let type = bindings[name] ?? localTypes[name] { return Self.typeName(type) }
            if let initializer = locals[name] { return progressionType(of: initializer, depth: depth + 1) }
        }
        return nil
    }

    /// `A.B` for `A.B(...)`, `A.B.c(...)` and `A<T>.c(...)`: the capitalised prefix of a dotted path.
    private func typePath(_ callee: ExprSyntax, allowingMember: Bool) -> String? {
        var expression = callee
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
           member.declName.baseName.text.first?.isLowercase == true {
            expression = base
        }
        if let generic = expression.as(GenericSpecializationExprSyntax.self) { expression = generic.expression }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
            expression = base
        }
        guard let path = expression.dottedPath, path.allSatisfy({ $0.first?.isUppercase == true }) else { return nil }
        return path.joined(separator: ".")
    }

    /// A type's path without generic arguments or optionality: `FileAccess` for `FileAccess?`.
    static func typeName(_ type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return typeName(optional.wrappedType) }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return typeName(optional.wrappedType) }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return typeName(member.baseType).map { "\($0).\(member.name.text)" } }
        return nil
    }
}
