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

    /// White space is told from the scalar's value in ASCII and from its Unicode properties elsewhere.
    @Test("white space is what Unicode calls white space, in ASCII and beyond")
    func whiteSpace() {
        let others: [Unicode.Scalar] = ["\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{202F}", "\u{3000}", "\u{200B}", "é", "\u{FEFF}"]
        for scalar in (0..<128).map({ Unicode.Scalar(UInt8($0)) }) + others {
            let text = "Pay<" + String(scalar) + "Order>"
            #expect(type(text)?.spelling == (scalar.properties.isWhitespace ? "Pay<Order>" : text), "\(text.debugDescription)")
        }
    }

    @Test("empty text is an unknown type")
    func empty() { #expect(type("  ") == nil) }

    /// Each level of a generic is unwrapped by a pass over the rest of the text, and each level of an
    /// array compared by another: past `maximumNesting` a spelling is no type (a 20,000-level one
    /// overflowed the stack), up to it one is normalised and compared as before.
    @Test("a spelling nested past the limit is an unknown type; up to it, a type")
    func nestingLimit() {
        let limit = TypeName.maximumNesting
        func nested(_ open: String, _ close: String, _ depth: Int) -> String {
            String(repeating: open, count: depth) + "Int" + String(repeating: close, count: depth)
        }
        #expect(type(nested("Array<", ">", limit))?.spelling == nested("[", "]", limit))
        #expect(type(nested("Optional<", ">", limit))?.spelling == "Int" + String(repeating: "?", count: limit))
        for (open, close) in [("Array<", ">"), ("Optional<", ">"), ("[", "]"), ("(", ")"), ("Dictionary<Int, ", ">"), ("Promise<", ">")] {
            #expect(type(nested(open, close, limit + 1)) == nil, "\(open)")
            #expect(type(nested(open, close, 20_000)) == nil, "\(open)")
        }
        // A literal keeps what it was given; comparing two deep ones stops at the limit.
        let deep = TypeName(stringLiteral: nested("[", "]", 20_000))
        #expect(deep.spelling == nested("[", "]", 20_000))
        #expect(deep.isCompatible(withRead: deep))
        #expect(!deep.isCompatible(withRead: TypeName(stringLiteral: nested("[", "]", 19_999))))
        // Closing brackets first cannot hide the opening ones after them.
        #expect(TypeName.nestsTooDeeply(String(repeating: ">", count: 100) + String(repeating: "<", count: limit + 1)))
        #expect(!TypeName.nestsTooDeeply(String(repeating: "<>", count: 10_000)))
    }

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
