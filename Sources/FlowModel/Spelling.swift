/// "Did you mean" suggestions for misspelt keys, step ids and flow names.
///
/// Bounded work: words longer than `maximumLength` get no suggestion (nobody types a 30,000-character
/// id by hand, and edit distance is quadratic in the length), and the distance is computed only
/// inside a band of `limit` edits, so one call costs at most `maximumLength × (2 × limit + 1)` steps.
public enum Spelling {
    /// Words and candidates longer than this many characters are never compared.
    public static let maximumLength = 128

    /// The candidate closest to `word` (case-insensitive edit distance), if it is close enough to be
    /// a plausible typo: at most one edit per three characters, and at least one.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        var candidates = Candidates(candidates)
        return candidates.closest(to: word)
    }

    /// The closest candidate when no other candidate is as close: the only "did you mean" certain
    /// enough to apply as a fix. Nil when there is none, or a tie.
    public static func unique(to word: String, in candidates: some Sequence<String>) -> String? {
        var candidates = Candidates(candidates)
        return candidates.unique(to: word)
    }

    /// In one pass, what `closest` suggests (a tie goes to the smallest name) and whether it is
    /// `unique`: a caller that words a message and offers a fix compares every candidate once.
    public static func suggestion(for word: String, in candidates: some Sequence<String>) -> (name: String, isUnique: Bool)? {
        var candidates = Candidates(candidates)
        return candidates.suggestion(for: word)
    }

    /// Candidates to compare many words with: each lowercased once, its characters numbered (equal
    /// characters, equal numbers, so comparing two is comparing integers) and filed by its length, so
    /// that a word is compared only with the candidates whose length is within its limit of edits.
    /// Before the distance, a candidate is passed over when the characters the two words use cannot
    /// be made the same within the limit (each edit adds or removes at most one kind of character
    /// on each side: told from a 64-bit mask of the characters' numbers).
    ///
    /// Bounded work: a flow with thousands of broken transitions among thousands of steps compared
    /// every one with every step (8,000 of each took 8 s). A `Candidates` counts its work over all
    /// the words it is asked about — one for each candidate looked at, and the cells of each distance
    /// computed — and a word that would take it past `budget` gets no answer (the finding is still
    /// reported, without its "did you mean"), nor does any later word that needs any comparison. Words
    /// are answered in the order they are asked, so which ones get a suggestion is the same on every
    /// run and machine.
    public struct Candidates {
        /// The work a `Candidates` does at most, over all its words: about a tenth of a second.
        public static let defaultBudget = 50_000_000

        private var byLength: [Int: [(name: String, codes: [Int32], mask: UInt64)]] = [:]
        private var numbers: [Character: Int32] = [:]
        /// Work left.
        public private(set) var budget: Int

        /// Files `names` (repeats count once).
        public init(_ names: some Sequence<String>, budget: Int = Candidates.defaultBudget) {
            self.budget = budget
            var seen = Set<String>()
            for name in names where seen.insert(name).inserted && Spelling.isShortEnough(name) {
                let lower = Array(name.lowercased())
                guard lower.count <= Spelling.maximumLength else { continue }
                let (codes, mask) = encode(lower)
                byLength[lower.count, default: []].append((name, codes, mask))
            }
        }

        /// The characters' numbers (a character first seen gets the next one) and their mask.
        private mutating func encode(_ characters: [Character]) -> (codes: [Int32], mask: UInt64) {
            var mask: UInt64 = 0
            let codes = characters.map { character -> Int32 in
                let code: Int32
                if let known = numbers[character] {
                    code = known
                } else {
                    code = Int32(numbers.count)
                    numbers[character] = code
                }
                mask |= 1 << UInt64(code & 63)
                return code
            }
            return (codes, mask)
        }

        /// Every candidate within `word`'s limit of edits, with its distance, in no particular
        /// order; nil when the work would pass the budget.
        public mutating func matches(for word: String) -> [(name: String, distance: Int)]? {
            guard Spelling.isShortEnough(word) else { return nil }
            let lower = Array(word.lowercased())
            guard lower.count <= Spelling.maximumLength else { return nil }
            let limit = max(1, word.count / 3)
            let (codes, mask) = encode(lower)
            let cells = max(1, codes.count) * (2 * limit + 1)
            var work = budget
            var found: [(name: String, distance: Int)] = []
            for length in max(0, lower.count - limit)...(lower.count + limit) {
                for candidate in byLength[length] ?? [] {
                    // Each edit changes which characters a word uses by at most two: a lower bound.
                    let close = ((mask ^ candidate.mask).nonzeroBitCount + 1) / 2 <= limit
                    work -= close ? 1 + cells : 1
                    guard work >= 0 else {
                        budget = 0
                        return nil
                    }
                    if close, let d = Spelling.distance(codes, candidate.codes, limit: limit) { found.append((candidate.name, d)) }
                }
            }
            budget = work
            return found
        }

        /// See `Spelling.closest(to:in:)`.
        public mutating func closest(to word: String) -> String? {
            matches(for: word)?.min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
        }

        /// See `Spelling.unique(to:in:)`.
        public mutating func unique(to word: String) -> String? {
            suggestion(for: word).flatMap { $0.isUnique ? $0.name : nil }
        }

        /// See `Spelling.suggestion(for:in:)`: the closest candidate other than `word` itself (the
        /// smallest name of a tie) and whether no other is as close.
        public mutating func suggestion(for word: String) -> (name: String, isUnique: Bool)? {
            Spelling.suggestion(among: matches(for: word)?.filter { $0.name != word } ?? [])
        }
    }

    /// The closest of `matches` (the smallest name of a tie) and whether no other is as close.
    public static func suggestion(among matches: [(name: String, distance: Int)]) -> (name: String, isUnique: Bool)? {
        guard let best = matches.map(\.distance).min() else { return nil }
        let closest = matches.filter { $0.distance == best }
        return (closest.map(\.name).min()!, closest.count == 1)
    }

    /// Whether a word can be within `maximumLength` once lowercased, told by reading at most twice
    /// that many characters (lowercasing a 100,000-character name to find it too long was most of
    /// the time of a check with such names). The exact test follows, on the lowercased word.
    static func isShortEnough(_ word: String) -> Bool {
        word.utf8.count <= maximumLength || word.prefix(2 * maximumLength + 1).count <= 2 * maximumLength
    }

    /// Levenshtein distance, or nil when it is over `limit` edits or either word is longer than
    /// `maximumLength`.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        distance(Array(a), Array(b), limit: limit)
    }

    /// Levenshtein distance restricted to a diagonal band of `limit` cells on each side: cells outside
    /// it are over the limit anyway.
    static func distance<C: Equatable>(_ a: [C], _ b: [C], limit: Int) -> Int? {
        guard a.count <= maximumLength, b.count <= maximumLength, abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        let over = limit + 1
        var previous = (0...b.count).map { min($0, over) }
        var current = Array(repeating: over, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            current[0] = min(i, over)
            if low > 1 { current[low - 1] = over }
            var rowMinimum = current[0]
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, over)
                    rowMinimum = min(rowMinimum, current[j])
                }
            }
            if high < b.count { current[high + 1] = over }
            guard rowMinimum <= limit else { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
