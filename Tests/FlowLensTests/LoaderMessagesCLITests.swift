import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Checks `text` written as `name` in a fresh folder and returns the run.
private func check(_ name: String, _ text: String) throws -> Run {
    let root = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
    return try flowlens(["check", name], in: root)
}

@Suite("Unreadable flow files are explained where the problem is", .serialized)
struct LoaderMessagesCLITests {
    @Test("a tab in the indentation is named as a tab")
    func tab() throws {
        let run = try check("tabs.flow.yaml", "version: 1\nflows:\n  - name: A\n    steps:\n\t- {id: done, kind: end}\n")
        #expect(run.status == 2)
        #expect(run.stdout.contains("tabs.flow.yaml:5:1: error: syntax error: a tab where YAML allows only spaces"), "\(run.stdout)")
    }

    @Test("a duplicate key is reported at the duplicate, with the line of the first")
    func duplicateKey() throws {
        let block = try check("dup.flow.yaml", """
            version: 1
            flows:
              - name: A
                steps:
                  - id: a
                    next: done
                    next: a
                  - {id: done, kind: end}

            """)
        #expect(run(block).contains("dup.flow.yaml:7:9: error: duplicate key 'next' in a mapping (first at line 6)"), "\(block.stdout)")
        let flow = try check("dup.flow.yaml", "version: 1\nflows:\n  - name: A\n    steps:\n      - {id: a, next: done, next: a}\n      - {id: done, kind: end}\n")
        #expect(run(flow).contains("dup.flow.yaml:5:29: error: duplicate key 'next' in a mapping (first at line 5)"), "\(flow.stdout)")
    }

    @Test("invalid JSON says what was found where a value belongs, not only \"Invalid value\"")
    func invalidJSON() throws {
        let word = try check("a.flow.json", #"{"version": 1, "flows": [{"name": "A", "steps": [{"id": "a", "kind": @end}]}]}"#)
        #expect(word.status == 2)
        #expect(word.stdout.contains("a.flow.json:1:70: error: invalid JSON: expected a value (a string in double quotes, a number, an object, an array, true, false or null), found '@end'"), "\(word.stdout)")
        let comma = try check("b.flow.json", "{\"version\": 1,\n \"flows\": [1,,2]}\n")
        #expect(comma.status == 2)
        #expect(comma.stdout.contains("found ','"), "\(comma.stdout)")
    }

    private func run(_ run: Run) -> String { run.stdout }
}
