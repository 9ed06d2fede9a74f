import FlowModel
import Foundation
import Testing

@Suite("Configuration as data (Codable)")
struct ConfigurationCodingTests {
    func full() -> Configuration {
        var configuration = Configuration()
        configuration.rules = [("dead-end", .severity(.warning)), ("unused-data-key", .off), ("type-mismatch", .on)]
        configuration.include = ["Flows/**"]
        configuration.exclude = ["**/Generated/**"]
        configuration.overrides = [.init(paths: ["Legacy/**"], rules: [("type-mismatch", .severity(.note))])]
        configuration.plantUMLDefines = [("PLATFORM", "ios")]
        configuration.format = "sarif"
        configuration.color = "never"
        configuration.strict = true
        configuration.maxWarnings = 3
        return configuration
    }

    /// `rules` come back ordered by id: a keyed container does not keep the file's order.
    func sortedRules(_ configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.rules.sort { $0.0 < $1.0 }
        return configuration
    }

    @Test("encoding then decoding gives the same configuration, every field set")
    func roundTrip() throws {
        let data = try JSONEncoder().encode(full())
        #expect(try JSONDecoder().decode(Configuration.self, from: data) == sortedRules(full()))
        #expect(try JSONDecoder().decode(Configuration.self, from: JSONEncoder().encode(Configuration())) == Configuration())
    }

    @Test("the encoding has the file's shape")
    func shape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(full()), as: UTF8.self)
        #expect(text.contains(#""version":1"#))
        #expect(text.contains(#""rules":{"dead-end":"warning","type-mismatch":"on","unused-data-key":"off"}"#))
        #expect(text.contains(#""plantuml":{"defines":{"PLATFORM":"ios"}}"#))
        #expect(text.contains(#""output":{"color":"never","format":"sarif","maxWarnings":3,"strict":true}"#))
    }

    @Test("decoding is strict: an unknown setting or another version is an error that says why")
    func strict() throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Configuration.self, from: Data(#"{"rules": {"dead-end": "loud"}}"#.utf8)) }
        do {
            _ = try JSONDecoder().decode(Configuration.self, from: Data(#"{"version": 2}"#.utf8))
            Issue.record("version 2 was accepted")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription == "unsupported configuration version '2': this FlowLens reads version 1")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // A minimal file: everything else defaults.
        #expect(try JSONDecoder().decode(Configuration.self, from: Data(#"{"version": 1}"#.utf8)) == Configuration())
    }
}
