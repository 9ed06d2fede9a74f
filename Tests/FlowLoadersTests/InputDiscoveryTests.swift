import Foundation
import FlowLensTestSupport
import FlowModel
import Testing
@testable import FlowLoaders

/// Turning the paths a user gives into files: walking, filtering, de-duplicating, display paths.
@Suite("Input discovery")
struct InputDiscoveryTests {
    @Test("file names FlowLens reads", arguments: [
        ("a.flow.yaml", true), ("a.flow.yml", true), ("a.flow.json", true), ("A.FLOW.YAML", true),
        ("dir.flow.yaml/x.flow.Json", true), ("/abs/path/b.Flow.Yml", true),
        ("flow.yaml", false), ("a.yaml", false), ("a.json", false), ("a.flow", false),
        ("a.flow.yaml.bak", false), ("a.flow.yaml/readme.md", false), ("a.flowyaml", false),
    ])
    func sourceKind(name: String, read: Bool) {
        #expect(SourceKind.of(path: name) == (read ? .declarative : nil))
    }

    @Test("Swift files are read as Swift sources", arguments: ["A.swift", "dir/ViewController.SWIFT"])
    func swiftKind(name: String) {
        #expect(SourceKind.of(path: name) == .swift)
    }

    @Test("Ruby files are read as Elevate sources", arguments: ["login_controller.rb", "app/Controllers/Artwork.RB"])
    func rubyKind(name: String) {
        #expect(SourceKind.of(path: name) == .ruby)
    }

    @Test("an ASCII name is matched by its bytes, as the lowercased name was: any name gives the kind it gave")
    func sourceKindByBytes() {
        // What `SourceKind.of` was before names were matched by their bytes.
        func reference(_ path: String) -> SourceKind? {
            let name = (path as NSString).lastPathComponent.lowercased()
            return SourceFileType.all.first { $0.suffixes.contains(where: name.hasSuffix) }?.kind
        }
        let names = [
            "a.swift", "A.SWIFT", "a.Swift/", "dir.swift/", "/", "", ".swift", "swift", "a.swift.", "dir/.rb",
            "x.Flow.YAML", "x.flow.yml", "x.flow.jsoN", "x.FLOW.json/", "a.PUML", "a.PlantUML", "a.plantuml.txt",
            "é.swift", "e\u{301}.swift", "a.swift\u{301}", "A\u{600}.swift", "a.ｓｗｉｆｔ", "a.s\u{130}ft",
            "Stra\u{DF}e.rb", "\u{212A}.rb", "a.r\u{212A}", "x/\u{1F600}.flow.yaml", "a\u{200D}.rb", "a.rb\u{200D}",
            "fold/A.SWİFT", "a.SWIFT/b", "a@#$%.swift", "tab\t.puml",
        ]
        for name in names {
            #expect(SourceKind.of(path: name) == reference(name), "\(name.debugDescription)")
        }
    }

    @Test("the patterns description lists every pattern")
    func patterns() {
        #expect(SourceKind.patternsDescription == "*.flow.yaml, *.flow.yml, *.flow.json, *.swift, *.rb, *.puml, *.plantuml")
        #expect(SourceKind.allCases == [.declarative, .swift, .ruby, .plantUML])
    }

    @Test("the dialects declare their own file types: one kind a name, its loader chosen from the registry")
    func dialectFileTypes() throws {
        #expect(PlantUMLDialect.fileTypes.map(\.kind) == [.plantUML] && ElevateDialect.fileTypes.map(\.kind) == [.ruby])
        #expect(FlowStateDialect.fileTypes.isEmpty && FlowKitDialect.fileTypes.isEmpty)  // read from Swift
        let suffixes = SourceFileType.all.flatMap(\.suffixes)
        #expect(Set(suffixes).count == suffixes.count && suffixes.allSatisfy { $0 == $0.lowercased() })
        #expect(Set(SourceKind.allCases.map(\.rawValue)).count == SourceKind.allCases.count)
        #expect(SourceKind.of(path: "machines/Door.PlantUML") == .plantUML && SourceKind.of(path: "door.puml.txt") == nil)
        // Each per-file kind is read by the loader its file type makes.
        let loader = SourceLoader(environment: [:])
        let door = "@startuml\n[*] --> Closed\nClosed --> Open\n@enduml\n"
        let graph = loader.load([SourceText(file: InputFile(path: "Door.puml"), contents: door),
                                 SourceText(file: InputFile(path: "upload.rb"), contents: "# no task here\n")])
        #expect(graph.flows.map(\.kind) == [.plantUML])
        guard case .perFile? = loader.strategy(for: .ruby), case .batch? = loader.strategy(for: .swift) else {
            Issue.record("ruby is read per file, Swift as one batch")
            return
        }
        #expect(loader.strategy(for: SourceKind(rawValue: "no-such-kind")) == nil)
    }

    @Test("folders are walked recursively; hidden entries and other files are skipped; results are sorted")
    func walk() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("b.flow.yml")
        try tmp.write("a.flow.yaml")
        try tmp.write("c.flow.json")
        try tmp.write("README.md", "# not a flow")
        try tmp.write("notes.yaml", "version: 1")
        try tmp.write("flow.yaml")
        try tmp.write("sub/deeper/D.FLOW.YAML")
        try tmp.write("sub/x.flow.yaml.bak")
        try tmp.write("sub/m.flow.yaml")
        try tmp.write(".hidden/e.flow.yaml")
        try tmp.write(".f.flow.yaml")
        try tmp.write("node/.git/g.flow.yaml")
        try tmp.mkdir("empty")

        let (files, findings) = InputDiscovery.discover([tmp.path], workingDirectory: tmp.path)
        #expect(findings == [])
        #expect(files.map(\.displayPath) == ["a.flow.yaml", "b.flow.yml", "c.flow.json", "sub/deeper/D.FLOW.YAML", "sub/m.flow.yaml"])
        #expect(files.map(\.path) == ["a.flow.yaml", "b.flow.yml", "c.flow.json", "sub/deeper/D.FLOW.YAML", "sub/m.flow.yaml"].map(tmp.callAsFunction))
        #expect(files.allSatisfy { $0.kind == .declarative })
    }

    @Test("results are sorted by display path across arguments (byte order: upper case first)")
    func sortedAcrossArguments() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("z/one.flow.yaml")
        try tmp.write("a/two.flow.yaml")
        try tmp.write("Z.flow.yaml")
        try tmp.write("m.flow.yaml")
        let (files, findings) = InputDiscovery.discover([tmp("z"), tmp("m.flow.yaml"), tmp("a"), tmp("Z.flow.yaml")],
                                                        workingDirectory: tmp.path)
        #expect(findings == [])
        #expect(files.map(\.displayPath) == ["Z.flow.yaml", "a/two.flow.yaml", "m.flow.yaml", "z/one.flow.yaml"])
    }

    // Generous: in the parallel suite a test's time counts while it waits for a core.
    @Test("a symbolic-link loop does not hang, and nothing is listed twice", .timeLimit(.minutes(10)))
    func symlinkLoop() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("a.flow.yaml")
        try tmp.write("sub/b.flow.yaml")
        try tmp.link("loop", to: tmp.path)           // absolute link to the root
        try tmp.link("sub/up", to: "..")              // relative link to the parent
        try tmp.link("sub/self", to: ".")             // link to itself
        let (files, findings) = InputDiscovery.discover([tmp.path], workingDirectory: tmp.path)
        #expect(findings == [])
        #expect(files.map(\.displayPath) == ["a.flow.yaml", "sub/b.flow.yaml"])
    }

    @Test("a file reached through a link is read once, under the first name in walking order")
    func linkedFileReadOnce() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("a.flow.yaml")
        try tmp.link("alias.flow.yaml", to: tmp("a.flow.yaml"))
        try tmp.link("0-first.flow.yaml", to: "a.flow.yaml")
        let (files, findings) = InputDiscovery.discover([tmp.path, tmp("a.flow.yaml"), tmp("alias.flow.yaml")],
                                                        workingDirectory: tmp.path)
        #expect(findings == [])
        #expect(files.count == 1)
        #expect(files.first?.path == tmp("0-first.flow.yaml"))
        #expect(files.first?.displayPath == "0-first.flow.yaml")
    }

    @Test("a linked folder is walked once")
    func linkedFolderOnce() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("real/r.flow.yaml")
        try tmp.link("alias", to: tmp("real"))
        let (files, findings) = InputDiscovery.discover([tmp.path, tmp("real")], workingDirectory: tmp.path)
        #expect(findings == [])
        #expect(files.count == 1)
        // Walked in name order, so the file is found through `alias` first.
        #expect(files.first?.path == tmp("alias/r.flow.yaml"))
        #expect(files.first?.displayPath == "alias/r.flow.yaml")
    }

    @Test("a dangling link named like a flow file in a folder is reported, not skipped silently (issue 20)")
    func danglingLinkInFolder() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("a.flow.yaml")
        try tmp.link("gone.flow.yaml", to: tmp("nowhere.flow.yaml"))
        try tmp.link("gone.txt", to: tmp("nowhere.txt"))
        let (files, findings) = InputDiscovery.discover([tmp.path], workingDirectory: tmp.path)
        #expect(findings == [.invalidInput("broken symbolic link (it points to '\(tmp("nowhere.flow.yaml"))', which does not exist): not read",
                                           at: SourceLocation(file: "gone.flow.yaml"))])
        #expect(files.map(\.displayPath) == ["a.flow.yaml"])
    }

    @Test("paths that cannot be used become invalid-input findings, in argument order; the rest are still found")
    func explicitPaths() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("a.flow.yaml")
        try tmp.write("README.md", "# hi")
        try tmp.write(".f.flow.yaml")
        try tmp.write(".hidden/e.flow.yaml")
        try tmp.link("dangling.flow.yaml", to: tmp("nowhere"))
        let (files, findings) = InputDiscovery.discover(
            [tmp("missing.flow.yaml"), tmp("README.md"), tmp(".f.flow.yaml"), tmp("a.flow.yaml"), tmp.path,
             tmp("dangling.flow.yaml"), tmp(".hidden"), tmp("no/such/folder")],
            workingDirectory: tmp.path)
        let expected = [
            Finding.invalidInput("no such file or folder", at: SourceLocation(file: "missing.flow.yaml")),
            Finding.invalidInput("not a file FlowLens reads (expected *.flow.yaml, *.flow.yml, *.flow.json, *.swift, *.rb, *.puml, *.plantuml)",
                                 at: SourceLocation(file: "README.md")),
            // Found by walking the folder first, and reported once.
            Finding.invalidInput("broken symbolic link (it points to '\(tmp("nowhere"))', which does not exist): not read",
                                 at: SourceLocation(file: "dangling.flow.yaml")),
            Finding.invalidInput("no such file or folder", at: SourceLocation(file: "no/such/folder")),
        ]
        #expect(findings == expected)
        #expect(findings.allSatisfy { $0.rule == "invalid-input" && $0.severity == .error && $0.location?.line == 0 })
        // Named explicitly, hidden files and folders are read; a.flow.yaml, named and walked, is listed once.
        #expect(files.map(\.displayPath) == [".f.flow.yaml", ".hidden/e.flow.yaml", "a.flow.yaml"])
    }

    @Test("a non-flow file given by name in a folder argument is not reported; only explicit ones are")
    func nonFlowFileOnlyReportedWhenExplicit() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("notes.txt", "hello")
        let walked = InputDiscovery.discover([tmp.path], workingDirectory: tmp.path)
        #expect(walked.files == [] && walked.findings == [])
        let named = InputDiscovery.discover([tmp("notes.txt")], workingDirectory: tmp.path)
        #expect(named.files == [])
        #expect(named.findings.map(\.location) == [SourceLocation(file: "notes.txt")])
    }

    @Test("display paths are relative to the working directory when under it, absolute otherwise")
    func displayPathsInDiscovery() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("sub/a.flow.yaml")
        let parent = (tmp.path as NSString).deletingLastPathComponent
        let folder = (tmp.path as NSString).lastPathComponent

        #expect(InputDiscovery.discover([tmp.path], workingDirectory: tmp("sub")).files.map(\.displayPath) == ["a.flow.yaml"])
        #expect(InputDiscovery.discover([tmp.path], workingDirectory: parent).files.map(\.displayPath) == ["\(folder)/sub/a.flow.yaml"])
        #expect(InputDiscovery.discover([tmp.path], workingDirectory: "/nonexistent-wd").files.map(\.displayPath) == [tmp("sub/a.flow.yaml")])
        // The path to open is never rewritten.
        #expect(InputDiscovery.discover([tmp.path], workingDirectory: parent).files.map(\.path) == [tmp("sub/a.flow.yaml")])
    }

    @Test("relative arguments are resolved against the working directory given, and shown as given")
    func relativeArguments() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("project/flows/a.flow.yaml")
        try tmp.write("project/b.flow.yaml")
        try tmp.write("outside/c.flow.yaml")
        let project = tmp("project")
        let (files, findings) = InputDiscovery.discover(
            ["flows", "./b.flow.yaml", "flows/../b.flow.yaml", "../outside/c.flow.yaml", "missing.flow.yaml", "../README.md"],
            workingDirectory: project)
        #expect(files.map(\.displayPath) == ["../outside/c.flow.yaml", "b.flow.yaml", "flows/a.flow.yaml"])
        #expect(files.map(\.path) == [tmp("project/../outside/c.flow.yaml"), tmp("project/./b.flow.yaml"), tmp("project/flows/a.flow.yaml")])
        #expect(findings == [
            .invalidInput("no such file or folder", at: SourceLocation(file: "missing.flow.yaml")),
            .invalidInput("no such file or folder", at: SourceLocation(file: "../README.md")),
        ])
    }

    @Test("InputFile defaults: the display path is the path, the kind comes from the name")
    func inputFileDefaults() {
        let file = InputFile(path: "dir/x.flow.json")
        #expect(file.displayPath == "dir/x.flow.json")
        #expect(file.kind == .declarative)
        #expect(InputFile(path: "a", displayPath: "b").displayPath == "b")
    }

    @Test("a path through a symbolic link is shown as named, relative to the working directory")
    func displayPathThroughLink() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("real/r.flow.yaml")
        try tmp.link("alias", to: tmp("real"))
        try tmp.write("outside/o.flow.yaml")
        try tmp.write("wd/w.flow.yaml")
        try tmp.link("wd/link", to: tmp("outside"))
        try tmp.link("wd-link", to: tmp("wd"))
        #expect(InputDiscovery.displayPath(tmp("alias/r.flow.yaml"), tmp.path) == "alias/r.flow.yaml")
        let explicit = InputDiscovery.discover([tmp("alias/r.flow.yaml")], workingDirectory: tmp.path)
        #expect(explicit.files.map(\.path) == [tmp("alias/r.flow.yaml")])
        #expect(explicit.files.map(\.displayPath) == ["alias/r.flow.yaml"])
        // The link leads into another folder given: followed, and its file shown under the link's name.
        let walked = InputDiscovery.discover([tmp("wd"), tmp("outside")], workingDirectory: tmp("wd"))
        #expect(walked.files.map(\.path) == [tmp("wd/link/o.flow.yaml"), tmp("wd/w.flow.yaml")])
        #expect(walked.files.map(\.displayPath) == ["link/o.flow.yaml", "w.flow.yaml"])
        // A working directory named through a link is compared as named, too.
        let viaLink = InputDiscovery.discover([tmp("wd-link"), tmp("outside")], workingDirectory: tmp("wd-link"))
        #expect(viaLink.files.map(\.displayPath) == ["link/o.flow.yaml", "w.flow.yaml"])
    }

    @Test("displayPath", arguments: [
        ("/w/a/b.flow.yaml", "/w", "a/b.flow.yaml"),
        ("/w/a/b.flow.yaml", "/w/", "a/b.flow.yaml"),
        ("a/./b/../c.flow.yaml", "/w", "a/c.flow.yaml"),
        ("./c.flow.yaml", "/w", "c.flow.yaml"),
        ("/other/x.flow.yaml", "/w", "/other/x.flow.yaml"),
        ("/wx/y.flow.yaml", "/w", "/wx/y.flow.yaml"),  // a sibling sharing a prefix is not inside
        ("/w", "/w", "."),
        ("/w/", "/w", "."),
        ("../x.flow.yaml", "/w/sub", "../x.flow.yaml"),  // relative and outside: as given
        ("/w/../other/x.flow.yaml", "/w", "/other/x.flow.yaml"),  // absolute and outside: standardised
        ("/w/sub/../x.flow.yaml", "/w", "x.flow.yaml"),
    ])
    func displayPath(path: String, workingDirectory: String, expected: String) {
        #expect(InputDiscovery.displayPath(path, workingDirectory) == expected)
    }

    @Test("a path is normalised as by its parts, on 20,000 random paths; a normal one is returned as it is")
    func normalisedAsByParts() {
        var random = SplitMix64(seed: 0x9A75)
        func next(_ bound: Int) -> Int { random.below(bound) }
        let pieces = ["", ".", "..", "...", ".a", "a.", "a", "é", "b..", "..c", "Flows"]
        var normal = 0
        for _ in 0..<20_000 {
            let path = (next(4) == 0 ? "" : "/") + (0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined(separator: "/")
                + (next(5) == 0 ? "/" : "")
            let expected = InputDiscovery.normalisedByParts(path)
            #expect(InputDiscovery.lexicallyNormalised(path) == expected, "\(path)")
            #expect(InputDiscovery.isLexicallyNormal(path) == (path == expected), "\(path)")
            if path == expected { normal += 1 }
        }
        #expect(normal > 1_000)  // both ways are exercised
        // The folder of a normalised path, as `NSString` says it.
        for _ in 0..<2_000 {
            let path = InputDiscovery.lexicallyNormalised((0..<next(5)).map { _ in pieces[next(pieces.count)] }.joined(separator: "/"))
            #expect(InputDiscovery.folder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        for path in ["/", "/a", "/a/b.swift", "/.a/..b/c.", "/a/...", "/é/x"] { #expect(InputDiscovery.isLexicallyNormal(path)) }
        for path in ["", "a", "//", "/a/", "/a//b", "/./a", "/a/.", "/a/..", "/../a"] { #expect(!InputDiscovery.isLexicallyNormal(path)) }
    }

    @Test("a walked file's identity is its canonical path, as realpath gives it, through links or not")
    func walkedCanonicalPaths() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("real/a.flow.yaml")
        try tmp.write("real/deeper/b.flow.yaml")
        try tmp.link("via", to: "real/deeper")          // a linked folder: its files under the link's name
        try tmp.link("real/c.flow.yaml", to: "deeper/b.flow.yaml")  // a linked file, read once
        // Given through a link to the root, and as a path with `..` in it.
        try tmp.link("root", to: tmp.path)
        for given in [tmp.path, tmp("root"), tmp("real/..")] {
            let (files, findings) = InputDiscovery.discover([given], workingDirectory: tmp.path)
            #expect(findings == [])
            // The deeper file is reached three ways (`real/deeper`, `real/c.flow.yaml`, `via`): once.
            #expect(files.count == 2, "\(given): \(files.map(\.displayPath))")
            let real = Set(files.map { InputDiscovery.canonicalPath($0.path) })
            #expect(real == [InputDiscovery.canonicalPath(tmp("real/a.flow.yaml")), InputDiscovery.canonicalPath(tmp("real/deeper/b.flow.yaml"))])
        }
    }

    @Test("a flow file whose name is not UTF-8 is reported, not dropped; other such names are passed over")
    func nonUTF8Names() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanUp() }
        try tmp.write("a.flow.yaml")
        for name in [[0xFF, 0xFE] + Array(".flow.yaml".utf8), [0xFF] + Array(".png".utf8)] as [[UInt8]] {
            let path = Array(tmp.path.utf8) + [UInt8(ascii: "/")] + name + [0]
            let handle = path.withUnsafeBufferPointer { fopen(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), "w") }
            try #require(handle != nil)
            fclose(handle)
        }
        let (files, findings) = InputDiscovery.discover([tmp.path], workingDirectory: tmp.path)
        #expect(files.map(\.displayPath) == ["a.flow.yaml"])
        #expect(findings.map(\.message) == ["the file's name is not valid UTF-8: not read (rename it)"])
        #expect(findings.first?.location?.file == "\u{FFFD}\u{FFFD}.flow.yaml")
    }

    @Test("no paths, no files")
    func nothing() {
        let (files, findings) = InputDiscovery.discover([], workingDirectory: "/")
        #expect(files == [] && findings == [])
    }
}
