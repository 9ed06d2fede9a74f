import FlowModel

/// Every escaping FlowLens writes, one function per output language, all built on one substitution
/// loop (`replacing`) and one classification of the characters that need care (`isControl`,
/// `isNoncharacter`, `DisplayText.isHidden`). A new output language adds its function here.
public enum Escaping {
    // MARK: - Characters

    /// C0 controls (line breaks and tabs included), DEL and the C1 controls.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Unicode noncharacters: U+FDD0–FDEF and the last two code points of every plane (U+FFFE, U+FFFF,
    /// U+1FFFE …). Graphviz drops every label of a diagram holding one; GitHub's runner garbles them.
    public static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || (scalar.value & 0xFFFE) == 0xFFFE
    }

    /// Characters XML 1.0 forbids even as character references: the C0 controls but tab, line feed and
    /// carriage return, and U+FFFE, U+FFFF (a Swift string holds no surrogate).
    public static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// Whether every byte of `text` is printable ASCII (space to `~`), or a line feed when
    /// `lineFeeds`, and none is one of `special`: text that an escaping returns as it is when it
    /// changes no printable ASCII character but `special`. Nearly every name, key and message is such
    /// text, and checking its bytes costs far less than the loop over its scalars in `replacing`.
    static func isPlainASCII(_ text: String, lineFeeds: Bool, special: StaticString = "") -> Bool {
        // `withUTF8Buffer`, not `utf8Start`: a one-character literal may be stored as a scalar.
        special.withUTF8Buffer { specials in
            text.utf8.allSatisfy { byte in
                ((0x20..<0x7F).contains(byte) || (lineFeeds && byte == 0x0A)) && !specials.contains(byte)
            }
        }
    }

    /// The code point in hexadecimal, at least four digits (`00e9`, `202E` when `uppercase`).
    public static func hex(_ scalar: Unicode.Scalar, uppercase: Bool = false) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `text` with every character for which `replacement` returns text replaced by that text; the
    /// others kept as they are. The one loop every escaping below runs.
    ///
    /// By UTF-8 bytes: the runs between replaced characters are appended whole (appending a scalar at
    /// a time was most of the time of escaping a long text), and an ASCII byte that `passing` holds
    /// is passed over without asking `replacement` — the caller's promise that `replacement` returns
    /// nil for it (each language's table is checked against its rule, byte for byte, in the tests).
    /// A stateful `replacement` (one that must see every character) passes nothing.
    public static func replacing(_ text: String, passing: ASCIIBytes = .none, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var text = text
        let replaced: [UInt8]? = text.withUTF8 { bytes in
            passing.passes.withUnsafeBufferPointer { passes in
                var out: [UInt8] = []
                var run = 0, i = 0
                while i < bytes.count {
                    // Eight bytes at a time while all are printable ASCII the table passes.
                    if passing.skipsWords, i + 8 <= bytes.count, passing.passesAll(ByteWords.word(bytes, at: i)) { i += 8; continue }
                    let lead = bytes[i]
                    // `passes` has 256 entries, false for every byte of a non-ASCII scalar.
                    if passes[Int(lead)] { i += 1; continue }
                    let (scalar, width) = Self.scalar(in: bytes, at: i)
                    if let replacement = replacement(scalar) {
                        if out.isEmpty { out.reserveCapacity(bytes.count + replacement.utf8.count) }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                        out.append(contentsOf: replacement.utf8)
                        run = i + width
                    }
                    i += width
                }
                guard run > 0 else { return nil }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
                return out
            }
        }
        guard let replaced else { return text }
        return String(decoding: replaced, as: UTF8.self)
    }

    /// The scalar whose UTF-8 encoding starts at `i` of `bytes` (a String's: always well-formed), and
    /// its length in bytes.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[i])
        func continuation(_ k: Int) -> UInt32 { UInt32(bytes[i + k] & 0x3F) }
        let value: UInt32, width: Int
        switch lead {
        case ..<0x80: (value, width) = (lead, 1)
        case ..<0xE0: (value, width) = ((lead & 0x1F) << 6 | continuation(1), 2)
        case ..<0xF0: (value, width) = ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3)
        default: (value, width) = ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", width)
    }

    /// The ASCII bytes an escaping's `replacement` leaves as they are, which `replacing(_:passing:_:)`
    /// passes over without asking it: nearly every byte of a name, key or message.
    public struct ASCIIBytes: Sendable {
        /// 256 entries, one a byte value; only ASCII ones (below 0x80) can be true.
        let passes: [Bool]
        /// The printable ASCII bytes not passed, each repeated in the eight bytes of a word.
        let stopping: [UInt64]
        /// Whether `passesAll` may be asked: few enough printable bytes stop the table for a word
        /// test to cost less than eight look-ups.
        let skipsWords: Bool

        /// The ASCII bytes for which `passes` is true.
        public init(_ passes: (UInt8) -> Bool) {
            let table = (0...255).map { byte in byte < 0x80 && passes(UInt8(byte)) }
            self.passes = table
            stopping = (0x20..<0x7F).filter { !table[$0] }.map { ByteWords.repeated(UInt8($0)) }
            skipsWords = stopping.count <= 16
        }

        /// Whether all eight bytes of `word` are printable ASCII that the table passes (false may
        /// also mean only that one of them is a control character the table passes).
        @inline(__always)
        func passesAll(_ word: UInt64) -> Bool {
            if ByteWords.hasByteBelow(word, 0x20) || ByteWords.hasByteFrom0x7F(word) { return false }
            for stop in stopping where ByteWords.hasZeroByte(word ^ stop) { return false }
            return true
        }

        /// No byte: every character is given to the replacement.
        public static let none = ASCIIBytes { _ in false }

        /// Printable ASCII (space to `~`) but `specials`, and the control characters in `controls`.
        public static func printable(except specials: String, controls: String = "") -> ASCIIBytes {
            ASCIIBytes { byte in
                ((0x20..<0x7F).contains(byte) && !specials.utf8.contains(byte)) || controls.utf8.contains(byte)
            }
        }
    }

    /// The entity of a markup character (`&`, `<`, `>`, `"`, and `'` when `apostrophe`), shared by
    /// HTML, XML and Graphviz's HTML-like labels.
    static func entity(_ scalar: Unicode.Scalar, apostrophe: Bool) -> String? {
        switch scalar {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return apostrophe ? "&#39;" : nil
        default: return nil
        }
    }

    // MARK: - Languages

    /// What each language's replacement leaves as it is among the ASCII bytes (`replacing`'s
    /// `passing`), beside the rule it belongs to; `PresentationTests` checks each against its rule.
    enum Passing {
        static let html = ASCIIBytes { !"&<>\"'".utf8.contains($0) }
        static let graphvizLabel = ASCIIBytes { !"\\\n&<>\"'".utf8.contains($0) }
        static let xmlAttribute = ASCIIBytes.printable(except: "&<>\"")
        static let xmlContent = ASCIIBytes.printable(except: "&<>\"", controls: "\t\n")
        static let printable = ASCIIBytes.printable(except: "")
        static let gitHubCommandData = ASCIIBytes.printable(except: "%", controls: "\t")
        static let gitHubCommandProperty = ASCIIBytes { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ",") }
        static let visible = ASCIIBytes.printable(except: "", controls: "\n")
        static let markdownTableCell = ASCIIBytes.printable(except: "\\`*_~[]<>&|")
    }

    /// HTML content and attribute values (the review page). Characters that would hide or reorder
    /// text are shown visibly (`<U+202E>`), never capped: the page is where the full text is read.
    public static func html(_ text: String) -> String {
        if isPlainASCII(text, lineFeeds: true, special: "&<>\"'") { return text }
        return replacing(DisplayText.visible(text, limit: nil), passing: Passing.html) { entity($0, apostrophe: true) }
    }

    /// A Graphviz HTML-like label: markup characters become entities, a backslash is doubled
    /// (Graphviz expands `\N`, `\G`, `\E`, `\T`, `\H`, `\L`, `\l`, `\r` even in HTML-like labels, after
    /// decoding entities), hidden characters are written visibly and long text is capped
    /// (`DisplayText`), and line breaks become `<BR/>`.
    ///
    /// An empty text, and an empty line, is a space. Graphviz (2.43) rejects an empty `<B></B>`,
    /// `<I></I>` or `<FONT …></FONT>` as a syntax error (and draws the node's id instead), and lays
    /// out a label of nothing but line breaks with no width and some height, which its placement of
    /// external labels asserts against (`xlabels.c`, `lblenclosing`): the process aborts.
    public static func graphvizLabel(_ text: String) -> String {
        if text.isEmpty { return " " }
        if isPlainASCII(text, lineFeeds: false, special: "\\&<>\"'"), text.utf8.count <= DisplayText.maximumLength { return text }
        var text = text
        if text.utf8.contains(UInt8(ascii: "\n")) {
            // By bytes: a line feed is one, and a "\r\n" is one Character that a split by Character misses.
            text = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { $0.isEmpty ? " " : String(Substring($0)) }.joined(separator: "\n")
        }
        return replacing(DisplayText.visible(text), passing: Passing.graphvizLabel) { scalar in
            switch scalar {
            case "\\": return "\\\\"
            case "\n": return "<BR/>"
            default: return entity(scalar, apostrophe: true)
            }
        }
    }

    /// XML 1.0 attribute values and element content (checkstyle, JUnit); always well-formed whatever
    /// the text holds:
    /// - `&`, `<`, `>` and `"` become entity references (attributes are always written in double
    ///   quotes, so `'` stays as it is, which keeps messages such as `step 'x'` readable);
    /// - tab, line feed and carriage return become character references (`&#9;`, `&#10;`, `&#13;`):
    ///   written raw, an XML parser would normalise them to spaces in an attribute value; with
    ///   `keepingLineBreaks` (element content preserves them) tab and line feed stay as they are;
    /// - the characters XML 1.0 forbids even as references become U+FFFD, the replacement character,
    ///   so a parser never rejects the file;
    /// - DEL and the C1 controls (allowed, but invisible) become character references.
    public static func xml(_ text: String, keepingLineBreaks: Bool = false) -> String {
        replacing(text, passing: keepingLineBreaks ? Passing.xmlContent : Passing.xmlAttribute) { scalar in
            switch scalar {
            case "\t": return keepingLineBreaks ? "\t" : "&#9;"
            case "\n": return keepingLineBreaks ? "\n" : "&#10;"
            case "\r": return "&#13;"
            default:
                if isForbiddenInXML(scalar) { return "\u{FFFD}" }
                if isControl(scalar) { return "&#\(scalar.value);" }
                return entity(scalar, apostrophe: false)
            }
        }
    }

    /// A JSON string literal, quotes included. Control characters, DEL and U+2028/U+2029 (valid JSON,
    /// but they end a JavaScript line when the JSON is embedded in a script) are written `\uXXXX`, as
    /// is every character `alsoEscaping` names (a Mermaid comment hides `%` and markup this way).
    public static func json(_ text: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        var out = "\""
        json(text, into: &out, alsoEscaping: alsoEscaping)
        return out + "\""
    }

    /// `json(_:alsoEscaping:)` without the quotes, appended to `out` as UTF-8 (the JSON writer's fast
    /// path). By bytes: what needs no escape is appended a run at a time, not a scalar at a time.
    public static func json(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in jsonPlainBytes.withUnsafeBufferPointer { plain in
            var run = 0, i = 0
            /// Appends the run before `i`, which needs no escape, then `escaped` for the `width` bytes at `i`.
            func replace(_ width: Int, with escaped: some Sequence<UInt8>) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                out.append(contentsOf: escaped)
                i += width
                run = i
            }
            func replace(_ width: Int, with escaped: StaticString) {
                escaped.withUTF8Buffer { replace(width, with: $0) }
            }
            while i < bytes.count {
                // Eight bytes at a time while none needs an escape (nor is 0xE2, which may start one).
                if i + 8 <= bytes.count {
                    let word = ByteWords.word(bytes, at: i)
                    if !ByteWords.hasByteBelow(word, 0x20), !ByteWords.hasZeroByte(word ^ ByteWords.repeated(0x22)),
                       !ByteWords.hasZeroByte(word ^ ByteWords.repeated(0x5C)), !ByteWords.hasZeroByte(word ^ ByteWords.repeated(0x7F)),
                       !ByteWords.hasZeroByte(word ^ ByteWords.repeated(0xE2)) {
                        i += 8
                        continue
                    }
                }
                let byte = bytes[i]
                if plain[Int(byte)] { i += 1; continue }
                switch byte {
                case UInt8(ascii: "\""): replace(1, with: "\\\"")
                case UInt8(ascii: "\\"): replace(1, with: "\\\\")
                case UInt8(ascii: "\n"): replace(1, with: "\\n")
                case UInt8(ascii: "\r"): replace(1, with: "\\r")
                case UInt8(ascii: "\t"): replace(1, with: "\\t")
                case 0..<0x20, 0x7F: replace(1, with: ("\\u" + hex(Unicode.Scalar(byte))).utf8)
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    replace(3, with: bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                default: i += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        } }
    }

    /// The bytes `json(_:into:)` never escapes, by value: printable ASCII but `"` and `\\`, and every
    /// byte of a non-ASCII scalar but 0xE2 (which starts U+2028 and U+2029). One look-up a byte
    /// instead of the `switch`: nearly every byte of a report is one of them.
    private static let jsonPlainBytes: [Bool] = (0...255).map { byte in
        (0x20..<0x7F).contains(byte) ? byte != 0x22 && byte != 0x5C : byte >= 0x80 && byte != 0xE2
    }

    /// `json(_:into:)`, escaping also every character `alsoEscaping` names.
    public static func json(_ text: String, into out: inout String, alsoEscaping: (Unicode.Scalar) -> Bool) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}" || alsoEscaping(scalar) {
                    out += "\\u" + hex(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// The ASCII characters `markdown` escapes, by code (a table: searching a string of them for
    /// each character was most of the time of a page with long names).
    private static let markdownPunctuation: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for byte in "\\`*_{}[]()#+-.!<>|~&".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Markdown prose (a heading, a list item, a path sentence): Markdown's punctuation
    /// backslash-escaped, line breaks as spaces.
    public static func markdown(_ text: String) -> String {
        // By character, not scalar: a CR LF is one line break, one space, and punctuation that a mark
        // combines with (`*` U+0301) is one character that is not punctuation. A character is looked at
        // by its UTF-8 bytes, which is what `isNewline` and `asciiValue` decide by but cheaper: it is a
        // line break when its first scalar is U+000A–000D (a CR LF starts with 0D), U+0085 (C2 85),
        // U+2028 or U+2029 (E2 80 A8/A9); it is ASCII when it is one byte.
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            let bytes = character.utf8
            let first = bytes.first!
            if first < 0x80 {
                if (0x0A...0x0D).contains(first) { out += " "; continue }
                if bytes.count == 1, markdownPunctuation[Int(first)] { out += "\\" }
            } else if isLineBreak(bytes) {
                out += " "
                continue
            }
            out.append(character)
        }
        return out
    }

    /// Whether a character's UTF-8 bytes start with U+0085, U+2028 or U+2029.
    private static func isLineBreak(_ bytes: Character.UTF8View) -> Bool {
        var iterator = bytes.makeIterator()
        switch (iterator.next(), iterator.next(), iterator.next()) {
        case (0xC2, 0x85, _), (0xE2, 0x80, 0xA8), (0xE2, 0x80, 0xA9): return true
        default: return false
        }
    }

    /// A Markdown table cell: the punctuation that would format or split it backslash-escaped, line
    /// breaks as `<br>` (a CR LF as one), other control characters as spaces; never empty.
    public static func markdownTableCell(_ text: String) -> String {
        // The rule remembers whether the character before was a CR, so it must see every character
        // of a text that holds one; without a CR, the printable ASCII it leaves may be passed over.
        let passing = text.utf8.contains(UInt8(ascii: "\r")) ? ASCIIBytes.none : Passing.markdownTableCell
        let out = replacing(text, passing: passing, markdownTableCellRule())
        return out.isEmpty ? " " : out
    }

    /// `markdownTableCell`'s replacement, new for each text: it remembers whether the character
    /// before was a CR (a CR LF is one `<br>`).
    static func markdownTableCellRule() -> (Unicode.Scalar) -> String? {
        var previousCR = false
        return { scalar in
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\n": return previousCR ? "" : "<br>"
            case "\r": return "<br>"
            case "\\", "`", "*", "_", "~", "[", "]", "<", ">", "&", "|": return "\\" + String(scalar)
            default: return scalar.value < 0x20 || scalar.value == 0x7F ? " " : nil
            }
        }
    }

    /// `text` as a Markdown code span in a table cell. The fence is one backtick longer than the
    /// longest run of backticks inside, with spaces when the text starts or ends with one; control
    /// characters become spaces (a code span cannot hold `<br>`); `|` is still escaped, because tables
    /// split cells before code spans are parsed (GFM renders `\|` in code as `|`).
    public static func markdownCodeSpan(_ text: String) -> String {
        codeSpan(flat: replacing(text, passing: Passing.printable) { $0.value < 0x20 || $0.value == 0x7F ? " " : nil })
    }

    /// `markdownCodeSpan` of a text whose control characters are already spaces.
    static func codeSpan(flat: String) -> String {
        var longest = 0, run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") ? " " : ""
        return fence + pad + flat.replacing("|", with: "\\|") + pad + fence
    }

    /// A GitHub Actions workflow command's message: `%` → `%25`, CR → `%0D`, LF → `%0A`; the other
    /// control characters but tab, and noncharacters, become U+FFFD, as in the XML reports: the runner
    /// has no escape for them, and written raw an ESC would start a terminal escape sequence in the log.
    public static func gitHubCommandData(_ text: String) -> String {
        replacing(text, passing: Passing.gitHubCommandData) { scalar in
            switch scalar {
            case "%": return "%25"
            case "\r": return "%0D"
            case "\n": return "%0A"
            case "\t": return nil
            default: return isControl(scalar) || isNoncharacter(scalar) ? "\u{FFFD}" : nil
            }
        }
    }

    /// A GitHub Actions workflow command's property value: as its data, and `:` → `%3A`, `,` → `%2C`.
    public static func gitHubCommandProperty(_ text: String) -> String {
        replacing(gitHubCommandData(text), passing: Passing.gitHubCommandProperty) { scalar in
            switch scalar {
            case ":": return "%3A"
            case ",": return "%2C"
            default: return nil
            }
        }
    }
}

/// User text made safe to display: characters that would hide or reorder what is shown are written
/// visibly, as compilers do against "Trojan Source", and over-long text is shortened.
public enum DisplayText {
    /// The longest piece of user text a diagram shows, in characters; the report keeps the full text.
    public static let maximumLength = 160

    /// Whether `scalar` must not be shown as itself: C0/C1 controls (not line breaks), bidirectional
    /// embeddings, overrides and isolates, zero-width characters and marks, the byte-order mark, line
    /// and paragraph separators, and noncharacters (U+FDD0–FDEF, U+xFFFE/U+xFFFF: Graphviz drops every
    /// label of a diagram holding one).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if scalar == "\n" { return false }
        return Escaping.isControl(scalar) || (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0x061C
            || Escaping.isNoncharacter(scalar)
    }

    /// Whether `scalar` hides or reorders text without being a control character: bidirectional
    /// embeddings, overrides, isolates and marks, zero-width characters, the byte-order mark, line and
    /// paragraph separators ("Trojan Source"). Controls are each output language's to escape.
    public static func isInvisibleFormatting(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0x061C
    }

    /// `text` with each character that would hide or reorder what a report shows written visibly
    /// (`<U+202E>`), as the diagrams show it; nothing else changed, nothing cut. What the text, GitHub,
    /// GitLab, Markdown, JUnit and checkstyle reports print of a finding goes through here.
    public static func marked(_ text: String) -> String {
        if Escaping.isPlainASCII(text, lineFeeds: true) || !text.unicodeScalars.contains(where: isInvisibleFormatting) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isInvisibleFormatting(scalar) {
                out.append(contentsOf: ("<U+" + Escaping.hex(scalar, uppercase: true) + ">").unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` with each hidden character written as `<U+202E>` (a tab as a space), then capped at
    /// `limit` characters with "…".
    public static func visible(_ text: String, limit: Int? = maximumLength) -> String {
        // Printable ASCII and line feeds hide nothing, and each of their bytes is one character.
        let plain = Escaping.isPlainASCII(text, lineFeeds: true)
        let shown = plain ? text : Escaping.replacing(text, passing: Escaping.Passing.visible) { scalar in
            scalar == "\t" ? " " : isHidden(scalar) ? "<U+" + Escaping.hex(scalar, uppercase: true) + ">" : nil
        }
        guard let limit, (plain ? shown.utf8.count : shown.count) > limit else { return shown }
        return String(shown.prefix(limit - 1)) + "…"
    }
}

/// Tests of eight bytes at once in a 64-bit word ("SWAR", as in Bit Twiddling Hacks): each answers
/// exactly whether *some* byte of the word is such, whichever bytes the others are. Escaping asks
/// them to pass over the long runs of text that need nothing, eight bytes a step.
enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `i` of `bytes` (which has eight there), in memory order.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt64 {
        UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)
    }

    /// `byte` in each of the eight bytes.
    @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// Whether some byte of `word` is 0: a byte's high bit survives `(b - 1) & ~b` only for 0 (or a
    /// borrow from a zero byte below it, so a first one is always real).
    @inline(__always)
    static func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highBits != 0 }

    /// Whether some byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool { (word &- repeated(limit)) & ~word & highBits != 0 }

    /// Whether some byte of `word` is 0x7F or more (DEL, or part of a non-ASCII scalar).
    @inline(__always)
    static func hasByteFrom0x7F(_ word: UInt64) -> Bool { (word &+ repeated(0x01)) & highBits != 0 || word & highBits != 0 }
}
