// Parallel export: `flowlens export` of 200 generated flows (declarative, 40 steps each, decisions
// and loops) to SVG, with --jobs 1 (Graphviz in the process) and --jobs 2 (two worker processes), both
// run as a user runs them (the built `flowlens` beside this benchmark), in the same run.
import Dispatch
import FlowLens
import Foundation

/// The time of one `flowlens ARGUMENTS` run, or nil when it could not run or failed (status > 1).
func timeFlowLens(_ binary: String, _ arguments: [String]) -> Double? {
    let start = DispatchTime.now().uptimeNanoseconds
    guard let run = try? ProcessRunner.run(binary, arguments, stdout: .discard, stderr: .discard), !run.signalled, run.status <= 1 else { return nil }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

@MainActor func parallelExportBenchmark(flows: Int, runs: Int) throws {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("flowlens").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("\nParallel export: not measured (build the flowlens product beside this benchmark)")
        return
    }
    let folder = NSTemporaryDirectory() + "flowlens-export-bench-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: folder + "/flows", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for n in 0..<flows {
        let text = generatedFlow(steps: 40, branchy: true)
            .replacingOccurrences(of: "name: Generated", with: "name: Generated \(n)")
            .replacingOccurrences(of: "id: generated", with: "id: generated-\(n)")
        try text.write(toFile: folder + "/flows/f\(n).flow.yaml", atomically: true, encoding: .utf8)
    }
    print("\nParallel export: `flowlens export` of \(flows) generated flows to SVG, \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(runs) runs")
    // The two alternate, run by run, so that a machine whose speed drifts (a shared one, a virtual
    // one) weighs on both alike.
    var times: [Int: [Double]] = [1: [], 2: []]
    for run in 0..<runs {
        for jobs in [1, 2] {
            guard let time = timeFlowLens(binary, ["export", folder + "/flows", "--output", folder + "/out-\(jobs)-\(run)", "--jobs", "\(jobs)", "--quiet"]) else {
                print("flowlens export --jobs \(jobs) failed")
                return
            }
            times[jobs]!.append(time)
        }
    }
    var medians: [Int: Double] = [:]
    for jobs in [1, 2] {
        medians[jobs] = times[jobs]!.sorted()[runs / 2]
        print(String(format: "flowlens export --jobs %d   %.3f s", jobs, medians[jobs]!))
    }
    // The same bytes either way.
    let one = folder + "/out-1-0", two = folder + "/out-2-0"
    let names = try FileManager.default.contentsOfDirectory(atPath: one).sorted()
    let same = try names == FileManager.default.contentsOfDirectory(atPath: two).sorted()
        && names.allSatisfy { FileManager.default.contentsEqual(atPath: one + "/" + $0, andPath: two + "/" + $0) }
    print(String(format: "ratio export --jobs 2 / --jobs 1: %.2f (files %@)", medians[2]! / medians[1]!, same ? "identical" : "DIFFERENT"))
}
