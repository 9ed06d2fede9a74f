/// The targets of transitions to steps that do not exist, numbered in order of first appearance: every
/// diagram builder draws one marked "no such step" node for each, however many transitions lead to it.
struct MissingTargets {
    private var numbers: [String: Int] = [:]

    /// The number of `target`'s node. The first time `target` is asked for, `draw` is called with the
    /// new number to draw the node.
    mutating func number(for target: String, draw: (Int) -> Void) -> Int {
        if let n = numbers[target] { return n }
        let n = numbers.count
        numbers[target] = n
        draw(n)
        return n
    }
}
