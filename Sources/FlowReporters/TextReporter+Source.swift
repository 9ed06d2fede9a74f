import FlowModel
import FlowPresentation

/// The text format's source view, as actionlint shows findings:
///
///     Flows/checkout.flow.yaml:33:11: error: step 'Show summary' reads 'deliverySlot', … [missing-data-key]
///        |
///     33 |     reads: {deliverySlot: String}
///        |           ^
///
/// The first line of each finding is exactly the `.lines` format (without colours), so a reader, an
/// editor or a log matcher finds the same `file:line:col:` either way. The source comes from
/// `sources`, which the caller fills (the reporter never reads files, so it stays a pure function
/// of its inputs); a finding whose file, line or column is unknown is shown without the source or
/// without the caret.
///
/// Tabs are expanded to tab stops every `tabWidth` columns, in the source line and when placing the
/// caret alike, so the caret lines up whatever the terminal's tab width; a column counts characters
/// (grapheme clusters), and East Asian wide characters and emoji take two cells. Control characters
/// in the source are shown as U+FFFD, so a file cannot send escape sequences to the terminal.
///
/// Colours (ANSI, only with `colors: true`): the severity and the caret in red (error), yellow
/// (warning) or cyan (note), the location bold, the rule id and the gutter dim.
extension TextReporter {
    /// Tab stops in the source view.
    public static let tabWidth = 4

    /// The texts of the files `report` has findings in, read with `read` (given the file as
    /// reported; nil when it cannot be read): the `sources` for the `.source` style. Keeps reading
    /// files in the caller, e.g. `TextReporter.sources(for: report) { try? String(contentsOfFile: $0, encoding: .utf8) }`.
    public static func sources(for report: Report, reading read: (String) -> String?) -> [String: String] {
        var sources: [String: String] = [:]
        for file in Set(report.findings.compactMap { $0.location?.file }).sorted() where !file.isEmpty {
            if let text = read(file) { sources[file] = text }
        }
        return sources
    }

    func sourceReport(_ report: Report, colors: Bool) -> String {
        var lines: [String: [Substring]] = [:]
        var out = ""
        for finding in report.findings {
            out += header(finding, colors: colors)
            guard let location = finding.location, location.line > 0, let text = sources[location.file] else { continue }
            if lines[location.file] == nil { lines[location.file] = Self.splitLines(text) }
            guard let fileLines = lines[location.file], location.line <= fileLines.count else { continue }
            out += excerpt(fileLines[location.line - 1], line: location.line, column: location.column,
                           severity: finding.severity, colors: colors)
        }
        return out
    }

    /// The finding's line: `line(_:)`, coloured when asked.
    func header(_ finding: Finding, colors: Bool) -> String {
        guard colors else { return line(finding) }
        let place = DisplayText.marked(finding.location?.description ?? FlowLensTool.name)
        let severity = ANSI.paint(finding.severity.rawValue, ANSI.bold + ANSI.color(finding.severity))
        return "\(ANSI.paint(place + ":", ANSI.bold)) \(severity): \(DisplayText.marked(finding.message)) \(ANSI.paint("[\(finding.rule)]", ANSI.dim))\n"
    }

    /// The gutter, the source line and the caret line.
    func excerpt(_ source: Substring, line: Int, column: Int, severity: Severity, colors: Bool) -> String {
        let number = String(line)
        let blank = String(repeating: " ", count: number.count)
        let bar = colors ? ANSI.paint("|", ANSI.dim) : "|"
        // A long line is shown as a window around the column, never whole (a file of one 5 MB line).
        var source = source, column = column, before = "", after = ""
        let window = 2 * Excerpt.quotedCharacters
        if source.utf8.count > window, case let count = source.count, count > window {
            let start = max(0, min(column - 1 - window / 2, count - window))
            let from = source.index(source.startIndex, offsetBy: start)
            let to = source.index(from, offsetBy: window)
            if start > 0 { before = "…" }
            if to < source.endIndex { after = "…" }
            source = source[from..<to]
            if column > 0 { column = max(1, column - start) }
        }
        var shown = Self.displayed(source)
        if !before.isEmpty || !after.isEmpty {
            shown.text = before + shown.text + after
            shown.offsets = shown.offsets.map { $0 + before.count }
        }
        var out = "\(blank) \(bar)\n"
        out += (colors ? ANSI.paint(number, ANSI.dim) : number) + " \(bar)" + (shown.text.isEmpty ? "" : " " + shown.text) + "\n"
        if column > 0 {
            // Columns past the end of the line (a problem "at the end of the line") point just after it.
            let index = min(column - 1, shown.offsets.count - 1)
            let caret = colors ? ANSI.paint("^", ANSI.bold + ANSI.color(severity)) : "^"
            out += "\(blank) \(bar) " + String(repeating: " ", count: shown.offsets[index]) + caret + "\n"
        }
        return out
    }

    /// The lines of `text`, split at LF, CRLF and CR (as the loaders count lines).
    static func splitLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// A source line as shown (tabs expanded, control characters replaced), and the display column
    /// at which each character starts, plus one entry for the position after the last character.
    static func displayed(_ source: Substring) -> (text: String, offsets: [Int]) {
        var text = ""
        var offsets: [Int] = []
        var width = 0
        for character in source {
            offsets.append(width)
            if character == "\t" {
                let next = (width / tabWidth + 1) * tabWidth
                text += String(repeating: " ", count: next - width)
                width = next
            } else if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                text += "\u{FFFD}"
                width += 1
            } else {
                text.append(character)
                width += cellWidth(character)
            }
        }
        offsets.append(width)
        // Trailing blanks would only leave invisible spaces after the text.
        while text.last == " " { text.removeLast() }
        return (text, offsets)
    }

    /// How many terminal cells a character takes: two for East Asian wide and full-width
    /// characters and emoji shown as pictures, else one.
    static func cellWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

/// The few ANSI escape sequences the text format uses.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"

    /// The colour of a severity: red, yellow, cyan.
    static func color(_ severity: Severity) -> String {
        switch severity {
        case .error: return "\u{1B}[31m"
        case .warning: return "\u{1B}[33m"
        case .note: return "\u{1B}[36m"
        }
    }

    /// `text` in `style`, then back to normal.
    static func paint(_ text: String, _ style: String) -> String { style + text + reset }
}
