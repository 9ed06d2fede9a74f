/// A change that fixes a finding, when the finding already knows it (the one "did you mean" of a
/// misspelt step, key or rule id): each edit replaces one name in a source file.
///
/// Rules propose a fix with the location their loader recorded for the name (`FixEdit.at`); the fix is
/// kept only once the name has been found at that exact place in the file's text (`FixEdit.range`),
/// so a fix that is reported or applied always replaces exactly the misspelt text.
public struct Fix: Hashable, Sendable, Codable {
    /// What the fix does, for a person ("rename 'finsh' to 'finish'").
    public var description: String
    /// The edits, all applied or none.
    public var edits: [FixEdit]

    /// Creates a fix.
    public init(description: String, edits: [FixEdit]) {
        self.description = description
        self.edits = edits
    }

    /// A fix of one edit: `original`, as written at `location`, becomes `replacement`.
    public static func rename(_ original: String, to replacement: String, at location: SourceLocation?,
                              anchor: FixEdit.Anchor = .name) -> Fix? {
        guard let location, location.line > 0, location.column > 0, original != replacement else { return nil }
        return Fix(description: "replace '\(original)' with '\(replacement)'",
                   edits: [FixEdit(at: location, anchor: anchor, original: original, replacement: replacement)])
    }

    /// Whether every edit has been found in its file's text.
    public var isLocated: Bool { !edits.isEmpty && edits.allSatisfy { $0.range != nil } }
}

/// One replacement of a name in a file.
public struct FixEdit: Hashable, Sendable, Codable {
    /// How the name relates to the location its loader recorded.
    public enum Anchor: String, Hashable, Sendable, Codable {
        /// The name starts at the location (a YAML/JSON scalar, perhaps quoted; a Swift identifier or
        /// string literal; a PlantUML name), or, in Swift, the location is a call's name and the name is
        /// the one string literal among its arguments that holds it (`getData(name: "emial")`).
        case name
        /// The location is the `flowlens:` of a suppression comment; the name is one of its rule ids.
        case suppression
    }

    /// Where the loader recorded the name (in the loader's own columns).
    public var at: SourceLocation
    /// How the name relates to `at`.
    public var anchor: Anchor
    /// The misspelt text, as it must be found in the file.
    public var original: String
    /// What replaces it.
    public var replacement: String
    /// The exact place of `original` in the file's text, once found there.
    public var range: TextRange?

    /// Creates an edit not yet located in the file's text.
    public init(at: SourceLocation, anchor: Anchor = .name, original: String, replacement: String, range: TextRange? = nil) {
        self.at = at
        self.anchor = anchor
        self.original = original
        self.replacement = replacement
        self.range = range
    }
}

/// An exact span of a file's text, in UTF-8 bytes (the unit every editor and SARIF's byte regions
/// agree on): `length` bytes from `offset`, which is on `line` at `column`.
public struct TextRange: Hashable, Sendable, Codable, Comparable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in UTF-8 bytes from the line's start.
    public var column: Int
    /// Length in UTF-8 bytes.
    public var length: Int
    /// 0-based offset of the first byte in the file.
    public var offset: Int

    /// Creates a range.
    public init(line: Int, column: Int, length: Int, offset: Int) {
        self.line = line
        self.column = column
        self.length = length
        self.offset = offset
    }

    /// Whether two ranges share a byte (or are the same empty place).
    public func overlaps(_ other: TextRange) -> Bool {
        offset < other.offset + max(other.length, 1) && other.offset < offset + max(length, 1)
    }

    /// Orders by offset.
    public static func < (lhs: TextRange, rhs: TextRange) -> Bool { (lhs.offset, lhs.length) < (rhs.offset, rhs.length) }
}
