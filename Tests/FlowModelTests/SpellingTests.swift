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
}
