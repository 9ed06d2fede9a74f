import SwiftSyntax

/// Reads a progression's `result` getter to find its terminal cases: those for which it returns a
/// value other than `nil`.
///
/// Follows the shapes results are written in: `guard case let .success(r) = self else { return nil }`,
/// `if case` (statement or expression, with `else if` chains), `switch self` (with `default`),
/// `self == .x`, and implicit returns of single-expression getters. Conditions that do not test
/// `self` are taken both ways. Each statement narrows the set of cases that can reach it.
struct TerminalReader {
    /// Which cases a piece of code returns a value for, and which fall through past it.
    struct Outcome {
        var terminal: Set<String> = []
        var fallsThrough: Set<String> = []
    }

    let cases: Set<String>
    let typeName: String
    /// True once a condition on `self` was read: without one, the getter says nothing about cases.
    private(set) var discriminates = false

    init(cases: Set<String>, typeName: String) {
        self.cases = cases
        self.typeName = typeName
    }

    /// The terminal cases of a getter body, or nil when the body does not tell them apart.
    mutating func terminalCases(_ body: CodeBlockItemListSyntax) -> Set<String>? {
        let outcome = evaluate(body, cases, implicitReturn: body.count == 1)
        return discriminates ? outcome.terminal : nil
    }

    // MARK: - Statements

    private mutating func evaluate(_ items: CodeBlockItemListSyntax, _ reaching: Set<String>, implicitReturn: Bool) -> Outcome {
        var remaining = reaching
        var terminal = Set<String>()
        let list = Array(items)
        for (index, item) in list.enumerated() where !remaining.isEmpty {
            let isLast = index == list.count - 1
            if let statement = item.item.as(GuardStmtSyntax.self) {
                let test = match(statement.conditions, remaining)
                // The else block must leave: whatever it returns is the result of the cases that fail.
                let failing = test.onlyCases ? remaining.subtracting(test.matched) : remaining
                terminal.formUnion(evaluate(statement.body.statements, failing, implicitReturn: false).terminal)
                remaining = test.matched
            } else if let statement = item.item.as(ReturnStmtSyntax.self) {
                terminal.formUnion(value(statement.expression, remaining))
                remaining = []
            } else if item.item.is(ThrowStmtSyntax.self) {
                remaining = []
            } else if let expression = BranchScanner.expression(of: item) {
                if let ifExpression = expression.as(IfExprSyntax.self) {
                    let outcome = evaluate(ifExpression, remaining, implicitReturn: implicitReturn && isLast)
                    terminal.formUnion(outcome.terminal)
                    remaining = outcome.fallsThrough
                } else if let switchExpression = expression.as(SwitchExprSyntax.self), isSelf(switchExpression.subject) {
                    let outcome = evaluate(switchExpression, remaining, implicitReturn: implicitReturn && isLast)
                    terminal.formUnion(outcome.terminal)
                    remaining = outcome.fallsThrough
                } else if implicitReturn && isLast {
                    terminal.formUnion(value(expression, remaining))
                    remaining = []
                }
            }
        }
        return Outcome(terminal: terminal, fallsThrough: remaining)
    }

    private mutating func evaluate(_ statement: IfExprSyntax, _ reaching: Set<String>, implicitReturn: Bool) -> Outcome {
        let test = match(statement.conditions, reaching)
        let thenCases = test.hasCase ? test.matched : reaching
        let elseCases = test.hasCase && test.onlyCases ? reaching.subtracting(test.matched) : reaching
        var outcome = evaluate(statement.body.statements, thenCases, implicitReturn: implicitReturn)
        let other: Outcome
        switch statement.elseBody {
        case let .ifExpr(next)?: other = evaluate(next, elseCases, implicitReturn: implicitReturn)
        case let .codeBlock(block)?: other = evaluate(block.statements, elseCases, implicitReturn: implicitReturn)
        case nil: other = Outcome(terminal: [], fallsThrough: elseCases)
        }
        outcome.terminal.formUnion(other.terminal)
        outcome.fallsThrough.formUnion(other.fallsThrough)
        return outcome
    }

    private mutating func evaluate(_ statement: SwitchExprSyntax, _ reaching: Set<String>, implicitReturn: Bool) -> Outcome {
        discriminates = true
        let branches = SwitchBranches(statement, cases: cases, typeName: typeName)
        var outcome = Outcome()
        for branch in branches.branches {
            let result = evaluate(branch.statements, branch.cases.intersection(reaching), implicitReturn: implicitReturn)
            outcome.terminal.formUnion(result.terminal)
            outcome.fallsThrough.formUnion(result.fallsThrough)
        }
        outcome.fallsThrough.formUnion(reaching.subtracting(branches.covered))
        return outcome
    }

    // MARK: - Values and conditions

    /// The cases for which returning `expression` gives a value: none for `nil`, all for anything else.
    private mutating func value(_ expression: ExprSyntax?, _ reaching: Set<String>) -> Set<String> {
        guard let expression else { return [] }
        let value = BranchScanner.unwrapped(expression)
        if value.is(NilLiteralExprSyntax.self) { return [] }
        if let ifExpression = value.as(IfExprSyntax.self) { return evaluate(ifExpression, reaching, implicitReturn: true).terminal }
        if let switchExpression = value.as(SwitchExprSyntax.self), isSelf(switchExpression.subject) {
            return evaluate(switchExpression, reaching, implicitReturn: true).terminal
        }
        if let sequence = value.as(SequenceExprSyntax.self), let terminal = ternary(sequence, reaching) { return terminal }
        return reaching
    }

    /// `cond ? a : b` (unfolded): `self == .x ? v : nil` gives a value for `.x` only.
    private mutating func ternary(_ sequence: SequenceExprSyntax, _ reaching: Set<String>) -> Set<String>? {
        let elements = Array(sequence.elements)
        guard let index = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
              let operator_ = elements[index].as(UnresolvedTernaryExprSyntax.self) else { return nil }
        var thenCases = reaching
        var elseCases = reaching
        if index == 3, let names = equalityTest(elements[0...2]) {
            discriminates = true
            thenCases = reaching.intersection(names)
            elseCases = reaching.subtracting(names)
        }
        let rest = elements[(index + 1)...]
        let elseTerminal = rest.count == 1 ? value(rest.first, elseCases) : elseCases
        return value(operator_.thenExpression, thenCases).union(elseTerminal)
    }

    /// The cases a condition list lets through: `case <pattern> = self` and `self == .x` narrow; any
    /// other condition may go either way (`onlyCases` is false).
    private mutating func match(_ conditions: ConditionElementListSyntax, _ reaching: Set<String>) -> (matched: Set<String>, hasCase: Bool, onlyCases: Bool) {
        var matched = reaching
        var hasCase = false
        var onlyCases = true
        for element in conditions {
            switch element.condition {
            case let .matchingPattern(condition) where isSelf(condition.initializer.value):
                hasCase = true
                discriminates = true
                matched.formIntersection(SwitchBranches.caseNames(condition.pattern, cases: cases, typeName: typeName) ?? cases)
            case let .expression(expression):
                if let names = equalityTest(expression) {
                    hasCase = true
                    discriminates = true
                    matched.formIntersection(names)
                } else {
                    onlyCases = false
                }
            default:
                onlyCases = false
            }
        }
        return (matched, hasCase, onlyCases)
    }

    /// `self == .x` or `.x == self`.
    private func equalityTest(_ expression: ExprSyntax) -> Set<String>? {
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return nil }
        return equalityTest(Array(sequence.elements)[...])
    }

    private func equalityTest(_ slice: ArraySlice<ExprSyntax>) -> Set<String>? {
        let elements = Array(slice)
        guard elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "==" else { return nil }
        let other: ExprSyntax
        if isSelf(elements[0]) { other = elements[2] } else if isSelf(elements[2]) { other = elements[0] } else { return nil }
        guard let member = other.as(MemberAccessExprSyntax.self), cases.contains(member.declName.baseName.text) else { return nil }
        return [member.declName.baseName.text]
    }

    private func isSelf(_ expression: ExprSyntax) -> Bool {
        BranchScanner.unwrapped(expression).as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    }
}

/// The branches of a `switch self`, each with the cases it handles.
struct SwitchBranches {
    struct Branch {
        /// The cases this branch handles (for `default`, every case no other label names).
        var cases: Set<String>
        var statements: CodeBlockItemListSyntax
        /// The `case ...:` or `default:` label.
        var label: Syntax
        /// The first pattern of the label, for the names it binds.
        var pattern: PatternSyntax?
    }

    var branches: [Branch] = []
    /// Every case some branch handles.
    var covered: Set<String> = []

    init(_ statement: SwitchExprSyntax, cases: Set<String>, typeName: String) {
        var named = Set<String>()
        var pending: [(Set<String>?, SwitchCaseSyntax, PatternSyntax?)] = []
        for element in statement.cases {
            guard case let .switchCase(branch) = element else { continue }
            switch branch.label {
            case .default:
                pending.append((nil, branch, nil))
            case let .case(label):
                var names = Set<String>()
                var catchAll = false
                for item in label.caseItems {
                    if let found = Self.caseNames(item.pattern, cases: cases, typeName: typeName) {
                        names.formUnion(found)
                    } else if Self.matchesAnything(item.pattern) {
                        catchAll = true
                    }
                }
                if catchAll {
                    pending.append((nil, branch, nil))
                } else {
                    named.formUnion(names)
                    pending.append((names, branch, label.caseItems.first?.pattern))
                }
            }
        }
        for (names, branch, pattern) in pending {
            let handled = names ?? cases.subtracting(named)
            branches.append(Branch(cases: handled, statements: branch.statements, label: Syntax(branch.label), pattern: pattern))
            covered.formUnion(handled)
        }
    }

    /// `case let x:`, `case _:`: a pattern that matches every case.
    private static func matchesAnything(_ pattern: PatternSyntax) -> Bool {
        if pattern.is(WildcardPatternSyntax.self) || pattern.is(IdentifierPatternSyntax.self) { return true }
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { return matchesAnything(binding.pattern) }
        if let expression = pattern.as(ExpressionPatternSyntax.self) {
            if expression.expression.is(DiscardAssignmentExprSyntax.self) { return true }
            if let inner = expression.expression.as(PatternExprSyntax.self) { return matchesAnything(inner.pattern) }
        }
        return false
    }

    /// The case a pattern matches: `.x`, `.x(let a)`, `let .x(a, b)`, `Self.x`, `Type.x(_)`; nil when
    /// the pattern names none of `cases`.
    static func caseNames(_ pattern: PatternSyntax, cases: Set<String>, typeName: String) -> Set<String>? {
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { return caseNames(binding.pattern, cases: cases, typeName: typeName) }
        guard let expression = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
        return caseName(expression, cases: cases, typeName: typeName).map { [$0] }
    }

    static func caseName(_ expression: ExprSyntax, cases: Set<String>, typeName: String) -> String? {
        if let call = expression.as(FunctionCallExprSyntax.self) { return caseName(call.calledExpression, cases: cases, typeName: typeName) }
        guard let member = expression.as(MemberAccessExprSyntax.self), cases.contains(member.declName.baseName.text) else { return nil }
        if let base = member.base {
            guard let reference = BranchScanner.typeReference(base), reference == "Self" || reference == typeName else { return nil }
        }
        return member.declName.baseName.text
    }

    /// The names a case pattern binds, by position: `access` for `let .read(access)`, `.read(let access)`
    /// and `.read(access: let access)`.
    static func boundNames(_ pattern: PatternSyntax) -> [Int: String] {
        var pattern = pattern
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { pattern = binding.pattern }
        guard let call = pattern.as(ExpressionPatternSyntax.self)?.expression.as(FunctionCallExprSyntax.self) else { return [:] }
        var names: [Int: String] = [:]
        for (index, argument) in call.arguments.enumerated() {
            if let name = boundName(argument.expression) { names[index] = name }
        }
        return names
    }

    private static func boundName(_ expression: ExprSyntax) -> String? {
        if let ref = expression.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        guard var pattern = expression.as(PatternExprSyntax.self)?.pattern else { return nil }
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { pattern = binding.pattern }
        return pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }
}
