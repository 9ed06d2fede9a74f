import Foundation
import FlowModel
import Testing
@testable import FlowLoaders

/// Loading sets of files: order, unique flow ids, unreadable files.
@Suite("Source loader")
struct SourceLoaderTests {
    private func file(_ tmp: TempFolder, _ name: String) -> InputFile {
        InputFile(path: tmp(name), displayPath: name, kind: .declarative)
    }

    @Test("load(files:) keeps the given order and qualifies a repeated flow id with its file")
    func orderAndUniqueIDs() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("b.flow.yaml", flowFile(id: "checkout", name: "Checkout B"))
        try tmp.write("a.flow.yaml", """
            version: 1
            flows:
              - name: Checkout A
                id: checkout
                steps: [{id: s}]
              - name: Other
                steps: [{id: s}]
            """)
        let graph = SourceLoader().load(files: [file(tmp, "b.flow.yaml"), file(tmp, "a.flow.yaml")])
        #expect(graph.loadFindings == [])
        #expect(graph.files == ["b.flow.yaml", "a.flow.yaml"])
        #expect(graph.flows.map(\.id) == ["checkout", "checkout@a.flow.yaml", "Other"])
        #expect(graph.flows.map(\.name) == ["Checkout B", "Checkout A", "Other"])
        #expect(graph.flows.map(\.location?.file) == ["b.flow.yaml", "a.flow.yaml", "a.flow.yaml"])
        #expect(graph.flow(named: "checkout")?.name == "Checkout B")
        #expect(graph.flow(named: "checkout@a.flow.yaml")?.name == "Checkout A")
    }

    @Test("loading many files in parallel gives the same graph every time")
    func deterministic() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        var files: [InputFile] = []
        for index in 0..<40 {
            let name = String(format: "f%02d.flow.yaml", (index * 7) % 40)  // not in name order
            // Every third file repeats the id `shared`; every fifth is broken.
            let text = index % 5 == 4 ? "version: 1\nflows: []\n" : flowFile(id: index % 3 == 0 ? "shared" : "id\(index)")
            try tmp.write(name, text)
            files.append(file(tmp, name))
        }
        let first = SourceLoader().load(files: files)
        #expect(first.files == files.map(\.displayPath))
        #expect(first.loadFindings.count == 8)
        #expect(first.loadFindings.map(\.location?.file) == files.enumerated().filter { $0.offset % 5 == 4 }.map(\.element.displayPath))
        #expect(Set(first.flows.map(\.id)).count == first.flows.count)
        #expect(first.flows.first?.id == "shared")
        #expect(first.flows.filter { $0.id.hasPrefix("shared@") }.count == 10)
        for _ in 0..<10 {
            let again = SourceLoader().load(files: files)
            #expect(again.flows == first.flows)
            #expect(again.loadFindings == first.loadFindings)
            #expect(again.files == first.files)
        }
    }

    @Test("uniquingFlowIDs: the first keeps its id, later ones get @file, then a number (also without a location)")
    func uniquing() {
        let flows = [
            Flow(id: "x", kind: .declarative, location: SourceLocation(file: "a.flow.yaml", line: 3, column: 5)),
            Flow(id: "x", kind: .declarative, location: SourceLocation(file: "b.flow.yaml", line: 3, column: 5)),
            Flow(id: "y", kind: .declarative, location: SourceLocation(file: "b.flow.yaml", line: 9, column: 5)),
            Flow(id: "x", kind: .declarative, location: SourceLocation(file: "c.flow.yaml", line: 3, column: 5)),
            Flow(id: "x", kind: .declarative, location: SourceLocation(file: "c.flow.yaml", line: 9, column: 5)),
            Flow(id: "x", kind: .reflected),
        ]
        var findings: [Finding] = []
        let unique = SourceLoader.uniquingFlowIDs(&findings, flows)
        #expect(unique.map(\.id) == ["x", "x@b.flow.yaml", "y", "x@c.flow.yaml", "x@c.flow.yaml#2", "x#2"])
        #expect(unique.map(\.name) == ["x", "x", "y", "x", "x", "x"])  // names are untouched
    }

    @Test("uniquingFlowIDs: references from the renamed flow's own file follow it (parent, composite step, crossing edge, findings)")
    func uniquingFollowsReferences() {
        func machine(_ id: String, _ file: String, line: Int, parent: String? = nil, steps: [Step] = [], transitions: [Transition] = []) -> Flow {
            Flow(id: id, kind: .flowKit, location: SourceLocation(file: file, line: line, column: 1), steps: steps,
                 transitions: transitions, parent: parent)
        }
        var crossing = Transition(from: "X", to: "A")
        crossing.crossesInto = "Root"
        let flows = [
            machine("Root", "a/S.puml", line: 1, steps: [Step(id: "Sub", kind: .subflow, subflow: "Sub")]),
            machine("Sub", "a/S.puml", line: 3, parent: "Root"),
            machine("Root", "b/S.puml", line: 1, steps: [Step(id: "Sub", kind: .subflow, subflow: "Sub")]),
            machine("Sub", "b/S.puml", line: 5, parent: "Root", transitions: [crossing]),
        ]
        var findings = [Finding.invalidInput("x", at: SourceLocation(file: "b/S.puml", line: 6, column: 1), flow: "Sub"),
                        Finding.invalidInput("y", at: SourceLocation(file: "a/S.puml", line: 4, column: 1), flow: "Sub")]
        let unique = SourceLoader.uniquingFlowIDs(&findings, flows)
        #expect(unique.map(\.id) == ["Root", "Sub", "Root@b/S.puml", "Sub@b/S.puml"])
        #expect(unique.map(\.parent) == [nil, "Root", nil, "Root@b/S.puml"])
        #expect(unique.map { $0.steps.first?.subflow } == ["Sub", nil, "Sub@b/S.puml", nil])
        #expect(unique[3].transitions.first?.crossesInto == "Root@b/S.puml")
        #expect(findings.map(\.flow) == ["Sub@b/S.puml", "Sub"])
    }

    @Test("a non-UTF-8 file is one finding at 1:1; the other files still load")
    func notUTF8() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("bad.flow.yaml", data: Data("version: 1\nflows:\n  - name: Caf".utf8) + Data([0xE9, 0x0A]))
        try tmp.write("good.flow.yaml", minimalFlow)
        let graph = SourceLoader().load(files: [file(tmp, "bad.flow.yaml"), file(tmp, "good.flow.yaml")])
        #expect(graph.loadFindings == [
            .invalidInput("file is not UTF-8 text", at: SourceLocation(file: "bad.flow.yaml", line: 1, column: 1)),
        ])
        #expect(graph.files == ["bad.flow.yaml", "good.flow.yaml"])
        #expect(graph.flows.map(\.id) == ["Minimal"])
    }

    @Test("a file that cannot be read is one finding without a position")
    func unreadable() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        let graph = SourceLoader().load(files: [file(tmp, "vanished.flow.yaml")])
        #expect(graph.loadFindings == [.invalidInput("cannot read file", at: SourceLocation(file: "vanished.flow.yaml"))])
        #expect(graph.files == ["vanished.flow.yaml"])
        #expect(graph.flows == [])
    }

    @Test("a file is read to its end whatever its size said (it grew since), and no further than the budget")
    func readToEnd() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try tmp.write("big.bin", data: Data(bytes))
        try tmp.write("empty.bin", data: Data())
        func read(_ name: String, size: Int, limit: Int) -> [UInt8]? {
            let descriptor = open(tmp(name), O_RDONLY)
            defer { close(descriptor) }
            return InputReading.readToEnd(descriptor, size: size, limit: limit)
        }
        #expect(read("big.bin", size: 200_000, limit: 1_000_000) == bytes)
        #expect(read("big.bin", size: 10, limit: 1_000_000) == bytes)      // grown since `fstat`
        #expect(read("big.bin", size: 0, limit: 1_000_000) == bytes)
        #expect(read("big.bin", size: 10, limit: 150_001) == Array(bytes.prefix(150_001)))
        #expect(read("big.bin", size: 300_000, limit: 1_000_000) == bytes) // shrunk since
        #expect(read("empty.bin", size: 0, limit: 10) == [])
        #expect(read("empty.bin", size: 0, limit: 0) == [])
    }

    @Test("a UTF-8 byte-order mark is accepted")
    func byteOrderMark() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("bom.flow.yaml", data: Data([0xEF, 0xBB, 0xBF]) + Data(minimalFlow.utf8))
        let graph = SourceLoader().load(files: [file(tmp, "bom.flow.yaml")])
        #expect(graph.loadFindings == [])
        #expect(graph.flows.first?.location == SourceLocation(file: "bom.flow.yaml", line: 3, column: 5))
    }

    @Test("CRLF line ends give the same positions as LF")
    func crlf() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("crlf.flow.yaml", minimalFlow.replacingOccurrences(of: "\n", with: "\r\n"))
        let graph = SourceLoader().load(files: [file(tmp, "crlf.flow.yaml")])
        #expect(graph.loadFindings == [])
        #expect(graph.flows.first?.steps.first?.location == SourceLocation(file: "crlf.flow.yaml", line: 5, column: 9))
    }

    @Test("no files, an empty graph")
    func noFiles() {
        let graph = SourceLoader().load(files: [])
        #expect(graph.flows == [] && graph.files == [] && graph.loadFindings == [])
    }

    @Test("load(paths:): discovery findings first, files sorted, positions in display paths")
    func loadPaths() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("flows/b.flow.yaml", flowFile(id: "same"))
        try tmp.write("flows/a.flow.yaml", flowFile(id: "same"))
        try tmp.write("flows/broken.flow.yaml", "version: 2\nflows: []\n")
        let graph = SourceLoader().load(paths: [tmp("missing"), tmp("flows")], workingDirectory: tmp.path)
        #expect(graph.files == ["flows/a.flow.yaml", "flows/b.flow.yaml", "flows/broken.flow.yaml"])
        #expect(graph.loadFindings == [
            .invalidInput("no such file or folder", at: SourceLocation(file: "missing")),
            .invalidInput("unsupported version 2: this FlowLens reads version 1",
                          at: SourceLocation(file: "flows/broken.flow.yaml", line: 1, column: 10)),
        ])
        #expect(graph.flows.map(\.id) == ["same", "same@flows/b.flow.yaml"])
        #expect(graph.flows.map(\.location?.file) == ["flows/a.flow.yaml", "flows/b.flow.yaml"])
    }

    @Test("the loader for each kind")
    func loaderForKind() {
        guard case let .perFile(declarative) = SourceLoader().strategy(for: .declarative) else {
            Issue.record("the declarative format is loaded file by file")
            return
        }
        #expect(declarative is DeclarativeLoader)
        guard case let .batch(swift) = SourceLoader().strategy(for: .swift) else {
            Issue.record("Swift sources are loaded together")
            return
        }
        #expect(swift is SwiftSourcesLoader)
    }

    @Test("the test fixtures folder, discovered from the bundle: JSON and YAML define the same ids")
    func fixturesFolder() throws {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).path
        // (Its `plantuml-corpus/` folder is `PlantUMLCorpusTests`'.)
        let graph = SourceLoader().load(paths: ["equivalent.flow.json", "equivalent.flow.yaml"], workingDirectory: folder)
        #expect(graph.loadFindings == [])
        #expect(graph.files == ["equivalent.flow.json", "equivalent.flow.yaml"])
        #expect(graph.flows.map(\.id) == ["upload", "notify-seller", "upload@equivalent.flow.yaml", "notify-seller@equivalent.flow.yaml"])
    }

    /// The repository's samples (samples/README.md): clean flows load without findings; of the broken
    /// ones, only the unparsable file and the version-2 file are loader findings.
    @Test("the repository samples load as documented")
    func samples() throws {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let samples = root.appendingPathComponent("samples/declarative").path
        try #require(FileManager.default.fileExists(atPath: samples))
        let graph = SourceLoader().load(paths: [samples], workingDirectory: root.path)
        #expect(graph.files.contains("samples/declarative/checkout.flow.yaml"))
        #expect(graph.files == graph.files.sorted())
        #expect(graph.loadFindings.map(\.location) == [
            SourceLocation(file: "samples/declarative/broken/invalid-input.flow.yaml", line: 13, column: 9),
            SourceLocation(file: "samples/declarative/broken/invalid-version.flow.json", line: 3, column: 14),
        ])
        #expect(graph.loadFindings.allSatisfy { $0.rule == "invalid-input" })
        #expect(Set(graph.flows.map(\.id)).count == graph.flows.count)
        for id in ["checkout", "charge-card", "image-upload", "onboarding", "sign-up"] {
            #expect(graph.flow(named: id)?.kind == .declarative, "sample flow \(id)")
        }
    }
}
