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

    /// Whether the pre-filter is on in this process. (`getenv`, not `ProcessInfo.environment`, which
    /// copies the whole environment into a dictionary: this is asked once a Swift file.)
    static var isEnabled: Bool { getenv(parseEveryFileVariable) == nil }

    /// For each file, whether it must be parsed. Linear in the words of the files: each name is
    /// followed once each way (from the files that mention it to those that declare it, and back).
    static func select(_ files: [SourceText], limits: Limits = .default) -> [Bool] {
        let skims = files.parallelMap(heaviestFirst: { $0.contents.utf8.count }) { Skim($0.contents, nesting: limits.nesting) }
        // Only declared names are numbered: a name no file declares connects no file, and a mention of
        // it is dropped here. Each way a name is followed is then one flat list of files per number
        // (`FilesByName`). (A `[UInt64: [Int]]` each way, hashed and appended to once a mention, was
        // 2 ms of the app-shaped benchmark's serial time: 61,560 mentions of 3,434 names, in 940 files.)
        var numbers = KeyNumbers(expected: skims.reduce(0) { $0 + $1.declared.count })
        let declared = skims.map { $0.declared.map { numbers.add($0) } }
        let mentioned = skims.map { $0.mentions.compactMap { numbers[$0] } }
        let declaredBy = FilesByName(declared, names: numbers.count), mentionedBy = FilesByName(mentioned, names: numbers.count)
        var relevant = files.indices.map { skims[$0].unsure || skims[$0].hasLibraryWord }
        var queue = files.indices.filter { relevant[$0] }
        var followedMentions = [Bool](repeating: false, count: numbers.count), followedDeclarations = followedMentions
        func follow(_ names: [Int32], _ followed: inout [Bool], to filesByName: FilesByName) {
            for name in names where !followed[Int(name)] {
                followed[Int(name)] = true
                for other in filesByName[name] where !relevant[Int(other)] {
                    relevant[Int(other)] = true
                    queue.append(Int(other))
                }
            }
        }
        while let file = queue.popLast() {
            follow(mentioned[file], &followedMentions, to: declaredBy)
            follow(declared[file], &followedDeclarations, to: mentionedBy)
        }
        return relevant
    }

    /// Numbers for keys (`SwiftRelevance.key`), 0, 1, 2 … in the order added: an open-addressed table,
    /// doubled when half full. The slot is the top bits of the key times `slotMultiplier`, a random odd
    /// number drawn once a process (multiply-shift hashing): however the names were chosen, keys
    /// collide in a slot rarely, so adding stays linear; no result depends on it.
    struct KeyNumbers {
        private var keys: [UInt64]
        private var numbers: [Int32]
        private var shift: UInt64
        /// The number of key 0 (the table's mark for an empty slot), once added.
        private var zero: Int32?
        private(set) var count = 0

        init(expected: Int) {
            var bits = 4
            while 1 << bits < expected * 2 { bits += 1 }
            keys = [UInt64](repeating: 0, count: 1 << bits)
            numbers = [Int32](repeating: 0, count: 1 << bits)
            shift = UInt64(64 - bits)
        }

        private func slot(of key: UInt64) -> (slot: Int, found: Bool) {
            let mask = keys.count - 1
            var slot = Int((key &* SwiftRelevance.slotMultiplier) >> shift)
            while true {
                let held = keys[slot]
                if held == key { return (slot, true) }
                if held == 0 { return (slot, false) }
                slot = (slot + 1) & mask
            }
        }

        /// The key's number, or nil when it was never added.
        subscript(key: UInt64) -> Int32? {
            guard key != 0 else { return zero }
            let (slot, found) = slot(of: key)
            return found ? numbers[slot] : nil
        }

        /// The key's number, a new one when it was not added before.
        @discardableResult
        mutating func add(_ key: UInt64) -> Int32 {
            guard key != 0 else {
                if zero == nil { zero = Int32(count); count += 1 }
                return zero!
            }
            let (slot, found) = slot(of: key)
            if found { return numbers[slot] }
            keys[slot] = key
            numbers[slot] = Int32(count)
            count += 1
            if count * 2 > keys.count { grow() }
            return Int32(count - 1)
        }

        private mutating func grow() {
            let (oldKeys, oldNumbers) = (keys, numbers)
            keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
            numbers = [Int32](repeating: 0, count: oldKeys.count * 2)
            shift -= 1
            for (key, number) in zip(oldKeys, oldNumbers) where key != 0 {
                let (slot, _) = slot(of: key)
                keys[slot] = key
                numbers[slot] = number
            }
        }
    }

    /// For each name number, the files (in ascending order) whose list holds it: one flat array, each
    /// name's files a slice of it (counted first, then filled).
    struct FilesByName {
        private var starts: [Int]
        private var files: [Int32]

        init(_ namesOfFiles: [[Int32]], names: Int) {
            var starts = [Int](repeating: 0, count: names + 1)
            for names in namesOfFiles { for name in names { starts[Int(name) + 1] += 1 } }
            for name in 0..<names { starts[name + 1] += starts[name] }
            var next = starts
            var files = [Int32](repeating: 0, count: starts[names])
            for (file, names) in namesOfFiles.enumerated() {
                for name in names {
                    files[next[Int(name)]] = Int32(file)
                    next[Int(name)] += 1
                }
            }
            self.starts = starts
            self.files = files
        }

        subscript(name: Int32) -> ArraySlice<Int32> { files[starts[Int(name)]..<starts[Int(name) + 1]] }
    }

    /// The key a name is known by in `Skim.mentions` and `Skim.declared`: a 64-bit FNV-1a hash of its
    /// UTF-8 bytes, so the pass never makes a `String` of an ASCII word (nearly all of them); a name
    /// with other characters is hashed in NFC, so that names Swift's `String` calls equal (`é` or `e`
    /// and a combining accent) have one key, as when they were compared as strings. Two names with
    /// one key (unlikely at 64 bits) connect files that need not be: more files parsed, never fewer.
    static func key(_ name: String) -> UInt64 {
        let text = name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCanonicalMapping
        var hash = Self.fnvBasis
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* Self.fnvPrime }
        return hash
    }

    /// A random odd multiplier, drawn once a process, for `KeyNumbers`' table.
    static let slotMultiplier: UInt64 = UInt64.random(in: 0...UInt64.max) | 1

    static let fnvBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let fnvPrime: UInt64 = 0x100_0000_01b3

    /// What the light pass learns of one file.
    struct Skim {
        /// The file holds one of `libraryWords`.
        var hasLibraryWord = false
        /// The pass lost its way: the file is parsed.
        var unsure = false
        /// The keys (`SwiftRelevance.key`) of the identifiers written in code (string interpolations
        /// included; comments and string text not): sorted, each once.
        var mentions: [UInt64] = []
        /// The keys of the names declared at file scope or in a type's body (types, functions,
        /// properties, cases): sorted, each once.
        var declared: [UInt64] = []

        /// Skims `text`; string interpolations nested deeper than `nesting` make it `unsure` (the
        /// parse then reports them), so the pass never recurses without a bound.
        init(_ text: String, nesting: Int = Limits.default.nesting) {
            var text = text
            text.makeContiguousUTF8()
            text.utf8.withContiguousStorageIfAvailable { bytes in
                hasLibraryWord = SwiftRelevance.libraryWords.contains { ByteSearch.contains($0, in: bytes) }
                var lexer = Lexer(bytes: bytes, nesting: nesting)
                // Room for an identifier every four bytes, more than code holds: grown by doubling
                // instead, the list was copied over and over as it grew.
                lexer.mentions.reserveCapacity(bytes.count / 4)
                lexer.scanCode(inInterpolation: false)
                unsure = lexer.unsure || !lexer.scopes.isEmpty
                mentions = Self.sortedOnce(lexer.mentions)
                declared = Self.sortedOnce(lexer.declared)
            } ?? { unsure = true }()
        }

        /// `keys` sorted, each once. A file names the same few hundred identifiers thousands of times:
        /// the repeats are dropped first (`KeyNumbers`, sized for every key to be distinct, so it never
        /// grows), and only the distinct keys are sorted.
        static func sortedOnce(_ keys: [UInt64]) -> [UInt64] {
            var seen = KeyNumbers(expected: keys.count)
            var distinct: [UInt64] = []
            for key in keys {
                let known = seen.count
                seen.add(key)
                if seen.count > known { distinct.append(key) }
            }
            distinct.sort()
            return distinct
        }
    }

    /// Whether `bytes[range]` holds one of `words` as a whole word: with no letter, digit or `_` just
    /// before or after it. A byte of a non-ASCII character counts as no letter, so a word next to one
    /// is found: the answer may be yes for text that only looks like the word, never no for the word.
    static func containsWord(_ bytes: UnsafeBufferPointer<UInt8>, _ words: [[UInt8]], in range: Range<Int>) -> Bool {
        let range = range.clamped(to: 0..<bytes.count)
        func isWordByte(_ b: UInt8) -> Bool { Lexer.isIdentifierByte(b) && b < 0x80 }
        for word in words {
            var from = range.lowerBound
            while let i = ByteSearch.firstOffset(of: word, in: bytes, range: from..<range.upperBound) {
                let end = i + word.count
                if (i == range.lowerBound || !isWordByte(bytes[i - 1])) && (end == range.upperBound || !isWordByte(bytes[end])) { return true }
                from = i + 1
            }
        }
        return false
    }

    /// What a keyword tells the lexer; found by `Lexer.keyword`, which compares the bytes.
    ///
    /// Its spelling is packed into two words (no keyword is longer than 16 bytes), so that a
    /// `Keyword` holds no array: looked up once an identifier, one that did cost a retain and a
    /// release each time.
    struct Keyword {
        enum Kind { case type, extensionBody, name, binding, enumCase, other }
        /// The spelling's bytes, the first in the low byte of the first word; zero past `length`.
        private let spelling: (UInt64, UInt64)
        let length: Int
        let kind: Kind
        /// A modifier that may follow `class` (`class func`, `class var`): then `class` is no type.
        let isModifier: Bool

        init(bytes: [UInt8], kind: Kind, isModifier: Bool) {
            precondition(bytes.count <= 16, "a keyword longer than 16 bytes")
            var words: [UInt64] = [0, 0]
            for (k, byte) in bytes.enumerated() { words[k / 8] |= UInt64(byte) << (8 * UInt64(k % 8)) }
            spelling = (words[0], words[1])
            length = bytes.count
            self.kind = kind
            self.isModifier = isModifier
        }

        /// The spelling's byte at `k` (below `length`).
        func byte(_ k: Int) -> UInt8 { UInt8(truncatingIfNeeded: (k < 8 ? spelling.0 : spelling.1) >> (8 * UInt64(k % 8))) }

        var bytes: [UInt8] { (0..<length).map(byte) }
    }

    /// The keywords the lexer acts on, by key. (Asked for nearly every identifier of every file: an
    /// open-addressed table of a fixed few entries, looked up by the key's top bits, costs a fraction
    /// of a `Dictionary`'s hashing.)
    static let keywords: KeywordTable = {
        let kinds: [String: Keyword.Kind] = [
            "class": .type, "struct": .type, "enum": .type, "protocol": .type, "actor": .type,
            "extension": .extensionBody, "func": .name, "typealias": .name, "associatedtype": .name,
            "let": .binding, "var": .binding, "case": .enumCase,
        ]
        let modifiers: Set<String> = [
            "func", "var", "let", "subscript", "override", "final", "public", "private", "internal", "fileprivate", "open",
            "static", "mutating", "nonmutating", "convenience", "required", "dynamic", "lazy", "weak", "unowned", "indirect",
            "nonisolated", "init", "deinit", "class", "actor", "isolated", "distributed", "package",
        ]
        let words = Set(kinds.keys).union(modifiers).sorted()
        precondition(Set(words.map(key)).count == words.count, "two keywords share a key")
        return KeywordTable(words.map { word in
            (key(word), Keyword(bytes: Array(word.utf8), kind: kinds[word] ?? .other, isModifier: modifiers.contains(word)))
        })
    }()

    /// A fixed set of keywords by key: linear probing from the key's top bits (the keys are FNV
    /// hashes, spread over all 64 bits), in a table at least four times as large as the set, so a
    /// lookup ends at the first empty slot after a probe or two, whatever key is asked.
    struct KeywordTable {
        private let slots: [(key: UInt64, keyword: Keyword)?]
        private let shift: UInt64

        init(_ entries: [(UInt64, Keyword)]) {
            var bits: UInt64 = 4
            while 1 << bits < entries.count * 4 { bits += 1 }
            shift = 64 - bits
            var slots = [(key: UInt64, keyword: Keyword)?](repeating: nil, count: 1 << Int(bits))
            for (key, keyword) in entries {
                var slot = Int(key >> shift)
                while slots[slot] != nil { slot = (slot + 1) & (slots.count - 1) }
                slots[slot] = (key, keyword)
            }
            self.slots = slots
        }

        subscript(key: UInt64) -> Keyword? {
            var slot = Int(key >> shift)
            while let entry = slots[slot] {
                if entry.key == key { return entry.keyword }
                slot = (slot + 1) & (slots.count - 1)
            }
            return nil
        }
    }

    /// A lexer that knows just enough Swift: comments, strings (raw, multi-line, interpolated),
    /// identifiers, braces, and which declarations are at file or type scope.
    struct Lexer {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var unsure = false
        /// Keys of the identifiers and declared names, in the order met (`Skim` sorts them).
        var mentions: [UInt64] = []
        var declared: [UInt64] = []
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

        /// How deep string interpolations may nest, and how deep they are.
        let nesting: Int
        var interpolations = 0

        /// `SwiftRelevance.keywords`, held rather than fetched through its lazy global once an identifier.
        let keywords = SwiftRelevance.keywords

        init(bytes: UnsafeBufferPointer<UInt8>, nesting: Int) {
            self.bytes = bytes
            self.nesting = nesting
        }

        var atDeclarationScope: Bool { scopes.last ?? true }

        /// The keyword `bytes[start..<end]` spells (hashed to `key`), if it is one of `keywords`. (Static:
        /// a method of the lexer, asked from its mutating ones, was handed a copy of the whole lexer,
        /// 136 bytes, once an identifier: a seventh of the pass.)
        static func keyword(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ key: UInt64,
                            in keywords: KeywordTable) -> Keyword? {
            guard end - start <= 16, let keyword = keywords[key], keyword.length == end - start else { return nil }
            for k in 0..<keyword.length where keyword.byte(k) != bytes[start + k] { return nil }
            return keyword
        }

        /// Reads an identifier's bytes from `i`, returning its key (`SwiftRelevance.key`).
        mutating func identifierKey(until stop: (UInt8) -> Bool) -> UInt64 {
            let start = i
            var hash = SwiftRelevance.fnvBasis
            var ascii = true
            while i < bytes.count, !stop(bytes[i]) {
                hash = (hash ^ UInt64(bytes[i])) &* SwiftRelevance.fnvPrime
                ascii = ascii && bytes[i] < 0x80
                i += 1
            }
            guard !ascii else { return hash }
            return SwiftRelevance.key(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
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
                case UInt8(ascii: "#") where Self.opensRawString(bytes, at: i):
                    fallthrough
                case UInt8(ascii: "\""):
                    scanString()
                    lastSignificant = UInt8(ascii: "\"")
                case UInt8(ascii: "`"):
                    // A backquoted name is a name (`default`).
                    let start = i + 1
                    i = start
                    let key = identifierKey { $0 == UInt8(ascii: "`") || $0 == 0x0A }
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "`") else { unsure = true; return }
                    identifier(start, i, key, keywordsAllowed: false)
                    i += 1
                case _ where Self.isIdentifierStart(b):
                    let start = i
                    let key = identifierKey { !Self.isIdentifierByte($0) }
                    identifier(start, i, key, keywordsAllowed: true)
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    lastSignificant = b
                case UInt8(ascii: "$"):
                    i += 1
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    lastSignificant = b
                case 0x20, 0x09, 0x0D:
                    // Spaces change nothing (no state, not even the last significant byte): a run at once.
                    i += 1
                    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
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
            default:
                break
            }
            lastSignificant = b
        }

        /// The identifier `bytes[start..<end]`, whose key is `name`.
        mutating func identifier(_ start: Int, _ end: Int, _ name: UInt64, keywordsAllowed: Bool) {
            defer { lastSignificant = UInt8(ascii: "a") }
            mentions.append(name)
            let afterDot = lastSignificant == UInt8(ascii: ".")
            let keyword = keywordsAllowed ? Self.keyword(bytes, start, end, name, in: keywords) : nil
            if expecting == .typeName, keyword?.isModifier == true {
                // `class func`, `class var`: a modifier, not a type.
                expecting = .nothing
                pendingTypeBody = false
            }
            if let keyword, !afterDot, expecting == .nothing || expecting == .typeName {
                switch keyword.kind {
                case .type:
                    if atDeclarationScope { expecting = .typeName }
                    pendingTypeBody = true
                    return
                case .extensionBody:
                    pendingTypeBody = true
                    return
                case .name:
                    if atDeclarationScope { expecting = .name }
                    return
                case .binding, .enumCase:
                    if atDeclarationScope {
                        expecting = .pattern
                        listDepth = depth
                    }
                    return
                case .other:
                    break
                }
            }
            switch expecting {
            case .nothing:
                break
            case .typeName:
                expecting = .nothing
                declared.append(name)
            case .name:
                expecting = .nothing
                declared.append(name)
            case .pattern:
                if keyword?.kind == .binding { return }  // `case let .x`, `if case var`
                if tupleDepth == nil { expecting = .nothing }  // in `let (a, b)` every name is declared
                declared.append(name)
            }
        }

        /// Whether the `#` at `i` opens a raw string: `#`s, then `"`.
        static func opensRawString(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
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
