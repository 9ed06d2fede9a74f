import FlowModel
import SwiftSyntax

/// The paths through one branch of a progression's `switch self` that end with `self` unchanged and
/// `nil` returned: Syrup then runs the same case again at once, so on such a path the progression
/// spins forever (`../shared/flow-libraries.md` §3). Each path is described by the conditions taken
/// to reach it (`an error matching let e as NSError is thrown`, `e.code == 260 is false`).
///
/// Precision comes first: a statement this reading does not follow (a loop, a closure) and that may
/// change `self`, return a value, throw or stop is taken to move on, so it never yields a path.
struct RetryPaths {
    /// One way through the branch that leaves the case as it was.
    struct Path: Equatable {
        /// The conditions that lead there, outermost first.
        var conditions: [String]
        /// The `return nil` (or `break`) that ends it; nil when the branch's end is reached.
        var end: Syntax?
    }

    /// Past this many open paths a branch is not followed further (no path is reported for it).
    private static let limit = 64

    private(set) var paths: [Path] = []
    private var overflow = false

    /// Reads the statements of one branch.
    init(branch statements: CodeBlockItemListSyntax) {
        var breaks: [[String]] = []
        let open = run(statements, [[]], breaks: &breaks)
        // Leaving the branch (its end, or a `break` out of the `switch self`) returns nil after the switch.
        paths += (open + breaks).map { Path(conditions: $0, end: nil) }
        if overflow { paths = [] }
    }

    private mutating func run(_ items: CodeBlockItemListSyntax, _ incoming: [[String]], breaks: inout [[String]]) -> [[String]] {
        var open = incoming
        for item in items where !open.isEmpty {
            open = step(Syntax(item.item), open, breaks: &breaks)
            if open.count > Self.limit { overflow = true; return [] }
        }
        return open
    }

    private mutating func step(_ node: Syntax, _ open: [[String]], breaks: inout [[String]]) -> [[String]] {
        if let statement = node.as(ExpressionStmtSyntax.self) { return step(Syntax(statement.expression), open, breaks: &breaks) }
        if let statement = node.as(ReturnStmtSyntax.self) {
            if statement.expression.map({ BranchScanner.unwrapped($0).is(NilLiteralExprSyntax.self) }) ?? true {
                paths += open.map { Path(conditions: $0, end: node) }
            }
            return []
        }
        if node.is(ThrowStmtSyntax.self) { return [] }
        if let statement = node.as(BreakStmtSyntax.self), statement.label == nil {
            breaks += open
            return []
        }
        if node.is(ContinueStmtSyntax.self) || node.is(FallThroughStmtSyntax.self) { return [] }
        if let statement = node.as(IfExprSyntax.self) { return branch(statement, open, breaks: &breaks) }
        if let statement = node.as(GuardStmtSyntax.self) {
            var ignored: [[String]] = []
            _ = run(statement.body.statements, adding(Self.failed(statement.conditions), to: open), breaks: &ignored)
            return open
        }
        if let statement = node.as(SwitchExprSyntax.self), !Self.containsCallOf(BranchScanner.neverReturning, in: Syntax(statement.subject)) {
            var out: [[String]] = []
            var inner: [[String]] = []
            let subject = Self.text(statement.subject)
            for element in statement.cases {
                guard case let .switchCase(item) = element else { return Self.containsMove(node) ? [] : open }
                let condition: String
                switch item.label {
                case let .case(label): condition = "\(subject) matches \(Self.text(label.caseItems))"
                case .default: condition = "\(subject) matches no other case"
                }
                out += run(item.statements, adding(condition, to: open), breaks: &inner)
            }
            return out + inner
        }
        if let statement = node.as(DoStmtSyntax.self) {
            var out = run(statement.body.statements, open, breaks: &breaks)
            guard Self.mayThrow(Syntax(statement.body)) else { return out }
            for clause in statement.catchClauses {
                let condition = clause.catchItems.isEmpty ? "an error is thrown"
                    : "an error matching \(Self.text(clause.catchItems)) is thrown"
                out += run(clause.body.statements, adding(condition, to: open), breaks: &breaks)
            }
            return out
        }
        if node.is(DeferStmtSyntax.self) { return open }
        return Self.containsMove(node) ? [] : open
    }

    private mutating func branch(_ statement: IfExprSyntax, _ open: [[String]], breaks: inout [[String]]) -> [[String]] {
        let condition = Self.text(statement.conditions)
        var out = run(statement.body.statements, adding("\(condition) holds", to: open), breaks: &breaks)
        let otherwise = adding(Self.failed(statement.conditions), to: open)
        switch statement.elseBody {
        case let .ifExpr(next)?: out += branch(next, otherwise, breaks: &breaks)
        case let .codeBlock(block)?: out += run(block.statements, otherwise, breaks: &breaks)
        case nil: out += otherwise
        }
        return out
    }

    private func adding(_ condition: String, to open: [[String]]) -> [[String]] { open.map { $0 + [condition] } }

    // MARK: - Syntax helpers

    private static func failed(_ conditions: ConditionElementListSyntax) -> String { "\(text(conditions)) is false" }

    /// The code as one line, shortened: it is read in a message and on a diagram edge.
    static func text(_ node: some SyntaxProtocol) -> String { node.oneLineText }

    /// A `try` (not `try?`/`try!`) or a `throw` outside closures: the `do` body can reach a `catch`.
    private static func mayThrow(_ node: Syntax) -> Bool {
        if node.is(ClosureExprSyntax.self) { return false }
        if let expression = node.as(TryExprSyntax.self), expression.questionOrExclamationMark == nil { return true }
        if node.is(ThrowStmtSyntax.self) { return true }
        return node.children(viewMode: .sourceAccurate).contains { mayThrow($0) }
    }

    /// Anything in `node`, closures included, that may change `self`, return a value, throw or stop.
    static func containsMove(_ node: Syntax) -> Bool {
        if node.is(ThrowStmtSyntax.self) { return true }
        if let statement = node.as(ReturnStmtSyntax.self), let value = statement.expression,
           !BranchScanner.unwrapped(value).is(NilLiteralExprSyntax.self) { return true }
        if let sequence = node.as(SequenceExprSyntax.self), BranchScanner.assignsSelf(sequence) { return true }
        if containsCallOf(BranchScanner.neverReturning, in: node, deep: false) { return true }
        return node.children(viewMode: .sourceAccurate).contains { containsMove($0) }
    }

    private static func containsCallOf(_ names: Set<String>, in node: Syntax, deep: Bool = true) -> Bool {
        if let call = node.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           names.contains(callee.baseName.text) { return true }
        return deep && node.children(viewMode: .sourceAccurate).contains { containsCallOf(names, in: $0) }
    }
}
