// Large diagrams: a generated 1000-step operation flow (`LargeFlow`: chains, decisions with labelled
// cases, groups, data keys, an error edge to a shared failure exit every 16 segments, findings), its
// DOT built with the standard layout ("naive") and with the large-flow layout, each laid out and
// rendered to SVG in-process (libgvc, as `flowlens export` does) and by the `dot` program, in one run.
import Dispatch
import FlowLens
import FlowLensTestSupport
import Foundation

/// The median time of `runs` calls of `work`, in seconds.
func medianTime(runs: Int, _ work: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try seconds(work)) }
    return times.sorted()[times.count / 2]
}

/// The time one call of `work` takes, in seconds.
func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// `dot -Tsvg file -o /dev/null`; false when the program cannot be run or fails.
func runDotProgram(_ file: String) -> Bool {
    guard let run = try? ProcessRunner.run("/usr/bin/env", ["dot", "-Tsvg", file, "-o", "/dev/null"], stdout: .discard, stderr: .discard) else { return false }
    return run.status == 0 && !run.signalled
}

func largeDiagramBenchmark(steps: Int, errorEvery: Int, runs: Int, dumpDOT: String?) throws {
    let flow = LargeFlow.make(steps: steps, errorEvery: errorEvery)
    let graph = FlowGraph(flows: [flow], files: ["large.flow.yaml"])
    var report = FlowLens.analyze(graph)
    let analysis = medianTime(runs: runs) { report = FlowLens.analyze(graph) }
    let naive = DOTBuilder(layout: .standard).dot(for: flow, findings: report.findings)
    let large = DOTBuilder(layout: .large).dot(for: flow, findings: report.findings)
    let folder = dumpDOT ?? NSTemporaryDirectory() + "flowlens-large-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { if dumpDOT == nil { try? FileManager.default.removeItem(atPath: folder) } }
    try naive.write(toFile: folder + "/naive.dot", atomically: true, encoding: .utf8)
    try large.write(toFile: folder + "/large.dot", atomically: true, encoding: .utf8)

    let rules = Dictionary(grouping: report.findings, by: \.rule).map { "\($0.value.count) \($0.key)" }.sorted().joined(separator: ", ")
    print("\nlarge flow: \(flow.steps.count) steps, \(flow.transitions.count) transitions (\(flow.transitions.filter { $0.kind == .error }.count) error edges to one exit), \(report.findings.count) findings (\(rules)); median of \(runs) runs")
    print(String(format: "analysis, every rule                      %7.3f s", analysis))
    let naiveInProcess = try medianTime(runs: runs) { _ = try Graphviz.render(dot: naive, format: .svg) }
    print(String(format: "naive DOT, in-process layout + SVG         %7.3f s", naiveInProcess))
    var naiveProgram: Double?
    if runDotProgram(folder + "/naive.dot") {
        naiveProgram = medianTime(runs: runs) { _ = runDotProgram(folder + "/naive.dot") }
        print(String(format: "naive DOT, dot -Tsvg program               %7.3f s", naiveProgram!))
    } else {
        print("naive DOT, dot -Tsvg program               (the dot program is not installed)")
    }
    let largeInProcess = try medianTime(runs: runs) { _ = try Graphviz.render(dot: large, format: .svg) }
    print(String(format: "large-flow layout, in-process + SVG        %7.3f s", largeInProcess))
    print(String(format: "ratio naive / large-flow layout (in-process): %.1fx", naiveInProcess / largeInProcess))
    if let naiveProgram { print(String(format: "ratio dot program on naive / large-flow layout in-process: %.1fx", naiveProgram / largeInProcess)) }
}
