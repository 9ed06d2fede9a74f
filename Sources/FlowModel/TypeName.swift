/// A data type as written in a flow definition (`String`, `[PhotoData]`, `String?`, `Promise<[JobItem]>`).
///
/// Types are compared by their normalised spelling, not resolved against a compiler: FlowLens reads
/// definitions, it does not type-check programs. `Any` is compatible with everything, and an unknown
/// type (`nil` wherever a `TypeName?` appears) never produces a finding.
public struct TypeName: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The normalised spelling: no white space, `Array<T>` as `[T]`, `Optional<T>` as `T?`,
    /// `Dictionary<K, V>` as `[K:V]`, a leading `Swift.` removed.
    public let spelling: String

    /// Normalises `text`; returns nil for empty text, and for text whose brackets nest deeper than
    /// `maximumNesting` (an unknown type: neither a finding nor a crash comes of it).
    public init?(_ text: String) {
        guard !TypeName.nestsTooDeeply(text) else { return nil }
        let normalised = TypeName.normalise(text)
        guard !normalised.isEmpty else { return nil }
        spelling = normalised
    }

    /// A literal type name in code and tests; it must not be empty.
    public init(stringLiteral value: String) {
        spelling = TypeName.normalise(value)
    }

    public var description: String { spelling }

    public static func < (lhs: TypeName, rhs: TypeName) -> Bool { lhs.spelling < rhs.spelling }

    public init(from decoder: any Decoder) throws {
        spelling = TypeName.normalise(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(spelling)
    }

    /// The type that accepts any value.
    public static let any: TypeName = "Any"

    /// True for `Any`, `AnyObject` and `Any?`: such a read or write never mismatches.
    public var isAny: Bool { ["Any", "AnyObject", "Any?", "AnyObject?"].contains(spelling) }

    /// True for `T?` and `T!`.
    public var isOptional: Bool { spelling.hasSuffix("?") || spelling.hasSuffix("!") }

    /// `T` for `T?` / `T!`, else the type itself.
    public var unwrapped: TypeName {
        guard isOptional else { return self }
        return TypeName(String(spelling.dropLast())) ?? self
    }

    /// The element type of an array type `[T]`, or nil when this is not an array.
    public var arrayElement: TypeName? {
        let s = unwrapped.spelling
        guard s.hasPrefix("["), s.hasSuffix("]") else { return nil }
        let inner = String(s.dropFirst().dropLast())
        // `[K:V]` is a dictionary, not an array: a colon at nesting depth 0.
        var depth = 0
        for ch in inner {
            switch ch {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case ":" where depth == 0: return nil
            default: break
            }
        }
        return TypeName(inner)
    }

    /// `[T]`.
    public static func array(of element: TypeName) -> TypeName { TypeName(stringLiteral: "[\(element.spelling)]") }

    /// Whether a value of type `self` (written) can be read as `read` without a run-time cast failure.
    ///
    /// Optionality is ignored on both sides (a present value of `T` reads as `T?`), `Any` matches
    /// everything, and array element types are compared recursively.
    public func isCompatible(withRead read: TypeName) -> Bool {
        let w = unwrapped, r = read.unwrapped
        if w.isAny || r.isAny { return true }
        if w.spelling == r.spelling { return true }
        if let we = w.arrayElement, let re = r.arrayElement { return we.isCompatible(withRead: re) }
        return false
    }

    /// How deep `<`, `[` and `(` may nest in a type's spelling. `normalise` unwraps one generic a
    /// level and `isCompatible` one array a level, each level a pass over the rest of the text: the
    /// limit keeps both linear in the text's length and their recursion shallow (a 20,000-level
    /// `Array<…>` in a flow file overflowed the stack; 5,000 levels took 47 s). 64 is the Swift
    /// readers' nesting limit too; no real type comes near it.
    public static let maximumNesting = 64

    /// Whether the brackets of `text` nest deeper than `maximumNesting`, by one pass over its bytes.
    /// A closing bracket never takes the depth below zero, so the depth counted is at least that of
    /// any balanced part of the text (unbalanced text cannot hide its nesting).
    public static func nestsTooDeeply(_ text: String) -> Bool {
        var depth = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                if depth > maximumNesting { return true }
            case UInt8(ascii: ">"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                depth = max(0, depth - 1)
            default: break
            }
        }
        return false
    }

    /// The normal spelling of `text` (see `spelling`). Text nested deeper than `maximumNesting` is
    /// returned as it is: it is no type `init?` makes, and normalising it would not be linear.
    static func normalise(_ text: String) -> String {
        // Most spellings (`String`, `[Int]`, `User?`) are already normal: ASCII with no white space,
        // no generic argument and no `.`, so no rule below can change them. Said with one byte scan.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ".") }) { return text }
        if nestsTooDeeply(text) { return text }
        // Unicode's white space in ASCII is tab to carriage return and the space: asked by value, as
        // looking up a scalar's properties costs far more (most of the time of a long spelling).
        var s = String(text.unicodeScalars.filter { scalar in
            scalar.isASCII ? !(scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : !scalar.properties.isWhitespace
        })
        while s.hasPrefix("Swift.") { s.removeFirst(6) }
        // Most spellings name no `Swift.` type: four searches-and-replaces each would cost more than
        // the rest of reading a large flow's types.
        if s.contains("Swift.") {
            s = s.replacing("<Swift.", with: "<").replacing("[Swift.", with: "[")
            s = s.replacing(",Swift.", with: ",").replacing(":Swift.", with: ":")
        }
        if let inner = unwrapGeneric(s, "Optional") { return normalise(inner) + "?" }
        if let inner = unwrapGeneric(s, "Array") { return "[" + normalise(inner) + "]" }
        if let inner = unwrapGeneric(s, "Dictionary"), let comma = topLevelComma(inner) {
            let k = String(inner[..<comma]), v = String(inner[inner.index(after: comma)...])
            return "[" + normalise(k) + ":" + normalise(v) + "]"
        }
        return s
    }

    private static func unwrapGeneric(_ s: String, _ name: String) -> String? {
        guard s.hasPrefix(name + "<"), s.hasSuffix(">") else { return nil }
        let inner = s.dropFirst(name.count + 1).dropLast()
        // Only when the closing `>` matches the opening one (`Optional<A>.B<C>` is not an optional).
        var depth = 0
        for ch in inner {
            if ch == "<" { depth += 1 } else if ch == ">" { depth -= 1; if depth < 0 { return nil } }
        }
        return depth == 0 ? String(inner) : nil
    }

    private static func topLevelComma(_ s: String) -> String.Index? {
        var depth = 0
        for i in s.indices {
            switch s[i] {
            case "<", "[", "(": depth += 1
            case ">", "]", ")": depth -= 1
            case "," where depth == 0: return i
            default: break
            }
        }
        return nil
    }
}
