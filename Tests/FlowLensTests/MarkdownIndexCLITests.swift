import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

@Suite("Markdown pages have an index; init names the flow schema", .serialized)
struct MarkdownIndexCLITests {
    @Test("export --format md writes README.md: every page linked, with its kind and status; a flow named README keeps its own page")
    func index() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try flowlens(["export", "samples/declarative", "--output", root, "--format", "md"])
        #expect(run.status == 2)  // the samples hold unreadable files on purpose
        let pages = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".md") && $0 != "README.md" }
        let index = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        #expect(index.hasPrefix("# Flows\n\n| flow | kind | status | defined in |\n"))
        for page in pages { #expect(index.contains("](\(page))"), "the index lacks \(page)") }
        #expect(index.contains("| [Delivery](Delivery.md) | FlowLens flow | 1 error |"), "\(index)")
        // --clean keeps the index.
        let again = try flowlens(["export", "samples/declarative", "--output", root, "--format", "md", "--clean"])
        #expect(again.status == 2)
        #expect(FileManager.default.fileExists(atPath: root + "/README.md"))

        let named = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: named) }
        try "version: 1\nflows:\n  - name: README\n    steps:\n      - {id: done, kind: end}\n".write(toFile: named + "/readme.flow.yaml", atomically: true, encoding: .utf8)
        #expect(try flowlens(["export", "readme.flow.yaml", "--output", "out", "--format", "md"], in: named).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: named + "/out").sorted() == ["README-2.md", "README.md", "report.json"])
    }

    @Test("init's starter tells how an editor checks flow files against the schema")
    func initNamesTheSchema() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try flowlens(["init"], in: root).status == 0)
        let text = try String(contentsOfFile: root + "/.flowlens.yml", encoding: .utf8)
        #expect(text.contains("# yaml-language-server: $schema="))
        #expect(text.contains("schema/flowlens-flow.schema.json"))
        #expect(FileManager.default.fileExists(atPath: packageRoot + "/schema/flowlens-flow.schema.json"))
    }
}
