@testable import FlowLoaders
import Foundation
import Testing

/// `FlatObject`, the JSON-lines reader's fast path, must accept only valid JSON and read what it
/// accepts exactly as Foundation's parser does (every other line goes to Foundation).
@Suite("JSON-lines fast path")
struct FlatObjectTests {
    /// Foundation's reading of `line`, in `FlatObject`'s terms; nil when it is not such an object.
    func foundation(_ line: String) -> [String: FlatObject.Value]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
        var fields: [String: FlatObject.Value] = [:]
        for (key, value) in object {
            switch value {
            case let text as String: fields[key] = .string(text)
            case is NSNull: fields[key] = .null
            case let number as NSNumber: fields[key] = .integer(number.stringValue)
            default: return nil
            }
        }
        return fields
    }

    @Test("lines as apps write them, and hostile ones: what the fast path accepts, Foundation reads the same")
    func agreesWithFoundation() {
        let pieces = [#"{"#, #"}"#, #"""#, #":"#, #","#, " ", "\t", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\u00e9"#, #"\x"#,
                      "flow", "run", "event", "start", "é", "€", "🙂", "0", "7", "12", "-3", "1.5", "1e3", "007", "null", "true", "nul",
                      "[", "]", "\u{01}", "\r", "12345678901234567890"]
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return Int(random % UInt64(bound))
        }
        var accepted = 0
        let realistic = [
            #"{"flow": "checkout", "run": "r-41", "step": "pay", "event": "fail", "reason": "missing-key", "key": "cardToken"}"#,
            #"{"flow":"checkout","run":41,"event":"end","reason":"success","time":1762078500123}"#,
            #"  {"flow": "a\"b\\c\/d\n", "run": "x", "event": "start", "step": "é€🙂", "detail": null}  "#,
            #"{}"#, #"{"run": 0}"#, #"{"run": 12345678901234567890}"#, #"{"run": 1.0}"#, #"{"run": true}"#, #"{"a": "\u00e9"}"#,
            #"{"run": 1, "run": 2}"#, #"{"a": [1]}"#, #"{"a": {"b": 1}}"#, #"{"a": "x",}"#, #"{"a" "x"}"#, #"{"a": "x"} x"#, "{\"a\": \"\u{01}\"}",
        ]
        var lines = realistic
        for _ in 0..<20_000 {
            // Mutations of realistic lines: a piece inserted, one removed, two spliced.
            var line = Array(realistic[next(realistic.count)])
            for _ in 0..<(1 + next(3)) {
                let at = next(line.count + 1)
                switch next(3) {
                case 0: line.insert(contentsOf: pieces[next(pieces.count)], at: at)
                case 1: if at < line.count { line.remove(at: at) }
                default: line = Array(line[..<at]) + Array(realistic[next(realistic.count)]).suffix(next(40))
                }
            }
            lines.append(String(line))
        }
        for line in lines {
            guard let flat = FlatObject(Substring(line)) else { continue }
            accepted += 1
            let read = foundation(line)
            #expect(read != nil, "\(line)")
            for name in FlatObject.names { #expect(read?[name] == flat[field: name], "\(name) of \(line)") }
        }
        // Most realistic lines take the fast path; the hostile ones are left to Foundation.
        #expect(FlatObject(Substring(realistic[0])) != nil && FlatObject(Substring(realistic[1])) != nil && FlatObject(Substring(realistic[2])) != nil)
        #expect(realistic.dropFirst(5).allSatisfy { FlatObject(Substring($0)) == nil })
        #expect(accepted > 1000)
    }
}
