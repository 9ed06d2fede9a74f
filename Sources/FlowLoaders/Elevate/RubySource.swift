import FlowModel

/// A lexed Ruby file with its block structure, and the small questions the Elevate reader asks of
/// it: which call owns a block, what a call's arguments are, what a call is made on.
struct RubySource {
    let file: String
    let scalars: [Unicode.Scalar]
    let tokens: [RubyToken]
    let structure: RubyBlocks
    /// For each closing token, the index of its opener.
    let openerOfClose: [Int: Int]
    /// Lexer problems (unterminated literals).
    let problems: [RubyProblem]
    /// The lexer stopped at its nesting limit: the file is not read further, its problems say why.
    let abandoned: Bool

    init(file: String, text: String, maximumNesting: Int = Limits.default.nesting) {
        self.file = file
        scalars = Array(text.unicodeScalars)
        let lexed = RubyLexer.tokenize(text, maximumNesting: maximumNesting)
        tokens = lexed.tokens
        problems = lexed.problems
        abandoned = lexed.abandoned
        structure = RubyBlocks(tokens: tokens)
        var openers: [Int: Int] = [:]
        for block in structure.blocks where block.closed { openers[block.close] = block.open }
        openerOfClose = openers
    }

    func location(_ index: Int) -> SourceLocation {
        guard tokens.indices.contains(index) else {
            let last = tokens.last
            return SourceLocation(file: file, line: last?.line ?? 1, column: last?.column ?? 1)
        }
        return SourceLocation(file: file, line: tokens[index].line, column: tokens[index].column)
    }

    /// The source text of tokens `from...to`, with runs of white space (and line breaks) made one space.
    func text(_ from: Int, _ to: Int) -> String {
        guard from <= to, tokens.indices.contains(from), tokens.indices.contains(to) else { return "" }
        var out = ""
        var space = false
        for scalar in scalars[tokens[from].start..<tokens[to].end] {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                space = true
                continue
            }
            if space, !out.isEmpty { out += " " }
            space = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// For a token that opens a block, the index just after its closer; otherwise `index + 1`.
    func skip(_ index: Int) -> Int {
        if let close = structure.closeIndex(ofOpener: index) { return close + 1 }
        return index + 1
    }

    // MARK: - Calls

    /// A method call with a block, or a command call, as the reader sees it.
    struct Call {
        /// The method name.
        var name: String
        /// The index of the name token.
        var nameIndex: Int
        /// What it is called on, as written; nil for a call without a receiver.
        var receiver: String?
        /// The argument tokens: `argsStart..<argsEnd`.
        var argsStart: Int
        var argsEnd: Int
        /// `@x = call ...` / `x = call ...`: the name assigned (without `@`).
        var assignedTo: String?
    }

    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "||=", "&&=", "|=", "&=", "<<=", ">>=", "%=", "**=", "^="]

    func isAssignment(_ index: Int) -> Bool {
        tokens.indices.contains(index) && tokens[index].kind == .punct && Self.assignmentOperators.contains(tokens[index].text)
    }

    private func isDot(_ index: Int) -> Bool {
        tokens.indices.contains(index) && (tokens[index].isPunct(".") || tokens[index].isPunct("&.") || tokens[index].isPunct("::"))
    }

    /// Where the receiver of the method name at `nameIndex` starts (`self` in
    /// `self.navigationController.push`), or nil when the call has no receiver.
    func receiverStart(ofNameAt nameIndex: Int) -> Int? {
        guard nameIndex >= 2, isDot(nameIndex - 1) else { return nil }
        var j = nameIndex - 2  // the last token of the receiver
        while j >= 0 {
            var elementStart = j
            let t = tokens[j]
            if t.isPunct(")") || t.isPunct("]") || t.isPunct("}"), let open = openerOfClose[j] {
                // Arguments, an index or a block attached to what is before them: `API.login(a).token`,
                // `items[0].name`, `list.map { }.compact`; otherwise a parenthesised expression or literal.
                if open > 0 {
                    let before = tokens[open - 1]
                    let attached = t.isPunct("}")
                        ? before.kind == .identifier || before.isPunct(")")
                        : !tokens[open].spaceBefore && (before.endsValue && before.kind != .number)
                    if attached { j = open - 1; continue }
                }
                elementStart = open
            }
            if elementStart >= 2, isDot(elementStart - 1) {
                j = elementStart - 2
                continue
            }
            if elementStart >= 1, tokens[elementStart - 1].isPunct("::") { return elementStart - 1 }  // `::Foo.bar`
            return elementStart
        }
        return 0
    }

    /// The text of what the method name at `nameIndex` is called on, or nil for a bare call.
    func receiver(ofNameAt nameIndex: Int) -> String? {
        guard let start = receiverStart(ofNameAt: nameIndex) else { return nil }
        return text(start, nameIndex - 2)
    }

    /// The first token of the statement containing `index`, not looking before `lowerBound`.
    func statementStart(of index: Int, lowerBound: Int) -> Int {
        var j = index - 1
        while j >= lowerBound {
            let t = tokens[j]
            if t.isPunct(";") { return j + 1 }
            if t.kind == .newline {
                let continues = j > 0 && RubyBlocks.continuesLine(tokens[j - 1])
                let dotNext = j + 1 < tokens.count && RubyBlocks.startsWithDot(tokens[j + 1])
                if !continues && !dotNext { return j + 1 }
            }
            if t.kind == .punct || t.kind == .keyword, let open = openerOfClose[j] {
                j = open - 1
                continue
            }
            j -= 1
        }
        return max(lowerBound, 0)
    }

    /// The call a `do` block binds to: the first command call of its statement (`@t = async a: 1 do`
    /// binds to `async`, `Dispatch::Queue.main.async do` to `async` on `Dispatch::Queue.main`).
    /// A `{` block binds to the call right before it; a `{` after anything else is a hash.
    func owner(ofBlock block: Int) -> Call? {
        let b = structure.blocks[block]
        let open = b.open
        switch b.kind {
        case .doBlock:
            let lower = b.parent.map { structure.blocks[$0].open + 1 } ?? 0
            var k = statementStart(of: open, lowerBound: lower)
            var assigned: String?
            // `@task = `, `task = `, `@task ||= `
            if k + 1 < open, [.ivar, .identifier, .cvar, .gvar].contains(tokens[k].kind), isAssignment(k + 1) {
                assigned = tokens[k].text.hasPrefix("@") ? String(tokens[k].text.drop(while: { $0 == "@" })) : tokens[k].text
                k += 2
            }
            if k < open, tokens[k].isKeyword("return") { k += 1 }
            guard k < open else { return nil }
            // The call chain: primary (. name (args)?)*
            var nameIndex: Int?
            var j = k
            let first = tokens[j]
            if first.kind == .identifier {
                nameIndex = j
            } else if !([.constant, .ivar, .cvar, .gvar].contains(first.kind) || first.isKeyword("self") || first.isPunct("::")) {
                return nil
            }
            j += 1
            while j < open {
                if (tokens[j].isPunct("(") || tokens[j].isPunct("[")) && !tokens[j].spaceBefore {
                    j = skip(j)
                    continue
                }
                if isDot(j), j + 1 < open, [.identifier, .constant, .keyword].contains(tokens[j + 1].kind) {
                    if tokens[j + 1].kind != .constant || !tokens[j].isPunct("::") { nameIndex = j + 1 }
                    j += 2
                    continue
                }
                break
            }
            guard let name = nameIndex else { return nil }
            var argsStart = name + 1
            var argsEnd = open
            if argsStart < open, tokens[argsStart].isPunct("("), !tokens[argsStart].spaceBefore,
               let close = structure.closeIndex(ofOpener: argsStart) {
                argsEnd = min(close, open)
                argsStart += 1
            }
            return Call(name: tokens[name].text, nameIndex: name, receiver: receiver(ofNameAt: name),
                        argsStart: argsStart, argsEnd: max(argsStart, argsEnd), assignedTo: assigned)
        case .brace:
            guard open > 0 else { return nil }
            var j = open - 1
            var argsStart = open, argsEnd = open
            if tokens[j].isPunct(")"), let paren = openerOfClose[j], paren > 0, !tokens[paren].spaceBefore {
                argsStart = paren + 1
                argsEnd = j
                j = paren - 1
            }
            guard tokens[j].kind == .identifier else { return nil }
            return Call(name: tokens[j].text, nameIndex: j, receiver: receiver(ofNameAt: j),
                        argsStart: argsStart, argsEnd: argsEnd, assignedTo: nil)
        default:
            return nil
        }
    }

    /// The parameters of a block (`do |result, exception|`), as written.
    func blockParameters(_ block: Int) -> [String] {
        let open = structure.blocks[block].open
        guard open + 1 < tokens.count, tokens[open + 1].isPunct("|") || tokens[open + 1].isPunct("||") else { return [] }
        if tokens[open + 1].isPunct("||") { return [] }
        var names: [String] = []
        var j = open + 2
        while j < tokens.count, !tokens[j].isPunct("|"), tokens[j].kind != .newline {
            if tokens[j].kind == .identifier, j == open + 2 || tokens[j - 1].isPunct(",") || tokens[j - 1].isPunct("*") || tokens[j - 1].isPunct("&") || tokens[j - 1].isPunct("(") {
                names.append(tokens[j].text)
            }
            j += 1
        }
        return names
    }

    /// The index of the token ending the block parameters (`|`), or the opener when there are none.
    func bodyStart(_ block: Int) -> Int {
        let open = structure.blocks[block].open
        guard open + 1 < tokens.count else { return open + 1 }
        if tokens[open + 1].isPunct("||") { return open + 2 }
        guard tokens[open + 1].isPunct("|") else { return open + 1 }
        var j = open + 2
        while j < tokens.count, !tokens[j].isPunct("|"), tokens[j].kind != .newline { j += 1 }
        return j < tokens.count && tokens[j].isPunct("|") ? j + 1 : open + 1
    }

    // MARK: - Arguments

    /// One argument of a call.
    enum Argument {
        /// `key: value`, `:key => value`, `"key" => value` (also inside a `{}` hash argument).
        case pair(key: String, keyIndex: Int, value: Range<Int>)
        /// Anything else.
        case positional(Range<Int>)
        /// `**options`, `*args`, `&block`: arguments that cannot be known.
        case splat(Int)
    }

    /// The arguments in `start..<end`, split at top-level commas.
    func arguments(_ start: Int, _ end: Int) -> [Argument] {
        var pieces: [Range<Int>] = []
        var j = start
        var pieceStart = start
        while j < end {
            if tokens[j].kind == .newline, pieceStart == j { j += 1; pieceStart = j; continue }
            if tokens[j].isPunct(",") {
                pieces.append(pieceStart..<j)
                j += 1
                pieceStart = j
                continue
            }
            j = min(skip(j), end)
        }
        if pieceStart < end { pieces.append(pieceStart..<end) }
        var out: [Argument] = []
        for var piece in pieces {
            while piece.lowerBound < piece.upperBound, tokens[piece.upperBound - 1].kind == .newline { piece = piece.lowerBound..<(piece.upperBound - 1) }
            while piece.lowerBound < piece.upperBound, tokens[piece.lowerBound].kind == .newline { piece = (piece.lowerBound + 1)..<piece.upperBound }
            guard !piece.isEmpty else { continue }
            let first = tokens[piece.lowerBound]
            if first.kind == .label {
                out.append(.pair(key: first.text, keyIndex: piece.lowerBound, value: (piece.lowerBound + 1)..<piece.upperBound))
            } else if piece.count >= 2, first.kind == .symbol || (first.kind == .string && first.plainString),
                      tokens[piece.lowerBound + 1].isPunct("=>") {
                let key = first.kind == .symbol ? first.text : (first.value ?? first.text)
                out.append(.pair(key: key, keyIndex: piece.lowerBound, value: (piece.lowerBound + 2)..<piece.upperBound))
            } else if first.isPunct("**") || first.isPunct("*") || first.isPunct("&") {
                out.append(.splat(piece.lowerBound))
            } else if first.isPunct("{"), let close = structure.closeIndex(ofOpener: piece.lowerBound), close == piece.upperBound - 1 {
                // A hash literal: its pairs are the arguments.
                let inner = arguments(piece.lowerBound + 1, close)
                if inner.allSatisfy({ if case .pair = $0 { return true } else { return false } }) {
                    out += inner
                } else {
                    out.append(.splat(piece.lowerBound))
                }
            } else {
                out.append(.positional(piece))
            }
        }
        return out
    }

    /// Where the arguments of a command call without parentheses end: at the end of its statement,
    /// a `do`, a modifier `if`/`unless`/`while`/`until`, or the closer of the block it is in.
    func commandArgumentsEnd(from start: Int) -> Int {
        var j = start
        while j < tokens.count {
            let t = tokens[j]
            if t.isPunct(";") || t.isKeyword("do") || t.isKeyword("end") || t.isPunct("}") || t.isPunct(")") || t.isPunct("]") { return j }
            if t.kind == .keyword, ["if", "unless", "while", "until", "rescue", "and", "or", "then"].contains(t.text) { return j }
            if t.kind == .newline, j > 0, !RubyBlocks.continuesLine(tokens[j - 1]) { return j }
            j = skip(j)
        }
        return tokens.count
    }
}
