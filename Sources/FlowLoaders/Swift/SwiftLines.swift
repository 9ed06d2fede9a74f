/// Where each line of a Swift file starts, lines ending as swift-syntax ends them: at a line feed, a
/// carriage return, or both in this order. A position's line and UTF-8 column are then what
/// `SourceLocationConverter` gives (its `line` and `column`, not the `#sourceLocation` ones), from one
/// scan of the bytes instead of a walk of every token of the tree (2% of `check` on an app).
struct SwiftLines {
    /// The UTF-8 offset of each line's start; the first is 0.
    private let starts: [Int]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var starts = [0], i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            guard byte == 0x0A || byte == 0x0D else { continue }
            if byte == 0x0D, i < bytes.count, bytes[i] == 0x0A { i += 1 }
            starts.append(i)
        }
        self.starts = starts
    }

    init(_ text: String) {
        var text = text
        self = text.withUTF8 { SwiftLines($0) }
    }

    /// The 1-based line and UTF-8 column of the byte at `offset`.
    func location(of offset: Int) -> (line: Int, column: Int) {
        // The last line starting at or before `offset`.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}
