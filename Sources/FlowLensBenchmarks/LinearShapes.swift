/// The shapes issue 49 found quadratic, each at two sizes ten times apart in the same run, with the
/// ratio of their times (within 12 for 10 times the size is linear enough): OTLP spans of one trace
/// read and replayed, the DOT export of many flows, and a long chain whose branches skip a write.
import Dispatch
import FlowLens
import Foundation

@MainActor func linearShapesBenchmark() throws {
    print("\nShapes at ten times the size (issue 49: each ratio within 12)")
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let folder = NSTemporaryDirectory() + "flowlens-shapes-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    // N spans of one trace, one request on one line, each span the parent of the next.
    let flow = Flow(id: "Order", kind: .declarative, steps: [Step(id: "pay")], transitions: [Transition(from: "pay", to: "pay")],
                    entries: ["pay"])
    var spanTimes: [Double] = []
    for count in [10_000, 100_000] {
        var spans = [#"{"traceId":"t","spanId":"s0","name":"Order","startTimeUnixNano":"1","endTimeUnixNano":"\#(10 * count + 10)","attributes":[{"key":"flow.name","value":{"stringValue":"Order"}}]}"#]
        for i in 1..<count {
            spans.append(#"{"traceId":"t","spanId":"s\#(i)","parentSpanId":"s\#(i - 1)","name":"pay","startTimeUnixNano":"\#(10 * i)","endTimeUnixNano":"\#(10 * i + 5)","attributes":[{"key":"flow.step","value":{"stringValue":"pay"}}]}"#)
        }
        let path = folder + "/spans-\(count).json"
        try (#"{"resourceSpans":[{"scopeSpans":[{"spans":["# + spans.joined(separator: ",") + "]}]}]}").write(toFile: path, atomically: true, encoding: .utf8)
        var runs = 0
        spanTimes.append(seconds { runs = FlowLens.replay(records: [path], on: [flow], spans: .default).traces.first?.runs ?? 0 })
        if runs != 1 { print("warning: \(count) spans replayed as \(runs) runs") }
    }
    print(String(format: "OTLP spans of one trace, read and replayed: 10,000 %.3f s, 100,000 %.3f s: ratio %.1f",
                 spanTimes[0], spanTimes[1], spanTimes[1] / spanTimes[0]))

    // N flow files of two steps each, checked (not timed), then exported as DOT (timed).
    var exportTimes: [Double] = []
    for count in [1_000, 10_000] {
        let flows = folder + "/flows-\(count)"
        try FileManager.default.createDirectory(atPath: flows, withIntermediateDirectories: true)
        for n in 0..<count {
            try "version: 1\nflows:\n  - name: Flow \(n)\n    steps:\n      - {id: a, next: b}\n      - {id: b, kind: end}\n"
                .write(toFile: flows + "/f\(n).flow.yaml", atomically: false, encoding: .utf8)
        }
        let report = FlowLens.check([flows], configurationFile: nil, workingDirectory: folder)
        exportTimes.append(try seconds { _ = try Exporter(format: .dot).export(report, to: folder + "/out-\(count)") })
    }
    print(String(format: "export --format dot of many flows: 1,000 %.3f s, 10,000 %.3f s: ratio %.1f",
                 exportTimes[0], exportTimes[1], exportTimes[1] / exportTimes[0]))

    // A chain of N steps with a branch every 100 steps whose `otherwise` way skips a write that the
    // step after the join reads: N / 100 missing-data-key findings, each naming a path as long as the
    // flow up to it (152 s and 11.4 GB for 100,000 steps when each key had a search of the flow).
    var chainTimes: [Double] = []
    for count in [10_000, 100_000] {
        let path = folder + "/skipping-\(count).flow.yaml"
        try skippingChainFlow(steps: count).write(toFile: path, atomically: true, encoding: .utf8)
        var found = 0
        chainTimes.append(seconds { found = FlowLens.check([path], workingDirectory: folder).findings.count })
        if found < count / 100 { print("warning: \(count) steps gave \(found) findings") }
    }
    print(String(format: "chain with skipping branches, checked: 10,000 steps %.3f s, 100,000 steps %.3f s: ratio %.1f",
                 chainTimes[0], chainTimes[1], chainTimes[1] / chainTimes[0]))
}

/// A chain of `steps` steps where every 100th step branches: its `when` way runs a step that writes
/// that branch's key, its `otherwise` way skips it, and the step after the join reads the key.
func skippingChainFlow(steps count: Int) -> String {
    var text = "version: 1\nflows:\n  - name: Skipping\n    id: skipping\n    steps:\n"
    for i in 0..<count {
        if i % 100 == 50 {
            text += "      - {id: s\(i), next: [{to: w\(i), when: go}, {to: s\(i + 1), otherwise: true}]}\n"
            text += "      - {id: w\(i), writes: {k\(i): Int}, next: s\(i + 1)}\n"
        } else if i % 100 == 51 {
            text += "      - {id: s\(i), reads: {k\(i - 1): Int}, next: s\(i + 1)}\n"
        } else {
            text += "      - {id: s\(i), next: s\(i + 1)}\n"
        }
    }
    return text + "      - {id: s\(count), kind: end}\n"
}
