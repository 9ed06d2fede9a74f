import FlowModel
import Testing

@Suite("ByteSearch: ASCII words in UTF-8 bytes")
struct ByteSearchTests {
    private func offset(_ word: String, _ text: String, _ range: Range<Int>? = nil) -> Int? {
        var text = text
        return text.withUTF8 { ByteSearch.firstOffset(of: Array(word.utf8), in: $0, range: range) }
    }

    @Test("the first occurrence wholly inside the range, by byte offset; none past either end")
    func offsets() {
        #expect(offset("-->", "a --> b --> c") == 2)
        #expect(offset("-->", "a --> b --> c", 3..<13) == 8)
        #expect(offset("-->", "a --> b --> c", 0..<4) == nil)  // "a --": cut at the range's end
        #expect(offset("-->", "a --> b", 2..<99) == 2)         // a range past the text is clamped
        #expect(offset("é", "café") == 3)                     // any bytes, compared exactly
        #expect(offset("b", "é b") == 3)                      // offsets count bytes, not characters
        #expect(offset("", "abc") == nil)
        #expect(offset("abc", "") == nil)
        #expect(offset("aab", "aaab") == 1)                   // a candidate that fails is left by one byte
    }

    @Test("the search finds what a byte-by-byte search finds, on 20,000 random words, texts and ranges")
    func sameAsNaive() {
        var random = TestRandom(state: 0xB17E_5)
        func next(_ bound: Int) -> Int { random.next(bound) }
        // Few distinct bytes, so that words recur, overlap and nearly match; the anchor (rarest byte)
        // falls at the start, the middle or the end of a word.
        let alphabet = Array("eeaqS-é".utf8)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in alphabet[next(alphabet.count)] } }
        var found = 0
        for _ in 0..<20_000 {
            let text = bytes(next(40)), word = bytes(1 + next(5))
            let lower = next(text.count + 2), upper = lower + next(text.count + 2)
            let range = lower..<upper
            let clamped = range.clamped(to: 0..<text.count)
            let expected = clamped.count < word.count ? nil
                : (clamped.lowerBound...(clamped.upperBound - word.count)).first { Array(text[$0..<($0 + word.count)]) == word }
            let actual = text.withUnsafeBufferPointer { ByteSearch.firstOffset(of: word, in: $0, range: range) }
            #expect(actual == expected, "\(word) in \(text) within \(range)")
            if expected != nil { found += 1 }
        }
        #expect(found > 2_000)
    }
}
