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
    /// The runs between replaced characters are appended whole (appending a scalar at a time was
    /// most of the time of escaping a long text).
    public static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let scalars = text.unicodeScalars
        var runStart = scalars.startIndex
        var index = runStart
        while index != scalars.endIndex {
            let next = scalars.index(after: index)
            if let replaced = replacement(scalars[index]) {
                out += Substring(scalars[runStart..<index])
                out += replaced
                runStart = next
            }
            index = next
        }
        out += Substring(scalars[runStart...])
        return out
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

    /// HTML content and attribute values (the review page). Characters that would hide or reorder
    /// text are shown visibly (`<U+202E>`), never capped: the page is where the full text is read.
    public static func html(_ text: String) -> String {
        if isPlainASCII(text, lineFeeds: true, special: "&<>\"'") { return text }
        return replacing(DisplayText.visible(text, limit: nil)) { entity($0, apostrophe: true) }
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
        return replacing(DisplayText.visible(text)) { scalar in
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
        replacing(text) { scalar in
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
        text.withUTF8 { bytes in
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
                let byte = bytes[i]
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
        }
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
        var previousCR = false
        let out = replacing(text) { scalar in
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\n": return previousCR ? "" : "<br>"
            case "\r": return "<br>"
            case "\\", "`", "*", "_", "~", "[", "]", "<", ">", "&", "|": return "\\" + String(scalar)
            default: return scalar.value < 0x20 || scalar.value == 0x7F ? " " : nil
            }
        }
        return out.isEmpty ? " " : out
    }

    /// `text` as a Markdown code span in a table cell. The fence is one backtick longer than the
    /// longest run of backticks inside, with spaces when the text starts or ends with one; control
    /// characters become spaces (a code span cannot hold `<br>`); `|` is still escaped, because tables
    /// split cells before code spans are parsed (GFM renders `\|` in code as `|`).
    public static func markdownCodeSpan(_ text: String) -> String {
        let flat = replacing(text) { $0.value < 0x20 || $0.value == 0x7F ? " " : nil }
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
        replacing(text) { scalar in
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
        replacing(gitHubCommandData(text)) { scalar in
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

    /// `text` with each hidden character written as `<U+202E>` (a tab as a space), then capped at
    /// `limit` characters with "…".
    public static func visible(_ text: String, limit: Int? = maximumLength) -> String {
        // Printable ASCII and line feeds hide nothing, and each of their bytes is one character.
        let plain = Escaping.isPlainASCII(text, lineFeeds: true)
        let shown = plain ? text : Escaping.replacing(text) { scalar in
            scalar == "\t" ? " " : isHidden(scalar) ? "<U+" + Escaping.hex(scalar, uppercase: true) + ">" : nil
        }
        guard let limit, (plain ? shown.utf8.count : shown.count) > limit else { return shown }
        return String(shown.prefix(limit - 1)) + "…"
    }
}
