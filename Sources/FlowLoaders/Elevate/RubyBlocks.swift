/// The nesting of a Ruby file: which token opens which block and where it ends. Not a parser: it
/// knows which tokens open something that a matching `end`, `}`, `)` or `]` closes.
///
/// Openers: `do` (except the optional `do` of `while`/`until`/`for`), `{`, `(`, `[`, and the keywords
/// `if`/`unless`/`while`/`until` at the start of an expression (after an operand on the same line
/// they are modifiers: `return if done`), `case`, `begin`, `def` (not an endless `def x = 1`), `class`,
/// `module`, `for`. A keyword after `.` is a method name (`range.end`) and `name:` is a label; the lexer
/// has already told those apart.
///
/// A file whose closers do not match its openers is read a second time using its indentation: a line
/// that starts at or left of an open block's statement (other than its `end`, `else`, `rescue` …)
/// closes it there, and that block is reported as never closed. So one missing `end` costs one
/// finding, and the tasks after it are still read.
struct RubyBlocks {
    enum Kind: Equatable {
        case doBlock
        case brace
        case paren
        case bracket
        /// A keyword construct: `if`, `def`, `class`, `case`, `begin` …
        case keyword(String)

        var opener: String {
            switch self {
            case .doBlock: return "do"
            case .brace: return "{"
            case .paren: return "("
            case .bracket: return "["
            case let .keyword(k): return k
            }
        }

        var closer: String {
            switch self {
            case .doBlock, .keyword: return "end"
            case .brace: return "}"
            case .paren: return ")"
            case .bracket: return "]"
            }
        }
    }

    struct Block {
        var kind: Kind
        /// Index of the opening token.
        var open: Int
        /// Index of the closing token; for a block never closed, the index of the first token after it.
        var close: Int
        /// The block this one is inside.
        var parent: Int?
        /// False when the closer is missing.
        var closed: Bool
        /// Indentation (column of the first token) of the statement the opener is in.
        var indent: Int
    }

    let tokens: [RubyToken]
    private(set) var blocks: [Block] = []
    /// For each block, the blocks directly inside it, in order.
    private(set) var children: [[Int]] = []
    /// For each token index that opens a block, the block's index.
    private(set) var blockAt: [Int: Int] = [:]
    /// For each token, the innermost block containing it (its opener and closer belong to the outer block).
    private(set) var enclosing: [Int?] = []
    /// What did not match, with the token it is at.
    private(set) var problems: [(message: String, token: Int)] = []

    init(tokens: [RubyToken]) {
        self.tokens = tokens
        if !match(usingIndentation: false) {
            blocks = []
            blockAt = [:]
            problems = []
            _ = match(usingIndentation: true)
        }
        children = Array(repeating: [], count: blocks.count)
        for (b, block) in blocks.enumerated() { if let parent = block.parent { children[parent].append(b) } }
    }

    // MARK: - Token classes

    /// Whether the keyword at `i` opens a block that `end` closes.
    private func keywordOpens(_ i: Int) -> Bool {
        let t = tokens[i]
        guard t.kind == .keyword else { return false }
        switch t.text {
        case "if", "unless", "while", "until":
            // A modifier follows an operand on the same line (`x += 1 if y`, `return unless ok`).
            guard i > 0 else { return true }
            let p = tokens[i - 1]
            if p.kind == .newline || p.isPunct(";") { return true }
            if p.kind == .keyword, ["return", "break", "next", "yield", "super"].contains(p.text) { return false }
            return !p.endsValue
        case "case", "begin", "class", "module", "for":
            return true
        case "def":
            return !isEndlessDef(i)
        default:
            return false
        }
    }

    /// `def name(args) = expression` (Ruby 3) has no `end`.
    private func isEndlessDef(_ i: Int) -> Bool {
        var j = i + 1
        // The name: `self.name`, `Const.name`, `name`, an operator, `name=`.
        while j < tokens.count, tokens[j].kind != .newline {
            let t = tokens[j]
            if t.isPunct(".") { j += 1; continue }
            if t.kind == .identifier || t.kind == .constant || t.kind == .keyword || (t.kind == .punct && t.text != "(" && t.text != "=") {
                j += 1
                if j < tokens.count, tokens[j].isPunct(".") { continue }
                break
            }
            break
        }
        guard j < tokens.count else { return false }
        // `def title=(value)` defines a setter: its `=` touches the name.
        if tokens[j].isPunct("="), !tokens[j].spaceBefore { return false }
        if tokens[j].isPunct("("), !tokens[j].spaceBefore {
            var depth = 0
            while j < tokens.count {
                if tokens[j].isPunct("(") { depth += 1 }
                if tokens[j].isPunct(")") { depth -= 1; if depth == 0 { j += 1; break } }
                j += 1
            }
        }
        return j < tokens.count && tokens[j].isPunct("=")
    }

    /// Tokens that may start a line at an open block's indentation without closing it.
    private func continuesBlock(_ t: RubyToken) -> Bool {
        if t.kind == .keyword { return ["end", "else", "elsif", "when", "in", "rescue", "ensure", "then", "do"].contains(t.text) }
        if t.kind == .punct { return ["}", ")", "]", ".", "&.", "|", "&&", "||"].contains(t.text) }
        return false
    }

    // MARK: - Matching

    /// One pass over the tokens; returns false when closers and openers do not match.
    private mutating func match(usingIndentation: Bool) -> Bool {
        struct Open {
            var block: Int
            var awaitingLoopDo: Bool
        }
        var stack: [Open] = []
        var balanced = true
        var statementIndent = tokens.first?.column ?? 1
        var atStatementStart = true
        enclosing = Array(repeating: nil, count: tokens.count)

        func close(_ open: Open, at index: Int, closed: Bool) {
            blocks[open.block].close = index
            blocks[open.block].closed = closed
        }

        for i in tokens.indices {
            let t = tokens[i]
            if t.kind == .newline {
                // A line ending in an operator or a comma continues the statement (and a loop's condition).
                if i > 0, !Self.continuesLine(tokens[i - 1]), !(i + 1 < tokens.count && Self.startsWithDot(tokens[i + 1])) {
                    atStatementStart = true
                    if let top = stack.last, top.awaitingLoopDo { stack[stack.count - 1].awaitingLoopDo = false }
                }
                enclosing[i] = stack.last?.block
                continue
            }
            if t.isPunct(";") {
                if let top = stack.last, top.awaitingLoopDo { stack[stack.count - 1].awaitingLoopDo = false }
                atStatementStart = true
                enclosing[i] = stack.last?.block
                continue
            }
            if atStatementStart {
                // The indentation of the statement: the column of the first token on its line.
                var first = i
                while first > 0, tokens[first - 1].kind != .newline, tokens[first - 1].line == t.line { first -= 1 }
                statementIndent = tokens[first].column
                atStatementStart = false
            }

            // Indentation recovery: a line starting at or left of an open block closes it.
            if usingIndentation, t.firstOnLine {
                while let top = stack.last {
                    let block = blocks[top.block]
                    // A closer further left closes an outer block: handled below, with the blocks it skips.
                    if t.kind == .keyword && t.text == "end" || t.isPunct("}") || t.isPunct(")") || t.isPunct("]") { break }
                    guard t.column < block.indent || (t.column == block.indent && !continuesBlock(t)) else { break }
                    problems.append(("\(Self.describe(block.kind)) is never closed ('\(block.kind.closer)' missing)", block.open))
                    close(top, at: i, closed: false)
                    stack.removeLast()
                }
            }
            enclosing[i] = stack.last?.block

            // Closers.
            let closerKind: String? = t.isKeyword("end") ? "end" : (t.isPunct("}") || t.isPunct(")") || t.isPunct("]")) ? t.text : nil
            if let closer = closerKind {
                if usingIndentation, t.firstOnLine {
                    // A closer left of the innermost open statements closes an outer block: the inner
                    // ones were never closed.
                    while let top = stack.last, blocks[top.block].indent > t.column,
                          stack.contains(where: { blocks[$0.block].kind.closer == closer && blocks[$0.block].indent <= t.column }) {
                        problems.append(("\(Self.describe(blocks[top.block].kind)) is never closed ('\(blocks[top.block].kind.closer)' missing)", blocks[top.block].open))
                        close(top, at: i, closed: false)
                        stack.removeLast()
                    }
                }
                if let top = stack.last, blocks[top.block].kind.closer == closer {
                    close(top, at: i, closed: true)
                    stack.removeLast()
                    enclosing[i] = stack.last?.block
                } else {
                    balanced = false
                    if usingIndentation {
                        // Close what this closer's line says is over, else report the stray closer.
                        if let depth = stack.lastIndex(where: { blocks[$0.block].kind.closer == closer && blocks[$0.block].indent <= t.column }) {
                            for open in stack[(depth + 1)...].reversed() {
                                problems.append(("\(Self.describe(blocks[open.block].kind)) is never closed ('\(blocks[open.block].kind.closer)' missing)", blocks[open.block].open))
                                close(open, at: i, closed: false)
                            }
                            close(stack[depth], at: i, closed: true)
                            stack.removeSubrange(depth...)
                        } else {
                            problems.append(("'\(closer)' without a matching \(closer == "end" ? "block" : "opening bracket")", i))
                        }
                        enclosing[i] = stack.last?.block
                    } else {
                        return false
                    }
                }
                continue
            }

            // Openers.
            var kind: Kind?
            if t.isKeyword("do") {
                if let top = stack.last, top.awaitingLoopDo {
                    stack[stack.count - 1].awaitingLoopDo = false
                } else {
                    kind = .doBlock
                }
            } else if t.isPunct("{") {
                kind = .brace
            } else if t.isPunct("(") {
                kind = .paren
            } else if t.isPunct("[") {
                kind = .bracket
            } else if t.kind == .keyword, keywordOpens(i) {
                kind = .keyword(t.text)
            }
            if let kind {
                blockAt[i] = blocks.count
                blocks.append(Block(kind: kind, open: i, close: tokens.count, parent: stack.last?.block, closed: false,
                                    indent: statementIndent))
                let loop: Bool
                if case let .keyword(k) = kind { loop = k == "while" || k == "until" || k == "for" } else { loop = false }
                stack.append(Open(block: blocks.count - 1, awaitingLoopDo: loop))
            }
        }
        if !stack.isEmpty {
            balanced = false
            if usingIndentation {
                for open in stack.reversed() {
                    problems.append(("\(Self.describe(blocks[open.block].kind)) is never closed ('\(blocks[open.block].kind.closer)' missing)", blocks[open.block].open))
                    close(open, at: tokens.count, closed: false)
                }
            }
        }
        return balanced
    }

    private static func describe(_ kind: Kind) -> String {
        switch kind {
        case .doBlock: return "'do' block"
        case .brace: return "'{'"
        case .paren: return "'('"
        case .bracket: return "'['"
        case let .keyword(k): return "'\(k)'"
        }
    }

    /// A line ending with this token goes on on the next line.
    static func continuesLine(_ t: RubyToken) -> Bool {
        switch t.kind {
        case .punct:
            return ![")", "]", "}", ";"].contains(t.text)
        case .keyword:
            return ["and", "or", "not"].contains(t.text)
        case .label:
            return true
        default:
            return false
        }
    }

    /// A line starting with `.method` continues the expression above it.
    static func startsWithDot(_ t: RubyToken) -> Bool { t.isPunct(".") || t.isPunct("&.") }

    // MARK: - Queries

    /// The index of the token closing the block opened at `open` (for an unclosed one, where it stops).
    func closeIndex(ofOpener open: Int) -> Int? { blockAt[open].map { blocks[$0].close } }

    /// True when `index` is inside block `block` (at any depth).
    func isInside(_ index: Int, block: Int) -> Bool {
        var b = enclosing[index]
        while let current = b {
            if current == block { return true }
            b = blocks[current].parent
        }
        return false
    }

    /// The blocks containing token `index`, innermost first.
    func ancestors(of index: Int) -> [Int] {
        var out: [Int] = []
        var b = enclosing[index]
        while let current = b {
            out.append(current)
            b = blocks[current].parent
        }
        return out
    }
}
