import Dispatch
import Foundation

extension RandomAccessCollection where Self: Sendable, Index == Int {
    /// `map(transform)` run on all cores. The result is in the collection's order whatever the
    /// timing, so output built from it stays deterministic.
    public func parallelMap<T>(_ transform: @Sendable (Element) -> T) -> [T] {
        parallelMap(inOrder: nil, transform)
    }

    /// `parallelMap(transform)` starting with the heaviest elements (by `weight`, such as a file's
    /// size). The cores take the elements in turn: a heavy one taken last would leave the other
    /// cores idle while it ran. The result is in the collection's order, whatever the weights.
    public func parallelMap<T>(heaviestFirst weight: (Element) -> Int, _ transform: @Sendable (Element) -> T) -> [T] {
        let weights = map(weight)
        return parallelMap(inOrder: weights.indices.sorted { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }, transform)
    }

    /// `map(transform)` on all cores, the elements handed out in `order` (offsets; nil: the
    /// collection's own), the result in the collection's order.
    private func parallelMap<T>(inOrder order: [Int]?, _ transform: @Sendable (Element) -> T) -> [T] {
        let slots = ResultSlots<T>(count: count)
        let start = startIndex
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let offset = order?[k] ?? k
            slots[offset] = transform(self[start + offset])
        }
        return (0..<count).map { slots[$0]! }
    }
}

/// Fixed slots written by concurrent workers, each slot by exactly one worker.
public final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()

    /// `count` empty slots.
    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The slot's value; nil until written.
    public subscript(index: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return slots[index] }
        set { lock.lock(); defer { lock.unlock() }; slots[index] = newValue }
    }
}
