import FlowModel

/// Whether a graph read from the cache could have come from the texts it is stored for: each place
/// it names in one of them is a line of that text and a column of that line. A cache edited or
/// damaged into impossible places (a negative line, a column past its line) is not trusted: the file
/// is parsed again, and the entry replaced.
enum CachedGraphCheck {
    static func isPlausible(_ graph: FlowGraph, for sources: [SourceText]) -> Bool {
        var widths: [String: [Int]] = [:]  // by display path: the most columns each line can have
        for source in sources { widths[source.file.displayPath] = lineWidths(source.contents) }
        func fits(_ location: SourceLocation?) -> Bool {
            guard let location else { return true }
            if location.line < 0 || location.column < 0 { return false }
            // A place in another file (a batch names the files it links) is that file's entry's to check.
            guard let lines = widths[location.file] else { return true }
            if location.line == 0 { return location.column == 0 }
            return location.line <= lines.count && location.column <= lines[location.line - 1] + 1
        }
        for flow in graph.flows {
            guard fits(flow.location), fits(flow.entryLocation) else { return false }
            for step in flow.steps {
                guard fits(step.location), fits(step.subflowLocation),
                      step.reads.allSatisfy({ fits($0.location) }), step.writes.allSatisfy({ fits($0.location) }),
                      step.calls.allSatisfy({ fits($0.location) }) else { return false }
            }
            guard flow.transitions.allSatisfy({ fits($0.location) }) else { return false }
        }
        for finding in graph.loadFindings {
            guard fits(finding.location), finding.related.allSatisfy({ fits($0.location) }) else { return false }
        }
        return graph.suppressions.allSatisfy { fits($0.location) }
    }

    /// For each line of `text` (split at LF, CRLF and CR, as the loaders count lines), the most
    /// columns it can have: its bytes (a character is at least one), and more for each tab.
    static func lineWidths(_ text: String) -> [Int] {
        var widths: [Int] = []
        var width = 0
        var afterCR = false
        for byte in text.utf8 {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A:
                widths.append(width)
                width = 0
            case 0x0D:
                widths.append(width)
                width = 0
                afterCR = true
            case 0x09:
                width += 8
            default:
                width += 1
            }
        }
        widths.append(width)
        return widths
    }
}
