// FlowLens benchmark: throughput of `check` on Swift sources against swift-syntax parsing alone,
// both measured in this run on the same generated corpus, so the ratio does not depend on the machine.
//
//   swift run -c release FlowLensBenchmarks [--lines N] [--runs N]
//
// The corpus is an app-shaped folder of Swift files (operations, view controllers with Flow-iOS flows
// of chains, cases and groups, and ordinary code with no flows), generated deterministically and
// written to a temporary folder. Each measurement is the median of the runs.
import Dispatch
import FlowLens
import Foundation

var targetLines = 100_000
var runs = 5
var only: String?
var dumpDOT: String?
var largeSteps = 1000
var errorEvery = 16
var flowSizes = [1_000, 10_000, 100_000]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--lines": targetLines = Int(arguments.popFirst() ?? "") ?? targetLines
    case "--runs": runs = max(1, Int(arguments.popFirst() ?? "") ?? runs)
    case "--only": only = arguments.popFirst()
    case "--dump-dot": dumpDOT = arguments.popFirst()
    case "--steps": largeSteps = Int(arguments.popFirst() ?? "") ?? largeSteps
    case "--error-every": errorEvery = max(1, Int(arguments.popFirst() ?? "") ?? errorEvery)
    case "--flow-sizes": flowSizes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
    default:
        FileHandle.standardError.write(Data("usage: FlowLensBenchmarks [--lines N] [--runs N] [--only check|diagram|flows] [--dump-dot DIR] [--steps N] [--error-every N] [--flow-sizes N,N,...]\n".utf8))
        exit(2)
    }
}

if only == "diagram" {
    try largeDiagramBenchmark(steps: largeSteps, errorEvery: errorEvery, runs: runs, dumpDOT: dumpDOT)
    exit(0)
}
if only == "flows" {
    try largeFlowsBenchmark(sizes: flowSizes, runs: runs)
    exit(0)
}

#if DEBUG
print("warning: a debug build; swift-syntax parses ~37x slower than in release. Use: swift run -c release FlowLensBenchmarks")
#endif

/// A small deterministic generator (a linear congruential sequence), so every run sees one corpus.
struct Generator {
    var state: UInt64 = 0x5EED_F10E
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

func operationFile(_ n: Int, _ random: inout Generator) -> String {
    var text = "import Foundation\nimport Flow_iOS\n\n"
    for k in 0..<6 {
        let name = "Module\(n)Step\(k)Op"
        let input = "key\(n)_\(k)", output = "key\(n)_\(k + 1)"
        text += """
            /// Step \(k) of module \(n): reads \(input), writes \(output).
            final class \(name): FlowOperation\(k == 0 ? ", FlowOperationCreator" : "") {
                static func create() -> FlowOperation { \(name)() }
                override var primaryInputParamKey: String { return "\(input)" }
                override var primaryOutputParamKey: String { return "\(output)" }
                private let retries = \(random.next(5))

                override func mainLogic() {
                    guard let value: String = getData(name: "\(input)") else { return }
                    let note: String? = getData(name: "note", isOptional: true)
                    var attempts = 0
                    while attempts < retries { attempts += 1 }
                    DispatchQueue.global().async {
                        let result = value + (note ?? "") + "\\(attempts)"
                        self.log(message: "step \(k) finished with \\(result.count) characters")
                        self.setData(name: "\(output)", value: result)
                        self.finishSuccessfully()
                    }
                    startWithAsynchronous()
                }
            }


            """
    }
    return text
}

func controllerFile(_ n: Int, _ random: inout Generator) -> String {
    var text = "import UIKit\nimport Flow_iOS\n\nfinal class Module\(n)ViewController: UIViewController {\n"
    text += "    @IBOutlet weak var summary: UILabel!\n\n"
    // A chain through the module's operations.
    text += """
            @IBAction func runChain() {
                Flow()
                    .setDataBucket(dataBucket: ["key\(n)_0": "start", "mode": "\(random.next(2) == 0 ? "fast" : "safe")"])
                    .add(operation: Module\(n)Step0Op())
                    .add(operation: Module\(n)Step1Op())
                    .add(operation: Module\(n)Step2Op(), flowCase: FlowCase(key: "mode", value: "fast"))
                    .add(operation: Module\(n)Step3Op())
                    .add(operation: Module\(n)Step2Op(), flowCase: FlowCase(key: "mode", value: "safe"))
                    .add(operation: Module\(n)Step3Op())
                    .combine()
                    .add(operation: Module\(n)Step4Op())
                    .setDidFinishBlock(block: { flow in
                        self.summary.text = flow.dataBucket["key\(n)_5"] as? String
                    })
                    .start()
            }

            @IBAction func runGroup() {
                let flow = Flow()
                flow.setDataBucket(dataBucket: ["items": ["a", "b", "c"]])
                flow.addGrouped(operationCreator: Module\(n)Step0Op.self,
                                dispatcher: FlowArrayGroupDispatcher(inputKey: "items", outputKey: "results"))
                flow.setDidFinishBlock(block: { flow in print(flow.dataBucket["results"] as? [String] ?? []) })
                flow.start()
            }


        """
    // Ordinary view code: most of an app is not flows.
    for k in 0..<8 {
        text += """
                private func layoutSection\(k)(in view: UIView, width: CGFloat) -> [CGRect] {
                    var frames: [CGRect] = []
                    var y: CGFloat = \(random.next(40))
                    for index in 0..<\(3 + random.next(5)) {
                        let height = CGFloat(\(20 + random.next(30)) + index * 2)
                        frames.append(CGRect(x: 16, y: y, width: width - 32, height: height))
                        y += height + 8
                    }
                    if frames.count > \(random.next(6)) { frames.removeLast() }
                    return frames.filter { $0.height > 0 }.map { $0.insetBy(dx: 1, dy: 1) }
                }


            """
    }
    return text + "}\n"
}

// Generate the corpus until it has at least the target number of lines.
let folder = NSTemporaryDirectory() + "flowlens-benchmark-\(ProcessInfo.processInfo.processIdentifier)"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
var random = Generator()
var lines = 0, files: [String] = [], module = 0
while lines < targetLines {
    for (name, text) in [("Module\(module)Operations.swift", operationFile(module, &random)),
                         ("Module\(module)ViewController.swift", controllerFile(module, &random))] {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        files.append(path)
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).count
    }
    module += 1
}
let bytes = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
print("corpus: \(lines) lines, \(files.count) files, \(bytes / 1024) KiB, \(module * 2) flows; \(ProcessInfo.processInfo.activeProcessorCount) cores; median of \(runs) runs")

@MainActor func median(_ work: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        work()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[times.count / 2]
}

@MainActor func readSources() -> [SourceText] {
    files.map { SourceText(file: InputFile(path: $0), contents: (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") }
}

var sink = 0
let parseSerial = median { sink &+= FlowIOSLoader.parseOnly(readSources(), parallel: false) }
let parseParallel = median { sink &+= FlowIOSLoader.parseOnly(readSources(), parallel: true) }
var report: Report?
let check = median { report = FlowLens.check([folder], workingDirectory: folder) }

@MainActor func rate(_ seconds: Double) -> String {
    let perSecond = Double(lines) / seconds
    return String(format: "%9.0f lines/s  (%.3f s)", perSecond, seconds)
}
print("parse only, 1 thread        \(rate(parseSerial))")
print("parse only, all cores       \(rate(parseParallel))")
print("flowlens check, all cores   \(rate(check))  — load, resolve, analyse \(report?.graph.flows.count ?? 0) flows, \(report?.findings.count ?? 0) findings")
print(String(format: "ratio check / parse-only (all cores): %.2f", parseParallel / check))

// `--cache-path`: the same check when every file is unchanged since the last run (a warm cache).
let cachePath = folder + "/benchmark-cache.json"
let cold = LoadCache(path: cachePath)
_ = FlowLens.check([folder], configurationFile: nil, cache: cold, workingDirectory: folder)
try? cold.save()
var reused = (0, 0)
let warm = median {
    let cache = LoadCache(path: cachePath)
    report = FlowLens.check([folder], configurationFile: nil, cache: cache, workingDirectory: folder)
    reused = cache.statistics
}
print("flowlens check, warm cache  \(rate(warm))  — reused \(reused.0) of \(reused.0 + reused.1) files")
print(String(format: "ratio warm-cache check / check: %.2f (%.1fx faster)", warm / check, check / warm))
if sink == 42 { print("") }  // keeps the parse results alive
if only != "check" { try largeDiagramBenchmark(steps: largeSteps, errorEvery: errorEvery, runs: runs, dumpDOT: dumpDOT) }
if only != "check" { try largeFlowsBenchmark(sizes: flowSizes, runs: runs) }
