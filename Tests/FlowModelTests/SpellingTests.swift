import FlowModel
import Testing

/// "Did you mean" stays cheap on any input (issue 20: 30,000-character ids took 95 s).
@Suite struct SpellingTests {
    /// Plain Levenshtein, the reference the banded one must agree with inside its band.
    private func reference(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    @Test func bandedDistanceAgreesWithLevenshteinWithinItsLimit() {
        let words = ["deliverySlot", "deliverSlot", "delivery_slot", "slot", "", "paymentToken", "paymnetToken",
                     "shippingAddress", "billingAddress", "userName", "username", "userNames", "ünïcödé", "unicode"]
        for a in words {
            for b in words {
                let exact = reference(a, b)
                for limit in [1, 2, 3, 5, 20] {
                    let banded = Spelling.distance(a, b, limit: limit)
                    #expect(banded == (exact <= limit ? exact : nil), "\(a) \(b) \(limit)")
                }
            }
        }
    }

    @Test func closestSuggestsPlausibleTypos() {
        #expect(Spelling.closest(to: "deliverSlot", in: ["deliverySlot", "paymentToken"]) == "deliverySlot")
        #expect(Spelling.closest(to: "x", in: ["deliverySlot"]) == nil)
    }

    @Test func hugeWordsGetNoSuggestionAndCostLittle() {
        let huge = String(repeating: "stepIdentifier", count: 2_500)  // 35,000 characters
        let candidates = (0..<200).map { String(repeating: "stepIdentifier", count: 2_500) + "\($0)" }
        #expect(Spelling.closest(to: huge, in: candidates) == nil)
        #expect(Spelling.closest(to: "stepIdentifer", in: candidates + ["stepIdentifier"]) == "stepIdentifier")
        #expect(Spelling.distance(huge, huge, limit: 5) == nil)
    }

    @Test("unique: the closest candidate only when no other is as close")
    func uniqueSuggestion() {
        #expect(Spelling.unique(to: "delivrySlot", in: ["deliverySlot", "storeID"]) == "deliverySlot")
        #expect(Spelling.unique(to: "stepC", in: ["stepA", "stepB"]) == nil)
        #expect(Spelling.unique(to: "stepC", in: ["stepA", "stepCC"]) == nil)
        #expect(Spelling.unique(to: "stepC", in: ["stepA", "steppC", "stepc"]) == "stepc")
        #expect(Spelling.unique(to: "name", in: ["name"]) == nil)
        #expect(Spelling.unique(to: "x", in: [String]()) == nil)
    }

    @Test("suggestion: closest's answer, and whether it is unique, whatever the candidates' order")
    func suggestionAgreesWithClosest() {
        let candidates = ["stepA", "stepB", "stepCC", "choose", "stepA"]
        for word in ["stepC", "stepAA", "chose", "zzz"] {
            for order in [candidates, candidates.reversed()] {
                #expect(Spelling.suggestion(for: word, in: order)?.name == Spelling.closest(to: word, in: order), "\(word)")
            }
        }
        #expect(Spelling.suggestion(for: "stepAA", in: candidates)?.isUnique == true)   // stepA twice is one name
        #expect(Spelling.suggestion(for: "stepC", in: candidates)?.isUnique == false)
    }

    /// The answers before `Spelling.Candidates`: every candidate compared, by plain Levenshtein.
    private func referenceSuggestion(_ word: String, _ candidates: [String]) -> (name: String, isUnique: Bool)? {
        let limit = max(1, word.count / 3)
        let scored = Set(candidates).filter { $0 != word }.map { ($0, reference(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return nil }
        let names = scored.filter { $0.1 == best }.map(\.0)
        return (names.min()!, names.count == 1)
    }

    @Test("Candidates answer as comparing every candidate would: random words, many asked of one Candidates")
    func candidatesAgreeWithComparingEveryCandidate() {
        var random = SplitMix(seed: 16)
        let alphabet = Array("abcAB_1é")
        func word() -> String { String((0..<random.below(10)).map { _ in alphabet[random.below(alphabet.count)] }) }
        for _ in 0..<60 {
            let names = (0..<random.below(41)).map { _ in word() }
            var candidates = Spelling.Candidates(names)
            for _ in 0..<30 {
                let asked = random.below(2) == 0 && !names.isEmpty ? names[random.below(names.count)] + "x" : word()
                let expected = referenceSuggestion(asked, names)
                let got = candidates.suggestion(for: asked)
                #expect(got?.name == expected?.name && got?.isUnique == expected?.isUnique, "\(asked) in \(names)")
                #expect(candidates.closest(to: asked) == Spelling.closest(to: asked, in: names))
            }
        }
    }

    @Test("a word whose comparisons would pass the budget gets no suggestion, nor does any later word that needs one")
    func candidatesKeepToTheirBudget() {
        let ids = (0..<1_000).map { "step\($0)" }  // 5 to 7 characters
        var roomy = Spelling.Candidates(ids, budget: .max)
        #expect(roomy.suggestion(for: "steq12").map { [$0.name: $0.isUnique] } == ["step12": true])
        let cost = Int.max - roomy.budget
        #expect(cost >= 1_000)  // every id looked at (6 characters, 2 edits: ids of 4 to 8 characters)
        // Exactly enough: the same answer, and nothing left.
        var exact = Spelling.Candidates(ids, budget: cost)
        #expect(exact.suggestion(for: "steq12")?.name == "step12")
        #expect(exact.budget == 0)
        // One short: no answer; then a word with no id of a length within reach still gets its (empty)
        // answer, and one that needs a comparison gets none.
        var short = Spelling.Candidates(ids, budget: cost - 1)
        #expect(short.suggestion(for: "steq12") == nil)
        #expect(short.matches(for: "a-much-longer-name-than-any-id")?.isEmpty == true)
        #expect(short.matches(for: "step1") == nil)
        // The same questions in the same order get the same answers.
        let questions = (0..<40).map { "stepp\($0 * 7)" }
        var first = Spelling.Candidates(ids, budget: 30 * cost), second = Spelling.Candidates(ids, budget: 30 * cost)
        let answers = questions.map { first.suggestion(for: $0)?.name }
        #expect(answers == questions.map { second.suggestion(for: $0)?.name })
        #expect(answers.contains(nil) && answers.contains { $0 != nil })
        // The default budget answers a thousand broken names among a thousand ids.
        var plenty = Spelling.Candidates(ids)
        #expect((0..<1_000).allSatisfy { plenty.suggestion(for: "stepp\($0)") != nil })
    }
}
