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
        // A folder where Checkout's diagram goes: renaming the diagram onto it fails.
        try FileManager.default.createDirectory(atPath: root + "/out/Checkout.\(format)/keep", withIntermediateDirectories: true)
        let run = try flowlens(["export", ".", "--output", "out", "--format", format, "--jobs", jobs], in: root)
        #expect(run.status == 2)
        #expect(run.stderr.contains("flowlens: error: cannot write 'out/Checkout.\(format)': is a directory\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"))
        #expect(FileManager.default.fileExists(atPath: root + "/out/Refund.\(format)"))
        #expect(FileManager.default.fileExists(atPath: root + "/out/report.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func staleTemporaryFilesOfAnInterruptedExportAreRemoved() throws {
        let root = try folderWithFlows()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        for name in [".flowlens-tmp-4242-1A2B3C4D", ".dat.nosyncc1f2.Checkout.svg", ".keep"] {
            try Data("half".utf8).write(to: URL(fileURLWithPath: root + "/out/" + name))
        }
        let run = try flowlens(["export", ".", "--output", "out", "--format", "dot"], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out").filter { $0.hasPrefix(".") } == [".keep"])
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
