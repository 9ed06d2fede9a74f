import FlowModel
import Foundation
import SwiftParser
import SwiftSyntax

/// Finds a fix's names in their files' texts, exactly where their loaders recorded them, and applies
/// located fixes.
///
/// A fix is kept only when every edit's `original` is found whole at its place: the text there is
/// the name (inside its quotes, for a quoted YAML/JSON scalar or a Swift string literal), and the
/// replacement can be written there as it is (a plain YAML scalar, an identifier, no character that
/// would need escaping). Swift is read with swift-syntax: a name is a token of the parsed tree (an
/// identifier, a string literal's text, or a comment), and is rewritten in the tree.
public enum FixLocator {
    /// `fix` with every edit's exact range in `text` (the text of `path`), or nil when one of its
    /// names is not exactly where it should be.
    public static func locate(_ fix: Fix, in text: String, path: String) -> Fix? {
        locateAll([fix], in: text, path: path)[0]
    }

    /// `locate(_:in:path:)` for several fixes in one file, which is read (and, for Swift, parsed) once.
    public static func locateAll(_ fixes: [Fix], in text: String, path: String) -> [Fix?] {
        guard let kind = SourceKind.of(path: path) else { return fixes.map { _ in nil } }
        let lines = LineTable(text)
        var swiftTree: SourceFileSyntax?
        return fixes.map { locate($0, lines: lines, kind: kind, path: path, swiftTree: &swiftTree) }
    }

    private static func locate(_ fix: Fix, lines: LineTable, kind: SourceKind, path: String, swiftTree: inout SourceFileSyntax?) -> Fix? {
        let text = lines.text
        var located = fix
        for (n, edit) in fix.edits.enumerated() {
            guard !edit.original.isEmpty, let start = lines.offset(of: edit, kind: kind) else { return nil }
            var range: Range<Int>?
            switch (edit.anchor, kind) {
            case (.suppression, _):
                range = suppressionRange(edit, lineOffset: start, lines: lines, kind: kind)
            case (_, .swift):
                if swiftTree == nil { swiftTree = Parser.parse(source: text) }
                range = swiftRange(edit, at: start, in: swiftTree!)
            case (.name, .declarative):
                range = scalarRange(edit, at: start, bytes: lines.bytes, json: path.lowercased().hasSuffix(".json"))
            case (.name, .plantUML):
                range = wordRange(edit, at: start, bytes: lines.bytes)
            default:
                range = nil
            }
            guard let range, Array(lines.bytes[range]) == Array(edit.original.utf8) else { return nil }
            let (line, column) = lines.position(of: range.lowerBound)
            located.edits[n].range = TextRange(line: line, column: column, length: range.count, offset: range.lowerBound)
        }
        return located
    }

    /// `text` with the located `edits` applied (none may overlap), or nil when the text at one of
    /// them is no longer the name (the file changed) or a Swift edit is not on a token or comment.
    public static func apply(_ edits: [FixEdit], to text: String, path: String) -> String? {
        let bytes = Array(text.utf8)
        let ranges = edits.compactMap(\.range)
        guard ranges.count == edits.count else { return nil }
        for edit in edits {
            let r = edit.range!
            guard r.offset >= 0, r.offset + r.length <= bytes.count, Array(bytes[r.offset..<r.offset + r.length]) == Array(edit.original.utf8) else { return nil }
        }
        let sorted = edits.sorted { $0.range! < $1.range! }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.range!.overlaps(b.range!) { return nil }
        if SourceKind.of(path: path) == .swift {
            let tree = Parser.parse(source: text)
            let rewriter = NameRewriter(edits: sorted)
            let rewritten = rewriter.rewrite(tree)
            guard rewriter.applied == sorted.count else { return nil }
            return rewritten.description
        }
        var out = bytes
        for edit in sorted.reversed() {
            let r = edit.range!
            out.replaceSubrange(r.offset..<r.offset + r.length, with: Array(edit.replacement.utf8))
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Finding the name

    /// A plain or quoted YAML scalar (a JSON string is a double-quoted one) starting at `start`.
    static func scalarRange(_ edit: FixEdit, at start: Int, bytes: [UInt8], json: Bool) -> Range<Int>? {
        let name = Array(edit.original.utf8)
        guard start < bytes.count else { return nil }
        let quote = bytes[start]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let from = start + 1, to = from + name.count
            guard to < bytes.count, bytes[to] == quote, Array(bytes[from..<to]) == name,
                  isQuotable(edit.original, quote: quote), isQuotable(edit.replacement, quote: quote) else { return nil }
            return from..<to
        }
        guard !json, start + name.count <= bytes.count, Array(bytes[start..<start + name.count]) == name,
              isPlainScalar(edit.original), isPlainScalar(edit.replacement) else { return nil }
        let end = start + name.count
        // The scalar must end with the name: a line's end, a comment, or a flow or mapping separator.
        if end < bytes.count {
            let next = bytes[end]
            guard [UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","),
                   UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":")].contains(next) else { return nil }
        }
        return start..<end
    }

    /// Text that reads back as itself inside `quote`s: no quote, no escape, no line break.
    static func isQuotable(_ text: String, quote: UInt8) -> Bool {
        !text.isEmpty && !text.utf8.contains { $0 == quote || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
    }

    /// Text that YAML reads back as the same string when written plain, in block and flow context: a
    /// name of letters, digits, `_`, `-`, `.` and inner spaces, that no YAML schema reads as a
    /// boolean, null or number.
    static func isPlainScalar(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              first.properties.isAlphabetic || first == "_", last != " " else { return false }
        let allowed = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-. ".unicodeScalars.contains($0) }
        let special: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf"]
        return allowed && !text.contains("  ") && !special.contains(text.lowercased())
    }

    /// A PlantUML name: the word at `start`, not part of a longer one.
    static func wordRange(_ edit: FixEdit, at start: Int, bytes: [UInt8]) -> Range<Int>? {
        let name = Array(edit.original.utf8), end = start + name.count
        func isWord(_ byte: UInt8) -> Bool { byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) }
        guard end <= bytes.count, Array(bytes[start..<end]) == name, isIdentifier(edit.replacement),
              start == 0 || !isWord(bytes[start - 1]), end == bytes.count || !isWord(bytes[end]) else { return nil }
        return start..<end
    }

    /// One of the rule ids of the suppression comment whose marker is on the edit's line.
    static func suppressionRange(_ edit: FixEdit, lineOffset: Int, lines: LineTable, kind: SourceKind) -> Range<Int>? {
        guard let marker = SuppressionScanner.commentMarker(forPath: edit.at.file), edit.at.line <= lines.count else { return nil }
        let lineText = lines.text(ofLine: edit.at.line)
        guard let comment = SuppressionScanner.parse(lineText[...], marker: marker),
              lineText.distance(from: lineText.startIndex, to: comment.marker.lowerBound) + 1 == edit.at.column,
              edit.replacement.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
        let matches = comment.rules.filter { lineText[$0] == edit.original }
        guard matches.count == 1, let match = matches.first else { return nil }
        let lineStart = lines.lineStarts[edit.at.line - 1]
        let from = lineStart + lineText[..<match.lowerBound].utf8.count
        return from..<from + edit.original.utf8.count
    }

    /// A Swift name at `start`: an identifier token, the text of a one-piece string literal, or (at a
    /// call's name) the one string literal argument of that call that holds the name.
    static func swiftRange(_ edit: FixEdit, at start: Int, in tree: SourceFileSyntax) -> Range<Int>? {
        guard let token = tree.token(at: AbsolutePosition(utf8Offset: start)),
              token.positionAfterSkippingLeadingTrivia.utf8Offset == start else { return nil }
        guard edit.anchor == .name else { return nil }
        if case .identifier = token.tokenKind, token.text == edit.original {
            return isIdentifier(edit.replacement) ? start..<start + token.text.utf8.count : nil
        }
        if let literal = token.parent?.as(StringLiteralExprSyntax.self) ?? token.parent?.parent?.parent?.as(StringLiteralExprSyntax.self) {
            return literalRange(literal, holding: edit)
        }
        // A member's period (where a FlowKit handler's returned case is recorded): the member's name.
        if case .period = token.tokenKind, let member = token.parent?.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName
            guard case .identifier = name.tokenKind, name.text == edit.original, isIdentifier(edit.replacement) else { return nil }
            let from = name.positionAfterSkippingLeadingTrivia.utf8Offset
            return from..<from + name.text.utf8.count
        }
        // A call's name (where Flow-iOS reads are recorded): the one string literal argument holding the name.
        var node: Syntax? = Syntax(token)
        while let current = node, current.as(FunctionCallExprSyntax.self) == nil { node = current.parent }
        guard let call = node?.as(FunctionCallExprSyntax.self),
              call.calledExpression.range.contains(AbsolutePosition(utf8Offset: start)) else { return nil }
        let ranges = call.arguments.compactMap { $0.expression.as(StringLiteralExprSyntax.self) }.compactMap { literalRange($0, holding: edit) }
        return ranges.count == 1 ? ranges[0] : nil
    }

    /// The text of a string literal of one plain segment equal to the edit's name, when the
    /// replacement needs no escape there.
    static func literalRange(_ literal: StringLiteralExprSyntax, holding edit: FixEdit) -> Range<Int>? {
        guard literal.openingPounds == nil, literal.segments.count == 1,
              let segment = literal.segments.first?.as(StringSegmentSyntax.self), segment.content.text == edit.original,
              isQuotable(edit.replacement, quote: UInt8(ascii: "\"")) else { return nil }
        let from = segment.content.positionAfterSkippingLeadingTrivia.utf8Offset
        return from..<from + segment.content.text.utf8.count
    }

    /// A name that is an identifier in Swift and PlantUML: a letter or `_`, then letters, digits, `_`.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
    }
}

/// Rewrites the tokens and comments that hold located edits: the only way a Swift file is changed.
private final class NameRewriter: SyntaxRewriter {
    let edits: [FixEdit]
    var applied = 0

    init(edits: [FixEdit]) {
        self.edits = edits
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ token: TokenSyntax) -> TokenSyntax {
        var token = token
        let textStart = token.positionAfterSkippingLeadingTrivia.utf8Offset
        let textEnd = token.endPositionBeforeTrailingTrivia.utf8Offset
        for edit in edits {
            let r = edit.range!
            if r.offset >= textStart, r.offset + r.length <= textEnd {
                let replaced = Self.replacing(token.text, from: r.offset - textStart, length: r.length, with: edit.replacement)
                switch token.tokenKind {
                case .identifier: token = token.with(\.tokenKind, .identifier(replaced))
                case .stringSegment: token = token.with(\.tokenKind, .stringSegment(replaced))
                default: continue
                }
                applied += 1
            } else if r.offset >= token.position.utf8Offset, r.offset < textStart {
                if let trivia = Self.rewrite(token.leadingTrivia, from: token.position.utf8Offset, edit) {
                    token = token.with(\.leadingTrivia, trivia)
                    applied += 1
                }
            } else if r.offset >= textEnd, r.offset < token.endPosition.utf8Offset {
                if let trivia = Self.rewrite(token.trailingTrivia, from: textEnd, edit) {
                    token = token.with(\.trailingTrivia, trivia)
                    applied += 1
                }
            }
        }
        return token
    }

    /// The trivia with the edit applied inside one comment, or nil when the edit is not inside one.
    static func rewrite(_ trivia: Trivia, from start: Int, _ edit: FixEdit) -> Trivia? {
        var offset = start
        var pieces = Array(trivia)
        let r = edit.range!
        for (n, piece) in pieces.enumerated() {
            let length = piece.sourceLength.utf8Length
            defer { offset += length }
            guard r.offset >= offset, r.offset + r.length <= offset + length else { continue }
            let at = r.offset - offset
            switch piece {
            case let .lineComment(text): pieces[n] = .lineComment(replacing(text, from: at, length: r.length, with: edit.replacement))
            case let .blockComment(text): pieces[n] = .blockComment(replacing(text, from: at, length: r.length, with: edit.replacement))
            case let .docLineComment(text): pieces[n] = .docLineComment(replacing(text, from: at, length: r.length, with: edit.replacement))
            case let .docBlockComment(text): pieces[n] = .docBlockComment(replacing(text, from: at, length: r.length, with: edit.replacement))
            default: return nil
            }
            return Trivia(pieces: pieces)
        }
        return nil
    }

    static func replacing(_ text: String, from offset: Int, length: Int, with replacement: String) -> String {
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(offset..<offset + length, with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A file's text as UTF-8 bytes with the offset of each line, to turn a loader's line and column into
/// a byte offset and back.
struct LineTable {
    let text: String
    let bytes: [UInt8]
    /// The byte offset of each line's start.
    let lineStarts: [Int]

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    var count: Int { lineStarts.count }

    /// The line's text, without its line break.
    func text(ofLine line: Int) -> String {
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The byte offset where the edit's loader placed it. Loaders count columns differently: YAML's
    /// parser in Unicode scalars, swift-syntax and the PlantUML reader in UTF-8 bytes; a suppression's
    /// column is the scanner's, in characters.
    func offset(of edit: FixEdit, kind: SourceKind) -> Int? {
        let line = edit.at.line, column = edit.at.column
        guard line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let start = lineStarts[line - 1]
        if edit.anchor == .suppression { return start }
        let lineText = text(ofLine: line)
        let prefixBytes: Int?
        switch kind {
        case .declarative:
            let scalars = lineText.unicodeScalars
            guard column - 1 <= scalars.count else { return nil }
            prefixBytes = String(String.UnicodeScalarView(scalars.prefix(column - 1))).utf8.count
        case .swift, .plantUML:
            prefixBytes = column - 1 <= lineText.utf8.count ? column - 1 : nil
        default:
            // No fix is located in another kind's files (Ruby): none is offered there.
            prefixBytes = nil
        }
        return prefixBytes.map { start + $0 }
    }

    /// The 1-based line and UTF-8 column of a byte offset.
    func position(of offset: Int) -> (line: Int, column: Int) { lineAndColumn(of: offset, lineStarts: lineStarts) }
}
