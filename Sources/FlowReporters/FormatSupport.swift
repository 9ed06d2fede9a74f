import FlowModel

/// Escaping for the XML reporters (checkstyle, JUnit).
///
/// The output is always well-formed XML 1.0, whatever a message or a path contains:
/// - `&`, `<`, `>` and `"` become entity references (attributes are always written in double
///   quotes, so `'` stays as it is, which keeps messages such as `step 'x'` readable);
/// - tab, line feed and carriage return become character references (`&#9;`, `&#10;`, `&#13;`):
///   written raw, an XML parser would normalise them to spaces in an attribute value;
/// - the characters XML 1.0 forbids even as references (other C0 controls, U+FFFE, U+FFFF) become
///   U+FFFD, the replacement character, so a parser never rejects the file;
/// - DEL and the C1 controls (allowed, but invisible) become character references.
enum XMLEscaping {
    /// `text` escaped for an attribute value or element content.
    static func escape(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += keepingLineBreaks ? "\t" : "&#9;"
            case "\n": out += keepingLineBreaks ? "\n" : "&#10;"
            case "\r": out += "&#13;"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    out += "\u{FFFD}"
                } else if (0x7F...0x9F).contains(value) {
                    out += "&#\(value);"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` escaped for element content: as `escape(_:)`, but line feeds and tabs are kept as they
    /// are (element content preserves them), so multi-line text stays readable in the file.
    static func escapeText(_ text: String) -> String { escape(text, keepingLineBreaks: true) }

    /// ` name="value"`, escaped.
    static func attribute(_ name: String, _ value: String) -> String { " \(name)=\"\(escape(value))\"" }

    /// The XML declaration every report starts with.
    static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
}

/// Findings grouped by the file they are in, for the formats that are organised by file.
struct FileGroup {
    /// The file as reported, or "" for findings without a location.
    var file: String
    /// Its findings, in report order.
    var findings: [Finding]

    /// The name to print: the file, or `flowlens` for findings that have no location (as the text
    /// format prints them).
    var displayName: String { file.isEmpty ? FlowLensTool.name : file }

    /// Every file of the report (checked files without findings included, so a consumer sees them
    /// as clean) with its findings, sorted by path; findings without a location come first, as they
    /// do in report order.
    static func groups(_ report: Report) -> [FileGroup] {
        var byFile: [String: [Finding]] = [:]
        for file in report.graph.files { byFile[file, default: []] += [] }
        for finding in report.findings { byFile[finding.location?.file ?? "", default: []].append(finding) }
        return byFile.keys.sorted().map { FileGroup(file: $0, findings: byFile[$0] ?? []) }
    }
}
