import FlowModel
import Foundation
import Yams

/// `*.flow.json` files: JSON is checked by a JSON parser, so that every valid JSON document loads
/// and an invalid one gets JSON's own message, and composed by the YAML parser (JSON is YAML), which
/// keeps each node's line and column for the findings.
///
/// Two things valid in JSON are not in YAML as libyaml reads it: keys over 1,024 characters
/// (implicit keys are limited) and `\ud83d\ude00` surrogate-pair escapes (what `json.dumps` writes
/// for characters outside the BMP). For a file that is valid JSON and that YAML rejects, those are
/// rewritten to their YAML equivalents (`? "key"`, `\U0001F600`) and the result composed: columns
/// after a rewritten escape or key on the same line are off by two.
enum JSONText {
    /// A problem as a thrown error, for `DeclarativeLoader.compose`.
    struct Problem: Error {
        let finding: Finding
    }

    /// The composed document of `contents`, read as JSON when `json` is set.
    static func compose(_ contents: String, json: Bool, limits: Limits, file: String) throws -> YAMLTree? {
        // Characters valid in a JSON string that libyaml reads otherwise (U+0085 and U+2028 as line
        // breaks: dropped, lines shifted) or rejects (DEL, C1 controls, U+FFFE): escaped first.
        if json, contents.utf8.contains(where: { $0 >= 0x7F }), contents.unicodeScalars.contains(where: yamlMisreads) {
            if let problem = problem(contents, file: file) { throw Problem(finding: problem) }
            return try YAMLTree.compose(yamlCompatible(contents), limits: limits, file: file)
        }
        do {
            return try YAMLTree.compose(contents, limits: limits, file: file)
        } catch where json && !(error is YAMLTree.OverBudget) {
            if let problem = problem(contents, file: file) { throw Problem(finding: problem) }
            return try YAMLTree.compose(yamlCompatible(contents), limits: limits, file: file)
        }
    }

    /// JSON's own complaint about `contents`, at the line and column the JSON parser names; nil for
    /// valid JSON.
    static func problem(_ contents: String, file: String) -> Finding? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(contents.utf8), options: [.fragmentsAllowed])
            return nil
        } catch {
            let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error.localizedDescription)"
            var location = SourceLocation(file: file, line: 1, column: 1)
            if let (line, column) = lineAndColumn(in: text) {
                location.line = line
                location.column = column
            } else if let offset = number(after: "character ", in: text) {
                location = position(ofUTF8Offset: offset, in: contents, file: file)
            }
            var sentence = text.replacingOccurrences(of: #" around (line \d+, column \d+|character \d+)\.?"#, with: "", options: .regularExpression)
                .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            if sentence == "Invalid value" || sentence == "No value" { sentence = invalidValue(at: location, in: contents) }
            return .invalidInput("invalid JSON: \(sentence)", at: location)
        }
    }

    /// What Foundation calls "Invalid value", said with what is there: a value is expected (a string
    /// in double quotes, a number, an object, an array, true, false or null) where `location` has
    /// something else; a `}` or `]` there follows a trailing comma.
    static func invalidValue(at location: SourceLocation, in contents: String) -> String {
        let expected = "a value (a string in double quotes, a number, an object, an array, true, false or null)"
        guard location.line >= 1, let line = contents.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(location.line - 1).first else {
            return "expected \(expected)"
        }
        let rest = line.dropFirst(max(0, location.column - 1)).drop { $0 == " " || $0 == "\t" }
        guard let first = rest.first else { return "expected \(expected), found the end of the line" }
        if first == "}" || first == "]" { return "expected \(expected) before '\(first)': a trailing comma is not allowed in JSON" }
        let word = String(rest.prefix { !" \t,:}]".contains($0) }.prefix(20))
        return "expected \(expected), found '\(word.isEmpty ? String(first) : word)'"
    }

    private static func number(after word: String, in text: String) -> Int? {
        guard let range = text.range(of: word) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func lineAndColumn(in text: String) -> (Int, Int)? {
        guard let line = number(after: "line ", in: text), let column = number(after: "column ", in: text) else { return nil }
        return (line, column)
    }

    private static func position(ofUTF8Offset offset: Int, in contents: String, file: String) -> SourceLocation {
        var location = SourceLocation(file: file, line: 1, column: 1)
        for byte in contents.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") { location.line += 1; location.column = 1 } else if byte & 0xC0 != 0x80 { location.column += 1 }
        }
        return location
    }

    /// Whether libyaml misreads `scalar` in a double-quoted string although JSON allows it raw: a
    /// YAML line break that is none in JSON (U+0085, U+2028, U+2029), or a character YAML does not
    /// allow raw (DEL, C1 controls, U+FEFF inside the text, U+FFFE, U+FFFF).
    static func yamlMisreads(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF
    }

    /// Valid JSON made acceptable to libyaml with the same meaning: surrogate pairs as `\U`
    /// escapes, characters libyaml misreads (`yamlMisreads`) as `\u` escapes (lines stay exact;
    /// columns after one on its line are off by five), long keys as explicit `? ` keys, tabs between
    /// tokens as spaces (same columns).
    static func yamlCompatible(_ contents: String) -> String {
        let s = Array(contents.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= s.count else { return nil }
            return UInt32(String(String.UnicodeScalarView(s[at..<(at + 4)])), radix: 16)
        }
        while i < s.count {
            let c = s[i]
            if c == "\t" { out.append(" "); i += 1; continue }
            guard c == "\"" else { out.append(c); i += 1; continue }
            // A string: copy it, rewriting surrogate pairs.
            var literal = String.UnicodeScalarView()
            var length = 0
            literal.append(c)
            i += 1
            while i < s.count, s[i] != "\"" {
                if s[i] == "\\", i + 1 < s.count {
                    if s[i + 1] == "u", let high = hex4(i + 2), (0xD800...0xDBFF).contains(high),
                       i + 12 <= s.count, s[i + 6] == "\\", s[i + 7] == "u", let low = hex4(i + 8), (0xDC00...0xDFFF).contains(low) {
                        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        literal.append(contentsOf: "\\U".unicodeScalars)
                        literal.append(contentsOf: String(format: "%08X", value).unicodeScalars)
                        i += 12
                    } else {
                        literal.append(s[i])
                        literal.append(s[i + 1])
                        i += 2
                    }
                } else if yamlMisreads(s[i]) {
                    literal.append(contentsOf: "\\u".unicodeScalars)
                    literal.append(contentsOf: String(format: "%04X", s[i].value).unicodeScalars)
                    i += 1
                } else {
                    literal.append(s[i])
                    i += 1
                }
                length += 1
            }
            if i < s.count { literal.append(s[i]); i += 1 }
            var next = i
            while next < s.count, s[next] == " " || s[next] == "\t" || s[next] == "\n" || s[next] == "\r" { next += 1 }
            if length > 1_000, next < s.count, s[next] == ":" { out.append(contentsOf: "? ".unicodeScalars) }
            out.append(contentsOf: literal)
        }
        return String(out)
    }
}
