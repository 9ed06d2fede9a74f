/// A set of steps of one flow, by their index in `flow.steps`: one flag per step, so asking whether a
/// step is in it reads an array. The analysis asks it of every step in several rules, and a
/// `Set<Int>` of a 100,000-step flow hashed each question into a table that no cache holds.
///
/// Iterates its steps in ascending order.
public struct StepSet: Sequence, Sendable, Equatable, ExpressibleByArrayLiteral {
    private var flags: [Bool]
    /// The number of steps in the set.
    public private(set) var count = 0

    /// An empty set, with room for steps `0..<capacity` (it grows past that when asked to).
    public init(capacity: Int = 0) {
        flags = Array(repeating: false, count: Swift.max(capacity, 0))
    }

    /// The set of `steps`.
    public init(arrayLiteral steps: Int...) {
        self.init()
        for step in steps { insert(step) }
    }

    /// Whether `step` is in the set.
    public func contains(_ step: Int) -> Bool { step >= 0 && step < flags.count && flags[step] }

    /// Whether the set is empty.
    public var isEmpty: Bool { count == 0 }

    /// Adds `step` (not negative); true when it was not in the set before.
    @discardableResult
    public mutating func insert(_ step: Int) -> Bool {
        precondition(step >= 0, "a step index is never negative")
        if step >= flags.count { flags.append(contentsOf: repeatElement(false, count: step - flags.count + 1)) }
        guard !flags[step] else { return false }
        flags[step] = true
        count += 1
        return true
    }

    public static func == (a: StepSet, b: StepSet) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    public func makeIterator() -> Iterator { Iterator(flags: flags) }

    /// The steps in ascending order.
    public struct Iterator: IteratorProtocol {
        fileprivate let flags: [Bool]
        fileprivate var position = 0

        public mutating func next() -> Int? {
            while position < flags.count {
                defer { position += 1 }
                if flags[position] { return position }
            }
            return nil
        }
    }
}
