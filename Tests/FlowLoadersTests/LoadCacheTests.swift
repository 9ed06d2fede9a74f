import Foundation
import FlowModel
import Testing
@testable import FlowLoaders

/// `LoadCache`: unchanged files are not parsed again, and the result is the same as without a cache.
@Suite("Load cache")
struct LoadCacheTests {
    /// A folder of one file of each per-file kind and two Swift files, and a cache file beside them.
    struct Fixture {
        let tmp: TempFolder
        var cachePath: String { tmp("cache/flowlens.json") }

        init() throws {
            tmp = try TempFolder()
            try tmp.write("a.flow.yaml", flowFile(id: "a"))
            try tmp.write("b.flow.yaml", flowFile(id: "b"))
            try tmp.write("task.rb", """
                class FeedController
                  def refresh
                    @task = async do
                      task { @items = Feed.load }
                    end
                  end
                end
                """)
            try tmp.write("Checkout.puml", """
                @startuml
                !$platform = %getenv("FLOWKIT_" + "PLATFORM")
                [*] --> Cart
                !if ($platform == "ios")
                Cart --> ApplePay
                ApplePay --> [*]
                !else
                Cart --> [*]
                !endif
                @enduml
                """)
            try tmp.write("Login.swift", """
                final class LoginOp: FlowOperation {
                    override func execute() { flowData["token"] = "t" }
                }
                """)
            try tmp.write("Flows.swift", """
                final class Flows {
                    func login() {
                        Flow().add(operation: LoginOp()).start()
                    }
                }
                """)
        }

        var files: [InputFile] {
            ["Checkout.puml", "Flows.swift", "Login.swift", "a.flow.yaml", "b.flow.yaml", "task.rb"]
                .map { InputFile(path: tmp($0), displayPath: $0) }
        }

        /// Loads every file through a cache read from `cachePath`, saves it, and returns the graph and counts.
        func load(environment: [String: String] = ["FLOWKIT_PLATFORM": "ios"]) throws -> (FlowGraph, reused: Int, parsed: Int) {
            let cache = LoadCache(path: cachePath)
            var loader = SourceLoader(environment: environment)
            loader.cache = cache
            let graph = loader.load(files: files)
            try cache.save()
            let (reused, parsed) = cache.statistics
            return (graph, reused, parsed)
        }

        func uncached(environment: [String: String] = ["FLOWKIT_PLATFORM": "ios"]) -> FlowGraph {
            SourceLoader(environment: environment).load(files: files)
        }
    }

    /// The parts of a graph a cache could change.
    private func same(_ a: FlowGraph, _ b: FlowGraph) -> Bool {
        a.flows == b.flows && a.files == b.files && a.loadFindings == b.loadFindings && a.suppressions == b.suppressions
            && a.machineImplementations == b.machineImplementations && a.models == b.models
    }

    @Test("a second run parses no file and gets the same graph as an uncached run")
    func warmRunParsesNothing() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        let (cold, coldReused, coldParsed) = try fixture.load()
        #expect((coldReused, coldParsed) == (0, 6))
        let (warm, reused, parsed) = try fixture.load()
        #expect((reused, parsed) == (6, 0))
        let uncached = fixture.uncached()
        #expect(uncached.flows.map(\.kind) == [.plantUML, .flowIOS, .declarative, .declarative, .elevate])
        #expect(same(cold, uncached))
        #expect(same(warm, uncached))
    }

    @Test("changing one YAML file re-parses exactly that file")
    func changedFileReparsed() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        _ = try fixture.load()
        try fixture.tmp.write("b.flow.yaml", flowFile(id: "b2"))
        let (graph, reused, parsed) = try fixture.load()
        #expect((reused, parsed) == (5, 1))
        #expect(graph.flows.contains { $0.id == "b2" })
        #expect(!graph.flows.contains { $0.id == "b" })
        #expect(same(graph, fixture.uncached()))
    }

    @Test("a PlantUML file is re-parsed when a variable its %getenv read changes, not when another one does")
    func plantUMLEnvironment() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        _ = try fixture.load(environment: ["FLOWKIT_PLATFORM": "ios", "OTHER": "1"])
        let (_, reusedOther, parsedOther) = try fixture.load(environment: ["FLOWKIT_PLATFORM": "ios", "OTHER": "2"])
        #expect((reusedOther, parsedOther) == (6, 0))
        let (android, reused, parsed) = try fixture.load(environment: ["FLOWKIT_PLATFORM": "android"])
        #expect((reused, parsed) == (5, 1))
        #expect(same(android, fixture.uncached(environment: ["FLOWKIT_PLATFORM": "android"])))
        #expect(!android.flows.contains { $0.steps.contains { $0.name == "ApplePay" } })
        // Unset is a value too: the file read it, so it is re-parsed.
        let (_, reusedUnset, parsedUnset) = try fixture.load(environment: [:])
        #expect((reusedUnset, parsedUnset) == (5, 1))
    }

    @Test("the Swift files are one unit: one changed Swift file re-parses all of them, the others are reused")
    func swiftBatch() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        _ = try fixture.load()
        try fixture.tmp.write("Login.swift", """
            final class LoginOp: FlowOperation {
                override func execute() { flowData["session"] = "s" }
            }
            """)
        let (graph, reused, parsed) = try fixture.load()
        #expect((reused, parsed) == (4, 2))
        #expect(same(graph, fixture.uncached()))
    }

    @Test("a corrupt, foreign or other-version cache file is ignored and rewritten")
    func unusableCacheFiles() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        let uncached = fixture.uncached()
        let header = #"{"format":"flowlens-cache","formatVersion":\#(LoadCache.formatVersion),"tool":"\#(FlowLensTool.version)"}"#
        let input = #"{"environment":[],"files":[{"displayPath":"a.flow.yaml","kind":"declarative","path":"\#(fixture.tmp("a.flow.yaml"))","sha256":"x"}],"key":"k"}"#
        // Then a cache whose entries are all valid but for their graphs.
        let (_, _, _) = try fixture.load()
        let valid = try String(contentsOfFile: fixture.cachePath, encoding: .utf8).split(separator: "\n")
        let badGraphs = valid.enumerated().map { $0.offset > 0 && $0.offset % 2 == 0 ? "{\"flows\": 7}" : String($0.element) }
        try FileManager.default.removeItem(atPath: fixture.cachePath)
        for junk in ["", "{", "not json at all", "[1, 2]", #"{"format": "flowlens-cache", "formatVersion": 999, "tool": "x"}"#,
                     header + "\n", header + "\ngarbage\n", header + "\n" + input + "\n", header + "\n" + input + "\n{}",
                     badGraphs.joined(separator: "\n") + "\n"] {
            try fixture.tmp.write("cache/flowlens.json", junk)
            let (graph, reused, parsed) = try fixture.load()
            #expect((reused, parsed) == (0, 6), "\(junk)")
            #expect(same(graph, uncached))
            #expect(LoadCache(path: fixture.cachePath).ignoredReason == nil, "rewritten after '\(junk)'")
        }
        // A cache written by another tool identity is not used.
        _ = try fixture.load()
        let other = LoadCache(path: fixture.cachePath, toolIdentity: "9.9.9")
        #expect(other.ignoredReason != nil)
    }

    @Test("runs over different inputs keep each other's entries; entries of deleted files are dropped")
    func sharedAndPruned() throws {
        let fixture = try Fixture()
        defer { fixture.tmp.cleanUp() }
        let other = try TempFolder()
        defer { other.cleanUp() }
        try other.write("c.flow.yaml", flowFile(id: "c"))
        _ = try fixture.load()
        // Another input, same cache file.
        let cache = LoadCache(path: fixture.cachePath)
        var loader = SourceLoader()
        loader.cache = cache
        _ = loader.load(files: [InputFile(path: other("c.flow.yaml"), displayPath: "c.flow.yaml")])
        try cache.save()
        #expect(cache.statistics == (0, 1))
        // The first input is still all cached.
        #expect(try fixture.load().reused == 6)
        // c.flow.yaml was not used by that run but still exists: kept.
        var text = try String(contentsOfFile: fixture.cachePath, encoding: .utf8)
        #expect(text.contains(other("c.flow.yaml")))
        // Once deleted, the next save drops it.
        try FileManager.default.removeItem(atPath: other("c.flow.yaml"))
        try fixture.tmp.write("a.flow.yaml", flowFile(id: "a2"))  // something to save
        _ = try fixture.load()
        text = try String(contentsOfFile: fixture.cachePath, encoding: .utf8)
        #expect(!text.contains(other("c.flow.yaml")))
    }

    @Test("SHA-256 matches the FIPS 180-4 examples")
    func sha256() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
