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

    /// The words whose absence from a node's text answers a question about it without a walk (see
    /// `search`): a call to `finishSuccessfully`, a failure (a `failures` call or a `throw`), a
    /// `return`. What the walk finds is a token with exactly that text, so it is in the text as a
    /// whole word (`ParsedSwiftFile.mentions`); most statements hold none of them.
    static let successWords = [Array("finishSuccessfully".utf8)]
    static let failureWords = (failures.sorted() + ["throw"]).map { Array($0.utf8) }
    static let exitWords = [Array("return".utf8)]

    /// One function body's writes, asked about one by one: what each question learns of the body's
    /// statements and branches (whether one finishes successfully, fails or returns; what follows a
    /// statement) is kept for the next. Asked afresh for each write, an operation with thousands of
    /// conditional writes in a row looked at every later statement for each of them: 1,000 such
    /// writes took 30 s.
    final class Body {
        /// The call's outermost body (`AccessCollector.outermostBody`).
        let body: Syntax
        /// Whether the body calls `finishSuccessfully` anywhere (`callsFinishSuccessfully`).
        let bodySucceeds: Bool
        /// The file the body is in: its text tells which nodes the searches need not walk (`search`).
        let file: ParsedSwiftFile
        private var finishing: [SyntaxIdentifier: Bool] = [:]
        private var failing: [SyntaxIdentifier: Bool] = [:]
        private var exiting: [SyntaxIdentifier: Bool] = [:]
        /// Per statement of a list, whether what follows it reaches success before failing.
        private var afterItem: [SyntaxIdentifier: Bool] = [:]
        /// Per `switch`, the cases through which a run can go around a write and still succeed.
        private var succeedingCases: [SyntaxIdentifier: Set<SyntaxIdentifier>] = [:]
        private var firstTries: [SyntaxIdentifier: TryExprSyntax?] = [:]

        init(_ body: Syntax, in file: ParsedSwiftFile) {
            self.body = body
            self.file = file
            bodySucceeds = MaybeWrites.callsFinishSuccessfully(body, in: file)
        }

        /// The conditions under which the `setData` call `call` happens, innermost first, joined
        /// with "and"; nil when it happens on every successful run.
        func condition(of call: FunctionCallExprSyntax) -> String? {
            var conditions: [String] = []
            var node = Syntax(call)
            while let parent = node.parent, parent.id != body.id {
                if let ifExpr = parent.as(IfExprSyntax.self) {
                    let condition = MaybeWrites.text(ifExpr.conditions)
                    if node.id == ifExpr.body.id {
                        let otherwise: Syntax? = ifExpr.elseBody.map { Syntax($0) }
                        if canSucceed(around: Syntax(ifExpr), alternative: otherwise) {
                            conditions.append("\(condition) holds")
                        }
                    } else if let elseBody = ifExpr.elseBody, node.id == elseBody.id,
                              canSucceed(around: Syntax(ifExpr), alternative: Syntax(ifExpr.body)) {
                        conditions.append("\(condition) is false")
                    }
                } else if let switchCase = parent.as(SwitchCaseSyntax.self), node.id == switchCase.statements.id,
                          let switchExpr = switchCase.parent?.parent?.as(SwitchExprSyntax.self) {
                    if !cases(succeedingIn: switchExpr).subtracting([switchCase.id]).isEmpty {
                        switch switchCase.label {
                        case let .case(label): conditions.append("\(MaybeWrites.text(switchExpr.subject)) matches \(MaybeWrites.text(label.caseItems))")
                        case .default: conditions.append("\(MaybeWrites.text(switchExpr.subject)) matches no other case")
                        }
                    }
                } else if let clause = parent.as(CatchClauseSyntax.self), node.id == clause.body.id,
                          let doStmt = clause.parent?.parent?.as(DoStmtSyntax.self),
                          canSucceed(around: Syntax(doStmt), alternative: Syntax(doStmt.body)) {
                    conditions.append(clause.catchItems.isEmpty ? "an error is thrown" : "an error matching \(MaybeWrites.text(clause.catchItems)) is thrown")
                } else if let doStmt = parent.as(DoStmtSyntax.self), node.id == doStmt.body.id, !doStmt.catchClauses.isEmpty,
                          let firstTry = firstTry(in: doStmt), firstTry.position < call.position,
                          doStmt.catchClauses.contains(where: { canSucceed(around: Syntax(doStmt), alternative: Syntax($0.body)) }) {
                    // A `try` before the write can jump to a `catch` that still lets the operation succeed.
                    conditions.append("no error is thrown by \(firstTry.oneLineText)")
                } else if let guardStmt = parent.as(GuardStmtSyntax.self), node.id == guardStmt.body.id {
                    conditions.append("\(MaybeWrites.text(guardStmt.conditions)) is false")
                } else if let closure = parent.as(ClosureExprSyntax.self) {
                    let callee = MaybeWrites.closureCallee(closure)
                    // A closure that finishes the operation is the way to success: it runs whenever it succeeds.
                    if !finishes(Syntax(closure)), !MaybeWrites.alwaysRun.contains(callee ?? "") {
                        conditions.append(callee.map { "the closure given to \($0) runs" } ?? "the closure runs")
                    }
                }
                node = parent
            }
            return conditions.isEmpty ? nil : conditions.joined(separator: " and ")
        }

        /// The cases of `switchExpr` through which a run can go around a write in another case and
        /// still finish successfully.
        private func cases(succeedingIn switchExpr: SwitchExprSyntax) -> Set<SyntaxIdentifier> {
            if let known = succeedingCases[switchExpr.id] { return known }
            let found = Set(switchExpr.cases.compactMap { $0.as(SwitchCaseSyntax.self) }
                .filter { canSucceed(around: Syntax(switchExpr), alternative: Syntax($0.statements)) }.map(\.id))
            succeedingCases[switchExpr.id] = found
            return found
        }

        /// Whether a run can go around the write and still finish successfully: through `alternative`
        /// (another branch), or past the construct when there is none.
        private func canSucceed(around construct: Syntax, alternative: Syntax?) -> Bool {
            if let alternative { return succeeds(alternative) || fallsThrough(alternative) && afterSucceeds(construct) }
            return afterSucceeds(construct)
        }

        /// A branch reaches success itself: it finishes successfully (or, in an operation that never
        /// calls `finishSuccessfully`, it does not fail).
        private func succeeds(_ branch: Syntax) -> Bool {
            if finishes(branch) { return true }
            return !bodySucceeds && !fails(branch) && !exits(branch)
        }

        /// A branch that neither fails nor leaves: the run goes on after the construct.
        private func fallsThrough(_ branch: Syntax) -> Bool { !fails(branch) && !exits(branch) && !finishes(branch) }

        /// What follows the construct, up to the end of the body, reaches success before failing.
        private func afterSucceeds(_ construct: Syntax) -> Bool {
            var node = construct
            while let parent = node.parent, node.id != body.id {
                if let item = node.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self) {
                    return after(item, in: list)
                }
                // Leaving a closure or a loop body: what follows may not run in the same order; stop here.
                if parent.is(ClosureExprSyntax.self) { return !bodySucceeds }
                node = parent
            }
            // The end of the body: success only for an operation that never calls finishSuccessfully.
            return !bodySucceeds
        }

        /// What follows `item` in `list`: the first later statement that finishes successfully, fails
        /// or returns decides; past the last, what follows the list. Found for every statement of the
        /// list in one pass from its end.
        private func after(_ item: CodeBlockItemSyntax, in list: CodeBlockItemListSyntax) -> Bool {
            if let known = afterItem[item.id] { return known }
            let items = Array(list)
            // Past the list: as the walk up from its last statement goes on from the list itself.
            var verdict: Bool?
            for index in items.indices.reversed() {
                let following: Bool
                if let decided = verdict {
                    following = decided
                } else {
                    following = afterSucceeds(Syntax(list))  // the walk up goes on from the list
                }
                afterItem[items[index].id] = following
                let statement = Syntax(items[index])
                verdict = finishes(statement) ? true : fails(statement) || exits(statement) ? false : following
            }
            return afterItem[item.id]!
        }

        private func finishes(_ node: Syntax) -> Bool {
            if let known = finishing[node.id] { return known }
            let found = MaybeWrites.callsFinishSuccessfully(node, in: file)
            finishing[node.id] = found
            return found
        }

        private func fails(_ node: Syntax) -> Bool {
            if let known = failing[node.id] { return known }
            let found = MaybeWrites.fails(node, in: file)
            failing[node.id] = found
            return found
        }

        private func exits(_ node: Syntax) -> Bool {
            if let known = exiting[node.id] { return known }
            let found = MaybeWrites.exits(node, in: file)
            exiting[node.id] = found
            return found
        }

        private func firstTry(in doStmt: DoStmtSyntax) -> TryExprSyntax? {
            if let known = firstTries[doStmt.id] { return known }
            let found = MaybeWrites.firstTry(in: Syntax(doStmt.body))
            firstTries[doStmt.id] = .some(found)
            return found
        }
    }

    /// A `throw` or a `failures` call outside closures: the branch fails the operation.
    fileprivate static func fails(_ node: Syntax, in file: ParsedSwiftFile) -> Bool {
        search(node, holding: failureWords, in: file) { node in
            if node.is(ThrowStmtSyntax.self) { return true }
            if node.is(ClosureExprSyntax.self) { return false }
            if let call = node.as(FunctionCallExprSyntax.self), let name = call.calledExpression.calleeName, failures.contains(name) { return true }
            return nil
        }
    }

    /// A `return` outside closures: the branch leaves the function.
    fileprivate static func exits(_ node: Syntax, in file: ParsedSwiftFile) -> Bool {
        search(node, holding: exitWords, in: file) { node in
            if node.is(ReturnStmtSyntax.self) { return true }
            if node.is(ClosureExprSyntax.self) { return false }
            return nil
        }
    }

    /// Whether `node` calls `finishSuccessfully` anywhere (closures included): for a body, a run then
    /// succeeds only through such a call.
    fileprivate static func callsFinishSuccessfully(_ node: Syntax, in file: ParsedSwiftFile) -> Bool {
        search(node, holding: successWords, in: file) { node in
            if let call = node.as(FunctionCallExprSyntax.self), call.calledExpression.calleeName == "finishSuccessfully" { return true }
            return nil
        }
    }

    /// Whether `decide` says yes of `node` or of a node under it: it answers for a node (true or
    /// false: do not look under it) or lets the search go on under it (nil). Only a node whose text
    /// holds one of `words` is looked at: what `decide` looks for is a token with one of them as its
    /// text, so the search passes over the rest of the body by its bytes.
    private static func search(_ node: Syntax, holding words: [[UInt8]], in file: ParsedSwiftFile, _ decide: (Syntax) -> Bool?) -> Bool {
        guard file.mentions(words, in: node) else { return false }
        if let decided = decide(node) { return decided }
        return node.children(viewMode: .sourceAccurate).contains { search($0, holding: words, in: file, decide) }
    }

    /// The function a closure is passed to: `forEach` in `items.forEach { ... }`.
    fileprivate static func closureCallee(_ closure: ClosureExprSyntax) -> String? {
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

    fileprivate static func text(_ node: some SyntaxProtocol) -> String { node.oneLineText }

    /// The first `try` (not `try?`/`try!`) outside closures.
    fileprivate static func firstTry(in node: Syntax) -> TryExprSyntax? {
        if node.is(ClosureExprSyntax.self) { return nil }
        if let expression = node.as(TryExprSyntax.self), expression.questionOrExclamationMark == nil { return expression }
        for child in node.children(viewMode: .sourceAccurate) { if let found = firstTry(in: child) { return found } }
        return nil
    }
}
