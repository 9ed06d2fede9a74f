/// The tests' random numbers from a fixed seed: Knuth's MMIX linear congruential generator, the top
/// bits taken (this target has no test-support module to share `SplitMix64` with).
struct TestRandom {
    var state: UInt64

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
