import Foundation

/// Looking for a word in UTF-8 text by its bytes, without making a `String` of the text or of its
/// lines: `memchr` finds each place where the word's rarest byte is (its *anchor*: `é` and `q` before
/// `e` and `s`), and the rest is compared in place. Meant for ASCII words (keywords, arrows, library
/// names): a byte of another character is never one of theirs, so a match is always the word itself.
public enum ByteSearch {
    /// The offset of the first `word` in `bytes[range]` (wholly inside it), nil when there is none.
    public static func firstOffset(of word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>? = nil) -> Int? {
        let range = (range ?? 0..<bytes.count).clamped(to: 0..<bytes.count)
        guard !word.isEmpty, range.count >= word.count, let base = bytes.baseAddress else { return nil }
        let anchor = anchorOffset(word)
        let anchorByte = Int32(word[anchor])
        // The anchor of a match starting at i is at i + anchor: look for it from lower + anchor up to
        // the last start that leaves room for the word.
        let lastStart = range.upperBound - word.count
        var start = range.lowerBound
        while start <= lastStart {
            guard let found = memchr(base + start + anchor, anchorByte, lastStart - start + 1) else { return nil }
            let i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
            var k = 0
            while k < word.count, bytes[i + k] == word[k] { k += 1 }
            if k == word.count { return i }
            start = i + 1
        }
        return nil
    }

    /// Whether `bytes[range]` holds `word`.
    public static func contains(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>? = nil) -> Bool {
        firstOffset(of: word, in: bytes, range: range) != nil
    }

    /// The offset in `word` of the byte that is rarest in source text: any byte that is no lower-case
    /// ASCII letter, else the letter latest in `commonLetters`' order (`ByteSearch.firstOffset` stops at
    /// each occurrence of it, so the rarer, the fewer false stops); the first of equally rare ones.
    static func anchorOffset(_ word: [UInt8]) -> Int {
        var best = 0, bestRank = Int.max
        for (offset, byte) in word.enumerated() {
            let rank = byte >= 0x61 && byte <= 0x7A ? letterRank[Int(byte - 0x61)] : 0
            if rank < bestRank { (best, bestRank) = (offset, rank) }
        }
        return best
    }

    /// The lower-case letters, most frequent in English and code first.
    static let commonLetters = Array("etaoinsrlcdupmhgfybwvkxjqz".utf8)
    /// Each lower-case letter's rank: 26 for `e` down to 1 for `z`.
    static let letterRank: [Int] = (0..<26).map { letter in
        commonLetters.count - commonLetters.firstIndex(of: UInt8(0x61 + letter))!
    }
}
