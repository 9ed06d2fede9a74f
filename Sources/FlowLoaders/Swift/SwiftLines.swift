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
    func location(of offset: Int) -> (line: Int, column: Int) { lineAndColumn(of: offset, lineStarts: starts) }
}

/// The 1-based line and UTF-8 column of the byte at `offset`, given where the lines start (ascending
/// UTF-8 offsets, the first 0): the last line starting at or before it. However the lines were found
/// (`SwiftLines` as swift-syntax ends them, `LineTable` at line feeds).
func lineAndColumn(of offset: Int, lineStarts: [Int]) -> (line: Int, column: Int) {
    var low = 0, high = lineStarts.count - 1
    while low < high {
        let middle = (low + high + 1) / 2
        if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low + 1, offset - lineStarts[low] + 1)
}
