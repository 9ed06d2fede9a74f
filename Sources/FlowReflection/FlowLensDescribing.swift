import FlowLoaders
import FlowModel

/// Adopted by a flow engine that can describe itself precisely: FlowLens's reflection uses the
/// description instead of guessing from stored properties.
///
/// ```swift
/// extension CheckoutEngine: FlowLensFlowDescribing {
///     func flowLensFlow() -> Flow {
///         Flow(id: "checkout", kind: .reflected,
///              steps: [Step(id: "pay", reads: [DataAccess(key: "cartID", type: "String")]), Step(id: "done", kind: .end)],
///              transitions: [Transition(from: "pay", to: "done")])
///     }
/// }
/// ```
public protocol FlowLensFlowDescribing {
    /// The flow as FlowLens's IR: steps, transitions, initial data, declared reads and writes.
    func flowLensFlow() -> Flow
}

/// Adopted by a Flow-iOS operation class (a `FlowOperation` subclass, grouped or not) to declare the
/// keys its code reads and writes. Reflection cannot see inside method bodies: without this, a
/// reflected operation may read and write any key, which never produces a finding. The requirements
/// are static because a grouped operation is known only by its type until it runs. The conformance
/// can live in a test target (`extension LoginOp: FlowLensStepDescribing`), so the app itself does
/// not depend on FlowLens.
///
/// ```swift
/// extension LoginOp: FlowLensStepDescribing {
///     static var flowLensReads: [DataAccess] { [.read("email", String.self), .read("password", String.self)] }
///     static var flowLensWrites: [DataAccess] { [.write("accessToken", String.self)] }
/// }
/// ```
public protocol FlowLensStepDescribing {
    /// Keys read, with their types (optional reads may be missing).
    static var flowLensReads: [DataAccess] { get }
    /// Keys written, with their types.
    static var flowLensWrites: [DataAccess] { get }
    /// For a Flow-iOS operation run in a group: its `primaryInputParamKey`.
    static var flowLensPrimaryInputKey: String? { get }
    /// For a Flow-iOS operation run in a group: its `primaryOutputParamKey`.
    static var flowLensPrimaryOutputKey: String? { get }
}

extension FlowLensStepDescribing {
    public static var flowLensReads: [DataAccess] { [] }
    public static var flowLensWrites: [DataAccess] { [] }
    public static var flowLensPrimaryInputKey: String? { nil }
    public static var flowLensPrimaryOutputKey: String? { nil }
}

/// A data key for `FlowLensStepDescribing`: `.read("email", String.self)`.
extension DataAccess {
    /// A required read of `key` as `type`.
    public static func read(_ key: String, _ type: Any.Type, optional: Bool = false) -> DataAccess {
        DataAccess(key: key, type: ReflectedType.name(of: type), optional: optional)
    }

    /// A write of `key` as `type`.
    public static func write(_ key: String, _ type: Any.Type) -> DataAccess {
        DataAccess(key: key, type: ReflectedType.name(of: type))
    }
}

/// Type names of live values and metatypes, spelt as the source loaders spell them.
enum ReflectedType {
    /// `String`, `[Int]`, `[String:Any]`, `UserProfile` (module names dropped, `Optional` unwrapped:
    /// a bucket's `as? T` cast sees through an optional).
    static func name(of type: Any.Type) -> TypeName? {
        TypeName(strippingModules(String(reflecting: type))).map { $0.unwrapped }
    }

    /// The dynamic type of a value held in an `Any`, and for arrays the element types one by one.
    static func facts(of value: Any) -> (type: TypeName?, elementTypes: [TypeName?]?) {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return (nil, nil) }
            return facts(of: wrapped)
        }
        if mirror.displayStyle == .collection {
            let elements = mirror.children.map { facts(of: $0.value).type }
            let known = Set(elements.compactMap { $0 })
            let declared = name(of: Swift.type(of: value))
            if known.count == 1, !elements.contains(nil) { return (TypeName.array(of: known.first!), elements) }
            if elements.isEmpty { return (declared, []) }
            return (TypeName.array(of: .any), elements)
        }
        return (name(of: Swift.type(of: value)), nil)
    }

    /// `Swift.Array<Swift.String>` → `Array<String>`; `MyApp.Models.User` → `User`.
    static func strippingModules(_ text: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            if !word.isEmpty { out += word.split(separator: ".").last.map(String.init) ?? word }
            word = ""
        }
        for ch in text {
            if ch.isLetter || ch.isNumber || ch == "_" || ch == "." { word.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }

    /// The generic arguments of a type name: `FlowStep<String, DisplayStringAction>` → both names.
    static func genericArguments(of type: Any.Type) -> [TypeName] {
        let text = strippingModules(String(reflecting: type))
        guard let open = text.firstIndex(of: "<"), text.hasSuffix(">") else { return [] }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        var parts: [String] = []
        var depth = 0
        var current = ""
        for ch in inner {
            if ch == "<" || ch == "[" || ch == "(" { depth += 1 }
            if ch == ">" || ch == "]" || ch == ")" { depth -= 1 }
            if ch == ",", depth == 0 { parts.append(current); current = "" } else { current.append(ch) }
        }
        parts.append(current)
        // `Void` is spelt `()` by the runtime; sources spell it `Void`.
        return parts.map { String($0.filter { !$0.isWhitespace }) }.compactMap { TypeName($0 == "()" ? "Void" : $0) }
    }

    /// Values that cannot hold a flow: numbers, strings and other plain values, and collections of
    /// them (a 10 MB `[UInt8]` is not walked element by element).
    static func isLeaf(_ type: Any.Type) -> Bool {
        let base = baseName(of: type)
        if leafNames.contains(base) { return true }
        guard ["Array", "ContiguousArray", "ArraySlice", "Set", "Dictionary", "Optional"].contains(base) else { return false }
        let arguments = strippingModules(String(reflecting: type))
        guard let open = arguments.firstIndex(of: "<") else { return false }
        // Every generic argument a plain value (no nesting: `Array<Array<Int>>` is walked).
        let inner = arguments[arguments.index(after: open)..<arguments.index(before: arguments.endIndex)]
        return inner.split(separator: ",").allSatisfy { leafNames.contains($0.trimmingWhitespace) }
    }

    private static let leafNames: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Float16", "Float80", "CGFloat", "Decimal", "Bool", "String", "Substring", "Character", "Unicode.Scalar", "Scalar",
        "Date", "Data", "URL", "UUID", "TimeInterval",
    ]

    /// The type's own name without generic arguments or modules.
    static func baseName(of type: Any.Type) -> String {
        let text = strippingModules(String(reflecting: type))
        return String(text.prefix { $0 != "<" })
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
