import FlowModel
import Testing

/// The failable initialiser: with a literal argument, `TypeName("x")` would be a literal coercion.
private func type(_ text: String) -> TypeName? { TypeName(text) }

@Suite("TypeName")
struct TypeNameTests {
    @Test("spellings are normalised", arguments: [
        ("String", "String"), (" [ PhotoData ] ", "[PhotoData]"), ("Array<Int>", "[Int]"),
        ("Optional<String>", "String?"), ("Dictionary<String, Any>", "[String:Any]"), ("Swift.Int", "Int"),
        ("Array<Swift.String>", "[String]"), ("Promise<[JobItem]>", "Promise<[JobItem]>"),
        ("Optional<Array<URL>>", "[URL]?"),
        // Already normal, and near misses of that: tabs, a no-break space, a qualified name.
        ("[Order]?", "[Order]?"), ("\tInt", "Int"), ("\u{00A0}Date", "Date"), ("Models.Order", "Models.Order"),
        ("Swift.Optional<Swift.Int>", "Int?"), ("Café", "Café"),
    ])
    func normalisation(_ input: String, _ expected: String) {
        #expect(type(input)?.spelling == expected)
    }

    @Test("empty text is an unknown type")
    func empty() { #expect(type("  ") == nil) }

    @Test("compatibility", arguments: [
        ("String", "String", true), ("String", "String?", true), ("String?", "String", true),
        ("Int", "String", false), ("Any", "String", true), ("String", "Any", true),
        ("[Int]", "[Any]", true), ("[Int]", "[String]", false), ("[[Int]]", "[[Int]]", true),
        ("[String:Any]", "[String]", false), ("Array<Int>", "[Int]", true),
    ])
    func compatibility(_ written: String, _ read: String, _ compatible: Bool) {
        #expect(TypeName(stringLiteral: written).isCompatible(withRead: TypeName(stringLiteral: read)) == compatible)
    }

    @Test("array elements")
    func arrayElement() {
        #expect(type("[PhotoData]")?.arrayElement == "PhotoData")
        #expect(type("[String: Int]")?.arrayElement == nil)
        #expect(type("[[Int]]?")?.arrayElement == "[Int]")
        #expect(type("Int")?.arrayElement == nil)
    }
}

@Suite("SourceLocation and Finding order")
struct LocationTests {
    @Test("description leaves out unknown parts")
    func description() {
        #expect(SourceLocation(file: "a.yaml", line: 3, column: 7).description == "a.yaml:3:7")
        #expect(SourceLocation(file: "a.yaml", line: 3).description == "a.yaml:3")
        #expect(SourceLocation(file: "a.yaml").description == "a.yaml")
    }

    @Test("report order is by file, line, column, then rule")
    func order() {
        let a = Finding(rule: "b-rule", severity: .error, message: "x", location: SourceLocation(file: "a", line: 2, column: 1))
        let b = Finding(rule: "a-rule", severity: .error, message: "x", location: SourceLocation(file: "a", line: 2, column: 1))
        let c = Finding(rule: "a-rule", severity: .error, message: "x", location: SourceLocation(file: "a", line: 1, column: 9))
        let d = Finding(rule: "a-rule", severity: .error, message: "x", location: SourceLocation(file: "B", line: 1, column: 1))
        #expect([a, b, c, d].sorted(by: Finding.reportOrder) == [d, c, b, a])
    }

    @Test("severities are ordered")
    func severities() { #expect(Severity.note < .warning && Severity.warning < .error) }

    @Test("spelling suggestions", arguments: [("finsh", "finish"), ("nxt", "next"), ("zzzzzz", nil)] as [(String, String?)])
    func spelling(_ word: String, _ expected: String?) {
        #expect(Spelling.closest(to: word, in: ["finish", "next", "name"]) == expected)
    }
}
