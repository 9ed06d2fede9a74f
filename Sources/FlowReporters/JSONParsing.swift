/// Why a text is not the JSON FlowLens reads back (a report given to `flowlens merge`).
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and where (a byte offset).
    public let description: String
}

extension JSONValue {
    /// Parses JSON text, keeping object keys in the order written, so a value read back and written
    /// again by `serialized()` is the same bytes. Numbers must be integers (every number FlowLens
    /// writes is); nesting deeper than `maximumDepth` is an error, never a stack overflow.
    public static func parse(_ text: String, maximumDepth: Int = 256) throws -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("text after the JSON value") }
        return value
    }

    /// The field `name` of an object; nil for a missing field or a value that is not an object.
    public subscript(name: String) -> JSONValue? {
        guard case let .object(fields) = self else { return nil }
        return fields.first { $0.0 == name }?.1
    }

    /// The string, or nil.
    public var stringValue: String? { if case let .string(value) = self { return value } else { return nil } }
    /// The integer, or nil.
    public var intValue: Int? { if case let .int(value) = self { return value } else { return nil } }
    /// The items of an array, or nil.
    public var arrayValue: [JSONValue]? { if case let .array(items) = self { return items } else { return nil } }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        var position = 0

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func error(_ what: String) -> JSONParseError { JSONParseError(description: "\(what) at byte \(position)") }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String) throws {
            let literalBytes = Array(literal.utf8)
            guard bytes.count - position >= literalBytes.count,
                  Array(bytes[position..<position + literalBytes.count]) == literalBytes else { throw error("expected '\(literal)'") }
            position += literalBytes.count
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
            guard position < bytes.count else { throw error("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var fields: [(String, JSONValue)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    fields.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("}")
                    return .object(fields)
                }
            case UInt8(ascii: "["):
                position += 1
                var items: [JSONValue] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                if bytes[position] == UInt8(ascii: "-") { position += 1 }
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                guard let number = Int(String(decoding: bytes[start..<position], as: UTF8.self)) else { throw error("not an integer") }
                if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
                    throw error("not an integer")
                }
                return .int(number)
            default:
                throw error("unexpected character")
            }
        }

        /// A string literal; the position is at its opening quote.
        mutating func string() throws -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var run = position  // start of the bytes not yet copied
            var out = ""
            func flush(_ end: Int) { out += String(decoding: bytes[run..<end], as: UTF8.self) }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    flush(position)
                    position += 1
                    return out
                }
                if byte < 0x20 { throw error("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else { position += 1; continue }
                flush(position)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): out += "\""
                case UInt8(ascii: "\\"): out += "\\"
                case UInt8(ascii: "/"): out += "/"
                case UInt8(ascii: "b"): out += "\u{8}"
                case UInt8(ascii: "f"): out += "\u{C}"
                case UInt8(ascii: "n"): out += "\n"
                case UInt8(ascii: "r"): out += "\r"
                case UInt8(ascii: "t"): out += "\t"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an unpaired surrogate") }
                    scalars = String.UnicodeScalarView()
                    scalars.append(scalar)
                    out += String(scalars)
                default: throw error("an unknown escape")
                }
                run = position
            }
            throw error("an unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard bytes.count - position >= 4,
                  let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("a bad \\u escape")
            }
            position += 4
            return code
        }
    }
}
