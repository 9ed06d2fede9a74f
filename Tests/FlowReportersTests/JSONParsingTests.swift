import FlowReporters
import Testing

/// Reading a JSON report back (`flowlens merge`): what `serialized()` writes parses to the same value.
@Suite struct JSONParsingTests {
    @Test func aValueReadBackIsWrittenTheSameBytes() throws {
        let hostile = "quote \" backslash \\ tab \t newline \n cr \r nul \u{0} del \u{7F} sep \u{2028}\u{2029} é 🦆 </script>"
        let value = JSONValue.object([
            ("text", .string(hostile)),
            ("empty", .object([])), ("none", .array([])), ("null", .null),
            ("numbers", .array([.int(0), .int(-17), .int(Int.max), .int(Int.min)])),
            ("flags", .array([.bool(true), .bool(false)])),
            ("nested", .array([.object([("z", .int(1)), ("a", .string(""))])])),
        ])
        let text = value.serialized()
        let parsed = try JSONValue.parse(text)
        #expect(parsed.serialized() == text)
        #expect(parsed["text"]?.stringValue == hostile)
        // Key order is kept, not sorted.
        if case let .object(fields)? = parsed["nested"]?.arrayValue?.first { #expect(fields.map(\.0) == ["z", "a"]) }
    }

    @Test func escapesOtherWritersUseAreRead() throws {
        let parsed = try JSONValue.parse(#"{"a":"\u00e9\/\b\f\ud83e\udd86","b":[ 1 ,2 ] }"#)
        #expect(parsed["a"]?.stringValue == "é/\u{8}\u{C}🦆")
        #expect(parsed["b"]?.arrayValue == [.int(1), .int(2)])
    }

    @Test func whatIsNotJSONIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for text in ["", "{", "[1,]", "{\"a\" 1}", "1.5", "1e3", "\"\\ud800\"", "\"\\x\"", "\"a\nb\"", "nul", "[] []", "\"open", deep,
                     "99999999999999999999"] {
            #expect(throws: JSONParseError.self, "\(text.prefix(20))") { try JSONValue.parse(text) }
        }
    }
}
