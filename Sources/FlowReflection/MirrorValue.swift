/// Stored properties of a live value, including those its superclasses declare.
struct MirrorValue {
    let value: Any
    let mirror: Mirror

    init(_ value: Any) {
        self.value = value
        mirror = Mirror(reflecting: value)
    }

    /// Every stored property, the class's own first, then each superclass's.
    var children: [(label: String?, value: Any)] {
        var all: [(String?, Any)] = []
        var current: Mirror? = mirror
        while let m = current {
            all += m.children.map { ($0.label, $0.value) }
            current = m.superclassMirror
        }
        return all
    }

    /// The stored properties declared by the value's class and its superclasses below the first
    /// superclass named `base` (module names ignored); all of them when there is none.
    func children(below base: String) -> [(label: String?, value: Any)] {
        var all: [(String?, Any)] = []
        var current: Mirror? = mirror
        while let m = current, ReflectedType.baseName(of: m.subjectType) != base {
            all += m.children.map { ($0.label, $0.value) }
            current = m.superclassMirror
        }
        return all
    }

    /// The stored property `label` (an optional unwrapped; nil when absent or nil).
    subscript(label: String) -> Any? {
        guard let found = children.first(where: { $0.label == label })?.value else { return nil }
        return MirrorValue.unwrap(found)
    }

    /// The identity of a class instance, for cycle detection.
    var identity: ObjectIdentifier? {
        mirror.displayStyle == .class ? ObjectIdentifier(value as AnyObject) : nil
    }

    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrap($0.value) }
    }

    var typeName: String { ReflectedType.baseName(of: type(of: value)) }
}
