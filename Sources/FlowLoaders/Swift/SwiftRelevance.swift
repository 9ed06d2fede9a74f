import Dispatch
import FlowModel
import Foundation

/// Which Swift files a run must parse: those that can define or use a flow, an operation, a step, a
/// progression or a controller, decided without swift-syntax, so that the other files of an app
/// (views, models, networking) cost a byte scan and a light lexical pass instead of a full parse.
///
/// The readers share facts across files, always by a name written in the source: a class inherits
/// from a user base class that adopts a library protocol, an extension in another file adds members,
/// a key is a constant declared elsewhere (`Keys.email`), a progression's case is constructed in
/// another file, a FlowKit controller adopts `<Machine>StateMachine` through a `typealias`. So:
///
/// 1. A file is relevant when its bytes hold one of `libraryWords` (what the readers match), or when
///    the light pass cannot follow it (an unterminated string or comment, unbalanced braces).
/// 2. Then, until nothing changes: a file is relevant when it mentions (as an identifier in code) a
///    name that a relevant file declares at file or type scope (a subclass, an extension, a use), or
///    declares at file or type scope a name that a relevant file mentions (a base class, a constant, a
///    helper, a parameter's type).
///
/// Names declared inside function bodies are local and connect nothing. The pass is conservative:
/// a word in code that only looks like a mention, or a local type's members, parse more files,
/// never fewer. A skipped file cannot change a flow or a finding; its own problems (a Swift syntax
/// error, nesting too deep) are the compiler's to report, not FlowLens's.
enum SwiftRelevance {
    /// Substrings that every file defining or using one of the Swift dialects' flows holds (each
    /// dialect's `relevantWords`), or that connects to one that does, by `select`'s second rule.
    static let libraryWords: [[UInt8]] = {
        var seen = Set<String>()
        return Dialects.swift.flatMap { $0.relevantWords }.filter { seen.insert($0).inserted }.map { Array($0.utf8) }
    }()

    /// The environment variable that turns the pre-filter off (every Swift file is parsed): for the
    /// benchmark, which checks that both ways give the same report.
    static let parseEveryFileVariable = "FLOWLENS_PARSE_EVERY_SWIFT_FILE"

    /// Whether the pre-filter is on in this process.
    static var isEnabled: Bool { ProcessInfo.processInfo.environment[parseEveryFileVariable] == nil }

    /// For each file, whether it must be parsed. Linear in the words of the files: each name is
    /// followed once each way (from the files that mention it to those that declare it, and back).
    static func select(_ files: [SourceText], limits: Limits = .default) -> [Bool] {
        let skims = files.parallelMap { Skim($0.contents, nesting: limits.nesting) }
        var declaredBy: [Substring: [Int]] = [:], mentionedBy: [Substring: [Int]] = [:]
        for i in files.indices {
            for name in skims[i].declared { declaredBy[name, default: []].append(i) }
            for name in skims[i].mentions { mentionedBy[name, default: []].append(i) }
        }
        var relevant = files.indices.map { skims[$0].unsure || skims[$0].hasLibraryWord }
        var queue = files.indices.filter { relevant[$0] }
        var followedMentions = Set<Substring>(), followedDeclarations = Set<Substring>()
        while let file = queue.popLast() {
            let skim = skims[file]
            for name in skim.mentions where followedMentions.insert(name).inserted {
                for other in declaredBy[name] ?? [] where !relevant[other] {
                    relevant[other] = true
                    queue.append(other)
                }
            }
            for name in skim.declared where followedDeclarations.insert(name).inserted {
                for other in mentionedBy[name] ?? [] where !relevant[other] {
                    relevant[other] = true
                    queue.append(other)
                }
            }
        }
        return relevant
    }

    /// What the light pass learns of one file.
    struct Skim {
        /// The file holds one of `libraryWords`.
        var hasLibraryWord = false
        /// The pass lost its way: the file is parsed.
        var unsure = false
        /// Identifiers written in code (string interpolations included; comments and string text not).
        var mentions = Set<Substring>()
        /// Names declared at file scope or in a type's body (types, functions, properties, cases).
        var declared = Set<Substring>()

        /// Skims `text`; string interpolations nested deeper than `nesting` make it `unsure` (the
        /// parse then reports them), so the pass never recurses without a bound.
        init(_ text: String, nesting: Int = Limits.default.nesting) {
            var text = text
            text.makeContiguousUTF8()
            let whole = Substring(text)
            whole.utf8.withContiguousStorageIfAvailable { bytes in
                hasLibraryWord = SwiftRelevance.libraryWords.contains { SwiftRelevance.contains(bytes, $0) }
                var lexer = Lexer(bytes: bytes, text: whole, nesting: nesting)
                lexer.scanCode(inInterpolation: false)
                unsure = lexer.unsure || !lexer.scopes.isEmpty
                mentions = lexer.mentions
                declared = lexer.declared
            } ?? { unsure = true }()
        }
    }

    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: [UInt8]) -> Bool {
        guard let first = word.first, bytes.count >= word.count else { return false }
        var i = 0
        let last = bytes.count - word.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < word.count, bytes[i + k] == word[k] { k += 1 }
                if k == word.count { return true }
            }
            i += 1
        }
        return false
    }

    /// A lexer that knows just enough Swift: comments, strings (raw, multi-line, interpolated),
    /// identifiers, braces, and which declarations are at file or type scope.
    struct Lexer {
        let bytes: UnsafeBufferPointer<UInt8>
        let text: Substring
        var i = 0
        var unsure = false
        var mentions = Set<Substring>()
        var declared = Set<Substring>()
        /// One entry per open brace: whether it is a type's body.
        var scopes: [Bool] = []
        /// A type keyword was seen: the next `{` opens its body.
        var pendingTypeBody = false
        /// What the next identifier is, after a declaration keyword.
        var expecting: Expecting = .nothing
        /// After `let`/`var`/`case` at type scope: a `,` at this bracket depth starts another name.
        var listDepth: Int?
        var depth = 0  // ( and [ nesting
        /// Inside the parentheses of a tuple pattern (`let (a, b) = …`), opened at this depth.
        var tupleDepth: Int?
        var lastSignificant: UInt8 = 0

        enum Expecting { case nothing, name, typeName, pattern }

        static let modifiers: Set<Substring> = [
            "func", "var", "let", "subscript", "override", "final", "public", "private", "internal", "fileprivate", "open",
            "static", "mutating", "nonmutating", "convenience", "required", "dynamic", "lazy", "weak", "unowned", "indirect",
            "nonisolated", "init", "deinit", "class", "actor", "isolated", "distributed", "package",
        ]

        /// How deep string interpolations may nest, and how deep they are.
        let nesting: Int
        var interpolations = 0

        init(bytes: UnsafeBufferPointer<UInt8>, text: Substring, nesting: Int) {
            self.bytes = bytes
            self.text = text
            self.nesting = nesting
        }

        var atDeclarationScope: Bool { scopes.last ?? true }

        func word(_ start: Int, _ end: Int) -> Substring {
            let utf8 = text.utf8
            return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)])
        }

        static func isIdentifierStart(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b >= 0x80
        }

        static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

        /// Scans code until the end, or, inside `\( … )`, until its closing parenthesis.
        mutating func scanCode(inInterpolation: Bool) {
            var parens = 0
            while i < bytes.count, !unsure {
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                    skipBlockComment()
                case UInt8(ascii: "\""), UInt8(ascii: "#") where startsString():
                    scanString()
                    lastSignificant = UInt8(ascii: "\"")
                case UInt8(ascii: "`"):
                    // A backquoted name is a name (`default`).
                    let start = i + 1
                    i = start
                    while i < bytes.count, bytes[i] != UInt8(ascii: "`"), bytes[i] != 0x0A { i += 1 }
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "`") else { unsure = true; return }
                    identifier(word(start, i), keywordsAllowed: false)
                    i += 1
                case _ where Self.isIdentifierStart(b):
                    let start = i
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    identifier(word(start, i), keywordsAllowed: true)
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    lastSignificant = b
                case UInt8(ascii: "$"):
                    i += 1
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    lastSignificant = b
                default:
                    i += 1
                    punctuation(b)
                    if inInterpolation {
                        if b == UInt8(ascii: "(") { parens += 1 }
                        if b == UInt8(ascii: ")") {
                            if parens == 0 { return }
                            parens -= 1
                        }
                    }
                }
            }
            if inInterpolation { unsure = true }
        }

        mutating func punctuation(_ b: UInt8) {
            switch b {
            case UInt8(ascii: "{"):
                scopes.append(pendingTypeBody)
                pendingTypeBody = false
                (expecting, listDepth, tupleDepth) = (.nothing, nil, nil)
            case UInt8(ascii: "}"):
                if scopes.popLast() == nil { unsure = true }
                (expecting, listDepth, tupleDepth) = (.nothing, nil, nil)
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if expecting == .pattern, tupleDepth == nil, b == UInt8(ascii: "(") { tupleDepth = depth }
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth -= 1
                if let tuple = tupleDepth, depth <= tuple {
                    tupleDepth = nil
                    expecting = .nothing
                }
                if let list = listDepth, depth < list { listDepth = nil }
            case UInt8(ascii: ","):
                if let list = listDepth, depth == list { expecting = .pattern }
            case UInt8(ascii: ";"):
                listDepth = nil
                expecting = .nothing
            case 0x0A:
                // A declaration list goes on past a line break only after a comma.
                if lastSignificant != UInt8(ascii: ",") { listDepth = nil }
                return
            case 0x20, 0x09, 0x0D:
                return
            default:
                break
            }
            lastSignificant = b
        }

        mutating func identifier(_ name: Substring, keywordsAllowed: Bool) {
            defer { lastSignificant = UInt8(ascii: "a") }
            mentions.insert(name)
            let afterDot = lastSignificant == UInt8(ascii: ".")
            if expecting == .typeName, keywordsAllowed, Self.modifiers.contains(name) {
                // `class func`, `class var`: a modifier, not a type.
                expecting = .nothing
                pendingTypeBody = false
            }
            if keywordsAllowed, !afterDot, expecting == .nothing || expecting == .typeName {
                switch name {
                case "class", "struct", "enum", "protocol", "actor":
                    if atDeclarationScope { expecting = .typeName }
                    pendingTypeBody = true
                    return
                case "extension":
                    pendingTypeBody = true
                    return
                case "func", "typealias", "associatedtype":
                    if atDeclarationScope { expecting = .name }
                    return
                case "let", "var", "case":
                    if atDeclarationScope {
                        expecting = .pattern
                        listDepth = depth
                    }
                    return
                default:
                    break
                }
            }
            switch expecting {
            case .nothing:
                break
            case .typeName:
                expecting = .nothing
                declared.insert(name)
            case .name:
                expecting = .nothing
                declared.insert(name)
            case .pattern:
                if keywordsAllowed, name == "let" || name == "var" { return }  // `case let .x`, `if case var`
                if tupleDepth == nil { expecting = .nothing }  // in `let (a, b)` every name is declared
                declared.insert(name)
            }
        }

        func startsString() -> Bool {
            guard bytes[i] == UInt8(ascii: "#") else { return true }
            var k = i
            while k < bytes.count, bytes[k] == UInt8(ascii: "#") { k += 1 }
            return k < bytes.count && bytes[k] == UInt8(ascii: "\"")
        }

        mutating func skipBlockComment() {
            var nesting = 0
            while i + 1 < bytes.count {
                if bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "*") {
                    nesting += 1
                    i += 2
                } else if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") {
                    nesting -= 1
                    i += 2
                    if nesting == 0 { return }
                } else {
                    i += 1
                }
            }
            unsure = true
        }

        /// A string literal: `"…"`, `"""…"""`, with any number of `#` around; interpolations are code.
        mutating func scanString() {
            var hashes = 0
            while bytes[i] == UInt8(ascii: "#") { hashes += 1; i += 1 }
            let multiline = i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") && bytes[i + 2] == UInt8(ascii: "\"")
            i += multiline ? 3 : 1
            while i < bytes.count, !unsure {
                let b = bytes[i]
                if b == 0x0A, !multiline { unsure = true; return }
                if b == UInt8(ascii: "\\") {
                    var k = i + 1
                    var count = 0
                    while k < bytes.count, bytes[k] == UInt8(ascii: "#"), count < hashes { count += 1; k += 1 }
                    if count == hashes, k < bytes.count {
                        if bytes[k] == UInt8(ascii: "(") {
                            i = k + 1
                            guard interpolations < nesting else { unsure = true; return }
                            let saved = (expecting, listDepth, depth, tupleDepth)
                            (expecting, listDepth, tupleDepth) = (.nothing, nil, nil)
                            interpolations += 1
                            scanCode(inInterpolation: true)
                            interpolations -= 1
                            (expecting, listDepth, depth, tupleDepth) = saved
                            continue
                        }
                        i = k + 1  // an escaped character
                        continue
                    }
                    i += 1
                    continue
                }
                if b == UInt8(ascii: "\"") {
                    let closing = multiline ? 3 : 1
                    var k = i
                    var quotes = 0
                    while k < bytes.count, bytes[k] == UInt8(ascii: "\""), quotes < closing { quotes += 1; k += 1 }
                    if quotes == closing {
                        var count = 0
                        while k < bytes.count, bytes[k] == UInt8(ascii: "#"), count < hashes { count += 1; k += 1 }
                        if count == hashes { i = k; return }
                    }
                    i += 1
                    continue
                }
                i += 1
            }
            unsure = true
        }
    }
}
