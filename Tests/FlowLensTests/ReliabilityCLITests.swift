import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Write errors and export names (issues 16 and 20): one sentence with the path and the cause, exit 2,
/// and everything that can still be written is.
@Suite("reliability: write errors and export names", .serialized)
struct ReliabilityCLITests {
    private let flows = """
        version: 1
        flows:
          - name: Checkout
            steps:
              - {id: pay, next: done}
              - {id: done, kind: end}
          - name: Refund
            steps:
              - {id: refund, next: done}
              - {id: done, kind: end}
        """

    private func folderWithFlows(_ text: String? = nil) throws -> String {
        let root = try temporaryDirectory()
        try Data((text ?? flows).utf8).write(to: URL(fileURLWithPath: root + "/shop.flow.yaml"))
        return root
    }

    @Test func checkIntoAFullDiskIsASentenceNotACrash() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try run(flowlensBinary, ["check", "--format", "json", "."], in: root, stdoutPath: "/dev/full")
        #expect(result.status == 2)
        #expect(result.stderr == "flowlens: error: cannot write to standard output: no space left on device\n")
    }

    @Test func aClosedPipeIsASentenceNotASignal() throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try runWithClosedStdout(flowlensBinary, ["rules"], in: root)
        #expect(run.status == 2)
        #expect(run.stderr == "flowlens: error: cannot write to standard output: broken pipe\n")
    }

    @Test func exportIntoAFileSaysSo() throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: root + "/out"))
        let run = try flowlens(["export", ".", "--output", "out"], in: root)
        #expect(run.status == 2)
        #expect(run.stderr == "flowlens: error: cannot export to 'out': it is a file, not a folder; give a folder --output can create or write into\n")
    }

    /// DOT text is written one flow after another; SVG pictures as each is drawn, in this process
    /// (`--jobs 1`) or by worker processes (`--jobs 2`), whose files are written while others are drawn.
    @Test(arguments: [("dot", "1"), ("svg", "1"), ("svg", "2")])
    func oneFlowThatCannotBeWrittenDoesNotStopTheOthers(format: String, jobs: String) throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A folder where Checkout's diagram goes: only a regular file is replaced.
        try FileManager.default.createDirectory(atPath: root + "/out/Checkout.\(format)/keep", withIntermediateDirectories: true)
        let run = try flowlens(["export", ".", "--output", "out", "--format", format, "--jobs", jobs], in: root)
        #expect(run.status == 2)
        #expect(run.stderr.contains("flowlens: error: cannot write 'out/Checkout.\(format)': it is a folder, not a regular file: nothing was written\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"))
        #expect(FileManager.default.fileExists(atPath: root + "/out/Refund.\(format)"))
        #expect(FileManager.default.fileExists(atPath: root + "/out/report.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// A temporary file names the process writing it: one whose process is gone (4194305 is past
    /// Linux's largest process id) is removed, one of a process still running (this test's) is kept,
    /// as another export writing into the same folder still needs it.
    @Test func staleTemporaryFilesOfAnInterruptedExportAreRemoved() throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        let running = ".flowlens-tmp-\(getpid())-0A1B2C3D"
        for name in [".flowlens-tmp-4194305-1A2B3C4D", ".dat.nosyncc1f2.Checkout.svg", ".keep", running] {
            try Data("half".utf8).write(to: URL(fileURLWithPath: root + "/out/" + name))
        }
        let run = try flowlens(["export", ".", "--output", "out", "--format", "dot"], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").filter { $0.hasPrefix(".") }.sorted() == [".flowlens-tmp-\(getpid())-0A1B2C3D", ".keep"])
    }

    /// The cache, a baseline and a `--touch` file are written the same way, and what a killed run
    /// left beside them goes with the next run, even when the cache itself does not change.
    @Test func staleTemporaryFilesBesideTheCacheAndBaselineAreRemoved() throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let arguments = ["check", ".", "--cache-path", "state/cache.json", "--write-baseline", "state/baseline.json", "--touch", "state/passed"]
        #expect(try flowlens(arguments, in: root).status == 0)
        let cache = FileManager.default.contents(atPath: root + "/state/cache.json")
        try Data("half".utf8).write(to: URL(fileURLWithPath: root + "/state/.flowlens-tmp-4194305-1A2B3C4D"))
        let run = try flowlens(arguments, in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/state").sorted() == ["baseline.json", "cache.json", "passed"])
        #expect(FileManager.default.contents(atPath: root + "/state/cache.json") == cache)
    }

    /// Same inputs, same bytes: every sample of every library, each output three times, with one
    /// renderer or several (worker processes finish in any order) and the analysis on all cores.
    @Test("three runs write the same bytes, whatever the number of render processes",
          arguments: [["check", "samples", "--format", "json"],
                      ["check", "samples", "--format", "sarif"],
                      ["export", "samples", "--output", "OUT", "--format", "svg", "--jobs", "JOBS"],
                      ["export", "samples", "--output", "OUT", "--format", "html", "--jobs", "JOBS"],
                      ["export", "samples", "--output", "OUT", "--format", "mermaid"]])
    func sameInputsSameBytes(_ template: [String]) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var outputs: [[String: Data]] = []
        for (index, jobs) in ["1", "2", "3"].enumerated() {
            let folder = root + "/run\(index)"
            let arguments = template.map { $0.replacingOccurrences(of: "OUT", with: folder).replacingOccurrences(of: "JOBS", with: jobs) }
            let result = try run(flowlensBinary, arguments)
            // The samples' planted defects include files that cannot be read: status 2, not a write error.
            #expect(result.status == 2 && !result.stderr.contains("flowlens: error"), "\(result.stderr)")
            var output = FileManager.default.fileExists(atPath: folder) ? try Self.files(in: folder) : [:]
            output["standard output"] = Data(result.stdout.utf8)
            outputs.append(output)
        }
        #expect(outputs[0].count > 1 || template[0] == "check")
        for output in outputs.dropFirst() {
            #expect(output.keys.sorted() == outputs[0].keys.sorted())
            for (name, data) in outputs[0] { #expect(output[name] == data, "'\(name)' differs between runs of \(template.joined(separator: " "))") }
        }
    }

    /// A CI job cancelled, a laptop lid closed, an OOM killer: `SIGKILL` gives FlowLens no chance to
    /// clean up, so whatever it had written by then must already be whole. Each run is killed at a
    /// different moment of an uninterrupted run's time (its start, drawing, writing, the end), into the
    /// same folder: every file there is byte for byte the uninterrupted run's, only FlowLens's own
    /// temporary files may be left beside them (`AtomicFile.prefix`), no worker process outlives the
    /// run, and the next run that is not killed removes those temporary files and writes every file.
    @Test("a run killed at any moment leaves whole files only, no worker behind, and the next run repairs all",
          arguments: [["export", "samples", "--output", "OUT", "--format", "svg", "--jobs", "2"],
                      ["export", "samples", "--output", "OUT", "--format", "html", "--jobs", "2"],
                      ["export", "samples", "--output", "OUT", "--format", "md"],
                      ["check", "samples", "--format", "sarif", "--cache-path", "OUT/cache.json", "--write-baseline", "OUT/baseline.json"]])
    func aKilledRunLeavesOnlyWholeFiles(_ template: [String]) throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func arguments(_ folder: String) -> [String] { template.map { $0.replacingOccurrences(of: "OUT", with: folder) } }
        try FileManager.default.createDirectory(atPath: root + "/whole", withIntermediateDirectories: true)
        let started = Date()
        let whole = try run(flowlensBinary, arguments(root + "/whole"))
        let duration = Date().timeIntervalSince(started)
        #expect(whole.status == 2 && !whole.stderr.contains("flowlens: error"), "\(whole.stderr)")  // the samples' unreadable files
        let expected = try Self.files(in: root + "/whole")
        #expect(!expected.isEmpty)
        try FileManager.default.createDirectory(atPath: root + "/killed", withIntermediateDirectories: true)
        // Six moments spread over the run (start, drawing, writing, the end): each killed run lasts
        // its share of the uninterrupted run, so the kills together cost three runs (twelve cost six).
        let moments = 6
        var temporariesSeen = 0
        for moment in 1...moments {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flowlensBinary)
            process.arguments = arguments(root + "/killed")
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exit = ProcessExit(process)
            try process.run()
            usleep(useconds_t(duration * Double(moment) / Double(moments + 1) * 1_000_000))
            let workers = Self.children(of: process.processIdentifier)
            kill(process.processIdentifier, SIGKILL)
            exit.wait()
            for (name, data) in try Self.files(in: root + "/killed") {
                if (name as NSString).lastPathComponent.hasPrefix(AtomicFile.prefix) { temporariesSeen += 1; continue }
                #expect(expected[name] == data, "\(template[0]) killed at \(moment)/\(moments + 1) of its time: '\(name)' is not the whole file")
            }
            // A worker reads its requests from this process: with it gone, its input ends and it exits.
            let deadline = Date().addingTimeInterval(20)
            while !workers.allSatisfy(Self.hasEnded), Date() < deadline { usleep(20_000) }
            #expect(workers.allSatisfy(Self.hasEnded), "a worker outlived the killed run: \(workers)")
        }
        let repaired = try run(flowlensBinary, arguments(root + "/killed"))
        #expect(repaired.status == whole.status, "\(repaired.stderr)")
        let after = try Self.files(in: root + "/killed")
        #expect(after.keys.sorted() == expected.keys.sorted(), "temporary files seen after the kills: \(temporariesSeen)")
        for (name, data) in expected { #expect(after[name] == data, "'\(name)' differs after the repairing run") }
    }

    /// Every file under `folder` (its path from there) with its bytes.
    private static func files(in folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return found }
        while let name = walk.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            // A file renamed away between the listing and the read was a temporary file.
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
               let data = FileManager.default.contents(atPath: path) {
                found[name] = data
            }
        }
        return found
    }

    /// The processes whose parent is `pid` (Linux: /proc).
    private static func children(of pid: pid_t) -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { name -> pid_t? in
            guard let child = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "(comm)": the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// Whether `pid` is gone or a zombie (ended, not yet reaped by whoever adopted it).
    private static func hasEnded(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    @Test func longNamesInAThreeByteScriptAreCutByBytesAndKeptUnique() throws {
        let name = String(repeating: "\u{0BA4}", count: 90)  // Tamil: 3 bytes a letter, 270 bytes
        let text = """
            version: 1
            flows:
              - {name: "\(name)", steps: [{id: a, next: done}, {id: done, kind: end}]}
              - {name: "\(name)x", steps: [{id: a, next: done}, {id: done, kind: end}]}
              - {name: "Big.part2", steps: [{id: a, next: done}, {id: done, kind: end}]}
              - {name: "Big", steps: [{id: a, next: done}, {id: done, kind: end}]}
            """
        let root = try folderWithFlows(text)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try flowlens(["export", ".", "--output", "out", "--format", "mermaid"], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/out").sorted()
        #expect(names.count == 5)
        #expect(names.allSatisfy { $0.utf8.count <= 255 })
        #expect(names.contains("Big.mmd") && names.contains("Big-part2.mmd") && names.contains("report.json"))
        let cut = String(repeating: "\u{0BA4}", count: 66)  // 198 bytes: whole letters within 200
        #expect(names.contains(cut + ".mmd") && names.contains(cut + "-2.mmd"), "\(names)")
    }

    @Test func fileNamesAreUniqueAndLinearForManyFlowsOfOneName() {
        let flows = (0..<3_000).map { Flow(id: "f\($0)", name: $0 % 3 == 0 ? "Report" : "Checkout", kind: .declarative) }
        let names = Exporter.fileNames(for: flows)
        #expect(Set(names.map { $0.lowercased() }).count == flows.count)
        #expect(!names.contains { $0.lowercased() == "report" })
        #expect(names.prefix(4) == ["Report-2", "Checkout", "Checkout-2", "Report-3"])
    }
}
