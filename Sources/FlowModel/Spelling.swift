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
        guard isShortEnough(word) else { return nil }
        let lower = Array(word.lowercased())
        guard lower.count <= maximumLength else { return nil }
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates where isShortEnough(candidate) {
            guard let d = distance(lower, Array(candidate.lowercased()), limit: limit) else { continue }
            if best == nil || (d, candidate) < (best!.distance, best!.name) { best = (candidate, d) }
        }
        return best?.name
    }

    /// The closest candidate when no other candidate is as close: the only "did you mean" certain
    /// enough to apply as a fix. Nil when there is none, or a tie.
    public static func unique(to word: String, in candidates: some Sequence<String>) -> String? {
        suggestion(for: word, in: candidates).flatMap { $0.isUnique ? $0.name : nil }
    }

    /// In one pass, what `closest` suggests (ties going to the first name in order) and whether it is
    /// `unique`: a caller that words a message and offers a fix compares every candidate once.
    public static func suggestion(for word: String, in candidates: some Sequence<String>) -> (name: String, isUnique: Bool)? {
        guard isShortEnough(word) else { return nil }
        let lower = Array(word.lowercased())
        guard lower.count <= maximumLength else { return nil }
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in candidates where candidate != word && isShortEnough(candidate) {
            guard let d = distance(lower, Array(candidate.lowercased()), limit: limit) else { continue }
            if best == nil || d < best!.distance {
                best = (candidate, d)
                tied = false
            } else if d == best!.distance, candidate != best!.name {
                tied = true
                if candidate < best!.name { best!.name = candidate }
            }
        }
        return best.map { ($0.name, !tied) }
    }

    /// Whether a word can be within `maximumLength` once lowercased, told by reading at most twice
    /// that many characters (lowercasing a 100,000-character name to find it too long was most of
    /// the time of a check with such names). The exact test follows, on the lowercased word.
    private static func isShortEnough(_ word: String) -> Bool {
        word.utf8.count <= maximumLength || word.prefix(2 * maximumLength + 1).count <= 2 * maximumLength
    }

    /// Levenshtein distance, or nil when it is over `limit` edits or either word is longer than
    /// `maximumLength`.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        distance(Array(a), Array(b), limit: limit)
    }

    /// Levenshtein distance restricted to a diagonal band of `limit` cells on each side: cells outside
    /// it are over the limit anyway.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
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
