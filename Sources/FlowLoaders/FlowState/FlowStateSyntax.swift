import FlowModel
import SwiftSyntax

/// What FlowState code looks like in syntax: step creations, closures' parameters, the conditions a
/// statement is under, and whether a closure sets a step's `nextStep` on every path.
enum FlowStateSyntax {
    /// A step created in code.
    enum CreationKind {
        /// `FlowStep(Content.self, Result.self, identifier:, intent[, completion])`.
        case step
        /// `ConcurentFlowStep(identifier:steps:)` (the library's spelling; `ConcurrentFlowStep` is accepted too).
        case concurrent
    }

    /// Type names that declare a step property (`let s: FlowStep<String, Int>`).
    static let stepTypeNames: Set<String> = ["FlowStep", "ConcurentFlowStep", "ConcurrentFlowStep"]

    /// The handler types an intent returns.
    static let handlerTypeNames: Set<String> = ["FlowStepHandler", "FlowStepIntent"]

    /// The kind of step `expression` creates, if it is a step creation.
    static func creationKind(_ expression: ExprSyntax) -> CreationKind? {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
        return creationKind(call)
    }

    static func creationKind(_ call: FunctionCallExprSyntax) -> CreationKind? {
        var callee = call.calledExpression
        if let generic = callee.as(GenericSpecializationExprSyntax.self) { callee = generic.expression }
        guard let path = callee.dottedPath, let last = path.last else { return nil }
        // `FlowStep(...)` or `FlowState.FlowStep(...)`, not `x.FlowStep(...)` on a value.
        guard path.count == 1 || (path.count == 2 && path[0] == "FlowState") else { return nil }
        switch last {
        case "FlowStep": return .step
        case "ConcurentFlowStep", "ConcurrentFlowStep": return .concurrent
        default: return nil
        }
    }

    /// The type a metatype argument names: `String` for `String.self`, `[Photo]` for `[Photo].self`.
    static func metatype(_ expression: ExprSyntax) -> TypeName? {
        let text = expression.trimmedText
        guard text.hasSuffix(".self") else { return nil }
        return TypeName(String(text.dropLast(5)))
    }

    /// The names of a closure's parameters, in order (`nil` for `_`); `$0`, `$1`... without a signature.
    static func parameterNames(_ closure: ClosureExprSyntax, count: Int) -> [String?] {
        switch closure.signature?.parameterClause {
        case let .simpleInput(list)?:
            return list.map { $0.name.text == "_" ? nil : $0.name.text }
        case let .parameterClause(clause)?:
            return clause.parameters.map { parameter in
                let name = (parameter.secondName ?? parameter.firstName).text
                return name == "_" ? nil : name
            }
        case nil:
            return (0..<count).map { "$\($0)" }
        }
    }

    /// `x` for `x`, `self.x`, `self?.x`, `x!`, `x?`; nil for anything else.
    static func name(_ expression: ExprSyntax) -> String? {
        if let unwrap = expression.as(ForceUnwrapExprSyntax.self) { return name(unwrap.expression) }
        if let chain = expression.as(OptionalChainingExprSyntax.self) { return name(chain.expression) }
        if let ref = expression.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            var selfBase = base
            if let chain = base.as(OptionalChainingExprSyntax.self) { selfBase = chain.expression }
            if selfBase.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" { return member.declName.baseName.text }
        }
        return nil
    }

    /// `(base, "nextStep")` for `base.nextStep`, `base?.nextStep`.
    static func property(_ expression: ExprSyntax) -> (base: ExprSyntax, name: String)? {
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        return (base, member.declName.baseName.text)
    }

    /// `lhs = rhs` written as an unfolded operator sequence: the left side and the right side's elements.
    static func assignment(_ sequence: SequenceExprSyntax) -> (lhs: ExprSyntax, rhs: [ExprSyntax])? {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return (elements[0], Array(elements[2...]))
    }

    // MARK: - Conditions

    /// One condition a statement is under.
    enum ConditionPart: Hashable {
        /// Inside an `if` body, or after nothing else.
        case holds(String)
        /// Inside an `else` or a `guard`'s `else`.
        case fails(String)
        /// Inside a `switch` case.
        case switchCase(String)
        /// Inside a `switch`'s `default`.
        case switchDefault

        var text: String {
            switch self {
            case let .holds(text), let .fails(text), let .switchCase(text): return text
            case .switchDefault: return "default"
            }
        }
    }

    /// The conditions `node` is under, outermost first, up to (not including) `boundary`.
    static func conditions(of node: Syntax, upTo boundary: SyntaxIdentifier?) -> [ConditionPart] {
        var parts: [ConditionPart] = []
        var child = node
        var current = node.parent
        while let parent = current, parent.id != boundary {
            if let ifExpr = parent.as(IfExprSyntax.self) {
                if child.id == ifExpr.body.id {
                    parts.append(.holds(positive(ifExpr.conditions)))
                } else if let elseBody = ifExpr.elseBody, child.id == elseBody.id {
                    parts.append(.fails(negative(ifExpr.conditions)))
                }
            } else if let guardStmt = parent.as(GuardStmtSyntax.self), child.id == guardStmt.body.id {
                parts.append(.fails(negative(guardStmt.conditions)))
            } else if let switchCase = parent.as(SwitchCaseSyntax.self), child.id == switchCase.statements.id {
                switch switchCase.label {
                case .default: parts.append(.switchDefault)
                case let .case(label):
                    parts.append(.switchCase(label.caseItems.map(text(withoutComma:)).joined(separator: ", ")))
                }
            }
            child = parent
            current = parent.parent
        }
        return parts.reversed()
    }

    /// A case item's text without its trailing comma: what `item.with(\.trailingComma, nil)
    /// .trimmedText` gives, read from the source text. (`with` rebuilds the tree above the
    /// item up to its root, copying the switch's list of cases: for every `nextStep =` in a switch of
    /// thousands of cases, that was quadratic.)
    static func text(withoutComma item: SwitchCaseItemSyntax) -> String {
        guard let comma = item.trailingComma, let last = comma.previousToken(viewMode: .sourceAccurate) else { return item.trimmedText }
        let start = item.positionAfterSkippingLeadingTrivia.utf8Offset - item.position.utf8Offset
        let end = last.endPositionBeforeTrailingTrivia.utf8Offset - item.position.utf8Offset
        guard start < end else { return "" }  // nothing before the comma (a missing pattern)
        let bytes = Array(item.description.utf8)
        return String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
    }

    /// The condition a list of parts makes, as a transition shows it.
    static func condition(_ parts: [ConditionPart]) -> Condition? {
        if parts.isEmpty { return nil }
        if parts == [.switchDefault] { return .otherwise }
        return .expression(parts.map(\.text).joined(separator: ", "))
    }

    /// `if a, let b = c` as `a && c != nil`.
    static func positive(_ conditions: ConditionElementListSyntax) -> String {
        conditions.map { element in
            switch element.condition {
            case let .optionalBinding(binding):
                let value = binding.initializer?.value.trimmedText ?? binding.pattern.trimmedText
                return "\(value) != nil"
            default:
                return element.condition.trimmedText
            }
        }.joined(separator: " && ")
    }

    /// The negation of `conditions`: `!ready`, `c == nil`, `not (a && b)`.
    static func negative(_ conditions: ConditionElementListSyntax) -> String {
        if conditions.count == 1, let only = conditions.first {
            switch only.condition {
            case let .optionalBinding(binding):
                let value = binding.initializer?.value.trimmedText ?? binding.pattern.trimmedText
                return "\(value) == nil"
            case let .expression(expression):
                return negation(of: [expression])
            default:
                break
            }
        }
        return "not (\(positive(conditions)))"
    }

    /// The negation of an expression given as the elements of an unfolded sequence: `!ready` for
    /// `ready`, `ready` for `!ready`, `a != b` for `a == b`, `!(a && b)` otherwise.
    static func negation(of elements: [ExprSyntax]) -> String {
        let text = elements.map(\.trimmedText).joined(separator: " ")
        if elements.count == 1, let only = elements.first {
            if let sequence = only.as(SequenceExprSyntax.self) { return negation(of: Array(sequence.elements)) }
            if let prefix = only.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
                return prefix.expression.trimmedText
            }
            if only.is(DeclReferenceExprSyntax.self) || only.is(MemberAccessExprSyntax.self) || only.is(FunctionCallExprSyntax.self) {
                return "!" + text
            }
        }
        if elements.count == 3, let op = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text,
           let opposite = ["==": "!=", "!=": "==", "===": "!==", "!==": "==="][op] {
            return "\(elements[0].trimmedText) \(opposite) \(elements[2].trimmedText)"
        }
        return "!(\(text))"
    }

    // MARK: - Statements that need a value

    /// Whether `node` runs only when one of `names` (a completion's result and the names bound from
    /// it) holds a value: it is inside `if let x = result`, after `guard let x = result else { ... }`,
    /// in a non-nil `case` of `switch result`, inside `if case .a = result` or `if result != nil`, or
    /// in the `else` of `if result == nil`. Looks no further out than `boundary`.
    static func requiresValue(of names: Set<String>, at node: Syntax, upTo boundary: SyntaxIdentifier?) -> Bool {
        var child = node
        var current = node.parent
        while let parent = current, parent.id != boundary {
            if let list = parent.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    if item.id == child.id { break }
                    if let guardStmt = item.item.as(GuardStmtSyntax.self), guardStmt.conditions.contains(where: { testsValue($0, of: names) }) {
                        return true
                    }
                }
            } else if let ifExpr = parent.as(IfExprSyntax.self) {
                if child.id == ifExpr.body.id, ifExpr.conditions.contains(where: { testsValue($0, of: names) }) { return true }
                if let elseBody = ifExpr.elseBody, child.id == elseBody.id, ifExpr.conditions.count == 1,
                   let only = ifExpr.conditions.first, case let .expression(expression) = only.condition,
                   comparesWithNil(expression, operator: "==", names: names) { return true }
            } else if let switchCase = parent.as(SwitchCaseSyntax.self), child.id == switchCase.statements.id,
                      case let .case(label) = switchCase.label,
                      let switchExpr = switchCase.parent?.parent?.as(SwitchExprSyntax.self),
                      let subject = name(switchExpr.subject), names.contains(subject),
                      label.caseItems.allSatisfy({ !matchesNil($0.pattern) }) {
                return true
            }
            child = parent
            current = parent.parent
        }
        return false
    }

    /// `let x = result`, `let result` (shorthand), `case .a = result`, `result != nil`.
    private static func testsValue(_ element: ConditionElementSyntax, of names: Set<String>) -> Bool {
        switch element.condition {
        case let .optionalBinding(binding):
            if let value = binding.initializer?.value { return name(value).map(names.contains) ?? false }
            return binding.pattern.as(IdentifierPatternSyntax.self).map { names.contains($0.identifier.text) } ?? false
        case let .matchingPattern(match):
            return (name(match.initializer.value).map(names.contains) ?? false) && !matchesNil(match.pattern)
        case let .expression(expression):
            return comparesWithNil(expression, operator: "!=", names: names)
        default:
            return false
        }
    }

    /// `x op nil` or `nil op x` with `x` one of `names`.
    private static func comparesWithNil(_ expression: ExprSyntax, operator op: String, names: Set<String>) -> Bool {
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return false }
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == op else { return false }
        let sides = [elements[0], elements[2]]
        return sides.contains { $0.is(NilLiteralExprSyntax.self) } && sides.contains { name($0).map(names.contains) ?? false }
    }

    /// A pattern that also matches nil: `nil`, `.none`, `_`, `let x`.
    private static func matchesNil(_ pattern: PatternSyntax) -> Bool {
        if pattern.is(WildcardPatternSyntax.self) { return true }
        if let binding = pattern.as(ValueBindingPatternSyntax.self) {
            return binding.pattern.is(IdentifierPatternSyntax.self) || binding.pattern.is(WildcardPatternSyntax.self)
        }
        let text = pattern.trimmedText
        return ["nil", ".none", "Optional.none"].contains(text)
    }

    // MARK: - Paths through a closure

    /// Whether every path through `items` reaches a statement `isAssignment` accepts before it leaves
    /// (by `return`, `throw`, a `guard`'s `else`, or the end of the list). `if` without `else` may be
    /// skipped; a `switch` is assumed exhaustive, as the compiler requires.
    static func assignsOnEveryPath(_ items: CodeBlockItemListSyntax, _ isAssignment: (SequenceExprSyntax) -> Bool) -> Bool {
        for item in items {
            var node = Syntax(item.item)
            if let statement = node.as(ExpressionStmtSyntax.self) { node = Syntax(statement.expression) }
            if let sequence = node.as(SequenceExprSyntax.self), isAssignment(sequence) { return true }
            if let ifExpr = node.as(IfExprSyntax.self), ifAssigns(ifExpr, isAssignment) { return true }
            if let switchExpr = node.as(SwitchExprSyntax.self) {
                let cases = switchExpr.cases.compactMap { $0.as(SwitchCaseSyntax.self) }
                if !cases.isEmpty, cases.allSatisfy({ assignsOnEveryPath($0.statements, isAssignment) }) { return true }
            }
            if let guardStmt = node.as(GuardStmtSyntax.self), !assignsOnEveryPath(guardStmt.body.statements, isAssignment) {
                return false
            }
            if let doStmt = node.as(DoStmtSyntax.self), assignsOnEveryPath(doStmt.body.statements, isAssignment) { return true }
            if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) { return false }
        }
        return false
    }

    private static func ifAssigns(_ ifExpr: IfExprSyntax, _ isAssignment: (SequenceExprSyntax) -> Bool) -> Bool {
        guard let elseBody = ifExpr.elseBody, assignsOnEveryPath(ifExpr.body.statements, isAssignment) else { return false }
        switch elseBody {
        case let .codeBlock(block): return assignsOnEveryPath(block.statements, isAssignment)
        case let .ifExpr(nested): return ifAssigns(nested, isAssignment)
        }
    }
}
