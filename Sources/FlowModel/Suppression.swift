/// An inline suppression comment, as written in a source file:
///
///     // flowlens:disable-next-line missing-data-key -- the key is set by the push handler
///     # flowlens:disable unused-data-key -- kept for the analytics export
///     # flowlens:enable unused-data-key
///
/// Loaders record them (they read the files); the suppression filter applies them to findings.
public struct Suppression: Hashable, Sendable, Codable {
    /// What the comment does.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Suppresses the rules on the line after the comment.
        case disableNextLine = "disable-next-line"
        /// Suppresses the rules from the comment's line until a matching `enable` (or the file's end).
        case disable
        /// Ends a `disable`.
        case enable
    }

    /// What the comment does.
    public var kind: Kind
    /// The rule ids it names.
    public var rules: [String]
    /// The text after `--`; nil when the comment gives no reason.
    public var reason: String?
    /// Where the comment is.
    public var location: SourceLocation

    /// Creates a suppression.
    public init(kind: Kind, rules: [String], reason: String?, location: SourceLocation) {
        self.kind = kind
        self.rules = rules
        self.reason = reason
        self.location = location
    }
}
