import Foundation

/// Looking for a word in UTF-8 text by its bytes, without making a `String` of the text or of its
/// lines: `memchr` finds each candidate first byte, the rest is compared in place. Meant for ASCII
/// words (keywords, arrows, library names): a byte of another character is never one of theirs, so
/// a match is always the word itself.
public enum ByteSearch {
    /// The offset of the first `word` in `bytes[range]` (wholly inside it), nil when there is none.
    public static func firstOffset(of word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>? = nil) -> Int? {
        let range = (range ?? 0..<bytes.count).clamped(to: 0..<bytes.count)
        guard let first = word.first, range.count >= word.count, let base = bytes.baseAddress else { return nil }
        let last = range.upperBound - word.count
        var i = range.lowerBound
        while i <= last {
            guard let found = memchr(base + i, Int32(first), last - i + 1) else { return nil }
            i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var k = 1
            while k < word.count, bytes[i + k] == word[k] { k += 1 }
            if k == word.count { return i }
            i += 1
        }
        return nil
    }

    /// Whether `bytes[range]` holds `word`.
    public static func contains(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>? = nil) -> Bool {
        firstOffset(of: word, in: bytes, range: range) != nil
    }
}
