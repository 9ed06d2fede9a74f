import Foundation
import FlowModel
import Testing
@testable import FlowLoaders

/// `x-` extension keys, and JSON read as YAML.
@Suite("Declarative format: extensions and JSON")
struct DeclarativeExtensionAndJSONTests {
    static let plain = """
        version: 1
        flows:
          - name: F
            data:
              photos: {type: "[String]", value: [a]}
            steps:
              - id: a
                reads:
                  - {key: photos, type: "[String]"}
                next:
                  - to: b
                    when: {key: mode, equals: fast}
                  - to: b
                    otherwise: true
              - id: b
                group: {inputKey: photos, elementKey: photo}
        """

    static let withExtensions = """
        version: 1
        x-top: 1
        flows:
          - name: F
            x-owner: {team: checkout}
            data:
              photos: {type: "[String]", value: [a], x-why: sample}
            steps:
              - id: a
                x-jira: FL-1
                reads:
                  - {key: photos, type: "[String]", x-note: [1, 2]}
                next:
                  - to: b
                    x-colour: red
                    when: {key: mode, equals: fast, x-case: insensitive}
                  - to: b
                    otherwise: true
              - id: b
                group: {inputKey: photos, elementKey: photo, x-tuning: none}
        """

    @Test("x- keys are ignored on the document, flows, steps, transitions, conditions, groups, data values, access entries")
    func extensionKeysIgnored() throws {
        let plain = load(Self.plain)
        let extended = load(Self.withExtensions)
        #expect(plain.reported == [])
        #expect(extended.reported == [])
        #expect(extended.flows.map(withoutLocations) == plain.flows.map(withoutLocations))
        #expect(extended.flows.first?.transitions.first?.condition == .equals(key: "mode", value: "fast"))
    }

    @Test("an x- key needs the exact prefix: `X-note` and `x_note` are unknown keys")
    func extensionPrefixIsExact() {
        let graph = load("""
            version: 1
            flows:
              - name: F
                X-note: upper case
                x_note: underscore
                steps: [{id: a}]
            """)
        #expect(graph.reported == [
            Reported(location: at(4, 5), message: "unknown key 'X-note' in a flow"),
            Reported(location: at(5, 5), message: "unknown key 'x_note' in a flow"),
        ])
        #expect(graph.flows.map(\.id) == ["F"])
    }

    /// README, "Extensions": in the mappings whose keys are data keys (`data`, `outputs`, `reads`, `writes`)
    /// a key such as `x-request-id` is a data key like any other.
    @Test("x- keys inside data, outputs and reads/writes mappings are data keys")
    func extensionKeysInKeyMappings() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data:
                  cartID: String
                  x-request-id: String
                outputs:
                  orderID: String
                  x-trace: String?
                steps:
                  - id: a
                    reads: {cartID: String, x-request-id: String}
                    writes: {orderID: String, x-trace: String}
            """)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.initialData == [
            DataAccess(key: "cartID", type: "String", location: at(5, 7)),
            DataAccess(key: "x-request-id", type: "String", location: at(6, 7)),
        ])
        #expect(flow.outputs == [
            DataAccess(key: "orderID", type: "String", location: at(8, 7)),
            DataAccess(key: "x-trace", type: "String?", optional: true, location: at(9, 7)),
        ])
        #expect(flow.steps.first?.reads.map(\.key) == ["cartID", "x-request-id"])
        #expect(flow.steps.first?.writes.map(\.key) == ["orderID", "x-trace"])
    }

    @Test("JSON gives the same flows as the equivalent YAML")
    func jsonEqualsYAML() throws {
        let yamlGraph = try loadFixture("equivalent.flow.yaml")
        let jsonGraph = try loadFixture("equivalent.flow.json")
        #expect(yamlGraph.reported == [])
        #expect(jsonGraph.reported == [])
        #expect(yamlGraph.flows.map(\.id) == ["upload", "notify-seller"])
        #expect(jsonGraph.flows.map(withoutLocations) == yamlGraph.flows.map(withoutLocations))

        // Spot checks that the content itself is right (not just equal).
        let upload = try #require(jsonGraph.flow(named: "upload"))
        #expect(upload.steps.map(\.kind) == [.branch, .group, .operation, .subflow, .end, .fail])
        #expect(upload.initialData.map(\.type) == ["String", "[String]", "Int", nil])
        #expect(upload.initialData[1].elementTypes == ["String", "String"])
        #expect(upload.initialData[1].value == "[\"a.png\", \"b.png\"]")
        #expect(upload.transitions.map(\.kind) == [.normal, .normal, .normal, .error, .parallel, .parallel, .normal, .normal])
        #expect(upload.step("upload")?.reads == [DataAccess(key: "photos", type: "[String]", location: at(33, 25, file: "equivalent.flow.json"))])
        #expect(jsonGraph.flows[1].outputs == [DataAccess(key: "sent", type: "Bool?", optional: true, location: at(58, 19, file: "equivalent.flow.json"))])
    }

    @Test("JSON positions are real line:column positions")
    func jsonPositions() throws {
        let graph = try loadFixture("equivalent.flow.json")
        let upload = try #require(graph.flows.first)
        #expect(upload.location == at(5, 5, file: "equivalent.flow.json"))
        #expect(upload.entryLocation == at(16, 16, file: "equivalent.flow.json"))
        #expect(upload.steps.first?.location == at(18, 9, file: "equivalent.flow.json"))
        #expect(upload.transitions.first?.location == at(24, 20, file: "equivalent.flow.json"))
        #expect(upload.initialData.first?.location == at(10, 9, file: "equivalent.flow.json"))
    }

    @Test("compact and tab-indented JSON load like any other")
    func jsonLayouts() {
        let compact = load(#"{"version":1,"flows":[{"name":"A","steps":[{"id":"s","next":"t"},{"id":"t","kind":"end"}]}]}"#,
                           file: "c.flow.json")
        #expect(compact.reported == [])
        #expect(compact.flows.first?.transitions == [Transition(from: "s", to: "t", location: at(1, 61, file: "c.flow.json"))])
        #expect(compact.flows.first?.location == at(1, 23, file: "c.flow.json"))

        let tabs = load("{\n\t\"version\": 1,\n\t\"flows\": [\n\t\t{\"name\": \"A\\/B\", \"steps\": [{\"id\": \"s\"}]}\n\t]\n}\n",
                        file: "t.flow.json")
        #expect(tabs.reported == [])
        #expect(tabs.flows.map(\.id) == ["A/B"])
        #expect(tabs.flows.first?.location == at(4, 3, file: "t.flow.json"))
    }

    @Test("raw characters JSON allows in a string and YAML reads otherwise keep their meaning, and lines stay exact (issue 49)",
          arguments: ["\u{85}", "\u{2028}", "\u{2029}", "\u{7F}", "\u{9B}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}"])
    func jsonRawCharacters(raw: String) {
        let text = "{\"version\": 1, \"flows\": [{\"name\": \"A\(raw)B\",\n \"steps\": [\n{\"id\": \"s\", \"next\": \"t\"},\n{\"id\": \"t\", \"kind\": \"end\"}]}]}\n"
        let graph = load(text, file: "r.flow.json")
        #expect(graph.reported == [])
        #expect(graph.flows.first?.name.unicodeScalars.map(\.value) == "A\(raw)B".unicodeScalars.map(\.value))
        #expect(graph.flows.first?.steps.map { $0.location?.line ?? 0 } == [3, 4])
    }

    private func loadFixture(_ name: String) throws -> FlowGraph {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        let file = InputFile(path: url.path, displayPath: name, kind: .declarative)
        let graph = SourceLoader().load(files: [file])
        #expect(graph.files == [name])
        return graph
    }
}
