import FlowPresentation

/// A JSON value with ordered object keys, written byte-for-byte the same on every run.
///
/// The JSON report is an API: its key order follows the documented shape instead of the
/// alphabetical order `JSONEncoder(.sortedKeys)` would impose, and no platform's encoder quirks
/// (number formats, escaped slashes) leak into it.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// An optional string, or null.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// Pretty-printed with two-space indentation and a final newline.
    public func serialized() -> String {
        // Written as UTF-8 bytes into one buffer, made a `String` once: appending to a `String` piece
        // by piece was half of `check --format json` (a report of 200 flows is 7 MB).
        var out: [UInt8] = []
        out.reserveCapacity(1 << 12)
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: Self.append("null", to: &out)
        case let .bool(value): Self.append(value ? "true" : "false", to: &out)
        case let .int(value): out.append(contentsOf: String(value).utf8)
        case let .string(value): Self.writeString(value, to: &out)
        case let .array(items):
            guard !items.isEmpty else { Self.append("[]", to: &out); return }
            Self.append("[\n", to: &out)
            for (n, item) in items.enumerated() {
                Self.indent(indent + 1, to: &out)
                item.write(to: &out, indent: indent + 1)
                Self.append(n == items.count - 1 ? "\n" : ",\n", to: &out)
            }
            Self.indent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case let .object(fields):
            guard !fields.isEmpty else { Self.append("{}", to: &out); return }
            Self.append("{\n", to: &out)
            for (n, (key, value)) in fields.enumerated() {
                Self.indent(indent + 1, to: &out)
                Self.writeString(key, to: &out)
                Self.append(": ", to: &out)
                value.write(to: &out, indent: indent + 1)
                Self.append(n == fields.count - 1 ? "\n" : ",\n", to: &out)
            }
            Self.indent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        // `withUTF8Buffer`, not `utf8Start`: a one-character literal (`"\n"`) may be stored as a scalar.
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Two spaces a level.
    private static func indent(_ depth: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        Escaping.json(value, into: &out)
        out.append(UInt8(ascii: "\""))
    }
}
