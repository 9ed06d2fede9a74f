import FlowLoaders
import FlowModel

/// FlowState steps found during a walk, turned into flows once the walk is over (a step can be
/// reached by its property name before or after the chain that links it).
///
/// The IR is assembled by `FlowStateAssembler`, as the FlowState source loader's is: a `FlowStep` is an `operation` step whose id
/// is the stored property holding it (else its `identifier`) and whose name is its `identifier`, typed
/// by the generic arguments `Content` and `Result`, reading its content under `"<id>.content"`; a
/// `ConcurentFlowStep` is a `parallel` step with a `join` step `"<id>.join"` its steps lead to; content
/// already set is initial data. What reflection cannot see is what intents and completions do at run
/// time: the next steps they choose, the content they set. So every `FlowStep` may write any key, a
/// step whose completion may choose its next step is drawn as possibly ending the flow, and a step
/// with no visible way in is a possible start: unknown never produces a finding. A note says so.
struct FlowStateCollector {
    private struct Entry {
        var item: MirrorValue
        var label: String?
        var holder: String
        var order: Int
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var coordinators: [(item: MirrorValue, holder: String)] = []
    /// The steps that were the root of the walk, by holder: the flow starts there.
    private var roots: [String: ObjectIdentifier] = [:]
    private var order = 0

    /// A `NavigationFlowCoordinator` (or a subclass, or anything that starts at a `firstStep`).
    static func isCoordinator(_ item: MirrorValue) -> Bool {
        item.mirror.displayStyle == .class && item.children.contains { $0.label == "firstStep" }
            && item.children.contains { $0.label == "nextStep" }
    }

    /// A `FlowStep`, a `ConcurentFlowStep`, or another `Startable` (a class with `nextStep` and `identifier`).
    static func isStep(_ item: MirrorValue) -> Bool {
        guard item.mirror.displayStyle == .class else { return false }
        let name = item.typeName
        return name == "FlowStep" || isConcurrent(item)
            || (item.children.contains { $0.label == "nextStep" } && item.children.contains { $0.label == "identifier" })
    }

    static func isConcurrent(_ item: MirrorValue) -> Bool {
        item.typeName == "ConcurentFlowStep" || item.typeName == "ConcurrentFlowStep"
    }

    /// The holder (the path of the object whose property leads to the value) and the property name,
    /// for a value found at `path`; no property name for an array element or the walk's root.
    static func place(_ path: [String]) -> (holder: String, label: String?) {
        var parts = path
        var indexed = false
        while parts.count > 1, parts.last!.hasPrefix("[") {
            parts.removeLast()
            indexed = true
        }
        guard parts.count > 1 else { return (parts.joined(separator: "."), nil) }
        let label = parts.removeLast()
        // Reached through a link (a coordinator's `firstStep`): a link's name is no step's name.
        if indexed || ["firstStep", "nextStep", "steps"].contains(label) { return (parts.joined(separator: "."), nil) }
        return (parts.joined(separator: "."), propertyName(label))
    }

    /// `permissionsStep` for the storage of `lazy var permissionsStep`.
    static func propertyName(_ label: String) -> String {
        let lazyPrefix = "$__lazy_storage_$_"
        return label.hasPrefix(lazyPrefix) ? String(label.dropFirst(lazyPrefix.count)) : label
    }

    /// Records a coordinator: its flow (named by its path) starts at its `firstStep`. The walker then
    /// looks inside it, so that its `firstStep` and the steps it holds are added with it as holder.
    mutating func addCoordinator(_ item: MirrorValue, path: [String]) {
        coordinators.append((item, path.joined(separator: ".")))
    }

    /// Records a step found at `path`, and every step linked from it (`nextStep`, a group's `steps`).
    mutating func add(_ item: MirrorValue, path: [String]) {
        let (holder, label) = Self.place(path)
        if path.count == 1, let identity = item.identity, roots[holder] == nil { roots[holder] = identity }
        var stack: [(item: MirrorValue, label: String?, holder: String)] = [(item, label, holder)]
        while let (current, label, holder) = stack.popLast() {
            guard let identity = current.identity else { continue }
            if var known = entries[identity] {
                // A property name is a better id than none; the flow stays the one that reached it first.
                if known.label == nil, let label {
                    known.label = label
                    entries[identity] = known
                }
                continue
            }
            entries[identity] = Entry(item: current, label: label, holder: holder, order: order)
            order += 1
            var links: [MirrorValue] = ((current["steps"] as? [Any]) ?? []).map(MirrorValue.init)
            if let next = current["nextStep"] { links.append(MirrorValue(next)) }
            for link in links.reversed() { stack.append((link, nil, holder)) }
        }
    }

    /// One flow per holder, in the order their first steps were found.
    func flows() -> [Flow] {
        let ordered = entries.values.sorted { $0.order < $1.order }
        var holders: [String] = []
        var groups: [String: [Entry]] = [:]
        for entry in ordered {
            if groups[entry.holder] == nil { holders.append(entry.holder) }
            groups[entry.holder, default: []].append(entry)
        }
        // Ids are unique within a flow: a step's property name, else its identifier.
        var ids: [ObjectIdentifier: String] = [:]
        var taken: [String: Set<String>] = [:]
        func unique(_ base: String, in holder: String) -> String {
            var candidate = base
            var n = 1
            while taken[holder, default: []].contains(candidate) {
                n += 1
                candidate = "\(base)#\(n)"
            }
            taken[holder, default: []].insert(candidate)
            return candidate
        }
        for entry in ordered {
            let base = entry.label ?? (entry.item["identifier"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? entry.item.typeName
            ids[entry.item.identity!] = unique(base, in: entry.holder)
        }
        func id(_ value: Any) -> String? {
            MirrorValue(value).identity.flatMap { ids[$0] }
        }
        return holders.map { holder in
            flow(holder, steps: groups[holder]!, id: id)
        }
    }

    private func flow(_ holder: String, steps group: [Entry], id: (Any) -> String?) -> Flow {
        var flow = Flow(id: holder, name: holder, kind: .flowState)
        var parts: [FlowStateAssembler.Part] = []
        var initialData: [DataAccess] = []
        var byID: [String: MirrorValue] = [:]
        for entry in group {
            let item = entry.item
            let stepID = id(item.value)!
            byID[stepID] = item
            let name = (item["identifier"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? stepID
            if Self.isConcurrent(item) {
                let members = ((item["steps"] as? [Any]) ?? []).map { (id: id($0) ?? "?", location: SourceLocation?.none) }
                parts.append(.init(id: stepID, name: name, kind: .group, members: members))
            } else if item.typeName == "FlowStep" {
                let generics = ReflectedType.genericArguments(of: type(of: item.value))
                let content = generics.first, result = generics.count > 1 ? generics[1] : nil
                // Its intent and completion are closures: they may set any step's content.
                parts.append(.init(id: stepID, name: name, kind: .flowStep, contentType: content, resultType: result,
                                   mayWriteAnyContent: true))
                if let value = item["content"] {
                    let facts = ReflectedType.facts(of: value)
                    let display = value is String ? String(reflecting: value) : String(describing: value)
                    initialData.append(DataAccess(key: FlowStateDialect.contentKey(stepID), type: facts.type, elementTypes: facts.elementTypes,
                                                  value: String(display.prefix(60)), stringValue: value as? String))
                }
            } else {
                parts.append(.init(id: stepID, name: name, kind: .startable, implementation: item.typeName))
            }
        }

        var chosenInClosures: [String] = []
        FlowStateAssembler.assemble(&flow, parts: parts, initialData: initialData, endLocation: nil) { stepID in
            let item = byID[stepID]!
            if let next = item["nextStep"] { return [.init(to: .step(id(next) ?? "?"))] }
            guard item.typeName == "FlowStep", item["completion"] != nil else { return [.init(to: .end)] }
            chosenInClosures.append((item["identifier"] as? String) ?? stepID)
            return [.init(to: .end, label: "unless its completion sets a next step")]
        }

        // The start: a coordinator's first step, else the step the walk started from; and, since
        // closures may link to any step, every step no visible transition leads to.
        var declared: [String] = []
        if let coordinator = coordinators.first(where: { $0.holder == holder }), let first = coordinator.item["firstStep"], let firstID = id(first) {
            declared = [firstID]
        } else if let root = roots[holder], let rootID = group.first(where: { $0.item.identity == root }).map({ id($0.item.value)! }) {
            declared = [rootID]
        }
        let targets = Set(flow.transitions.map(\.to))
        let unlinked = flow.steps.filter { $0.kind != .join && $0.kind != .end && !targets.contains($0.id) && !declared.contains($0.id) }
        flow.entries = declared + unlinked.map(\.id)
        if flow.entries.isEmpty, let first = flow.steps.first { flow.entries = [first.id] }

        if !chosenInClosures.isEmpty || (!unlinked.isEmpty && !declared.isEmpty) || (declared.isEmpty && unlinked.count > 1) {
            var unknown: [String] = []
            if !chosenInClosures.isEmpty {
                let one = chosenInClosures.count == 1
                unknown.append("the completion\(one ? "" : "s") of \(Self.list(chosenInClosures)) may choose \(one ? "its next step" : "their next steps")")
            }
            let startsShown = declared.isEmpty ? unlinked.dropFirst().map(\.name) : unlinked.map(\.name)
            if !startsShown.isEmpty {
                unknown.append("\(Self.list(startsShown)) \(startsShown.count == 1 ? "has" : "have") no visible way in (drawn as \(startsShown.count == 1 ? "a start" : "starts"))")
            }
            flow.limitations.append(Limitation(
                message: "reflection sees FlowState steps and the links set before the flow runs, not what intents and completions do: \(unknown.joined(separator: ", and ")); check this flow with the Swift source loader",
                location: nil))
        }
        return flow
    }

    static func list(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
    }
}

/// A Syrup progression value: reflection sees the current case and its associated values, not the
/// cases the code could move to, and says so.
enum SyrupReflection {
    static func flow(_ item: MirrorValue, name: String) -> Flow? {
        guard item.mirror.displayStyle == .enum, item.typeName.hasSuffix("Progression") else { return nil }
        // A case with associated values is the label of its one child; one without, the value's own text.
        let caseName = item.mirror.children.first?.label
            ?? String(String(reflecting: item.value).split(separator: ".").last.map(String.init)?.prefix { $0 != "(" } ?? "")
        var step = Step(id: caseName, name: caseName, kind: .state)
        // Its associated values, one a line (`code: 42`).
        if let payload = item.mirror.children.first?.value {
            let values = Mirror(reflecting: payload)
            step.details = values.displayStyle == .tuple
                ? values.children.map { "\($0.label.map { $0.hasPrefix(".") ? "value" : $0 } ?? "value"): \($0.value)" }
                : ["\(payload)"]
        }
        // The cases it moves to are unknown: drawn as a way on to the end, so that no rule guesses.
        let end = Step(id: caseName == "end" ? "end#2" : "end", name: "end", kind: .end)
        var flow = Flow(id: name, name: name, kind: .syrup, steps: [step, end],
                        transitions: [Transition(from: caseName, to: end.id, label: "the next case is chosen in code")],
                        entries: [caseName])
        flow.limitations = [Limitation(
            message: "\(item.typeName) is reflected in its current case '\(caseName)' only: the cases it moves to are in updateOrDeferNext's code, which reflection cannot read; check it with the Swift source loader",
            location: nil)]
        return flow
    }
}
