import FlowModel
import SwiftSyntax

/// Builds the IR of one FlowState flow from the syntax of one unit (a type or a body).
///
/// The mapping (see `FlowStateReader` for how units are chosen):
///
/// - **Steps.** A `FlowStep(C.self, R.self, identifier: "Name", intent[, completion])` bound to a name
///   (`let`/`var`, a property, `self.x = FlowStep(...)`) is a step whose id is that name, whose name
///   is its identifier, typed `contentType` C and `resultType` R. A step created in place (in a
///   group's `steps:`, a `firstStep:` or a `nextStep =`) takes its identifier as id. What the intent
///   returns is shown as the implementation: the view controller owning the `FlowStepHandler`
///   (`return vc.results`), or the handler it makes (`FlowStepHandler<Any, UserProfile>`); an intent
///   that only returns nil is noted (the step completes at once).
/// - **Groups.** `ConcurentFlowStep(identifier:steps:)` is a `parallel` step with a `parallel`
///   transition to each of its steps, and a `join` step (`<group>.join`) that every one of them leads
///   to: at run time the group overwrites its steps' `nextStep` and continues, once all are done,
///   with its own `nextStep`, which is therefore read as the join's way on.
/// - **Transitions.** `x.nextStep = y`, and `step.nextStep = y` inside a step's intent or completion
///   (init argument, trailing closure, or `setCompletion`; `setCompletion` replaces the init
///   argument, as at run time, and several `setCompletion`s, which FlowLens cannot order, are all
///   read), labelled by the enclosing `switch` case or `if`/`guard` condition;
///   `= nil` goes to the flow's `end` step; `= c ? a : b` gives two transitions. A step whose
///   `nextStep` is never set ends the flow; one set on some paths only also ends it `otherwise`.
///   A name that is not a step but is declared (a coordinator passed as the next `Startable`) is a
///   plain step; an undeclared name stays a transition to a missing step (`unknown-step`).
/// - **Start.** The `firstStep:` argument of any call (`NavigationFlowCoordinator(...)`,
///   `super.init(...)`), else the first step `start()`ed, else the first step.
/// - **Data.** `t.content = v` is a write of the key `"t.content"` by the step whose closure contains
///   it (before the flow starts: initial data), typed by `v`: the completion's result parameter (and
///   names bound from it) has the step's `Result` type, `s.content` its `Content`, other values what
///   their syntax shows. Every `FlowStep` whose `Content` is not `Any` reads `"<id>.content"` as
///   its `Content`, optionally (a missing content is nil, not a failure), at its content type
///   argument; so `type-mismatch` compares the two. Written content keys are also the flow's
///   outputs: a step's content is a live property that updates a step already shown, so such a
///   write is never unused.
struct FlowStateBuilder {
    let unit: FlowStateUnit

    // MARK: - Facts collected from the syntax

    final class StepInfo {
        enum Kind { case flowStep, concurrent, startable }
        let id: String
        var name: String
        let kind: Kind
        let file: ParsedSwiftFile
        let location: FlowModel.SourceLocation
        var contentType: TypeName?
        var resultType: TypeName?
        var contentLocation: FlowModel.SourceLocation?
        var intent: ClosureExprSyntax?
        var initCompletion: ClosureExprSyntax?
        var setCompletions: [ClosureExprSyntax] = []
        /// A `setCompletion` given something other than a closure literal: what runs is unknown.
        var unreadableCompletion = false
        var children: [(expression: ExprSyntax, file: ParsedSwiftFile)] = []
        var implementation: String?
        var details: [String] = []
        var writes: [DataAccess] = []
        /// Its intent returns only nil: the step completes at once, and its completion gets a nil result.
        var intentReturnsOnlyNil = false

        init(id: String, name: String, kind: Kind, file: ParsedSwiftFile, location: FlowModel.SourceLocation) {
            self.id = id
            self.name = name
            self.kind = kind
            self.file = file
            self.location = location
        }

        /// The completions that run: `setCompletion` replaces the one given to the initializer.
        var activeCompletions: [ClosureExprSyntax] {
            setCompletions.isEmpty && !unreadableCompletion ? (initCompletion.map { [$0] } ?? []) : setCompletions
        }
    }

    /// Where a statement runs: in a step's intent or completion, or while the flow is set up.
    struct Context {
        enum Role { case intent, completion }
        var step: StepInfo?
        var role: Role?
        var closure: ClosureExprSyntax?
        /// The root the statement was found in (the boundary of its conditions outside closures).
        var root: SyntaxIdentifier
        /// True when a closure that is no step's lies between the statement and its boundary.
        var crossedClosure: Bool
        var stepParameter: String?
        var resultParameter: String?
    }

    /// Where a `nextStep` assignment leads.
    enum Target {
        case step(String)
        case end
        case unreadable(String)
    }

    struct Out {
        var target: Target
        var parts: [FlowStateSyntax.ConditionPart]
        var location: FlowModel.SourceLocation
        var unconditionalSetup: Bool
        /// Set in a completion where it runs only when the step's result is not nil.
        var needsResult = false
    }

    /// What one pass over a root finds, in source order.
    final class Collector: SyntaxVisitor {
        let mode: FlowStateUnit.Root.Mode
        let rootID: SyntaxIdentifier
        var creations: [FunctionCallExprSyntax] = []
        var assignments: [SequenceExprSyntax] = []
        var calls: [FunctionCallExprSyntax] = []
        var declared: [(name: String, node: Syntax, initializer: ExprSyntax?)] = []

        init(mode: FlowStateUnit.Root.Mode, root: Syntax) {
            self.mode = mode
            rootID = root.id
            super.init(viewMode: .sourceAccurate)
        }

        private func nested(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
            switch mode {
            case .body: return .visitChildren
            case .typeMembers, .topLevel: return node.id == rootID ? .visitChildren : .skipChildren
            }
        }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { nested(node) }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { mode == .topLevel ? .skipChildren : .visitChildren }
        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { mode == .topLevel ? .skipChildren : .visitChildren }
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            if mode == .topLevel, node.bindings.contains(where: { $0.accessorBlock != nil }) { return .skipChildren }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if FlowStateSyntax.creationKind(node) != nil { creations.append(node) }
            let callee = node.calledExpression.calleeName
            if callee == "setCompletion" || callee == "start" || node.argument("firstStep") != nil { calls.append(node) }
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            if let (lhs, _) = FlowStateSyntax.assignment(node), let property = FlowStateSyntax.property(lhs),
               property.name == "nextStep" || property.name == "content" {
                assignments.append(node)
            }
            return .visitChildren
        }

        override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
            if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                declared.append((name, Syntax(node.pattern), node.initializer?.value))
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
            declared.append(((node.secondName ?? node.firstName).text, Syntax(node), nil))
            return .visitChildren
        }
    }

    // MARK: - Building

    func flow() -> Flow? {
        var collected: [(root: FlowStateUnit.Root, collector: Collector)] = []
        for root in unit.roots {
            let collector = Collector(mode: root.mode, root: root.node)
            collector.walk(root.node)
            collected.append((root, collector))
        }
        var state = BuildState(unit: unit)
        for (root, collector) in collected {
            for call in collector.creations { state.declareStep(call, in: root) }
        }
        guard !state.steps.isEmpty else { return nil }
        for (root, collector) in collected {
            for (name, node, initializer) in collector.declared where state.declared[name] == nil {
                state.declared[name] = (root.file, node, initializer)
            }
        }
        for (root, collector) in collected {
            for call in collector.calls where call.calledExpression.calleeName == "setCompletion" { state.setCompletion(call, in: root) }
        }
        for (root, collector) in collected {
            for call in collector.calls { state.readStart(call, in: root) }
            for sequence in collector.assignments { state.readAssignment(sequence, in: root) }
        }
        return state.makeFlow()
    }
}

/// The mutable state of one build.
private struct BuildState {
    typealias StepInfo = FlowStateBuilder.StepInfo
    typealias Context = FlowStateBuilder.Context
    typealias Out = FlowStateBuilder.Out

    let unit: FlowStateUnit
    var steps: [StepInfo] = []
    var byID: [String: StepInfo] = [:]
    /// Closures that are a step's intent or completion.
    var closureOwners: [SyntaxIdentifier: (step: StepInfo, role: Context.Role)] = [:]
    /// Steps created in place, by their creation.
    var inline: [SyntaxIdentifier: String] = [:]
    var declared: [String: (file: ParsedSwiftFile, node: Syntax, initializer: ExprSyntax?)] = [:]
    var outs: [String: [Out]] = [:]
    var initialData: [DataAccess] = []
    var limitations: [Limitation] = []
    var firstStep: (name: String, location: FlowModel.SourceLocation)?
    var started: String?
    var endLocation: FlowModel.SourceLocation?
    var localTypes: [SyntaxIdentifier: LocalTypes] = [:]
    /// Per completion closure, `result` and the names bound from it (`aliases(of:in:)`): a walk of
    /// the closure once, not once for each `nextStep =` in it (a switch of thousands of cases).
    var resultAliases: [SyntaxIdentifier: Set<String>] = [:]

    init(unit: FlowStateUnit) { self.unit = unit }

    // MARK: Steps

    mutating func declareStep(_ call: FunctionCallExprSyntax, in root: FlowStateUnit.Root) {
        guard let kind = FlowStateSyntax.creationKind(call) else { return }
        let file = root.file
        let identifier = call.argument("identifier")
        let identifierText = identifier.map { $0.stringLiteralValue ?? $0.trimmedText }
        let id: String
        var annotation: TypeSyntax?
        if let (name, type) = Self.boundName(of: call) {
            id = name
            annotation = type
        } else if Self.isInlinePosition(call) {
            id = identifierText ?? "\(kind == .step ? "FlowStep" : "ConcurentFlowStep")@\(file.location(call).line)"
            inline[call.id] = id
        } else {
            return  // a step made and returned by a factory: it joins a flow where it is bound
        }
        guard byID[id] == nil else { return }
        let info = StepInfo(id: id, name: identifierText ?? id, kind: kind == .step ? .flowStep : .concurrent,
                            file: file, location: file.location(call))
        switch kind {
        case .step:
            // `FlowStep(C.self, R.self, identifier:, intent[, completion])`: the types come first.
            let positional = Array(call.arguments.prefix { $0.label == nil })
            if positional.count >= 1 {
                info.contentType = FlowStateSyntax.metatype(positional[0].expression)
                info.contentLocation = file.location(positional[0].expression)
            }
            if positional.count >= 2 { info.resultType = FlowStateSyntax.metatype(positional[1].expression) }
            // Otherwise from `FlowStep<C, R>(...)` or `let s: FlowStep<C, R> = ...`.
            let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self)?.genericArgumentClause.arguments.map(\.argument.trimmedText)
                ?? annotation?.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments.map(\.argument.trimmedText)
            if let generic, generic.count == 2 {
                if info.contentType == nil { info.contentType = TypeName(generic[0]) }
                if info.resultType == nil { info.resultType = TypeName(generic[1]) }
            }
            if info.contentLocation == nil { info.contentLocation = info.location }
            var closures: [ExprSyntax] = []
            if let index = call.arguments.firstIndex(where: { $0.label?.text == "identifier" }) {
                closures = call.arguments[call.arguments.index(after: index)...].map(\.expression)
            }
            if let trailing = call.trailingClosure { closures.append(ExprSyntax(trailing)) }
            closures += call.additionalTrailingClosures.map { ExprSyntax($0.closure) }
            if let intent = closures.first {
                if let closure = intent.as(ClosureExprSyntax.self) {
                    info.intent = closure
                    closureOwners[closure.id] = (info, .intent)
                    describeIntent(closure, of: info)
                } else {
                    limitations.append(Limitation(message: "the intent of step '\(info.name)' is `\(intent.trimmedText)`, which FlowLens does not follow",
                                                  location: file.location(intent)))
                }
            }
            if closures.count > 1 {
                let completion = closures[1]
                if let closure = completion.as(ClosureExprSyntax.self) {
                    info.initCompletion = closure
                    closureOwners[closure.id] = (info, .completion)
                } else {
                    limitations.append(Limitation(
                        message: "the completion of step '\(info.name)' is `\(completion.trimmedText)`, which FlowLens does not follow: its next step and the content it sets are not read",
                        location: file.location(completion)))
                }
            }
        case .concurrent:
            if let array = call.argument("steps")?.as(ArrayExprSyntax.self) {
                info.children = array.elements.map { ($0.expression, file) }
            } else if let steps = call.argument("steps") {
                limitations.append(Limitation(message: "the steps of group '\(info.name)' are `\(steps.trimmedText)`, which FlowLens does not follow",
                                              location: file.location(steps)))
            }
        }
        steps.append(info)
        byID[id] = info
    }

    /// `x` in `let x = FlowStep(...)`, `var x: FlowStep<A, B> = ...`, `x = ...`, `self.x = ...`.
    static func boundName(of call: FunctionCallExprSyntax) -> (String, TypeSyntax?)? {
        if let binding = call.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            return (name, binding.typeAnnotation?.type)
        }
        if let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
           let (lhs, rhs) = FlowStateSyntax.assignment(sequence), rhs.count == 1, rhs[0].id == call.id,
           FlowStateSyntax.property(lhs)?.name != "nextStep", let name = FlowStateSyntax.name(lhs) {
            return (name, nil)
        }
        return nil
    }

    /// A creation in a group's `steps: [...]`, a `firstStep:` argument, or on the right of `nextStep =`.
    static func isInlinePosition(_ call: FunctionCallExprSyntax) -> Bool {
        if let element = call.parent?.as(ArrayElementSyntax.self),
           let argument = element.parent?.parent?.as(ArrayExprSyntax.self)?.parent?.as(LabeledExprSyntax.self),
           argument.label?.text == "steps" {
            return true
        }
        if let argument = call.parent?.as(LabeledExprSyntax.self), argument.label?.text == "firstStep" { return true }
        if let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
           let (lhs, _) = FlowStateSyntax.assignment(sequence), FlowStateSyntax.property(lhs)?.name == "nextStep" {
            return true
        }
        return false
    }

    /// What an intent returns: the view controller owning the handler, the handler it makes, or nil.
    func describeIntent(_ closure: ClosureExprSyntax, of info: StepInfo) {
        final class Returns: SyntaxVisitor {
            var values: [ExprSyntax?] = []
            var locals: [String: ExprSyntax] = [:]
            let root: SyntaxIdentifier
            init(root: SyntaxIdentifier) {
                self.root = root
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { node.id == root ? .visitChildren : .skipChildren }
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                values.append(node.expression)
                return .visitChildren
            }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value,
                   locals[name] == nil {
                    locals[name] = value
                }
                return .visitChildren
            }
        }
        let visitor = Returns(root: closure.id)
        visitor.walk(closure)
        var values = visitor.values
        // A single-expression closure returns its expression.
        if values.isEmpty, closure.statements.count == 1, case let .expr(expression)? = closure.statements.first?.item {
            values = [expression]
        }
        let returned = values.compactMap { $0 }.filter { !$0.is(NilLiteralExprSyntax.self) }
        if !values.isEmpty, returned.isEmpty {
            info.details.append("completes at once: its intent returns nil")
            info.intentReturnsOnlyNil = true
            return
        }
        guard let value = returned.first else { return }
        func handler(_ expression: ExprSyntax) -> String? {
            guard let call = expression.as(FunctionCallExprSyntax.self), let name = call.calledExpression.dottedPath?.last,
                  FlowStateSyntax.handlerTypeNames.contains(name) else { return nil }
            let types = call.arguments.prefix(2).map { FlowStateSyntax.metatype($0.expression)?.spelling ?? "?" }
            return types.count == 2 ? "\(name)<\(types[0]), \(types[1])>" : name
        }
        if let made = handler(value) {
            info.implementation = made
        } else if let name = value.simpleName, let initial = visitor.locals[name] {
            info.implementation = handler(initial)
        } else if let member = value.as(MemberAccessExprSyntax.self), let base = member.base {
            // `vc.results` with `let vc = ProfileViewController()`, or `ProfileViewController().results`.
            let owner = base.simpleName.flatMap { visitor.locals[$0] } ?? base
            if let initial = owner.as(FunctionCallExprSyntax.self), let type = ValueTypes.initializedType(initial.calledExpression) {
                info.implementation = type.spelling
            }
        }
    }

    mutating func setCompletion(_ call: FunctionCallExprSyntax, in root: FlowStateUnit.Root) {
        guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
              let name = FlowStateSyntax.name(base), let info = byID[name], info.kind == .flowStep else { return }
        let argument = call.trailingClosure.map(ExprSyntax.init) ?? call.arguments.first?.expression
        guard let argument else { return }
        if let closure = argument.as(ClosureExprSyntax.self) {
            info.setCompletions.append(closure)
            closureOwners[closure.id] = (info, .completion)
        } else {
            // A completion FlowLens cannot read replaces the one it could: nothing is known.
            info.unreadableCompletion = true
            limitations.append(Limitation(
                message: "the completion of step '\(info.name)' is `\(argument.trimmedText)`, which FlowLens does not follow: its next step and the content it sets are not read",
                location: root.file.location(argument)))
        }
    }

    // MARK: Statements

    /// The step closure `node` runs in (nil when it runs in a completion that is replaced).
    func context(of node: some SyntaxProtocol, in root: FlowStateUnit.Root) -> Context? {
        var crossed = false
        var current = node.parent
        while let parent = current, parent.id != root.node.id {
            if let closure = parent.as(ClosureExprSyntax.self) {
                if let (step, role) = closureOwners[closure.id] {
                    if role == .completion, !step.activeCompletions.contains(where: { $0.id == closure.id }) { return nil }
                    let names = FlowStateSyntax.parameterNames(closure, count: role == .completion ? 2 : 1)
                    return Context(step: step, role: role, closure: closure, root: root.node.id, crossedClosure: crossed,
                                   stepParameter: names.first ?? nil,
                                   resultParameter: role == .completion && names.count > 1 ? names[1] : nil)
                }
                crossed = true
            }
            current = parent.parent
        }
        return Context(step: nil, role: nil, closure: nil, root: root.node.id, crossedClosure: crossed)
    }

    /// The name `expression` refers to, with a step closure's own parameter as its step.
    func resolve(_ expression: ExprSyntax, in context: Context) -> String? {
        guard let name = FlowStateSyntax.name(expression) else { return nil }
        if let step = context.step, name == context.stepParameter { return step.id }
        return name
    }

    mutating func readStart(_ call: FunctionCallExprSyntax, in root: FlowStateUnit.Root) {
        guard let context = context(of: call, in: root) else { return }
        if let argument = call.argument("firstStep"), firstStep == nil {
            if let id = inline[argument.id] {
                firstStep = (id, root.file.location(argument))
            } else if let name = resolve(argument, in: context) {
                firstStep = (name, root.file.location(argument))
            } else {
                limitations.append(Limitation(message: "the flow starts at `\(argument.trimmedText)`, which FlowLens does not follow",
                                              location: root.file.location(argument)))
            }
        }
        if call.calledExpression.calleeName == "start", call.arguments.isEmpty, started == nil,
           let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
           let name = resolve(base, in: context), byID[name] != nil {
            started = name
        }
    }

    mutating func readAssignment(_ sequence: SequenceExprSyntax, in root: FlowStateUnit.Root) {
        guard let (lhs, rhs) = FlowStateSyntax.assignment(sequence), let property = FlowStateSyntax.property(lhs),
              let context = context(of: sequence, in: root), let source = resolve(property.base, in: context) else { return }
        let file = root.file
        let parts = FlowStateSyntax.conditions(of: Syntax(sequence), upTo: context.closure?.id ?? context.root)
        let at = file.location(lhs)
        if property.name == "nextStep" {
            let setup = context.step == nil && !context.crossedClosure
            var needsResult = false
            if context.role == .completion, let closure = context.closure, let result = context.resultParameter {
                needsResult = FlowStateSyntax.requiresValue(of: aliases(of: result, in: closure), at: Syntax(sequence), upTo: closure.id)
            }
            func add(_ target: FlowStateBuilder.Target, _ extra: [FlowStateSyntax.ConditionPart]) {
                let all = parts + extra
                outs[source, default: []].append(Out(target: target, parts: all, location: at, unconditionalSetup: setup && all.isEmpty,
                                                     needsResult: needsResult))
            }
            if rhs.count == 1 {
                let value = rhs[0]
                if value.is(NilLiteralExprSyntax.self) {
                    if endLocation == nil { endLocation = at }
                    add(.end, [])
                } else if let id = inline[value.id] {
                    add(.step(id), [])
                } else if let name = resolve(value, in: context) {
                    add(.step(name), [])
                } else {
                    add(.unreadable(value.trimmedText), [])
                }
            } else if let k = rhs.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), k > 0, k == rhs.count - 2,
                      let ternary = rhs[k].as(UnresolvedTernaryExprSyntax.self) {
                // `c ? a : b` (operators are not folded: `x == y ? a : b` is one flat sequence).
                let holds = rhs[..<k].map(\.trimmedText).joined(separator: " ")
                let fails = FlowStateSyntax.negation(of: Array(rhs[..<k]))
                for (value, part) in [(ternary.thenExpression, FlowStateSyntax.ConditionPart.holds(holds)), (rhs[k + 1], .fails(fails))] {
                    if value.is(NilLiteralExprSyntax.self) {
                        if endLocation == nil { endLocation = at }
                        add(.end, [part])
                    } else if let id = inline[value.id] {
                        add(.step(id), [part])
                    } else if let name = resolve(value, in: context) {
                        add(.step(name), [part])
                    } else {
                        add(.unreadable(value.trimmedText), [part])
                    }
                }
            } else {
                add(.unreadable(rhs.map(\.trimmedText).joined(separator: " ")), [])
            }
            return
        }
        // `target.content = value`: only a FlowStep has content.
        guard let target = byID[source], target.kind == .flowStep, rhs.count == 1, !rhs[0].is(NilLiteralExprSyntax.self) else { return }
        let facts = valueFacts(rhs[0], in: context, root: root)
        let write = DataAccess(key: FlowStateDialect.contentKey(target.id), type: facts.type, location: at,
                               elementTypes: facts.elementTypes, value: facts.display, stringValue: facts.stringValue)
        if let writer = context.step {
            writer.writes.append(write)
        } else {
            initialData.append(write)
        }
    }

    /// The key a step's content is kept under in the IR.

    /// The type of a value assigned to a step's content.
    mutating func valueFacts(_ expression: ExprSyntax, in context: Context, root: FlowStateUnit.Root) -> ValueFacts {
        var value = expression
        while true {
            if let unwrap = value.as(ForceUnwrapExprSyntax.self) { value = unwrap.expression; continue }
            if let tuple = value.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
               only.label == nil {
                value = only.expression
                continue
            }
            // `x ?? fallback` has x's type.
            if let sequence = value.as(SequenceExprSyntax.self), sequence.elements.count == 3,
               Array(sequence.elements)[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                value = Array(sequence.elements)[0]
                continue
            }
            break
        }
        if let step = context.step, let name = FlowStateSyntax.name(value), let closure = context.closure,
           context.role == .completion, let result = context.resultParameter,
           aliases(of: result, in: closure).contains(name), value.is(DeclReferenceExprSyntax.self) || value.is(OptionalChainingExprSyntax.self) {
            return ValueFacts(type: step.resultType?.unwrapped, display: value.trimmedText)
        }
        if let property = FlowStateSyntax.property(value), property.name == "content",
           let owner = resolve(property.base, in: context), let step = byID[owner], step.kind == .flowStep {
            return ValueFacts(type: step.contentType?.unwrapped, display: value.trimmedText)
        }
        if localTypes[root.node.id] == nil { localTypes[root.node.id] = LocalTypes(root.node, properties: Self.parameterTypes(root)) }
        let facts = ValueTypes.facts(value, locals: localTypes[root.node.id]!)
        return ValueFacts(type: facts.type?.unwrappedIfImplicitlyUnwrapped, elementTypes: facts.elementTypes,
                          stringValue: facts.stringValue, display: facts.display ?? ValueTypes.shortened(value))
    }

    /// The annotated parameters of the function a root is the body of (of every function, for a type).
    static func parameterTypes(_ root: FlowStateUnit.Root) -> [String: TypeName] {
        final class Parameters: SyntaxVisitor {
            var types: [String: TypeName] = [:]
            override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
                let name = (node.secondName ?? node.firstName).text
                if types[name] == nil, let type = typeName(node.type) { types[name] = type.unwrappedIfImplicitlyUnwrapped }
                return .visitChildren
            }
        }
        let visitor = Parameters(viewMode: .sourceAccurate)
        switch root.mode {
        case .body:
            if let function = root.node.parent?.as(FunctionDeclSyntax.self) {
                visitor.walk(function.signature)
            } else if let initializer = root.node.parent?.as(InitializerDeclSyntax.self) {
                visitor.walk(initializer.signature)
            }
        case .typeMembers: visitor.walk(root.node)
        case .topLevel: break
        }
        return visitor.types
    }

    /// `aliases(of:in:)`, once per closure (a completion's result parameter is the closure's own).
    mutating func aliases(of result: String, in closure: ClosureExprSyntax) -> Set<String> {
        if let known = resultAliases[closure.id] { return known }
        let names = Self.aliases(of: result, in: closure)
        resultAliases[closure.id] = names
        return names
    }

    /// `result` and the names bound from it in `closure` (`guard let profile = result`, `if let result`).
    static func aliases(of result: String, in closure: ClosureExprSyntax) -> Set<String> {
        final class Bindings: SyntaxVisitor {
            var names: Set<String>
            init(_ first: String) {
                names = [first]
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
                guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
                if let value = node.initializer?.value {
                    if let source = FlowStateSyntax.name(value), names.contains(source) { names.insert(name) }
                }
                return .visitChildren
            }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, node.typeAnnotation == nil,
                   let value = node.initializer?.value, let source = FlowStateSyntax.name(value), names.contains(source) {
                    names.insert(name)
                }
                return .visitChildren
            }
        }
        let visitor = Bindings(result)
        visitor.walk(closure.statements)
        return visitor.names
    }

    // MARK: The flow

    mutating func makeFlow() -> Flow {
        var flow = Flow(id: unit.name, name: unit.name, kind: .flowState, location: unit.location)

        // Names used as steps that are declared but are no FlowStep: other `Startable`s.
        var referenced: [String] = []
        if let first = firstStep { referenced.append(first.name) }
        for info in steps where info.kind == .concurrent {
            for child in info.children where inline[child.expression.id] == nil {
                if let name = FlowStateSyntax.name(child.expression) { referenced.append(name) }
            }
        }
        var cursor = 0
        var startables: [StepInfo] = []
        func targets(of source: String) -> [String] {
            (outs[source] ?? []).compactMap { if case let .step(name) = $0.target { return name } else { return nil } }
        }
        for info in steps { referenced += targets(of: info.id) }
        while cursor < referenced.count {
            let name = referenced[cursor]
            cursor += 1
            guard byID[name] == nil, let declaration = declared[name] else { continue }
            let info = StepInfo(id: name, name: name, kind: .startable, file: declaration.file,
                                location: declaration.file.location(declaration.node))
            if let call = declaration.initializer?.as(FunctionCallExprSyntax.self) {
                info.implementation = call.calledExpression.trimmedText
            }
            startables.append(info)
            byID[name] = info
            referenced += targets(of: name)
        }

        // A group's steps: by the id of a step made in place, else by the name written.
        var childIDs: [String: [(id: String, location: FlowModel.SourceLocation?)]] = [:]
        for info in steps where info.kind == .concurrent {
            for child in info.children {
                let id = inline[child.expression.id] ?? FlowStateSyntax.name(child.expression) ?? child.expression.trimmedText
                childIDs[info.id, default: []].append((id, child.file.location(child.expression)))
            }
        }

        let parts: [FlowStateAssembler.Part] = (steps + startables).map { info in
            let kind: FlowStateAssembler.Part.Kind
            switch info.kind {
            case .flowStep: kind = .flowStep
            case .concurrent: kind = .group
            case .startable: kind = .startable
            }
            return FlowStateAssembler.Part(
                id: info.id, name: info.name, kind: kind, location: info.location, contentType: info.contentType,
                resultType: info.resultType, contentLocation: info.contentLocation, implementation: info.implementation,
                details: info.details, writes: info.writes, members: childIDs[info.id] ?? [])
        }
        FlowStateAssembler.assemble(&flow, parts: parts, initialData: initialData, endLocation: endLocation ?? unit.location) { id in
            let info = byID[id]!
            var list = outs[info.id] ?? []
            // The completion of a step whose intent returns only nil always gets nil: what it does
            // only with a result never happens (where it returns before setting `nextStep`, the flow
            // ends there and the steps behind it never start).
            let endsOnNil = info.intentReturnsOnlyNil && list.contains(where: \.needsResult)
            if endsOnNil { list.removeAll(where: \.needsResult) }
            var ways: [FlowStateAssembler.Way] = []
            for out in list {
                let condition = FlowStateSyntax.condition(out.parts)
                switch out.target {
                case let .step(name): ways.append(.init(to: .step(name), condition: condition, location: out.location))
                case .end: ways.append(.init(to: .end, condition: condition, location: out.location))
                case let .unreadable(text):
                    ways.append(.init(to: .end, condition: condition,
                                      label: [condition?.text, "\(text) (not read)"].compactMap { $0 }.joined(separator: ": "),
                                      location: out.location))
                    limitations.append(Limitation(
                        message: "the next step of '\(info.name)' is `\(text)`, which FlowLens does not follow; the flow is drawn as ending there",
                        location: out.location))
                }
            }
            if endsOnNil {
                if !list.contains(where: { $0.parts.isEmpty }) {
                    let at = info.activeCompletions.first.map { info.file.location($0) } ?? info.location
                    ways.append(.init(to: .end, condition: .expression("the intent returns nil"), location: at))
                }
            } else if list.isEmpty {
                // Its `nextStep` is never set: the flow ends after it.
                ways.append(.init(to: .end, location: info.location))
            } else if !setsNextStepOnEveryPath(info, list) {
                let at = info.activeCompletions.first.map { info.file.location($0) } ?? info.location
                ways.append(.init(to: .end, condition: .otherwise, location: at))
            }
            return ways
        }

        if let first = firstStep {
            flow.entries = [first.name]
            flow.entryLocation = first.location
        } else if let started {
            flow.entries = [started]
        } else if let first = steps.first {
            flow.entries = [first.id]
        }
        flow.limitations = limitations
        return flow
    }

    /// Whether the step's `nextStep` is set whenever it completes: unconditionally while the flow is
    /// set up, or on every path of its intent or of every completion.
    func setsNextStepOnEveryPath(_ info: StepInfo, _ list: [Out]) -> Bool {
        if list.contains(where: \.unconditionalSetup) { return true }
        if info.unreadableCompletion { return false }
        func assigns(_ closure: ClosureExprSyntax, role: Context.Role) -> Bool {
            let names = FlowStateSyntax.parameterNames(closure, count: role == .completion ? 2 : 1)
            let own = names.first ?? nil
            return FlowStateSyntax.assignsOnEveryPath(closure.statements) { sequence in
                guard let (lhs, _) = FlowStateSyntax.assignment(sequence), let property = FlowStateSyntax.property(lhs),
                      property.name == "nextStep", let name = FlowStateSyntax.name(property.base) else { return false }
                return name == info.id || name == own
            }
        }
        if let intent = info.intent, assigns(intent, role: .intent) { return true }
        let completions = info.activeCompletions
        return !completions.isEmpty && completions.allSatisfy { assigns($0, role: .completion) }
    }
}
