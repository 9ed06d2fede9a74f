import FlowModel
// The raw layout (SPI) lets `isDeeper` walk a tree without materialising a `Syntax` node per node.
@_spi(RawSyntax) import SwiftSyntax

/// A cheap scan of a Swift file's brackets before swift-syntax parses it.
///
/// swift-syntax's parser and FlowLens's readers recurse once per nesting level, and its look-ahead
/// (`canParseType` ↔ `canParseCollectionTypeBody`) takes time exponential in the number of square
/// brackets open at once: `[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]` alone took close to a minute,
/// and so does `[([([(…1…)])])]` with 18 of each (parentheses between do not help; a closure's `{`
/// does, the look-ahead never enters one). A file past `Limits.nesting` or `Limits.squareBrackets`
/// is not parsed; it is an `invalid-input` finding at the bracket that went too deep.
///
/// The scan knows what hides brackets — comments (`//`, nested `/* */`), string literals (single and
/// multi-line, raw `#"…"#`) and their interpolations `\( … )` — and it must decide each exactly as
/// swift-syntax's lexer (`Lexer/Cursor.swift`) does: where the scan sees a string or a comment that the
/// lexer does not, brackets the parser reads are hidden from the count, and the look-ahead runs for
/// minutes (each rule below was found that way, by fuzzing or by reading the lexer):
/// - a backtick up to the next one on its line is one identifier (Swift 6's raw identifiers,
///   `` `// not a comment` ``, `lexEscapedIdentifier`): `//`, `/*` or `"` there start nothing;
/// - a raw string's `"""` whose own line closes it (`#"""#`, `##"""a"##`) opens a one-line string
///   (`lexStringQuote`);
/// - a line ends at a carriage return as at a line feed, for a `//` comment and a one-line string
///   (`advanceToEndOfLine`), and a backslash before either escapes nothing (`lexEscapedCharacter`);
/// - `'…'` is a one-line string (Swift has none, but the lexer reads one for its error);
/// - an interpolation counts only parentheses and ends at the `)` matching its `\(`, whatever else is
///   open in it; in a one-line string a line end ends it and the string (`lexInStringInterpolation`).
/// Still different: regex literals (`/…/`, `#/…/#`), whose text the scan reads as code (a `"` there
/// opens a string to it).
enum SwiftNesting {
    /// What went too deep, and where (1-based; columns in UTF-8 bytes, as swift-syntax counts them).
    struct Problem: Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    private enum Frame {
        /// `(`, `[` or `{` in code.
        case bracket(UInt8)
        /// `\(` inside a string (see `Interpolation`).
        case interpolation
    }

    /// An interpolation being read, as swift-syntax's lexer follows it (`lexInStringInterpolation`):
    /// it counts only parentheses, and ends at the `)` that matches its `\(` whatever brackets are
    /// still open inside it; the string then resumes. In a one-line string a line end ends it, and
    /// the string with it.
    private struct Interpolation {
        /// The string it is in.
        var string: StringKind
        /// `(` open inside it.
        var parentheses = 0
        /// Its frame's index in the stack.
        var frame: Int
    }

    /// A string literal being read: `"` or `"""`, with its number of `#`s; or `'…'`, which Swift does
    /// not have but swift-syntax lexes as a one-line string (for its error), a `"` in it being text.
    private struct StringKind {
        var multiline: Bool
        var hashes: Int
        var quote: UInt8 = 0x22
    }

    /// The first nesting problem in `text`, or nil.
    static func check(_ text: String, limits: Limits) -> Problem? {
        let bytes = Array(text.utf8)
        var stack: [Frame] = []
        var line = 1, lineStart = 0
        var i = 0
        var string: StringKind?  // inside a string literal's text
        var squares: [Int] = []  // for each frame, the `[`s open since the nearest `{` or interpolation
        var interpolations: [Interpolation] = []

        func problem(_ message: String) -> Problem { Problem(message: message, line: line, column: i - lineStart + 1) }
        func at(_ offset: Int, _ byte: UInt8) -> Bool { offset < bytes.count && bytes[offset] == byte }
        /// Whether a line ends at `offset`: at a line feed or a carriage return, as swift-syntax's lexer ends one.
        func lineEnds(at offset: Int) -> Bool { at(offset, 0x0A) || at(offset, 0x0D) }
        func hashes(from offset: Int, count: Int) -> Bool {
            guard offset + count <= bytes.count else { return false }
            return bytes[offset..<(offset + count)].allSatisfy { $0 == UInt8(ascii: "#") }
        }
        /// Leaves `interpolation` and every frame opened in it.
        func leave(_ interpolation: Interpolation) {
            stack.removeSubrange(interpolation.frame...)
            squares.removeSubrange(interpolation.frame...)
            interpolations.removeLast()
        }
        /// At a line end: the interpolations of one-line strings end there, and their strings too.
        func endLine() {
            while let last = interpolations.last, !last.string.multiline { leave(last) }
        }

        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
            if let kind = string {
                if c == UInt8(ascii: "\\"), hashes(from: i + 1, count: kind.hashes) {
                    let after = i + 1 + kind.hashes
                    if at(after, UInt8(ascii: "(")) {
                        interpolations.append(Interpolation(string: kind, frame: stack.count))
                        stack.append(.interpolation)
                        squares.append(0)
                        string = nil
                        if stack.count > limits.nesting { return problem("nested deeper than \(limits.nesting) levels at line \(line)") }
                        i = after + 1
                        continue
                    }
                    // An escape: skip the escaped character, but never a line end (swift-syntax's
                    // `lexEscapedCharacter` leaves it: it ends a one-line string, and it is a line).
                    i = lineEnds(at: after) ? after : after + 1
                    continue
                }
                let closing = kind.multiline ? at(i, 0x22) && at(i + 1, 0x22) && at(i + 2, 0x22) : c == kind.quote
                if closing, hashes(from: i + (kind.multiline ? 3 : 1), count: kind.hashes) {
                    i += (kind.multiline ? 3 : 1) + kind.hashes
                    string = nil
                    continue
                }
                // Unterminated (the parser reports it): a line ends at a line feed or a carriage return,
                // and so does every one-line string and interpolation around this one.
                if lineEnds(at: i), !kind.multiline {
                    string = nil
                    endLine()
                }
                i += 1
                continue
            }
            switch c {
            case 0x0A, 0x0D:
                endLine()
            case UInt8(ascii: "`"):
                // As swift-syntax lexes it (`lexEscapedIdentifier`): up to a closing backtick before the
                // end of the line, one identifier; without one, the backtick alone is punctuation.
                var end = i + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "`"), !lineEnds(at: end) { end += 1 }
                i = at(end, UInt8(ascii: "`")) ? end + 1 : i + 1
                continue
            case UInt8(ascii: "/") where at(i + 1, UInt8(ascii: "/")):
                while i < bytes.count, !lineEnds(at: i) { i += 1 }
                continue
            case UInt8(ascii: "/") where at(i + 1, UInt8(ascii: "*")):
                var depth = 0
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
                    if at(i, UInt8(ascii: "/")), at(i + 1, UInt8(ascii: "*")) { depth += 1; i += 2; continue }
                    if at(i, UInt8(ascii: "*")), at(i + 1, UInt8(ascii: "/")) {
                        depth -= 1
                        i += 2
                        if depth == 0 { break }
                        continue
                    }
                    i += 1
                }
                continue
            case UInt8(ascii: "'"):
                string = StringKind(multiline: false, hashes: 0, quote: c)
                i += 1
                continue
            case UInt8(ascii: "#"), 0x22:
                // A string literal, raw (`#"…"#`) or not; `#if` and other `#` words are not strings.
                var count = 0
                while at(i + count, UInt8(ascii: "#")) { count += 1 }
                guard at(i + count, 0x22) else { i += max(count, 1); continue }
                var multiline = at(i + count + 1, 0x22) && at(i + count + 2, 0x22)
                // As swift-syntax lexes it (`lexStringQuote`): a raw string's `"""` whose line closes it
                // (a `"` and the same number of `#`s, or those `#`s right after the quotes: `#"""#`,
                // `##"""a"##`) opens a one-line string, not a multi-line one.
                if multiline, count > 0 {
                    var j = i + count + 3
                    var closed = hashes(from: j, count: count)
                    while !closed, j < bytes.count, !lineEnds(at: j) {
                        j += 1
                        if bytes[j - 1] == 0x22 { closed = hashes(from: j, count: count) }
                    }
                    multiline = !closed
                }
                string = StringKind(multiline: multiline, hashes: count)
                i += count + (multiline ? 3 : 1)
                continue
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                if c == UInt8(ascii: "("), !interpolations.isEmpty { interpolations[interpolations.count - 1].parentheses += 1 }
                stack.append(.bracket(c))
                let open = c == UInt8(ascii: "{") ? 0 : (squares.last ?? 0) + (c == UInt8(ascii: "[") ? 1 : 0)
                squares.append(open)
                if stack.count > limits.nesting { return problem("nested deeper than \(limits.nesting) levels at line \(line)") }
                if open > limits.squareBrackets {
                    return problem("more than \(limits.squareBrackets) square brackets open at once at line \(line)")
                }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let last = interpolations.last {
                    if c == UInt8(ascii: ")") {
                        if last.parentheses == 0 {
                            leave(last)
                            string = last.string
                            i += 1
                            continue
                        }
                        interpolations[interpolations.count - 1].parentheses -= 1
                    }
                    // A bracket closes what was opened inside the interpolation, never the interpolation.
                    if stack.count > last.frame + 1 {
                        stack.removeLast()
                        squares.removeLast()
                    }
                } else if !stack.isEmpty {
                    stack.removeLast()
                    squares.removeLast()
                }
            default:
                break
            }
            i += 1
        }
        return nil
    }
}

extension SwiftNesting {
    /// The first node deeper than `limit` in `tree`, found without recursion (the point is that a
    /// recursive walk could overflow the stack).
    static func firstNode(deeperThan limit: Int, in tree: some SyntaxProtocol) -> Syntax? {
        // Nearly every file is shallow, which the raw walk tells cheaply; only a deep one is walked
        // again, node by node, for the first deep node in this order.
        guard isDeeper(than: limit, tree) else { return nil }
        var stack: [(node: Syntax, depth: Int)] = [(Syntax(tree), 1)]
        while let (node, depth) = stack.popLast() {
            if depth > limit { return node }
            for child in node.children(viewMode: .all).reversed() { stack.append((child, depth + 1)) }
        }
        return nil
    }

    /// Whether some node of `tree` (a token, or a present child of a layout) is deeper than `limit`,
    /// counting `tree` as depth 1, as `firstNode` does. Without recursion.
    static func isDeeper(than limit: Int, _ tree: some SyntaxProtocol) -> Bool {
        var stack: [(node: RawSyntax, depth: Int)] = [(tree.raw, 1)]
        while let (node, depth) = stack.popLast() {
            if depth > limit { return true }
            guard let layout = node.layoutView else { continue }
            for child in layout.children { if let child { stack.append((child, depth + 1)) } }
        }
        return false
    }
}
