import FlowModel

/// A token of Ruby source, as far as the Elevate reader needs one: names, literals (whole), operators,
/// and the line breaks that end statements. Comments and white space are dropped.
struct RubyToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// `foo`, `empty?`, `save!`; also a keyword used as a method name (`x.class`, `range.end`).
        case identifier
        /// `Foo` (a name starting with a capital letter).
        case constant
        /// `if`, `end`, `do`, `self` … where they act as keywords.
        case keyword
        /// `@name` (`text` keeps the `@`).
        case ivar
        /// `@@name`.
        case cvar
        /// `$name`.
        case gvar
        /// `:name`, `:"name"`; `text` is the name without the colon.
        case symbol
        /// `name:` in a hash or a keyword argument; `text` is the name without the colon.
        case label
        /// A string, heredoc, character, command or `%` literal, whole (interpolated code follows it
        /// as tokens between `interpolationStart` and `interpolationEnd`).
        case string
        /// A number.
        case number
        /// A regular expression literal, whole.
        case regex
        /// An operator or punctuation (`.`, `(`, `||=`, `;` …).
        case punct
        /// A line break.
        case newline
        /// `#{` inside a string.
        case interpolationStart
        /// The `}` that closes an interpolation.
        case interpolationEnd
    }

    var kind: Kind
    /// The token as the reader uses it (see `Kind`).
    var text: String
    /// Offsets of the token's first scalar and one past its last, in the source's Unicode scalars.
    var start: Int
    var end: Int
    /// 1-based line and column (columns count Unicode scalars).
    var line: Int
    var column: Int
    /// White space (or a comment) separates the token from the one before it on its line.
    var spaceBefore: Bool
    /// The token is the first on its line.
    var firstOnLine: Bool
    /// For a `.string` token: a plain literal without interpolation (its `value` is known).
    var plainString: Bool = false
    /// For a plain `.string` token: its value.
    var value: String? = nil

    func isPunct(_ p: String) -> Bool { kind == .punct && text == p }
    func isKeyword(_ k: String) -> Bool { kind == .keyword && text == k }

    /// True when the token ends an operand: after it, `/` divides, `?` is a ternary, `if` is a modifier.
    var endsValue: Bool {
        switch kind {
        case .identifier, .constant, .ivar, .cvar, .gvar, .symbol, .string, .number, .regex, .interpolationEnd:
            return true
        case .punct:
            return text == ")" || text == "]" || text == "}"
        case .keyword:
            return RubyLexer.valueKeywords.contains(text)
        case .label, .newline, .interpolationStart:
            return false
        }
    }
}

/// Something the lexer could not read (an unterminated string or heredoc).
struct RubyProblem: Sendable, Equatable {
    var message: String
    var line: Int
    var column: Int
}

/// Splits Ruby source into `RubyToken`s. Never fails: an unterminated literal is reported as a problem
/// and lexing goes on after the line where it starts.
///
/// Handles what real RubyMotion controllers contain: comments and `=begin`/`=end`, `__END__`,
/// single/double-quoted and backtick strings with escapes and `#{}` interpolation (whose code is lexed,
/// so `"#{@name}"` reads `@name`), heredocs (`<<EOS`, `<<-EOS`, `<<~'EOS'`, several on one line),
/// `%w[]`/`%q()`/`%Q{}`/`%i<>`/`%r||`/`%()` literals, regular expressions (told from division by the
/// token before), `?a` character literals, symbols (`:name`, `:"quoted"`, `:+`), labels (`key:`),
/// and `\` line continuations.
struct RubyLexer {
    static let keywords: Set<String> = [
        "alias", "and", "begin", "BEGIN", "break", "case", "class", "def", "defined?", "do", "else", "elsif",
        "end", "END", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not", "or", "redo",
        "rescue", "retry", "return", "self", "super", "then", "true", "undef", "unless", "until", "when",
        "while", "yield", "__FILE__", "__LINE__", "__method__", "__ENCODING__",
    ]
    /// Keywords that end an operand.
    static let valueKeywords: Set<String> = [
        "end", "self", "nil", "true", "false", "__FILE__", "__LINE__", "__method__", "__ENCODING__",
        "redo", "retry",
    ]
    private static let operators: [String] = [
        "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=",
        "**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "=~", "!~", "..", "::", "->", "=>",
        "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "&.",
    ]

    private let s: [Unicode.Scalar]
    private var pos = 0
    private var line = 1
    private var lineStartOffset = 0
    private var sawSpace = false
    private var tokensOnLine = 0
    private(set) var tokens: [RubyToken] = []
    private(set) var problems: [RubyProblem] = []
    private var pendingHeredocs: [(id: String, indented: Bool, interpolating: Bool, line: Int, column: Int)] = []
    /// Interpolations recurse (`lexInterpolation` → `lexCode` → `lexQuoted`): their nesting is bounded
    /// so that no input overflows the stack.
    private let maximumNesting: Int
    private var interpolationDepth = 0
    /// How many quoted literals (strings, symbols, regular expressions) are open around `pos`: more
    /// than one when a literal is inside another's interpolation.
    private var openQuotes = 0
    /// Set when the nesting limit stopped lexing: the rest of the file is not read, and nothing more
    /// is reported about it.
    private var abandoned = false

    init(_ text: String, maximumNesting: Int = Limits.default.nesting) {
        s = Array(text.unicodeScalars)
        self.maximumNesting = maximumNesting
    }

    /// Lexes `text`.
    /// `abandoned`: the nesting limit stopped lexing, so the tokens are only a prefix of the file.
    static func tokenize(_ text: String, maximumNesting: Int = Limits.default.nesting)
        -> (tokens: [RubyToken], problems: [RubyProblem], abandoned: Bool)
    {
        var lexer = RubyLexer(text, maximumNesting: maximumNesting)
        if lexer.lineStartsBlockComment() { lexer.skipBlockComment() }
        if lexer.lineIsEndMarker() { return ([], [], false) }
        lexer.lexCode(untilClosingBrace: false)
        if lexer.abandoned { return (lexer.tokens, lexer.problems, true) }
        for heredoc in lexer.pendingHeredocs {
            lexer.problems.append(RubyProblem(message: "heredoc '\(heredoc.id)' is never closed (no line '\(heredoc.id)')",
                                              line: heredoc.line, column: heredoc.column))
        }
        return (lexer.tokens, lexer.problems, false)
    }

    // MARK: - Characters

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let i = pos + offset
        return i < s.count ? s[i] : nil
    }

    private static func isIdentStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c.value > 127
    }

    private static func isIdentChar(_ c: Unicode.Scalar) -> Bool {
        isIdentStart(c) || (c >= "0" && c <= "9")
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return c >= "0" && c <= "9"
    }

    private static func isSpace(_ c: Unicode.Scalar?) -> Bool {
        c == " " || c == "\t" || c == "\r" || c == "\u{0C}" || c == "\u{0B}"
    }

    private var column: Int { pos - lineStartOffset + 1 }

    /// Steps over a line break at `pos` (which must be `\n`), keeping line numbers right.
    private mutating func consumeNewline() {
        pos += 1
        line += 1
        lineStartOffset = pos
        tokensOnLine = 0
    }

    /// Writes `scalar` as UTF-8 through `write`, ASCII without the encoder: the one encoding of token
    /// texts and literal values, which are built as bytes and made a string once.
    @inline(__always)
    private static func encode(_ scalar: Unicode.Scalar, _ write: (UInt8) -> Void) {
        if scalar.isASCII {
            write(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            UTF8.encode(scalar, into: write)
        }
    }

    /// Appends `scalar`'s UTF-8 to `bytes` (a literal's value).
    private static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        encode(scalar) { bytes.append($0) }
    }

    /// The source's scalars `from..<to` (clamped to the source) as a string, written as UTF-8 in one
    /// buffer (appending scalars to a `String.UnicodeScalarView` one by one was a seventh of the
    /// loader's time).
    private func string(_ from: Int, _ to: Int) -> String {
        let lower = max(0, from), upper = min(to, s.count)
        guard lower < upper else { return "" }
        return String(unsafeUninitializedCapacity: (upper - lower) * 4) { buffer in
            var count = 0
            for scalar in s[lower..<upper] {
                RubyLexer.encode(scalar) { buffer[count] = $0; count += 1 }
            }
            return count
        }
    }

    // MARK: - Tokens

    private var previous: RubyToken? { tokens.last }

    /// The previous token ends an operand on this line (so `/` divides and `?` is a ternary).
    private var afterValue: Bool {
        guard let p = previous, p.kind != .newline, tokensOnLine > 0 else { return false }
        return p.endsValue
    }

    /// What follows is a method name: after `def`, `def self.`, `undef`, and both names of `alias / +`.
    private var afterDef: Bool {
        guard let p = previous, tokensOnLine > 0 else { return false }
        if p.isKeyword("def") || p.isKeyword("alias") || p.isKeyword("undef") { return true }
        let n = tokens.count
        if n >= 2, tokens[n - 2].isKeyword("alias") { return true }
        return p.isPunct(".") && n >= 3 && tokens[n - 3].isKeyword("def")
    }

    /// After an identifier with a space before this character and none after (`puts /x/`, `foo :sym`,
    /// `bar %w[a]`), Ruby reads a literal argument, not an operator.
    private func looksLikeArgument() -> Bool {
        guard let p = previous, p.kind == .identifier, tokensOnLine > 0, sawSpace else { return false }
        return !RubyLexer.isSpace(peek(1)) && peek(1) != "\n" && peek(1) != "="
    }

    private mutating func emit(_ kind: RubyToken.Kind, _ text: String, from start: Int, line: Int, column: Int) {
        tokens.append(RubyToken(kind: kind, text: text, start: start, end: pos, line: line, column: column,
                                spaceBefore: sawSpace, firstOnLine: tokensOnLine == 0))
        tokensOnLine += 1
        sawSpace = false
    }

    // MARK: - Code

    /// Lexes code until the end of input, or (inside `#{}`) the `}` closing the interpolation.
    /// Lexes an interpolation `#{ … }` in a string or heredoc; `pos` is at the `#`.
    private mutating func lexInterpolation() {
        let il = line, icol = column, istart = pos
        guard interpolationDepth < maximumNesting else {
            problems.append(RubyProblem(message: "string interpolation nested deeper than \(maximumNesting) levels at line \(il)",
                                        line: il, column: icol))
            abandoned = true
            pos = s.count
            return
        }
        interpolationDepth += 1
        defer { interpolationDepth -= 1 }
        pos += 2
        emit(.interpolationStart, "#{", from: istart, line: il, column: icol)
        lexCode(untilClosingBrace: true)
        let el = line, ecol = column, estart = pos
        if pos < s.count { pos += 1 }
        emit(.interpolationEnd, "}", from: estart, line: el, column: ecol)
    }

    private mutating func lexCode(untilClosingBrace: Bool) {
        var braceDepth = 0
        while pos < s.count {
            let c = s[pos]
            if RubyLexer.isSpace(c) { pos += 1; sawSpace = true; continue }
            // A `\` line continuation: no line break token, and the next line does not start a statement.
            if c == "\\", peek(1) == "\n" { pos += 1; consumeNewline(); sawSpace = true; tokensOnLine = 1; continue }
            if c == "\\", peek(1) == "\r", peek(2) == "\n" { pos += 2; consumeNewline(); sawSpace = true; tokensOnLine = 1; continue }
            if c == "\n" {
                // Interpolated code never ends a statement; elsewhere one line break token is enough.
                if !untilClosingBrace, let p = previous, p.kind != .newline {
                    tokens.append(RubyToken(kind: .newline, text: "\n", start: pos, end: pos + 1, line: line, column: column,
                                            spaceBefore: sawSpace, firstOnLine: tokensOnLine == 0))
                }
                consumeNewline()
                sawSpace = false
                if !pendingHeredocs.isEmpty {
                    let before = tokens.count
                    readHeredocBodies()
                    // Interpolated code of the bodies came after the line break: end it with another.
                    if tokens.count > before {
                        tokens.append(RubyToken(kind: .newline, text: "\n", start: pos, end: pos, line: line, column: column,
                                                spaceBefore: false, firstOnLine: false))
                    }
                }
                if lineStartsBlockComment() { skipBlockComment() }
                if lineIsEndMarker() { pos = s.count }
                continue
            }
            if c == "#" { skipComment(); continue }
            let l = line, col = column, start = pos

            if untilClosingBrace, c == "}", braceDepth == 0 { return }

            // `def /(other)`, `def %(x)`, `def self.<<(x)`, `def `(cmd)`: an operator is the method's name.
            if afterDef, !RubyLexer.isIdentStart(c), !RubyLexer.isDigit(c), c != "(", c != "@", c != "$" {
                var matched = String(c)
                if c != "`" {
                    for op in ["[]=", "[]", "<=>", "===", "==", "=~", "!=", "!~", "**", "+@", "-@", "<<", ">>", "<=", ">="] where matches(op) {
                        matched = op
                        break
                    }
                }
                pos += matched.unicodeScalars.count
                emit(.identifier, matched, from: start, line: l, column: col)
                continue
            }

            if RubyLexer.isDigit(c) { lexNumber(); emit(.number, string(start, pos), from: start, line: l, column: col); continue }
            if c == "@" { lexVariable(start: start, line: l, column: col); continue }
            if c == "$" {
                skipGlobalName()
                emit(.gvar, string(start, pos), from: start, line: l, column: col)
                continue
            }
            if RubyLexer.isIdentStart(c) { lexName(start: start, line: l, column: col); continue }
            if c == "\"" || c == "`" { pos += 1; lexQuoted(close: c, open: nil, interpolating: true, start: start, line: l, column: col); continue }
            if c == "'" { pos += 1; lexQuoted(close: "'", open: nil, interpolating: false, start: start, line: l, column: col); continue }
            if c == ":" { if lexSymbol(start: start, line: l, column: col) { continue } }
            if c == "/", !afterValue || looksLikeArgument() {
                pos += 1
                lexQuoted(close: "/", open: nil, interpolating: true, start: start, line: l, column: col, kind: .regex)
                continue
            }
            if c == "%", !afterValue || looksLikeArgument(), lexPercentLiteral(start: start, line: l, column: col) { continue }
            if c == "?", !afterValue, let n = peek(1), !RubyLexer.isSpace(n), n != "\n",
               !(peek(2).map(RubyLexer.isIdentChar) ?? false) || n == "\\" {
                pos += n == "\\" ? 3 : 2
                var token = RubyToken(kind: .string, text: string(start, pos), start: start, end: pos, line: l, column: col,
                                      spaceBefore: sawSpace, firstOnLine: tokensOnLine == 0)
                token.plainString = true
                token.value = string(start + 1, pos)
                tokens.append(token)
                tokensOnLine += 1
                sawSpace = false
                continue
            }
            if c == "<", peek(1) == "<", lexHeredocStart(start: start, line: l, column: col) { continue }

            // Operators, longest first.
            var matched = String(c)
            for op in RubyLexer.operators where matches(op) { matched = op; break }
            pos += matched.unicodeScalars.count
            if matched == "{" { braceDepth += 1 }
            if matched == "}" { braceDepth -= 1 }
            emit(.punct, matched, from: start, line: l, column: col)
        }
    }

    /// Whether the source at `pos` starts with `op`, an ASCII operator or marker (compared by its
    /// UTF-8 bytes: one scalar each).
    private func matches(_ op: String) -> Bool {
        assert(op.utf8.allSatisfy { $0 < 0x80 }, "matches(_:) takes ASCII text")
        var i = pos
        for byte in op.utf8 {
            guard i < s.count, s[i].value == UInt32(byte) else { return false }
            i += 1
        }
        return true
    }

    private mutating func skipComment() {
        while pos < s.count, s[pos] != "\n" { pos += 1 }
        sawSpace = true
    }

    private func lineStartsBlockComment() -> Bool {
        guard matches("=begin") else { return false }
        let after = pos + 6
        return after >= s.count || RubyLexer.isSpace(s[after]) || s[after] == "\n"
    }

    private mutating func skipBlockComment() {
        let l = line, col = column
        while pos < s.count {
            // Skip the current line.
            while pos < s.count, s[pos] != "\n" { pos += 1 }
            if pos < s.count { consumeNewline() }
            if matches("=end"), pos + 4 >= s.count || RubyLexer.isSpace(s[pos + 4]) || s[pos + 4] == "\n" {
                while pos < s.count, s[pos] != "\n" { pos += 1 }
                return
            }
        }
        problems.append(RubyProblem(message: "'=begin' comment is never closed ('=end' missing)", line: l, column: col))
    }

    private func lineIsEndMarker() -> Bool {
        guard matches("__END__") else { return false }
        let after = pos + 7
        return after >= s.count || s[after] == "\n" || s[after] == "\r"
    }

    private mutating func lexNumber() {
        if peek() == "0", let x = peek(1), "xXbBoO".unicodeScalars.contains(x) {
            pos += 2
            while let n = peek(), RubyLexer.isIdentChar(n) { pos += 1 }
            return
        }
        while let n = peek(), RubyLexer.isDigit(n) || n == "_" { pos += 1 }
        if peek() == ".", RubyLexer.isDigit(peek(1)) {
            pos += 1
            while let n = peek(), RubyLexer.isDigit(n) || n == "_" { pos += 1 }
        }
        if let e = peek(), e == "e" || e == "E",
           RubyLexer.isDigit(peek(1)) || ((peek(1) == "-" || peek(1) == "+") && RubyLexer.isDigit(peek(2))) {
            pos += 2
            while let n = peek(), RubyLexer.isDigit(n) { pos += 1 }
        }
        if let r = peek(), r == "r" || r == "i", !(peek(1).map(RubyLexer.isIdentChar) ?? false) { pos += 1 }
    }

    /// Steps over `$name`, `$0`, `$!`, `$"`, `$:` … (`pos` at the `$`).
    private mutating func skipGlobalName() {
        pos += 1
        if let n = peek(), RubyLexer.isIdentStart(n) {
            while let n = peek(), RubyLexer.isIdentChar(n) { pos += 1 }
        } else if RubyLexer.isDigit(peek()) {
            while RubyLexer.isDigit(peek()) { pos += 1 }
        } else if peek() == "-", let n = peek(1), RubyLexer.isIdentChar(n) {
            pos += 2  // $-w
        } else if peek() != nil, peek() != "\n" {
            pos += 1  // $! $~ $" $: …
        }
    }

    private mutating func lexVariable(start: Int, line l: Int, column col: Int) {
        pos += 1
        var kind = RubyToken.Kind.ivar
        if peek() == "@" { pos += 1; kind = .cvar }
        while let n = peek(), RubyLexer.isIdentChar(n) { pos += 1 }
        emit(kind, string(start, pos), from: start, line: l, column: col)
    }

    private mutating func lexName(start: Int, line l: Int, column col: Int) {
        while let n = peek(), RubyLexer.isIdentChar(n) { pos += 1 }
        // `empty?`, `save!` — but not `a!=b`, `x?y:z` is left alone only when followed by `=`.
        if let n = peek(), n == "?" || n == "!", peek(1) != "=" || peek(2) == "=" {
            if !(n == "?" && peek(1) == ":" && peek(2) != ":") { pos += 1 }
        }
        let name = string(start, pos)
        // A keyword after `.` or `def` is a method name: `range.end`, `def for(uri)`, `def self.class`,
        // also after a line ending with `.` (`specs.` ⏎ `for(x)`).
        var before = previous
        if before?.kind == .newline, tokens.count >= 2 { before = tokens[tokens.count - 2] }
        let afterDot = before.map { $0.isPunct(".") || $0.isPunct("&.") || $0.isPunct("::") || $0.isKeyword("def") } ?? false
        // A label: `name:` followed by anything but a second colon.
        if peek() == ":", peek(1) != ":", !name.hasSuffix("?") {
            pos += 1
            emit(.label, name, from: start, line: l, column: col)
            return
        }
        let first = name.unicodeScalars.first!
        if !afterDot, RubyLexer.keywords.contains(name) {
            emit(.keyword, name, from: start, line: l, column: col)
        } else if first >= "A" && first <= "Z" {
            emit(.constant, name, from: start, line: l, column: col)
        } else {
            emit(.identifier, name, from: start, line: l, column: col)
        }
    }

    /// `:name`, `:"quoted"`, `:+`; false when the colon is not a symbol (`::`, a ternary's `:`).
    private mutating func lexSymbol(start: Int, line l: Int, column col: Int) -> Bool {
        guard let n = peek(1), n != ":" else { return false }
        if afterValue, !sawSpace { return false }  // `a ?b:c`
        if afterValue, RubyLexer.isSpace(n) { return false }  // `a ? b : c`
        if RubyLexer.isIdentStart(n) {
            pos += 1
            let nameStart = pos
            while let c = peek(), RubyLexer.isIdentChar(c) { pos += 1 }
            if let c = peek(), c == "?" || c == "!" || c == "=", peek(1) != "=", peek(1) != ">" || c != "=" { pos += 1 }
            emit(.symbol, string(nameStart, pos), from: start, line: l, column: col)
            return true
        }
        if n == "\"" || n == "'" {
            pos += 2
            let before = tokens.count
            lexQuoted(close: n, open: nil, interpolating: n == "\"", start: start, line: l, column: col)
            if tokens.count > before {
                var token = tokens[before]
                token.kind = .symbol
                token.text = token.value ?? token.text
                tokens[before] = token
            }
            return true
        }
        if n == "@" || n == "$" {
            pos += 1
            let nameStart = pos
            if n == "@" {
                pos += 1
                if peek() == "@" { pos += 1 }
                while let c = peek(), RubyLexer.isIdentChar(c) { pos += 1 }
            } else {
                skipGlobalName()
            }
            emit(.symbol, string(nameStart, pos), from: start, line: l, column: col)
            return true
        }
        for op in ["[]=", "[]", "<=>", "===", "==", "=~", "!=", "!~", "**", "+@", "-@", "<<", ">>", "<=", ">=",
                   "+", "-", "*", "/", "%", "<", ">", "!", "&", "|", "^", "~"] {
            pos += 1
            if matches(op) {
                pos += op.unicodeScalars.count
                emit(.symbol, op, from: start, line: l, column: col)
                return true
            }
            pos -= 1
        }
        return false
    }

    /// A `%` literal; false when the `%` is the modulo operator.
    private mutating func lexPercentLiteral(start: Int, line l: Int, column col: Int) -> Bool {
        var i = pos + 1
        var type: Unicode.Scalar = "Q"
        if i < s.count, "qQwWiIrsx".unicodeScalars.contains(s[i]) { type = s[i]; i += 1 }
        guard i < s.count else { return false }
        let open = s[i]
        guard !RubyLexer.isIdentChar(open), !RubyLexer.isSpace(open), open != "\n", open != "=" || i > pos + 1 else { return false }
        let pairs: [Unicode.Scalar: Unicode.Scalar] = ["(": ")", "[": "]", "{": "}", "<": ">"]
        let close = pairs[open] ?? open
        pos = i + 1
        let interpolating = "QWIrx".unicodeScalars.contains(type)
        lexQuoted(close: close, open: pairs[open] == nil ? nil : open, interpolating: interpolating, start: start,
                  line: l, column: col, kind: type == "r" ? .regex : type == "s" ? .symbol : .string)
        return true
    }

    /// The rest of a quoted literal whose opening delimiter has been consumed. `open` is the opening
    /// bracket when the delimiters nest (`%w(a (b) c)`).
    private mutating func lexQuoted(close: Unicode.Scalar, open: Unicode.Scalar?, interpolating: Bool, start: Int,
                                    line l: Int, column col: Int, kind: RubyToken.Kind = .string) {
        let tokenIndex = tokens.count
        let contentStart = pos
        openQuotes += 1
        defer { openQuotes -= 1 }
        emit(kind, "", from: start, line: l, column: col)
        var depth = 0
        var plain = true
        var value: [UInt8] = []  // the literal's value, as UTF-8
        let startLine = line, startLineOffset = lineStartOffset
        while pos < s.count {
            let c = s[pos]
            if c == "\\" {
                if let n = peek(1) {
                    if n == "\n" { pos += 1; consumeNewline(); tokensOnLine = 1; continue }
                    RubyLexer.append(n, to: &value)
                }
                pos += 2
                continue
            }
            if c == "\n" { RubyLexer.append(c, to: &value); consumeNewline(); tokensOnLine = 1; continue }
            if let open, c == open { depth += 1; RubyLexer.append(c, to: &value); pos += 1; continue }
            if c == close {
                if depth > 0 { depth -= 1; RubyLexer.append(c, to: &value); pos += 1; continue }
                pos += 1
                if kind == .regex { while let f = peek(), RubyLexer.isIdentChar(f) { pos += 1 } }
                tokens[tokenIndex].end = pos
                tokens[tokenIndex].text = string(start, pos)
                tokens[tokenIndex].plainString = plain && kind == .string
                tokens[tokenIndex].value = plain ? String(decoding: value, as: UTF8.self) : nil
                if kind == .symbol { tokens[tokenIndex].text = String(decoding: value, as: UTF8.self) }
                return
            }
            if interpolating, c == "#", peek(1) == "@", let n = peek(2), RubyLexer.isIdentStart(n) || n == "@" {
                // `"#@name"`: shorthand interpolation of an instance variable.
                plain = false
                pos += 1
                lexVariable(start: pos, line: line, column: column)
                continue
            }
            if interpolating, c == "#", peek(1) == "{" {
                plain = false
                lexInterpolation()
                continue
            }
            RubyLexer.append(c, to: &value)
            pos += 1
        }
        if abandoned { return }
        // Unterminated inside another literal's interpolation: that literal reached the end too, so it
        // is unterminated as well, and it goes on after its own line, re-reading this one. Going on
        // here first would be undone by it, and with every level doing so a file of N such lines was
        // read 2^N times (found by fuzzing: 16 lines of `post("#{` took seconds).
        if openQuotes > 1 { return }
        // Unterminated: report it, and go on after the line where it starts.
        let what = kind == .regex ? "regular expression" : "string"
        problems.append(RubyProblem(message: "\(what) is never closed", line: l, column: col))
        tokens.removeSubrange(tokenIndex...)
        pos = contentStart
        line = startLine
        lineStartOffset = startLineOffset
        tokensOnLine = 1
        while pos < s.count, s[pos] != "\n" { pos += 1 }
        tokens.append(RubyToken(kind: kind, text: string(start, pos), start: start, end: pos, line: l, column: col,
                                spaceBefore: false, firstOnLine: false))
    }

    /// `<<ID`, `<<-ID`, `<<~ID`, `<<~'ID'`, `<<"ID"`: records the heredoc, whose body starts on the next
    /// line. False when `<<` is the append/shift operator.
    private mutating func lexHeredocStart(start: Int, line l: Int, column col: Int) -> Bool {
        var i = pos + 2
        var indented = false
        if i < s.count, s[i] == "~" || s[i] == "-" { indented = true; i += 1 }
        guard i < s.count else { return false }
        var quote: Unicode.Scalar?
        if s[i] == "'" || s[i] == "\"" || s[i] == "`" { quote = s[i]; i += 1 }
        guard i < s.count, RubyLexer.isIdentStart(s[i]) || (quote != nil && s[i] != quote! && s[i] != "\n") else { return false }
        // `class <<self` opens a singleton class.
        if let p = previous, p.isKeyword("class") { return false }
        // `x << y` / `list <<item` are appends: a heredoc needs no operand before it, or a space before
        // `<<` and none after it; a bare `<<id` after an operand must look like a heredoc id.
        if afterValue {
            guard sawSpace, s[pos + 2] != " " else { return false }
            if !indented, quote == nil, !(s[i] >= "A" && s[i] <= "Z") { return false }
        }
        let idStart = i
        if let quote {
            // A quoted id may be any text: `<<-'end;'`.
            while i < s.count, s[i] != quote, s[i] != "\n" { i += 1 }
        } else {
            while i < s.count, RubyLexer.isIdentChar(s[i]) { i += 1 }
        }
        let id = string(idStart, i)
        if let quote {
            guard i < s.count, s[i] == quote else { return false }
            i += 1
        }
        pos = i
        emit(.string, string(start, pos), from: start, line: l, column: col)
        pendingHeredocs.append((id, indented, quote != "'", l, col))
        return true
    }

    /// Reads the bodies of the heredocs started on the line just ended.
    private mutating func readHeredocBodies() {
        let pending = pendingHeredocs
        pendingHeredocs = []
        for heredoc in pending {
            var closed = false
            tokensOnLine = 1
            while pos < s.count {
                // Is this line the terminator?
                var e = pos
                while e < s.count, s[e] != "\n" { e += 1 }
                var text = string(pos, e)
                if text.hasSuffix("\r") { text.removeLast() }
                let candidate = heredoc.indented ? String(text.drop(while: { $0 == " " || $0 == "\t" })) : text
                if candidate == heredoc.id {
                    pos = e
                    if pos < s.count { consumeNewline() }
                    closed = true
                    break
                }
                // A body line: lex its interpolations.
                while pos < e {
                    if s[pos] == "\\" { pos += 2; continue }
                    if heredoc.interpolating, s[pos] == "#", pos + 1 < s.count, s[pos + 1] == "{" {
                        lexInterpolation()
                        // The interpolation may have crossed lines: find this line's end again.
                        e = pos
                        while e < s.count, s[e] != "\n" { e += 1 }
                        continue
                    }
                    pos += 1
                }
                pos = e
                if pos < s.count { consumeNewline() }
                tokensOnLine = 1  // code interpolated in the body never starts a line
            }
            if !closed, !abandoned {
                problems.append(RubyProblem(message: "heredoc '\(heredoc.id)' is never closed (no line '\(heredoc.id)')",
                                            line: heredoc.line, column: heredoc.column))
            }
        }
        tokensOnLine = 0
    }
}
