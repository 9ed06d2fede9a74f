import FlowModel
// swift-syntax's own lexer (SPI): the scan counts the brackets of exactly the tokens the parser reads.
@_spi(Testing) import SwiftParser
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
/// The scan reads the file with swift-syntax's lexer, the one its parser reads it with (the same
/// function, `Lexer.tokenize`, from the same start, with the same features), so the brackets it counts
/// are the parser's: whatever hides one — a comment, a string or its interpolation, a regex literal,
/// a raw identifier `` `[[` `` — hides it from both. Before, a scan of the bytes decided each of these
/// itself, and each way in which it decided differently from the lexer let brackets past the count
/// that the look-ahead then took minutes over (found by fuzzing and by reading the lexer, six times:
/// raw identifiers, raw `"""` closed on their line, carriage returns, `'…'`, interpolations, and a
/// `"` in a regex literal `/"/`). Lexing costs a fraction of parsing, and only parsed files are lexed.
///
/// In code that parses, brackets pair. Where they do not, a closing bracket closes only its own kind:
/// a count can then stay too high (the file is reported, at a bracket, for a file with errors anyway)
/// but never too low, which could let the parser's look-ahead run away.
enum SwiftNesting {
    /// What went too deep, and where (1-based; columns in UTF-8 bytes, as swift-syntax counts them).
    struct Problem: Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// The first nesting problem in `text`, or nil.
    static func check(_ text: String, limits: Limits) -> Problem? {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var tracker = LookaheadTracker()
            return withUnsafeMutablePointer(to: &tracker) { tracker -> Problem? in
                // For each open bracket: the token that closes it, and the `[`s open since the nearest `{`.
                var open: [(closer: RawTokenKind, squares: Int)] = []
                for token in Lexer.tokenize(bytes, lookaheadTracker: tracker, experimentalFeatures: []) {
                    let kind = token.rawTokenKind
                    switch kind {
                    case .endOfFile:
                        return nil
                    case .leftParen, .leftSquare, .leftBrace:
                        let squares = kind == .leftBrace ? 0 : (open.last?.squares ?? 0) + (kind == .leftSquare ? 1 : 0)
                        open.append((kind == .leftParen ? .rightParen : kind == .leftSquare ? .rightSquare : .rightBrace, squares))
                        let message: String
                        if open.count > limits.nesting {
                            message = "nested deeper than \(limits.nesting) levels"
                        } else if squares > limits.squareBrackets {
                            message = "more than \(limits.squareBrackets) square brackets open at once"
                        } else {
                            continue
                        }
                        let offset = token.tokenText.baseAddress.map { base.distance(to: $0) } ?? 0
                        let (line, column) = SwiftLines(bytes).location(of: offset)
                        return Problem(message: "\(message) at line \(line)", line: line, column: column)
                    case .rightParen, .rightSquare, .rightBrace:
                        if open.last?.closer == kind { open.removeLast() }
                    default:
                        break
                    }
                }
                return nil
            }
        }
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
