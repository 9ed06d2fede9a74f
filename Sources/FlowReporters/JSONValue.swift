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
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// Indentation strings, made once (a report of a large flow writes hundreds of thousands of lines).
    private static let indents = (0..<24).map { String(repeating: "  ", count: $0) }

    private static func indentation(_ depth: Int) -> String {
        depth < indents.count ? indents[depth] : String(repeating: "  ", count: depth)
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .string(value): Self.writeString(value, to: &out)
        case let .array(items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (n, item) in items.enumerated() {
                out += Self.indentation(indent + 1)
                item.write(to: &out, indent: indent + 1)
                out += n == items.count - 1 ? "\n" : ",\n"
            }
            out += Self.indentation(indent)
            out += "]"
        case let .object(fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (n, (key, value)) in fields.enumerated() {
                out += Self.indentation(indent + 1)
                Self.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: indent + 1)
                out += n == fields.count - 1 ? "\n" : ",\n"
            }
            out += Self.indentation(indent)
            out += "}"
        }
    }

    static func writeString(_ value: String, to out: inout String) {
        out += "\""
        Escaping.json(value, into: &out)
        out += "\""
    }
}
