import FlowModel
import Foundation
import Testing
import Yams
@testable import FlowLoaders

/// Plain scalars are typed by FlowLens (`YAMLTree.implicitTag(of:)`) in documents composed with
/// Yams's basic resolver: every type, finding and message must be what Yams's default resolver gives.
@Suite("YAML scalar typing without regular expressions")
struct YAMLScalarTypingTests {
    /// The default resolver's answer, by its regular expressions.
    private func byRegex(_ string: String) -> Yams.Tag.Name {
        Resolver.default.resolveTag(of: Node.scalar(.init(string)))
    }

    @Test("each of YAML 1.1's implicit types, and near misses, typed as the default resolver types them")
    func everyRule() {
        let samples = [
            "", "~", "null", "Null", "NULL", "nul", "nulls", "NuLL",
            "yes", "Yes", "YES", "yEs", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "true", "True", "TRUE",
            "false", "False", "FALSE", "tru", "falsey", "y", "n", "Y", "N", "onward", "often", "t",
            "0", "7", "-3", "+12", "1_000", "0b1010", "-0b1_0", "0o17", "017", "0_7", "08", "0x1F", "0xg", "-0x_a",
            "1:30", "190:20:30", "1:60", "1:5", "01:30", "1_2:3", "3.5", "-3.", ".5", "._5", ".5e+3", ".5e3", "1e5", "1E-5",
            "1.2.3", "1:30.5", "1:30:00.25", ".inf", "-.Inf", "+.INF", ".NaN", "-.nan", "inf", "nan", ".", "-", "+", "_",
            "<<", "<", "<<<", "=", "==", "2024-01-02", "2024-1-2 3:04:05", "2024-01-02T03:04:05.5Z", "2024-01-02t03:04:05 +01:00",
            "2024-01-02 03:04:05 -5", "2024-01-02   03:04:05.123456789", "2024-1-2", "24-01-02", "2024-01-02T3:04", "2024/01/02",
            "String", "Int", "s12", "k0", "done", "12abc", "1 2", "3 apples", "-1-", "+-1", "0x", "0b", "0o", "1__", "9e", "Total",
        ]
        for sample in samples {
            #expect(YAMLTree.implicitTag(of: sample) == byRegex(sample), "\(sample.debugDescription)")
        }
    }

    @Test("random strings over the characters YAML's number, date and boolean forms use")
    func randomStrings() {
        let alphabet = Array("0123456789012345+-._:eExXoObBaAfF~<=tTyYnNsSlLuUrRiI Z\t")
        var state: UInt64 = 0x51A7_1C
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<20_000 {
            let sample = String((0..<(1 + next(9))).map { _ in alphabet[next(alphabet.count)] })
            #expect(YAMLTree.implicitTag(of: sample) == byRegex(sample), "\(sample.debugDescription)")
        }
    }

    /// A flow file whose values and names use every kind of scalar, as people write them.
    private let document = """
        version: 1
        flows:
          - name: Refund
            data:
              attempts: {value: 3}
              ratio: {value: .75}
              limit: {value: 0x1F}
              window: {value: 1:30}
              express: {value: yes}
              manual: {value: Off}
              note: {value: ~}
              placedOn: {value: 2024-03-01}
              code: {value: "42"}
              label: {value: 'off'}
              tags: {value: [1, two, 3.0, null]}
              extra: {value: {1: one, true: yes, "2": two}}
              amount: 12
              currency: [String]
            steps:
              - id: 7
                reads: {attempts: Int, ratio: Double, express: Bool}
                writes: {refund: true}
                next: check
              - id: check
                kind: branch
                reads: {refund: ~}
                next:
                  - {to: done, when: {key: express, equals: yes}}
                  - {to: done, when: {key: code, equals: 42}}
                  - {to: fail, otherwise: yes}
              - {id: done, kind: end}
              - {id: fail, kind: fail, description: 2024-01-01}

        """

    @Test("a document loads the same with the basic resolver as with the default one")
    func sameFlowsAndFindings() throws {
        // A `!` anywhere (here in a comment) makes the loader compose with the default resolver.
        let plain = load(document)
        let defaulted = load(document + "# reviewed!\n")
        #expect(try #require(try YAMLTree.compose(document, limits: .default, file: "t")).plainScalarsUntagged)
        #expect(try !#require(try YAMLTree.compose(document + "# reviewed!\n", limits: .default, file: "t")).plainScalarsUntagged)
        #expect(plain.flows == defaulted.flows)
        #expect(plain.reported == defaulted.reported)
        #expect(!plain.reported.isEmpty)  // `amount: 12`, `writes: {refund: true}` and `[String]` are reported
    }

    @Test("a key written plain and quoted is two keys, as the default resolver reads it; an explicit tag is kept")
    func duplicatesAndTags() throws {
        let twoKeys = """
            version: 1
            flows:
              - name: Keys
                data: {1: String, "1": Int}
                steps: [{id: a}]
            """
        let tree = try #require(try YAMLTree.compose(twoKeys, limits: .default, file: "t"))
        #expect(!tree.plainScalarsUntagged)  // the basic resolver called them one key: composed again
        #expect(load(twoKeys).reported == load(twoKeys + "\n# !\n").reported)
        let repeated = twoKeys.replacingOccurrences(of: "\"1\": Int", with: "1: Int")
        #expect(load(repeated).reported.map(\.message) == ["duplicate key '1' in a mapping (first at line 4)"])
        let tagged = """
            version: 1
            flows:
              - name: !!str 2024
                steps: [{id: a, reads: {n: !!int 3}}]
            """
        #expect(load(tagged).reported.map(\.message) == ["the type of 'n' must be a type name such as String, found an integer; to give a value, write {value: 3}"])
    }
}
