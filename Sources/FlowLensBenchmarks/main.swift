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
#if os(Linux)
/// glibc's `mallopt` (`<malloc.h>`, which the Glibc module does not export).
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

// Freed memory stays in this process. glibc otherwise hands the freed top of its heaps back to the
// system, and the next run faults it in again page by page: a cost that fell on whichever measurement
// freed hundreds of MB between its runs. Parsing every file of the all-flows corpus took 0.42 s so
// against 0.15 s without (one thread: 0.58 s against 0.29 s), while `check` of the same files, 0.30 s,
// was hardly touched: its ratio read 0.7 where it is 2. No figure should depend on it.
let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>
_ = mallopt(trimThreshold, Int32.max)
#endif

var targetLines = 100_000
var runs = 5
var only: String?
var dumpDOT: String?
var largeSteps = 1000
var errorEvery = 16
var flowSizes = [1_000, 10_000, 100_000]
var replayEvents = 1_000_000
var keepCorpus: String?
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
    case "--events": replayEvents = Int(arguments.popFirst() ?? "") ?? replayEvents
    case "--keep-corpus": keepCorpus = arguments.popFirst()
    default:
        FileHandle.standardError.write(Data("usage: FlowLensBenchmarks [--lines N] [--runs N] [--only check|diagram|flows|export|trace|shapes] [--dump-dot DIR] [--steps N] [--error-every N] [--flow-sizes N,N,...] [--events N] [--keep-corpus DIR]\n".utf8))
        exit(2)
    }
}

// Each part runs in a process of its own (this program with `--only PART`), on a fresh heap, and this
// one stays small. In one process the heap the corpora left (hundreds of MB, kept) slowed the parts
// after them (the 10,000-step flow took 0.092 s against 0.06 s alone: its 100k/10k ratio read 9),
// and a peak memory read in a part counted the corpora's; a child of a large process would inherit
// its high-water mark across `exec` too (see `peakMemory`).
if only == nil {
    for part in ["check", "diagram", "flows", "export", "trace", "shapes"] {
        fflush(nil)  // what this process printed comes first
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        process.arguments = Array(CommandLine.arguments.dropFirst()) + ["--only", part]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { exit(process.terminationStatus) }
    }
    exit(0)
}

if only == "diagram" {
    try largeDiagramBenchmark(steps: largeSteps, errorEvery: errorEvery, runs: runs, dumpDOT: dumpDOT)
    exit(0)
}
if only == "flows" {
    try largeFlowsBenchmark(sizes: flowSizes, runs: runs)
    exit(0)
}
if only == "export" {
    try parallelExportBenchmark(flows: 200, runs: runs)
    exit(0)
}
if only == "trace" {
    replayBenchmark(events: replayEvents)
    exit(0)
}
if only == "shapes" {
    try linearShapesBenchmark()
    exit(0)
}

#if DEBUG
print("warning: a debug build; swift-syntax parses ~37x slower than in release. Use: swift run -c release FlowLensBenchmarks")
#endif

/// A small deterministic generator (a linear congruential sequence), so every run sees one corpus.
struct Generator {
    var state: UInt64 = 0x5EED_F10E
    init(state: UInt64 = 0x5EED_F10E) { self.state = state }
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

/// A corpus written to a temporary folder: its files and size.
struct Corpus {
    let name: String
    let folder: String
    var files: [String] = []
    var lines = 0
    var flowFiles = 0

    init(name: String, keptIn parent: String?) throws {
        self.name = name
        // `--keep-corpus DIR` writes the corpora to DIR/NAME and leaves them there (to profile
        // `flowlens check` on them); otherwise a temporary folder removed at the end.
        folder = parent.map { $0 + "/" + name } ?? NSTemporaryDirectory() + "flowlens-benchmark-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    mutating func add(_ name: String, _ text: String, touchesLibrary: Bool) throws {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        files.append(path)
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).count
        if touchesLibrary { flowFiles += 1 }
    }

    var kilobytes: Int {
        files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) } / 1024
    }
}

// The all-flows corpus: every file an operation file or a view controller with flows.
var random = Generator()
var allFlows = try Corpus(name: "flows", keptIn: keepCorpus)
var module = 0
while allFlows.lines < targetLines {
    try allFlows.add("Module\(module)Operations.swift", operationFile(module, &random), touchesLibrary: true)
    try allFlows.add("Module\(module)ViewController.swift", controllerFile(module, &random), touchesLibrary: true)
    module += 1
}
// The app-shaped corpus: in every ten files, one touches a flow library (operations, a view
// controller with flows, or operations reading keys from a constants file) and nine are ordinary code.
var app = try Corpus(name: "app", keptIn: keepCorpus)
var appRandom = Generator(state: 0xA99_5EED)
var group = 0, ordinary = 0
while app.lines < targetLines {
    switch group % 3 {
    case 0: try app.add("Module\(group)Operations.swift", operationFile(group, &appRandom), touchesLibrary: true)
    case 1: try app.add("Module\(group)ViewController.swift", controllerFile(group, &appRandom), touchesLibrary: true)
    default:
        try app.add("Module\(group)Keyed.swift", keyedOperationFile(group), touchesLibrary: true)
        try app.add("Module\(group)Keys.swift", keysFile(group), touchesLibrary: false)
    }
    let others = group % 3 == 2 ? 8 : 9
    for _ in 0..<others {
        try app.add("App\(ordinary).swift", ordinaryFile(ordinary, &appRandom), touchesLibrary: false)
        ordinary += 1
    }
    group += 1
}
defer {
    if keepCorpus == nil {
        try? FileManager.default.removeItem(atPath: allFlows.folder)
        try? FileManager.default.removeItem(atPath: app.folder)
    }
}
print("\(ProcessInfo.processInfo.activeProcessorCount) cores; median of \(runs) runs")
for corpus in [allFlows, app] {
    print("corpus '\(corpus.name)': \(corpus.lines) lines, \(corpus.files.count) files (\(corpus.flowFiles) touch a flow library), \(corpus.kilobytes) KiB")
}

@MainActor func median(_ work: () -> Void) -> Double { medianTime(runs: runs, work) }

/// The median times of `first` and `second`, run in turn (`first`, `second`, `first` …) rather than
/// one's runs after the other's: a ratio of the two then compares runs made under the same load, where
/// a machine whose load drifts moved whichever block ran later.
@MainActor func interleavedMedians(_ first: () -> Void, _ second: () -> Void) -> (Double, Double) {
    var times: ([Double], [Double]) = ([], [])
    for _ in 0..<runs {
        times.0.append(seconds(first))
        times.1.append(seconds(second))
    }
    return (times.0.sorted()[runs / 2], times.1.sorted()[runs / 2])
}

func readSources(_ corpus: Corpus) -> [SourceText] {
    corpus.files.map { SourceText(file: InputFile(path: $0), contents: (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") }
}

func rate(_ lines: Int, _ seconds: Double) -> String {
    String(format: "%9.0f lines/s  (%.3f s)", Double(lines) / seconds, seconds)
}

/// The peak resident memory of `flowlens check FOLDER --format json` as a child process, in MiB, as
/// GNU time's `%M` reports it; nil when `/usr/bin/time` or the binary beside this one is missing.
/// (The child's own `ru_maxrss` from `wait4` is no good here: a child spawned from this process
/// carries this process's high-water mark across `exec` on Linux; `time` is a small process, and its
/// child's mark is its own.)
func peakMemory(checking folder: String, everyFile: Bool) -> Double? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("flowlens").path
    guard FileManager.default.isExecutableFile(atPath: binary), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
    let output = folder + ".maxrss"
    defer { try? FileManager.default.removeItem(atPath: output) }
    var environment = ProcessInfo.processInfo.environment
    environment["FLOWLENS_PARSE_EVERY_SWIFT_FILE"] = everyFile ? "1" : nil
    guard (try? ProcessRunner.run("/usr/bin/time", ["-f", "%M", "-o", output, binary, "check", folder, "--format", "json"],
                                  environment: environment, stdout: .discard, stderr: .discard)) != nil else { return nil }
    guard let text = try? String(contentsOfFile: output, encoding: .utf8),
          let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
    return kilobytes / 1024
}

var sink = 0
var figures: [(String, Double, Double)] = []
for corpus in [allFlows, app] {
    print("\ncorpus '\(corpus.name)'")
    let sources = readSources(corpus)
    let parseSerial = median { sink &+= FlowIOSReader.parseOnly(sources, parallel: false) }
    var report: Report?
    let (parseParallel, check) = interleavedMedians({ sink &+= FlowIOSReader.parseOnly(sources, parallel: true) },
                                                    { report = FlowLens.check([corpus.folder], workingDirectory: corpus.folder) })
    // The same check parsing every Swift file: the pre-filter must not change a byte of the report.
    setenv("FLOWLENS_PARSE_EVERY_SWIFT_FILE", "1", 1)
    var everyReport: Report?
    let everyFile = median { everyReport = FlowLens.check([corpus.folder], workingDirectory: corpus.folder) }
    unsetenv("FLOWLENS_PARSE_EVERY_SWIFT_FILE")
    let identical = report.map { JSONReporter().report($0) } == everyReport.map { JSONReporter().report($0) }
    print("parse every file, 1 thread      \(rate(corpus.lines, parseSerial))")
    print("parse every file, all cores     \(rate(corpus.lines, parseParallel))")
    print("flowlens check, all cores       \(rate(corpus.lines, check))  — \(report?.graph.flows.count ?? 0) flows, \(report?.findings.count ?? 0) findings")
    print("check parsing every Swift file  \(rate(corpus.lines, everyFile))  — report \(identical ? "identical" : "DIFFERENT")")
    print(String(format: "ratio check / parse-every-file time (all cores): %.2f", check / parseParallel))
    print(String(format: "ratio check / check parsing every file: %.2f", check / everyFile))
    // What `check` cannot spare a file it parses, besides the parse: the nesting scan (issue 16's
    // bounded work) and one walk of the tree. On the all-flows corpus every file is parsed, so the
    // two together are the least `check` can add to the parse there.
    let scan = median { sink &+= FlowIOSReader.nestingScanOnly(sources) }
    let (parseAgain, parseWalk) = interleavedMedians({ sink &+= FlowIOSReader.parseOnly(sources, parallel: true) },
                                                     { sink &+= FlowIOSReader.parseAndWalk(sources) })
    let walk = max(0, parseWalk - parseAgain) / parseAgain
    print(String(format: "nesting scan of every file, all cores: %.3f s, %.2f of the parse; one tree walk: %.2f of the parse",
                 scan, scan / parseParallel, walk))
    print(String(format: "least ratio for a check that parses every file (parse + scan + walk): %.2f", 1 + scan / parseParallel + walk))
    let memory = peakMemory(checking: corpus.folder, everyFile: false)
    let memoryEvery = peakMemory(checking: corpus.folder, everyFile: true)
    if let memory, let memoryEvery {
        print(String(format: "peak memory of `flowlens check` (child process): %.0f MiB (parsing every file: %.0f MiB)", memory, memoryEvery))
    } else {
        print("peak memory: not measured (build the flowlens product beside this benchmark)")
    }
    if !identical {
        FileHandle.standardError.write(Data("benchmark: the pre-filter changed the report of corpus '\(corpus.name)'\n".utf8))
        exit(1)
    }
    figures.append((corpus.name, check, parseParallel))
}

// `--cache-path`: the same check when every file is unchanged since the last run (a warm cache).
let cachePath = allFlows.folder + "/benchmark-cache.json"
let cold = LoadCache(path: cachePath)
_ = FlowLens.check([allFlows.folder], configurationFile: nil, cache: cold, workingDirectory: allFlows.folder)
try? cold.save()
var reused = (0, 0)
let warm = median {
    let cache = LoadCache(path: cachePath)
    _ = FlowLens.check([allFlows.folder], configurationFile: nil, cache: cache, workingDirectory: allFlows.folder)
    reused = cache.statistics
}
let allFlowsCheck = figures[0].1
print("\nflowlens check, warm cache ('flows')  \(rate(allFlows.lines, warm))  — reused \(reused.0) of \(reused.0 + reused.1) files")
print(String(format: "ratio warm-cache check / check: %.2f (%.1fx faster)", warm / allFlowsCheck, allFlowsCheck / warm))
if sink == 42 { print("") }  // keeps the parse results alive
