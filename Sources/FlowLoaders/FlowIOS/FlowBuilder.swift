import FlowModel
import SwiftSyntax

/// Replays a flow's builder calls exactly as Flow-iOS's `addNodeToTree`/`combineCases` build the
/// operation tree, then writes the tree as IR steps and transitions.
struct FlowBuilder {
    let file: ParsedSwiftFile
    let operations: OperationCatalog
    let constants: ConstantTable
    let ownerType: String?
    let locals: LocalTypes

    /// A node of Flow-iOS's operation tree.
    final class Node {
        enum Kind { case root, operation, group, combine }
        let kind: Kind
        let call: FunctionCallExprSyntax?
        var flowCase: (key: String?, value: String?, syntax: ExprSyntax)?
        var children: [Node] = []
        /// Its place in add order.
        var index = -1

        init(_ kind: Kind, _ call: FunctionCallExprSyntax?) {
            self.kind = kind
            self.call = call
        }

        /// Leaves of the subtree (Flow-iOS's `findAllLeaves`), each once, in tree order.
        func leaves() -> [Node] {
            var result: [Node] = []
            var seen = Set<ObjectIdentifier>()
            var stack: [Node] = [self]
            while let node = stack.popLast() {
                guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
                if node.children.isEmpty { result.append(node) } else { stack += node.children.reversed() }
            }
            return result
        }
    }

    func flow(named name: String, _ instance: FlowFinder.Instance) -> Flow {
        var flow = Flow(id: name, name: name, kind: .flowIOS, location: file.location(instance.creation))

        // The tree, as Flow-iOS builds it.
        let root = Node(.root, nil)
        var currentAdded = root
        var casesRoot: Node?
        var allNodes: [Node] = []
        var dataBucket: FunctionCallExprSyntax?
        var finishBlocks: [FunctionCallExprSyntax] = []
        var startBlocks: [FunctionCallExprSyntax] = []
        var startCall: FunctionCallExprSyntax?
        for builder in instance.calls {
            switch builder.name {
            case "setDataBucket": dataBucket = builder.call  // the last call replaces the bucket
            // Each setter replaces the block set before: only the last one runs.
            case "setDidFinishBlock": finishBlocks = [builder.call]
            case "setWillStartBlock": startBlocks = [builder.call]
            case "start": startCall = builder.call
            case "add", "addGrouped":
                let isGroup = builder.name == "addGrouped"
                guard isGroup ? builder.call.argument("operationCreator") != nil : builder.call.argument("operation") != nil else { continue }
                let node = Node(isGroup ? .group : .operation, builder.call)
                if let caseExpression = builder.call.argument("flowCase") ?? builder.call.argument("case"),
                   !caseExpression.is(NilLiteralExprSyntax.self) {
                    node.flowCase = flowCase(caseExpression)
                    if let existing = casesRoot {
                        existing.children.append(node)
                    } else {
                        casesRoot = currentAdded
                        currentAdded.children.append(node)
                    }
                } else {
                    currentAdded.children.append(node)
                }
                currentAdded = node
                allNodes.append(node)
            case "combine":
                // Without an open case, combine() does nothing at run time.
                guard let open = casesRoot else { continue }
                let join = Node(.combine, builder.call)
                for leaf in open.leaves() { leaf.children = [join] }
                currentAdded = join
                casesRoot = nil
                allNodes.append(join)
            default: break
            }
        }

        // Steps: a start, one step per node, and the finish every leaf reaches.
        // Will-start blocks run with the data the flow starts with; did-finish blocks with what it ends with.
        for (index, node) in allNodes.enumerated() { node.index = index }
        let start = Step(id: "start", name: "start", kind: .start, location: flow.location, reads: bucketReads(startBlocks))
        let finish = Step(id: "finish", name: "finish", kind: .end,
                          location: startCall.map { file.callLocation($0) } ?? flow.location,
                          reads: bucketReads(finishBlocks))
        FlowIOSTree.assemble(&flow, start: start, finish: finish, count: allNodes.count,
                             step: { step(for: allNodes[$0], id: $1) },
                             children: { index in
                                 (index.map { allNodes[$0] } ?? root).children.map { child in
                                     FlowIOSTree.Child(node: child.index, flowCase: child.flowCase.map { flowCase in
                                         FlowIOSTree.Case(key: flowCase.key, value: flowCase.value,
                                                          expression: flowCase.syntax.trimmedText,
                                                          location: file.location(flowCase.syntax))
                                     }, location: child.call.map { file.callLocation($0) })
                                 }
                             },
                             leafLocation: { index in index.flatMap { allNodes[$0].call }.map { file.callLocation($0) } })

        if let dataBucket { initialData(dataBucket, into: &flow) }
        return flow
    }

    private func location(_ node: some SyntaxProtocol) -> FlowModel.SourceLocation { file.location(node) }

    /// `FlowCase(key: "k", value: "v")`, keys and values possibly constants.
    private func flowCase(_ expression: ExprSyntax) -> (key: String?, value: String?, syntax: ExprSyntax) {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return (nil, nil, expression) }
        let key = call.argument("key").flatMap { constants.resolve(path: $0.dottedPath ?? [], inType: ownerType) ?? $0.stringLiteralValue }
        let value = call.argument("value").flatMap { constants.resolve(path: $0.dottedPath ?? [], inType: ownerType) ?? $0.stringLiteralValue }
        return (key, value, expression)
    }

    /// The class an `add(operation:)` argument creates: `LoginOp()`, `LoginOp(email: x)`, `Module.LoginOp()`,
    /// or a local initialised with one.
    private func operationClass(_ expression: ExprSyntax) -> String? {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return call.calledExpression.dottedPath?.last
        }
        if let name = expression.simpleName, let type = locals[name]?.type { return type.spelling.split(separator: ".").last.map(String.init) }
        return nil
    }

    private func step(for node: Node, id uniqueID: (String) -> String) -> Step {
        let call = node.call!
        let at = file.callLocation(call)
        switch node.kind {
        case .combine:
            return Step(id: uniqueID("combine"), name: "combine", kind: .join, location: at)
        case .group:
            let creator = call.argument("operationCreator")!
            var className = creator.trimmedText
            if className.hasSuffix(".self") { className = String(className.dropLast(5)) }
            className = String(className.split(separator: ".").last ?? Substring(className))
            var step = Step(id: uniqueID(className), name: className, kind: .group, location: at, implementation: className)
            // The dispatcher, created in place or in a local (`let dispatcher = FlowArrayGroupDispatcher(...)`).
            let dispatcherExpression = call.argument("dispatcher")
            let dispatcher = dispatcherExpression?.as(FunctionCallExprSyntax.self)
                ?? dispatcherExpression?.simpleName.flatMap { locals.initializers[$0]?.as(FunctionCallExprSyntax.self) }
            func string(_ label: String) -> (String?, FlowModel.SourceLocation?) {
                guard let expression = dispatcher?.argument(label) else { return (nil, nil) }
                let value = constants.resolve(path: expression.dottedPath ?? [], inType: ownerType) ?? expression.stringLiteralValue
                return (value, location(expression))
            }
            let (inputKey, inputLocation) = string("inputKey")
            let (outputKey, outputLocation) = string("outputKey")
            let operation = operations[className]
            var group = GroupSpec(inputKey: inputKey ?? "", inputLocation: inputLocation, outputKey: outputKey, outputLocation: outputLocation,
                                  elementKey: operation?.elementKey ?? "", elementOutputKey: operation?.elementOutputKey,
                                  elementReads: operation?.reads ?? [], elementWrites: operation?.writes ?? [])
            if let max = dispatcher?.argument("maxConcurrentOperationCount")?.as(IntegerLiteralExprSyntax.self), let value = Int(max.literal.text) {
                group.maxConcurrent = value
            } else {
                group.maxConcurrent = 3
            }
            group.allowFailure = dispatcher?.argument("allowFailure")?.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
            step.group = group
            // Keys that are not constants (or a dispatcher built out of sight) may be any key.
            if inputKey != nil {
                step.reads = [group.flowRead]
            } else {
                step.unresolved.append(.dynamicReadKey(inputLocation ?? at))
            }
            if outputKey != nil, let write = group.flowWrite {
                step.writes = [write]
            } else {
                step.unresolved.append(.dynamicWriteKey(outputLocation ?? at))
            }
            if operation == nil { step.unresolved.append(.implementationNotFound(className)) }
            step.details = ["\(group.maxConcurrent ?? 3) at once" + (group.allowFailure ? ", failures skipped" : "")]
            return step
        case .operation:
            let argument = call.argument("operation")!
            guard let className = operationClass(argument) else {
                var step = Step(id: uniqueID("operation"), name: argument.trimmedText, location: at)
                step.unresolved.append(.implementationNotFound(argument.trimmedText))
                return step
            }
            var step = Step(id: uniqueID(className), name: className, location: at, implementation: className)
            if let initCall = argument.as(FunctionCallExprSyntax.self) {
                step.details = initCall.arguments.compactMap { argument in
                    guard let value = argument.expression.stringLiteralValue else { return nil }
                    return argument.label.map { "\($0.text): \(value)" } ?? value
                }
            }
            if let operation = operations[className] {
                step.reads = operation.reads
                step.writes = operation.writes
                step.unresolved = operation.unresolved
            } else {
                step.unresolved.append(.implementationNotFound(className))
            }
            return step
        case .root:
            fatalError("the root is the start step")
        }
    }

    /// `flow.dataBucket["k"] as? T` (and `["k"]!`) in will-start and did-finish blocks. These reads
    /// never fail the flow (a missing key is nil), so they are optional reads.
    private func bucketReads(_ calls: [FunctionCallExprSyntax]) -> [DataAccess] {
        final class Subscripts: SyntaxVisitor {
            var found: [SubscriptCallExprSyntax] = []
            override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "dataBucket" {
                    found.append(node)
                }
                return .visitChildren
            }
        }
        var reads: [DataAccess] = []
        for call in calls {
            // The block argument only: the call's callee holds the rest of the chain before it.
            let visitor = Subscripts(viewMode: .sourceAccurate)
            visitor.walk(call.arguments)
            if let trailing = call.trailingClosure { visitor.walk(trailing) }
            for subscriptCall in visitor.found {
                guard let argument = subscriptCall.arguments.first?.expression,
                      let key = constants.resolve(path: argument.dottedPath ?? [], inType: ownerType) ?? argument.stringLiteralValue else { continue }
                var type: TypeName?
                var node = Syntax(subscriptCall)
                while let parent = node.parent, parent.is(ForceUnwrapExprSyntax.self) { node = parent }
                if let sequence = node.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) {
                    let elements = Array(sequence.elements)
                    if let i = elements.firstIndex(where: { $0.id == node.id }), i + 2 < elements.count,
                       elements[i + 1].is(UnresolvedAsExprSyntax.self), let cast = elements[i + 2].as(TypeExprSyntax.self) {
                        type = typeName(cast.type)?.unwrapped
                    }
                }
                reads.append(DataAccess(key: key, type: type, optional: true, location: location(subscriptCall)))
            }
        }
        return reads
    }

    /// `setDataBucket(dataBucket: [...])`: the flow's initial data, typed from the literal values.
    private func initialData(_ call: FunctionCallExprSyntax, into flow: inout Flow) {
        guard let argument = call.argument("dataBucket") ?? call.arguments.first?.expression else { return }
        guard let dictionary = argument.as(DictionaryExprSyntax.self) else {
            // A bucket built elsewhere: any key may be in it.
            flow.steps[0].unresolved.append(.dynamicWriteKey(location(argument)))
            return
        }
        guard case let .elements(elements) = dictionary.content else { return }
        for element in elements {
            guard let key = constants.resolve(path: element.key.dottedPath ?? [], inType: ownerType) ?? element.key.stringLiteralValue else {
                flow.steps[0].unresolved.append(.dynamicWriteKey(location(element.key)))
                continue
            }
            let facts = ValueTypes.facts(element.value, locals: locals)
            var value = DataAccess(key: key, type: facts.type, location: location(element.key),
                                   elementTypes: facts.elementTypes, value: facts.display, stringValue: facts.stringValue)
            value.possibleValues = facts.possibleStrings ?? facts.rawValueOf.flatMap { constants.rawValues(ofEnum: $0) }
            flow.initialData.append(value)
        }
    }
}
