// Analysis at every flow size: generated declarative flows of 1k, 10k and 100k steps, checked as a
// user would (`FlowLens.check` on the file: read, parse, analyse with every rule), each size timed
// in this run, with the ratio 100k / 10k. Linear analysis keeps that ratio near 10.
import Dispatch
import FlowLens
import Foundation

/// A flow of `steps` steps, as its YAML text. `linear`: a chain where each step reads the key the
/// step before it wrote. `branchy`: every third step is a decision whose two ways both write a key
/// that the step after the merge reads, with a loop back every 50 steps (a retry), so must-set,
/// read-later and reaching definitions all meet merges and cycles.
func generatedFlow(steps: Int, branchy: Bool) -> String {
    var text = "version: 1\nflows:\n  - name: Generated\n    id: generated\n    data: {k0: String}\n    start: s0\n    steps:\n"
    var i = 0
    while i < steps {
        if branchy && i + 3 < steps && i % 3 == 0 {
            // s(i) decides; s(i+1) and s(i+2) each write d(i); s(i+3) reads it.
            text += "      - {id: s\(i), kind: branch, reads: {k0: String}, next: [{to: s\(i + 1), when: {key: k0, equals: a}}, {to: s\(i + 2), otherwise: true}]}\n"
            text += "      - {id: s\(i + 1), writes: {d\(i): Int}, next: s\(i + 3)}\n"
            let back = i % 50 == 0 && i > 0 ? ", {to: s\(i - 50), when: retry}" : ""
            text += "      - {id: s\(i + 2), writes: {d\(i): Int}, next: [{to: s\(i + 3)}\(back)]}\n"
            text += "      - {id: s\(i + 3), reads: {d\(i): Int}, next: s\(i + 4)}\n"
            i += 4
            continue
        }
        let next = i + 1 < steps ? "s\(i + 1)" : "done"
        // A linear flow chains its keys; between the decisions of a branchy one a step reads the input.
        let reads = branchy ? "k0" : "k\(i)"
        let writes = branchy ? "" : ", writes: {k\(i + 1): String}"
        text += "      - {id: s\(i), reads: {\(reads): String}\(writes), next: \(next)}\n"
        i += 1
    }
    // The last step of a branchy flow may name s(steps); the end takes both names.
    text += "      - {id: done, kind: end}\n"
    if branchy { text += "      - {id: s\(i), kind: end}\n" }
    return text
}

@MainActor func largeFlowsBenchmark(sizes: [Int], runs: Int) throws {
    let folder = NSTemporaryDirectory() + "flowlens-large-flows-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    print("\nLarge flows: `FlowLens.check` on one generated flow file (read, parse, every rule), median of \(runs) runs or more")
    for branchy in [false, true] {
        var times: [Int: Double] = [:]
        for size in sizes {
            let path = folder + "/\(branchy ? "branchy" : "linear")-\(size).flow.yaml"
            try generatedFlow(steps: size, branchy: branchy).write(toFile: path, atomically: true, encoding: .utf8)
            var findings = 0
            var samples: [Double] = []
            // `runs` runs, and more of a size whose runs are short, until they add up to two seconds
            // (at most 50): a 10k-step flow takes a tenth of a second, and with the median of three
            // such runs the 100k/10k ratio ranged from 10.7 to 14.6 between runs on an idle machine.
            while samples.count < runs || (samples.reduce(0, +) < 2 && samples.count < 50) {
                let start = DispatchTime.now().uptimeNanoseconds
                findings = FlowLens.check([path], workingDirectory: folder).findings.count
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            let time = samples.sorted()[samples.count / 2]
            times[size] = time
            print(String(format: "%@ %7d steps  %8.3f s  (%d findings; median of %d runs)",
                         branchy ? "branchy" : "linear ", size, time, findings, samples.count))
        }
        for (small, large) in zip(sizes, sizes.dropFirst()) {
            if let a = times[small], let b = times[large] {
                print(String(format: "%@ ratio %d / %d steps: %.1f (linear growth: %.0f)", branchy ? "branchy" : "linear ",
                             large, small, b / a, Double(large) / Double(small)))
            }
        }
    }
}
