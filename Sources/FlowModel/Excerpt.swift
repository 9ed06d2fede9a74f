/// How much of an input a finding or a trace line may quote: a bounded excerpt of one line, and a
/// bounded message, so that a file (a link to `/etc/passwd`, a 5 MB scalar) is never copied whole
/// into logs, annotations and reports.
public enum Excerpt {
    /// The most characters of an input's text a message quotes.
    public static let quotedCharacters = 80
    /// The most UTF-8 bytes a finding's message or a trace line keeps.
    public static let messageBytes = 2_000

    /// The first line of `text`, at most `limit` characters, with "…" where anything was left out.
    public static func quote(_ text: String, limit: Int = quotedCharacters) -> String {
        var line = Substring(text)
        var cut = false
        if let newline = line.firstIndex(where: { $0.isNewline }) {
            line = line[..<newline]
            cut = true
        }
        if line.utf8.count > limit, let end = line.index(line.startIndex, offsetBy: limit, limitedBy: line.endIndex), end < line.endIndex {
            line = line[..<end]
            cut = true
        }
        return cut ? line + "…" : String(line)
    }

    /// `message` when it has at most `messageBytes` bytes, else its start, cut at a character, and
    /// how much was left out.
    public static func bounded(_ message: String) -> String {
        guard message.utf8.count > messageBytes else { return message }
        var end = message.startIndex, bytes = 0
        for character in message {
            bytes += character.utf8.count
            if bytes > messageBytes { break }
            end = message.index(after: end)
        }
        let kept = message[..<end]
        return kept + "… (\(message.utf8.count - kept.utf8.count) more bytes left out)"
    }
}
