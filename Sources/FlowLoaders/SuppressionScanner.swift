import FlowModel

/// Finds `flowlens:` suppression comments in a file's text.
///
/// A comment starts with the file kind's marker (`//` in Swift, `#` in YAML and Ruby, `'` in
/// PlantUML) and has the form `flowlens:<disable|disable-next-line|enable> rule-id[, rule-id …] [-- reason]`.
/// JSON has no comments, so JSON files cannot carry suppressions. Only lines containing `flowlens:`
/// are looked at, so scanning costs nothing for the rest of a file.
public enum SuppressionScanner {
    /// The comment marker of a file, by name; nil when the format has no comments.
    public static func commentMarker(forPath path: String) -> String? {
        let name = path.lowercased()
        if name.hasSuffix(".swift") { return "//" }
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".rb") { return "#" }
        if name.hasSuffix(".puml") || name.hasSuffix(".plantuml") { return "'" }
        return nil
    }

    /// The suppressions in `text`, reported under `file`.
    public static func scan(_ text: String, file: String, marker: String) -> [Suppression] {
        // A byte search: Foundation's `contains` bridges the whole text first (megabytes for a large flow).
        let mentioned = text.utf8.withContiguousStorageIfAvailable { ByteSearch.contains(Array("flowlens:".utf8), in: $0) }
        guard mentioned ?? text.contains("flowlens:") else { return [] }
        var found: [Suppression] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let comment = parse(line, marker: marker) else { continue }
            let column = line.distance(from: line.startIndex, to: comment.marker.lowerBound) + 1
            found.append(Suppression(kind: comment.kind, rules: comment.rules.map { String(line[$0]) }, reason: comment.reason,
                                     location: SourceLocation(file: file, line: lineNumber, column: column)))
        }
        return found
    }

    /// One line's suppression comment: where its marker is, what it does, where each rule id it
    /// names is (so that a fix can rename exactly one), and its reason.
    public static func parse(_ line: Substring, marker: String)
        -> (marker: Range<Substring.Index>, kind: Suppression.Kind, rules: [Range<Substring.Index>], reason: String?)?
    {
        guard line.contains("flowlens:"), let markerRange = line.range(of: marker) else { return nil }
        var rest = line[markerRange.upperBound...].drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix("flowlens:") else { return nil }
        rest = rest.dropFirst("flowlens:".count)
        let directive = rest.prefix { !$0.isWhitespace }
        guard let kind = Suppression.Kind(rawValue: String(directive)) else { return nil }
        var body = rest.dropFirst(directive.count)
        // A second comment marker ends the directive (`# flowlens:… -- reason # note`).
        if let next = body.range(of: marker) { body = body[..<next.lowerBound] }
        var reason: String?
        if let separator = body.range(of: "--") {
            let text = body[separator.upperBound...].trimmingSpaces
            reason = text.isEmpty ? nil : text
            body = body[..<separator.lowerBound]
        }
        var rules: [Range<Substring.Index>] = []
        var index = body.startIndex
        while index < body.endIndex {
            if body[index] == "," || body[index].isWhitespace { index = body.index(after: index); continue }
            let start = index
            while index < body.endIndex, body[index] != ",", !body[index].isWhitespace { index = body.index(after: index) }
            rules.append(start..<index)
        }
        return (markerRange, kind, rules, reason)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
