import SwiftSyntax

/// Whether a Flow-iOS `setData` happens on every successful run of its operation, or only under a
/// condition (`../shared/flow-libraries.md` §1): inside an `if`, a `switch` case, a `catch`, a
/// `guard`'s `else`, or a closure that may not run, while another way through the operation still
/// finishes it successfully.
///
/// The next operation runs only after `finishSuccessfully()` (or, for an operation that never calls
/// it, after `mainLogic` returns). So a write is a *maybe* write only when the way around it can
/// still succeed: `if ok { setData(...) } else { finishWithError(...) }` always writes on success,
/// `if !list.isEmpty { setData(...) }; finishSuccessfully()` does not.
enum MaybeWrites {
    /// Calls that end an operation's run with an error (or stop the program).
    static let failures: Set<String> = ["finishWithError", "fatalError", "preconditionFailure", "cancel"]
    /// Calls taking a closure they always run, before they return.
    static let alwaysRun: Set<String> = ["sync", "autoreleasepool", "performAndWait", "withLock", "synchronized"]

    /// The conditions under which the `setData` call `call` happens, outermost first, joined with
    /// "and"; nil when it happens on every successful run.
    /// `body` is the call's outermost body (`AccessCollector.outermostBody`) and `bodySucceeds` whether
    /// it calls `finishSuccessfully` anywhere (`callsFinishSuccessfully`), asked once per body by the
    /// caller rather than once per write: a body's every write would walk all of it again.
    static func condition(of call: FunctionCallExprSyntax, in body: Syntax?, bodySucceeds: Bool) -> String? {
        guard let body else { return nil }
        var conditions: [String] = []
        var node = Syntax(call)
        while let parent = node.parent, parent.id != body.id {
            if let ifExpr = parent.as(IfExprSyntax.self) {
                let condition = text(ifExpr.conditions)
                if node.id == ifExpr.body.id {
                    let otherwise: Syntax? = ifExpr.elseBody.map { Syntax($0) }
                    if canSucceed(around: Syntax(ifExpr), alternative: otherwise, bodySucceeds: bodySucceeds, body: body) {
                        conditions.append("\(condition) holds")
                    }
                } else if let elseBody = ifExpr.elseBody, node.id == elseBody.id,
                          canSucceed(around: Syntax(ifExpr), alternative: Syntax(ifExpr.body), bodySucceeds: bodySucceeds, body: body) {
                    conditions.append("\(condition) is false")
                }
            } else if let switchCase = parent.as(SwitchCaseSyntax.self), node.id == switchCase.statements.id,
                      let switchExpr = switchCase.parent?.parent?.as(SwitchExprSyntax.self) {
                let others = switchExpr.cases.compactMap { $0.as(SwitchCaseSyntax.self) }.filter { $0.id != switchCase.id }
                if others.contains(where: { canSucceed(around: Syntax(switchExpr), alternative: Syntax($0.statements), bodySucceeds: bodySucceeds, body: body) }) {
                    switch switchCase.label {
                    case let .case(label): conditions.append("\(text(switchExpr.subject)) matches \(text(label.caseItems))")
                    case .default: conditions.append("\(text(switchExpr.subject)) matches no other case")
                    }
                }
            } else if let clause = parent.as(CatchClauseSyntax.self), node.id == clause.body.id,
                      let doStmt = clause.parent?.parent?.as(DoStmtSyntax.self),
                      canSucceed(around: Syntax(doStmt), alternative: Syntax(doStmt.body), bodySucceeds: bodySucceeds, body: body) {
                conditions.append(clause.catchItems.isEmpty ? "an error is thrown" : "an error matching \(text(clause.catchItems)) is thrown")
            } else if let doStmt = parent.as(DoStmtSyntax.self), node.id == doStmt.body.id, !doStmt.catchClauses.isEmpty,
                      let firstTry = firstTry(in: Syntax(doStmt.body)), firstTry.position < call.position,
                      doStmt.catchClauses.contains(where: { canSucceed(around: Syntax(doStmt), alternative: Syntax($0.body), bodySucceeds: bodySucceeds, body: body) }) {
                // A `try` before the write can jump to a `catch` that still lets the operation succeed.
                conditions.append("no error is thrown by \(firstTry.oneLineText)")
            } else if let guardStmt = parent.as(GuardStmtSyntax.self), node.id == guardStmt.body.id {
                conditions.append("\(text(guardStmt.conditions)) is false")
            } else if let closure = parent.as(ClosureExprSyntax.self) {
                let callee = closureCallee(closure)
                // A closure that finishes the operation is the way to success: it runs whenever it succeeds.
                if !contains(Syntax(closure), calls: ["finishSuccessfully"]), !alwaysRun.contains(callee ?? "") {
                    conditions.append(callee.map { "the closure given to \($0) runs" } ?? "the closure runs")
                }
            }
            node = parent
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " and ")
    }

    /// Whether a run can go around the write and still finish successfully: through `alternative`
    /// (another branch), or past the construct when there is none.
    private static func canSucceed(around construct: Syntax, alternative: Syntax?, bodySucceeds: Bool, body: Syntax) -> Bool {
        if let alternative { return succeeds(alternative, bodySucceeds: bodySucceeds) || fallsThrough(alternative) && afterSucceeds(construct, bodySucceeds: bodySucceeds, body: body) }
        return afterSucceeds(construct, bodySucceeds: bodySucceeds, body: body)
    }

    /// A branch reaches success itself: it finishes successfully (or, in an operation that never calls
    /// `finishSuccessfully`, it does not fail).
    private static func succeeds(_ branch: Syntax, bodySucceeds: Bool) -> Bool {
        if contains(branch, calls: ["finishSuccessfully"]) { return true }
        return !bodySucceeds && !fails(branch) && !exits(branch)
    }

    /// A branch that neither fails nor leaves: the run goes on after the construct.
    private static func fallsThrough(_ branch: Syntax) -> Bool { !fails(branch) && !exits(branch) && !contains(branch, calls: ["finishSuccessfully"]) }

    /// What follows the construct, up to the end of the body, reaches success before failing.
    private static func afterSucceeds(_ construct: Syntax, bodySucceeds: Bool, body: Syntax) -> Bool {
        var node = construct
        while let parent = node.parent, node.id != body.id {
            if let item = node.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self) {
                var after = false
                for sibling in list {
                    if sibling.id == item.id { after = true; continue }
                    guard after else { continue }
                    if contains(Syntax(sibling), calls: ["finishSuccessfully"]) { return true }
                    if fails(Syntax(sibling)) || exits(Syntax(sibling)) { return false }
                }
            }
            // Leaving a closure or a loop body: what follows may not run in the same order; stop here.
            if parent.is(ClosureExprSyntax.self) { return !bodySucceeds }
            node = parent
        }
        // The end of the body: success only for an operation that never calls finishSuccessfully.
        return !bodySucceeds
    }

    private static func fails(_ node: Syntax) -> Bool {
        if node.is(ThrowStmtSyntax.self) { return true }
        if node.is(ClosureExprSyntax.self) { return false }
        if let call = node.as(FunctionCallExprSyntax.self), let name = call.calledExpression.calleeName, failures.contains(name) { return true }
        return node.children(viewMode: .sourceAccurate).contains { fails($0) }
    }

    /// A `return` outside closures: the branch leaves the function.
    private static func exits(_ node: Syntax) -> Bool {
        if node.is(ReturnStmtSyntax.self) { return true }
        if node.is(ClosureExprSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { exits($0) }
    }

    /// Whether `body` calls `finishSuccessfully` anywhere: then a run succeeds only through such a call.
    static func callsFinishSuccessfully(_ body: Syntax) -> Bool { contains(body, calls: ["finishSuccessfully"]) }

    static func contains(_ node: Syntax, calls names: Set<String>) -> Bool {
        if let call = node.as(FunctionCallExprSyntax.self), let name = call.calledExpression.calleeName, names.contains(name) { return true }
        return node.children(viewMode: .sourceAccurate).contains { contains($0, calls: names) }
    }

    /// The function a closure is passed to: `forEach` in `items.forEach { ... }`.
    private static func closureCallee(_ closure: ClosureExprSyntax) -> String? {
        var node = Syntax(closure)
        while let parent = node.parent {
            if let call = parent.as(FunctionCallExprSyntax.self) { return call.calledExpression.calleeName }
            if parent.is(LabeledExprSyntax.self) || parent.is(LabeledExprListSyntax.self) || parent.is(MultipleTrailingClosureElementSyntax.self)
                || parent.is(MultipleTrailingClosureElementListSyntax.self) {
                node = parent
                continue
            }
            return nil
        }
        return nil
    }

    private static func text(_ node: some SyntaxProtocol) -> String { node.oneLineText }

    /// The first `try` (not `try?`/`try!`) outside closures.
    private static func firstTry(in node: Syntax) -> TryExprSyntax? {
        if node.is(ClosureExprSyntax.self) { return nil }
        if let expression = node.as(TryExprSyntax.self), expression.questionOrExclamationMark == nil { return expression }
        for child in node.children(viewMode: .sourceAccurate) { if let found = firstTry(in: child) { return found } }
        return nil
    }
}
