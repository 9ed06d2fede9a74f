import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// `--shard I/N` and `flowlens merge`: the shards' merged reports are what one run prints.
@Suite("sharded runs", .serialized)
struct ShardMergeTests {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    /// Runs `check` over `paths` in N shards and merges them; expects every format's output and the
    /// exit status to be one unsharded run's, byte for byte. Returns the shards' reports.
    @discardableResult
    func expectMergeIsWholeRun(_ paths: [String], shards n: Int, in directory: String = packageRoot,
                               extra: [String] = []) throws -> [JSONValue] {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var reports: [String] = []
        var values: [JSONValue] = []
        for i in 1...n {
            let run = try flowlens(["check"] + paths + extra + ["--shard", "\(i)/\(n)", "--format", "json"], in: directory)
            #expect(run.status != 64 && !run.stdout.isEmpty, "shard \(i)/\(n): \(run.stderr)")
            let path = scratch + "/shard-\(i).json"
            try run.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            reports.append(path)
            values.append(try JSONValue.parse(run.stdout))
        }
        for format in Self.formats {
            let whole = try flowlens(["check"] + paths + extra + ["--format", format, "--color", "never"], in: directory)
            // Given in reverse: the order of the reports does not matter.
            let merged = try flowlens(["merge"] + reports.reversed() + extra + ["--format", format, "--color", "never"], in: directory)
            #expect(merged.stdout == whole.stdout, "N=\(n) \(format): the merged output differs from one run's")
            #expect(merged.status == whole.status, "N=\(n) \(format): status \(merged.status), one run's \(whole.status); \(merged.stderr)")
            if format == "text" { #expect(merged.stderr == whole.stderr, "N=\(n): the summary differs") }
        }
        // Every file is in exactly one shard.
        let files = values.flatMap { $0["files"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        #expect(files.count == Set(files).count, "a file in two shards")
        return values
    }

    @Test(arguments: [1, 2, 3, 7])
    func mergingTheSamplesShardsIsOneRun(shards: Int) throws {
        let reports = try expectMergeIsWholeRun(["samples"], shards: shards)
        if shards > 1 {
            // The split spreads the work: no shard has every file (the samples have many units).
            let counts = reports.map { $0["files"]?.arrayValue?.count ?? 0 }
            #expect(counts.filter { $0 > 0 }.count > 1, "\(counts)")
        }
    }

    /// A project whose flows span files: a sub-flow in another file, a flow id defined twice, and
    /// flows that stand alone.
    func project() throws -> String {
        let root = try temporaryDirectory()
        func write(_ path: String, _ text: String) throws {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try write("orders/place-order.flow.yaml", """
            version: 1
            flows:
              - name: Place order
                data: {basketID: String}
                steps:
                  - {id: reserve, kind: subflow, flow: Reserve stock, next: pay}
                  - {id: pay, reads: {reservationID: String, basketID: String}, writes: {receipt: String}, next: done}
                  - {id: done, kind: end}
            """)
        try write("stock/reserve.flow.yaml", """
            version: 1
            flows:
              - name: Reserve stock
                steps:
                  - {id: hold, writes: {reservationID: Int}, next: done}
                  - {id: done, kind: end}
            """)
        for (n, folder) in ["a", "b"].enumerated() {
            try write("legacy/\(folder)/refund.flow.yaml", """
                version: 1
                flows:
                  - id: refund
                    name: Refund \(folder)
                    steps:
                      - {id: start, reads: {amount\(n): Decimal}, next: done}
                      - {id: done, kind: end}
                """)
        }
        for name in ["signup", "newsletter", "password-reset", "delete-account", "export-data"] {
            try write("account/\(name).flow.yaml", """
                version: 1
                flows:
                  - name: \(name)
                    steps:
                      - {id: ask, writes: {email: String}, next: confirm}
                      - {id: confirm, reads: {email: String, token: String}, next: done}
                      - {id: orphan, next: done}
                      - {id: done, kind: end}
                """)
        }
        try write("account/broken.flow.yaml", "version: 1\nflows:\n  - name: [unclosed\n")
        return root
    }

    @Test(arguments: [2, 3, 5, 11])
    func flowsSpanningFilesStayInOneShard(shards: Int) throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reports = try expectMergeIsWholeRun(["."], shards: shards, in: root)
        func shard(of file: String) -> Int? {
            reports.firstIndex { ($0["files"]?.arrayValue ?? []).contains(.string(file)) }
        }
        #expect(shard(of: "orders/place-order.flow.yaml") != nil)
        #expect(shard(of: "orders/place-order.flow.yaml") == shard(of: "stock/reserve.flow.yaml"))
        #expect(shard(of: "legacy/a/refund.flow.yaml") == shard(of: "legacy/b/refund.flow.yaml"))
    }

    @Test func theUnitsFollowWhatTheLoadersReadTogether() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (files, _) = InputDiscovery.discover(["."], workingDirectory: root)
        let units = ShardPlanner.units(of: files).map { $0.map(\.displayPath) }
        #expect(units.contains(["orders/place-order.flow.yaml", "stock/reserve.flow.yaml"]))
        #expect(units.contains(["legacy/a/refund.flow.yaml", "legacy/b/refund.flow.yaml"]))
        #expect(units.contains(["account/signup.flow.yaml"]))
        #expect(units.count == 8, "\(units)")  // six alone, two pairs
        // Swift and PlantUML files are one unit: a FlowKit machine and its controller together.
        let (sampleFiles, _) = InputDiscovery.discover(["samples/flowkit", "samples/declarative"], workingDirectory: packageRoot)
        let batch = try #require(ShardPlanner.units(of: sampleFiles).first { $0.contains { $0.kind == .swift } })
        #expect(batch.contains { $0.displayPath == "samples/flowkit/LoginFlow.puml" })
        #expect(batch.contains { $0.displayPath == "samples/flowkit/LoginFlowController.swift" })
    }

    @Test func mergeRefusesReportsThatAreNotOneSplit() throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        func report(_ arguments: [String], _ name: String) throws -> String {
            let path = scratch + "/" + name
            try flowlens(["check", "samples/declarative", "--format", "json"] + arguments).stdout.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let one = try report(["--shard", "1/3"], "1.json"), two = try report(["--shard", "2/3"], "2.json")
        let three = try report(["--shard", "3/3"], "3.json"), whole = try report([], "whole.json")
        let otherSplit = try report(["--shard", "2/2"], "other.json")
        let cases: [([String], String)] = [
            ([one, two], "shard 3/3 missing"),
            ([one, two, three, two], "shard 2/3 is also"),
            ([one, two, otherSplit], "another split"),
            ([one, whole], "cannot be merged with others"),
            ([one, two, three, scratch + "/none.json"], "cannot read"),
        ]
        for (arguments, message) in cases {
            let run = try flowlens(["merge"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let garbage = scratch + "/garbage.json"
        for text in ["{\"schemaVersion\": 1, \"tool\": ", "[1, 2.5]", "{\"schemaVersion\": 2}", ""] {
            try text.write(toFile: garbage, atomically: true, encoding: .utf8)
            let run = try flowlens(["merge", garbage])
            #expect(run.status == 2 && run.stdout.isEmpty, "\(text): \(run.stderr)")
        }
        // One whole run's report merges into itself.
        #expect(try flowlens(["merge", whole, "--format", "json"]).stdout == String(contentsOfFile: whole, encoding: .utf8))
    }

    @Test func shardTakesIOfN() throws {
        for bad in ["0/3", "4/3", "1/0", "a/b", "2", "1/2/3", "+1/2", " 1/2", "1/ 2", "１/2"] {
            let run = try flowlens(["check", "samples/declarative", "--shard", bad])
            #expect(run.status == 2, "\(bad)")
            #expect(run.stderr.contains("--shard takes I/N"), "\(bad): \(run.stderr)")
        }
    }
}
