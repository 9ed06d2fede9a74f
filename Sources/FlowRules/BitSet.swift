/// A fixed-size set of small integers, for the data-flow analyses: a flow of n steps and k keys
/// needs n sets of k bits, where sets of strings would cost n × k hashed entries.
struct BitSet: Equatable, Sendable {
    private(set) var words: [UInt64]

    /// An empty set for `count` elements.
    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    /// The set of every element below `count`.
    static func full(count: Int) -> BitSet {
        var set = BitSet(count: count)
        for i in 0..<count { set.insert(i) }
        return set
    }

    func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }

    mutating func remove(_ i: Int) { words[i >> 6] &= ~(1 << UInt64(i & 63)) }

    mutating func formUnion(_ other: BitSet) {
        for w in words.indices { words[w] |= other.words[w] }
    }

    mutating func formIntersection(_ other: BitSet) {
        for w in words.indices { words[w] &= other.words[w] }
    }

    mutating func subtract(_ other: BitSet) {
        for w in words.indices { words[w] &= ~other.words[w] }
    }

    /// The elements, ascending.
    var elements: [Int] {
        var out: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                out.append(w * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return out
    }
}
