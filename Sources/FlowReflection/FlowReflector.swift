import FlowLoaders
import FlowModel

/// Why reflection found nothing to analyse, or had to stop.
public struct FlowReflectionError: Error, CustomStringConvertible, Sendable {
    /// What was reflected, and what was looked for or where the walk stopped.
    public let description: String
}

/// Turns live objects into FlowLens's IR, so that flows assembled at run time (from configuration,
/// feature flags, dependency injection) are checked like flows read from source.
///
/// The walker follows stored properties (`Mirror`) from the given object, iteratively (no recursion
/// limit, however deep the graph) and visiting each class instance once (cycles are fine); plain
/// values and collections of them are not walked element by element. It recognises a
/// `FlowLensFlowDescribing` object by its description, a Flow-iOS `Flow` by its operation tree (the
/// same step ids, names, kinds and transitions as the Swift source loader), FlowState steps and
/// coordinators (a step's id is the stored property holding it, else its `identifier`; one flow per
/// object holding steps), and Syrup progression values (the current case). Each flow has the kind of
/// its library, since rules such as `nested-case` depend on whose run-time semantics apply.
///
/// What reflection cannot see is marked unknown, and unknown never produces a finding: the keys an
/// operation's code reads and writes (declare them with `FlowLensStepDescribing`), what Flow-iOS
/// will-start and did-finish blocks read, and what FlowState intents and completions do (the next
/// steps they choose, the content they set; a note on the flow says so).
public struct FlowReflector: Sendable {
    /// The most objects one walk visits; a guard against runaway object graphs, not a depth limit.
    public var maximumObjects: Int

    /// Creates a reflector.
    public init(maximumObjects: Int = 1_000_000) {
        self.maximumObjects = maximumObjects
    }

    /// The flows found in `root` and everything it references. A flow is named by the path of
    /// properties that leads to it from `root`, which is called `name` (default: its type's name):
    /// `AppContainer.checkoutFlow`, or just `name` for a flow given directly.
    ///
    /// - Throws: `FlowReflectionError` when no flow is found, or when the walk passes
    ///   `maximumObjects` (a partial graph would hide flows and steps).
    public func graph(of root: Any, name: String? = nil) throws -> FlowGraph {
        var flows: [Flow] = []
        var visited = Set<ObjectIdentifier>()
        var stack: [(value: Any, path: [String])] = [(root, [name ?? ReflectedType.baseName(of: type(of: root))])]
        var count = 0
        var flowState = FlowStateCollector()
        while let (value, path) = stack.popLast() {
            count += 1
            guard count <= maximumObjects else {
                // A partial walk could miss flows, or steps of the flows it found: say so, never guess.
                throw FlowReflectionError(description: """
                    stopped after \(maximumObjects) objects in \(ReflectedType.baseName(of: type(of: root))) \
                    (at \(path.joined(separator: "."))): reflect a smaller part of the object graph, or raise \
                    FlowReflector.maximumObjects
                    """)
            }
            let item = MirrorValue(value)
            if let identity = item.identity, !visited.insert(identity).inserted { continue }
            if let described = value as? FlowLensFlowDescribing {
                var flow = described.flowLensFlow()
                if flow.id.isEmpty { flow.id = path.joined(separator: ".") }
                flows.append(flow)
                continue
            }
            if item.typeName == "Flow", item["rootNode"] != nil, item.children.contains(where: { $0.label == "dataBucket" }) {
                flows.append(FlowIOSReflection(object: item, name: path.joined(separator: ".")).flow())
                continue
            }
            if FlowStateCollector.isCoordinator(item) {
                // Its flow starts at its `firstStep`; look inside it for that step and the steps it holds.
                flowState.addCoordinator(item, path: path)
            } else if FlowStateCollector.isStep(item) {
                flowState.add(item, path: path)
                continue
            }
            if let progression = SyrupReflection.flow(item, name: path.joined(separator: ".")) {
                flows.append(progression)
                continue
            }
            // Anything else: look inside. Children are pushed in reverse so they are visited in order.
            for (index, child) in item.children.enumerated().reversed() {
                guard let inner = MirrorValue.unwrap(child.value), !ReflectedType.isLeaf(type(of: inner)) else { continue }
                stack.append((inner, path + [child.label ?? "[\(index)]"]))
            }
        }
        flows += flowState.flows()
        guard !flows.isEmpty else {
            throw FlowReflectionError(description: """
                no flow found in \(ReflectedType.baseName(of: type(of: root))): FlowLens recognises Flow-iOS \
                Flow objects, FlowState FlowStep chains, Syrup progressions, and types adopting \
                FlowLensFlowDescribing
                """)
        }
        // Ids must be unique in a graph; the walk order makes the suffixes deterministic.
        var seen: [String: Int] = [:]
        for i in flows.indices {
            seen[flows[i].id, default: 0] += 1
            if seen[flows[i].id]! > 1 { flows[i].id += "#\(seen[flows[i].id]!)" }
        }
        return FlowGraph(flows: flows)
    }
}

/// A Flow-iOS `Flow` object as IR: the same steps, ids and transitions the source loader builds.
struct FlowIOSReflection {
    let object: MirrorValue
    let name: String

    /// One node of Flow-iOS's operation tree.
    final class Node {
        let value: MirrorValue
        var children: [Node] = []
        var parents = 0
        /// Its place in add order.
        var index = -1
        init(_ value: MirrorValue) { self.value = value }
    }

    func flow() -> Flow {
        // The kind says whose run-time semantics apply: rules such as `nested-case` hold for Flow-iOS
        // flows only, however they were read.
        var result = Flow(id: name, name: name, kind: .flowIOS)
        // The tree is a DAG after combine(): build nodes once per object.
        var nodes: [ObjectIdentifier: Node] = [:]
        func node(_ value: Any) -> Node {
            let item = MirrorValue(value)
            let id = item.identity ?? ObjectIdentifier(Node.self)
            if let known = nodes[id] { return known }
            let made = Node(item)
            nodes[id] = made
            return made
        }
        let root = node(object["rootNode"]!)
        var pending = [root]
        var expanded = Set<ObjectIdentifier>()
        while let current = pending.popLast() {
            guard expanded.insert(ObjectIdentifier(current)).inserted else { continue }
            for child in (current.value["childNodes"] as? [Any]) ?? [] {
                let childNode = node(child)
                current.children.append(childNode)
                childNode.parents += 1
                pending.append(childNode)
            }
        }
        // Add order: depth first in child order, a node with several parents (a combine) only once
        // all of them are placed — the order in which Flow-iOS's builder calls added them.
        var order: [Node] = []
        var placedParents: [ObjectIdentifier: Int] = [:]
        var stack = Array(root.children.reversed())
        while let current = stack.popLast() {
            placedParents[ObjectIdentifier(current), default: 0] += 1
            guard placedParents[ObjectIdentifier(current)]! == current.parents else { continue }
            order.append(current)
            stack += current.children.reversed()
        }

        // A block is a closure: what it reads is unknown. The will-start block runs with the data the
        // flow starts with (the source loader puts its reads on the start step), the did-finish block
        // with what it ends with (on the finish step).
        var start = Step(id: "start", name: "start", kind: .start)
        var finish = Step(id: "finish", name: "finish", kind: .end)
        if object["willStartBlock"] != nil { start.unresolved.append(.dynamicReadKey(nil)) }
        if object["didFinishBlock"] != nil { finish.unresolved.append(.dynamicReadKey(nil)) }
        for (index, node) in order.enumerated() { node.index = index }
        FlowIOSTree.assemble(&result, start: start, finish: finish, count: order.count,
                             step: { step(for: order[$0], id: $1) },
                             children: { index in
                                 (index.map { order[$0] } ?? root).children.map { child in
                                     FlowIOSTree.Child(node: child.index, flowCase: child.value["flowCase"].map(MirrorValue.init).map { flowCase in
                                         FlowIOSTree.Case(key: flowCase["key"] as? String, value: flowCase["value"] as? String)
                                     })
                                 }
                             },
                             leafLocation: { _ in nil })

        // The bucket as it is now (before `start()`, the data the flow starts with), in key order.
        if let bucket = object["dataBucket"] as? [String: Any] {
            for key in bucket.keys.sorted() {
                let value = bucket[key]!
                let facts = ReflectedType.facts(of: value)
                // Shown as the source loader shows a literal: strings quoted.
                let display = value is String ? String(reflecting: value) : String(describing: value)
                result.initialData.append(DataAccess(key: key, type: facts.type, elementTypes: facts.elementTypes,
                                                     value: String(display.prefix(60)), stringValue: value as? String))
            }
        }
        // The tree's nodes reference each other; unlink them here, iteratively, so that releasing a
        // 10,000-node chain does not recurse once per node.
        for node in nodes.values { node.children = [] }
        return result
    }

    private func step(for node: Node, id uniqueID: (String) -> String) -> Step {
        let value = node.value
        if value["isGroup"] as? Bool == true {
            let creator = value["operationCreator"].map { $0 as? Any.Type } ?? nil
            let className = creator.map { ReflectedType.baseName(of: $0) } ?? "group"
            var step = Step(id: uniqueID(className), name: className, kind: .group, implementation: className)
            let dispatcher = value["dispatcher"].map(MirrorValue.init)
            let described = creator as? FlowLensStepDescribing.Type
            var group = GroupSpec(inputKey: dispatcher?["inputKey"] as? String ?? "", outputKey: dispatcher?["outputKey"] as? String,
                                  elementKey: described?.flowLensPrimaryInputKey ?? "", elementOutputKey: described?.flowLensPrimaryOutputKey ?? "",
                                  elementReads: described?.flowLensReads ?? [], elementWrites: described?.flowLensWrites ?? [])
            group.maxConcurrent = dispatcher?["maxConcurrentOperationCount"] as? Int
            group.allowFailure = dispatcher?["allowFailure"] as? Bool ?? false
            step.group = group
            step.reads = [group.flowRead]
            step.writes = group.flowWrite.map { [$0] } ?? []
            step.details = ["\(group.maxConcurrent ?? 3) at once" + (group.allowFailure ? ", failures skipped" : "")]
            if described == nil { step.unresolved += [.dynamicReadKey(nil), .dynamicWriteKey(nil)] }
            return step
        }
        if let operation = value["singleOperation"] {
            let className = ReflectedType.baseName(of: type(of: operation))
            var step = Step(id: uniqueID(className), name: className, implementation: className)
            if let described = type(of: operation) as? FlowLensStepDescribing.Type {
                step.reads = described.flowLensReads
                step.writes = described.flowLensWrites
            } else {
                step.unresolved += [.dynamicReadKey(nil), .dynamicWriteKey(nil)]
            }
            // String properties an operation was created with, shown as on a source diagram: those its
            // own classes declare, not FlowOperation's (whose `identifier` is a fresh UUID every run).
            step.details = MirrorValue(operation).children(below: "FlowOperation").compactMap { child in
                guard let label = child.label, let text = MirrorValue.unwrap(child.value) as? String else { return nil }
                return "\(label): \(text)"
            }
            return step
        }
        return Step(id: uniqueID("combine"), name: "combine", kind: .join)
    }
}
