import FlowLensTestSupport
import FlowModel
import Foundation
import Testing
import Yams
@_spi(Fuzzing) @testable import FlowLoaders

/// Documents composed from libyaml's events (`YAMLNodes.composedFromEvents`) against Yams composing
/// the same text with its basic resolver (what the loader did before, and still does for the
/// documents the event path leaves to Yams): node for node the same kinds, texts, styles, tags,
/// positions and depths; no document where Yams finds none; and never a document where Yams fails.
@Suite("YAML composed from libyaml's events, as Yams composes it")
struct YAMLEventCompositionTests {
    /// What the event path gives for `text`, checked against Yams; true when it composed a document.
    @discardableResult
    static func agrees(_ text: String, _ comment: Comment) -> Bool {
        let comparison = YAMLComposition.compare(text)
        if case let .differs(how) = comparison { Issue.record("\(how); \(comment)") }
        return comparison == .composed
    }

    @Test("every YAML and JSON file of samples/, the tests' fixtures and examples/, and the fuzzers' corpus when there is one")
    func repositoryFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var composed = 0, files = 0
        for folder in ["samples", "Tests", "examples", ".build/fuzz-corpus/yaml", ".build/fuzz-corpus/json"] {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in walker {
                let inCorpus = folder.hasPrefix(".build")
                // Not what SwiftPM leaves in an example's `.build` (its JSON files vary from run to run).
                guard inCorpus || [".yaml", ".yml", ".json"].contains(where: path.hasSuffix) && !path.contains(".build/") else { continue }
                let full = root.appendingPathComponent(folder).appendingPathComponent(path).path
                guard let data = FileManager.default.contents(atPath: full), let text = String(data: data, encoding: .utf8) else { continue }
                files += 1
                if Self.agrees(text, "\(folder)/\(path)") { composed += 1 }
            }
        }
        #expect(files >= 20 && composed >= 15, "\(files) files, \(composed) composed from events")
    }

    /// Pieces people (and fuzzers) write: block and flow collections, every scalar style, comments,
    /// complex keys, repeated keys, anchors and aliases, tags, documents, odd line breaks and spaces,
    /// non-ASCII text.
    static let pieces = [
        "a: 1\n", "b:\n", "  - x\n", "  - {id: s1, next: s2}\n", "- [1, 2, 'three']\n", "c: \"q\\\"t\\u00e9\\n\"\n",
        "d: 'it''s'\n", "e: |\n  line one\n  line two\n", "f: >-\n  folded\n  text\n", "g: ~\n", "h: null\n", "? [k]\n: v\n",
        "? complex\n: value\n", "i: &anchor x\n", "j: *anchor\n", "k: !!str 3\n", "l: !custom x\n", "---\n", "...\n",
        "# comment\n", "m: v # trailing\n", "n:\r\n  o: p\r\n", "q: \u{85}\n", "r: é\n", "é: ü\n", "\u{FEFF}", "s:\tt\n",
        "a: 2\n", "'a': 3\n", "\"a\": 4\n", "t: {x: 1, x: 2}\n", "u: [a, {b: c}, [d]]\n", "v: -\n", "w: - x\n", "  ", "\n",
        "x: {a: [b, {c: d}], e: f}\n", "y: \"multi\n  line\"\n", "z: plain\n  continued\n", "- - nested\n  - seq\n",
        "key with spaces: value with spaces\n", "1: one\n", "\"1\": uno\n", "true: yes\n", "{flow: mapping}\n", "[flow, seq]\n",
        "e\u{301}: decomposed\n", "\u{E9}: composed\n", "%YAML 1.1\n", "<<: {merge: key}\n", "empty: ''\n", "\"\": empty key\n",
    ]

    @Test("20,000 documents made of pieces in random order")
    func randomDocuments() {
        var random = SplitMix64(seed: 0x9A_3107)
        var composed = 0
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            if Self.agrees(text, "round \(round): \(text.debugDescription)") { composed += 1 }
        }
        #expect(composed > 2_000, "only \(composed) documents composed from events")
    }

    @Test("what the event path leaves to Yams: tags, anchors, aliases, repeated or complex keys, two documents, errors")
    func leftToYams() {
        for text in ["a: !!str 3\n", "a: &x 1\nb: *x\n", "a: &x 1\n", "a: 1\na: 2\n", "{a: 1, 'a': 2}\n", "é: 1\ne\u{301}: 2\n",
                     "? [k]\n: v\n", "a: 1\n---\nb: 2\n", "a: [1\n", "a: 'open\n", "\t- x\n"] {
            guard case .needsYams = YAMLNodes.composedFromEvents(text) else {
                Issue.record("composed from events: \(text.debugDescription)")
                continue
            }
        }
        for text in ["", "# only a comment\n", "\n\n", "\u{FEFF}\n"] {
            guard case .empty = YAMLNodes.composedFromEvents(text) else {
                Issue.record("not empty: \(text.debugDescription)")
                continue
            }
            #expect(YAMLComposition.compare(text) == .empty, "\(text.debugDescription)")
        }
    }

    @Test("a flow file reads the same composed from events as composed by Yams (same flows, same findings)")
    func sameFlows() throws {
        let text = """
            version: 1
            flows:
              - name: Checkout
                data: {cart: "[Item]", attempts: {value: 3}, note: {value: ~}}
                start: validate
                steps:
                  - {id: validate, reads: {cart: "[Item]"}, writes: {total: Double}, next: pay}
                  - id: pay
                    kind: branch
                    reads: [{key: total, type: Double}, {key: coupon, optional: true}]
                    next:
                      - {to: done, when: {key: total, equals: 0}}
                      - {to: charge, otherwise: yes}
                  - {id: charge, writes: {receipt: Receipt}, next: done, unknown: 1}
                  - {id: done, kind: end}
            """
        let file = InputFile(path: "checkout.flow.yaml")
        let fromEvents = DeclarativeLoader().load(file, contents: text)
        // A `!` in a comment sends the same document through Yams (default resolver).
        let fromYams = DeclarativeLoader().load(file, contents: text + "\n# reviewed!\n")
        #expect(fromEvents.flows == fromYams.flows)
        #expect(fromEvents.loadFindings == fromYams.loadFindings)
        #expect(fromEvents.loadFindings.map(\.message) == ["unknown key 'unknown' in a step"])
    }
}
