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
}
