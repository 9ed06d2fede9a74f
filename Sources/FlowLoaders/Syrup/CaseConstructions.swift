import FlowModel
import SwiftSyntax

/// Where the sources construct a progression's cases outside its own transitions: the evidence of
/// which cases a progression can start in (`../shared/flow-libraries.md` §3).
///
/// A case is constructed by `Type.x(...)` / `Self.x` anywhere, by `.x` inside the type's own members
/// (an initializer, a static factory, a stored default), and by an implicit `.x` outside the type
/// whose type the context names: a binding annotated with the type (`var stage: Stage = .idle`), a
/// parameter's default, an argument whose parameter is declared with the type (`run(stage: .idle)`),
/// an assignment to a property declared with it, a `return` from a function returning it, or a call
/// with arguments (`.fetch(url)`: no common library type shares a progression's payload cases).
/// Patterns (`case .x:`, `if case .x = self`) and comparisons (`self == .x`) construct nothing; the
/// progression's own transition functions and `result` are its transitions, not its starts.
struct CaseConstructions {
    /// Per progression path, the cases something constructs.
    private(set) var constructed: [String: Set<String>] = [:]

    /// What the scan needs to know about one progression.
    struct Progression {
        let path: String
        let cases: Set<String>
        /// Each case's associated-value labels (nil for an unlabelled one), to recognise `.x(label: v)`.
        var labels: [String: [String?]] = [:]
    }

    /// Scans every file for constructions of `progressions`' cases.
    init(files: [ParsedSwiftFile], progressions: [Progression]) {
        var bySimpleName: [String: [Progression]] = [:]
        for progression in progressions {
            bySimpleName[progression.path.split(separator: ".").last.map(String.init) ?? progression.path, default: []].append(progression)
        }
        let progressionNames = Set(bySimpleName.keys)
        let collectors = files.parallelMap { file -> UseCollector in
            let collector = UseCollector(progressionNames: progressionNames)
            // It keeps no node: the nodes of its walk of the whole file are freed after it.
            collector.walk(file.transientTree)
            return collector
        }
        // Declarations span files: a parameter declared in one file is passed an argument in another.
        var parameterTypes: [UseCollector.Callee: Set<String>] = [:]
        var propertyTypes: [String: Set<String>] = [:]
        for collector in collectors {
            parameterTypes.merge(collector.parameterTypes) { $0.union($1) }
            propertyTypes.merge(collector.propertyTypes) { $0.union($1) }
        }
        for collector in collectors {
            for use in collector.uses {
                var types: Set<String> = []
                if let explicit = use.explicitType {
                    types = [explicit]
                } else if let enclosing = use.enclosingProgression {
                    types = [enclosing]
                } else if let context = use.contextType {
                    types = [context]
                } else if let callee = use.callee, let declared = parameterTypes[callee] {
                    types = declared
                } else if let property = use.assignedProperty, let declared = propertyTypes[property] {
                    types = declared
                }
                // With nothing naming the type, only the argument labels can tell a case's payload
                // from another type's factory (`.read("id", String.self)`).
                let byArgumentsOnly = types.isEmpty && use.hasArguments
                if byArgumentsOnly { types = Set(bySimpleName.keys) }
                for name in types {
                    // Inside its own transitions, a reference to one of its cases is a transition.
                    if name == use.transitionOwner { continue }
                    for progression in bySimpleName[name] ?? [] where progression.cases.contains(use.name) {
                        if byArgumentsOnly, progression.labels[use.name] != use.labels { continue }
                        constructed[progression.path, default: []].insert(use.name)
                    }
                }
            }
        }
    }
}

/// Collects, in one file, the member references that may construct a progression case, and the
/// declarations (parameters, properties) that type implicit ones.
private final class UseCollector: SyntaxVisitor {
    /// A function or initializer parameter: the callee's name (a type's name for `init`) and the label.
    struct Callee: Hashable {
        let name: String
        let label: String?
    }

    struct Use {
        let name: String
        /// The type written before the case (`Stage.x`, `Self.x` resolved), nil for `.x`.
        var explicitType: String?
        /// For `.x` inside a progression's own members: that progression.
        var enclosingProgression: String?
        /// The type the context names (an annotation, a parameter's or a function's declared type).
        var contextType: String?
        /// For an argument: the function called and the argument's label.
        var callee: Callee?
        /// For the value of `name = .x` / `self.name = .x`: the property.
        var assignedProperty: String?
        var hasArguments: Bool
        /// The labels of the call's arguments (nil for an unlabelled one).
        var labels: [String?] = []
        /// The progression whose transition function (or `result`) the reference is in.
        var transitionOwner: String?
    }

    let progressionNames: Set<String>
    private(set) var uses: [Use] = []
    private(set) var parameterTypes: [Callee: Set<String>] = [:]
    private(set) var propertyTypes: [String: Set<String>] = [:]

    private var typeStack: [String] = []
    private var transitionOwner: [String?] = []
    private var returnTypes: [String?] = []

    init(progressionNames: Set<String>) {
        self.progressionNames = progressionNames
        super.init(viewMode: .sourceAccurate)
    }

    /// The progression a type annotation names (`Stage`, `Stage?`, `Module.Stage`), if any.
    private func progression(_ type: TypeSyntax?) -> String? {
        guard var type else { return nil }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = optional.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Self" { return typeStack.last }
        let name = baseTypeName(type)
        return progressionNames.contains(name) ? name : nil
    }

    // MARK: Types

    private func push(_ name: String) -> SyntaxVisitorContinueKind {
        typeStack.append(name)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { push(baseTypeName(node.extendedType)) }
    override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

    /// The progression whose own members are being read, if the innermost type is one.
    private var enclosingProgression: String? {
        typeStack.last.flatMap { progressionNames.contains($0) ? $0 : nil }
    }

    // MARK: Functions, parameters, properties

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let isTransition = ProgressionReader.transitionFunctions.contains(node.name.text) && node.signature.parameterClause.parameters.isEmpty
        transitionOwner.append(isTransition ? enclosingProgression : nil)
        returnTypes.append(progression(node.signature.returnClause?.type))
        record(node.signature.parameterClause.parameters, callee: node.name.text)
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) {
        transitionOwner.removeLast()
        returnTypes.removeLast()
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        transitionOwner.append(nil)
        returnTypes.append(nil)
        if let type = typeStack.last { record(node.signature.parameterClause.parameters, callee: type) }
        return .visitChildren
    }

    override func visitPost(_ node: InitializerDeclSyntax) {
        transitionOwner.removeLast()
        returnTypes.removeLast()
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        // A closure's `return` is not its enclosing function's.
        returnTypes.append(nil)
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) { returnTypes.removeLast() }

    private func record(_ parameters: FunctionParameterListSyntax, callee: String) {
        for parameter in parameters {
            guard let type = progression(parameter.type) else { continue }
            let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
            parameterTypes[Callee(name: callee, label: label), default: []].insert(type)
        }
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isResult = enclosingProgression != nil
            && node.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "result" }
        transitionOwner.append(isResult ? enclosingProgression : transitionOwner.last ?? nil)
        for binding in node.bindings {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let type = progression(binding.typeAnnotation?.type) {
                propertyTypes[name, default: []].insert(type)
            }
        }
        return .visitChildren
    }

    override func visitPost(_ node: VariableDeclSyntax) { transitionOwner.removeLast() }

    // Patterns construct nothing.
    override func visit(_ node: ExpressionPatternSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: References

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.declName.baseName.text
        guard name.first?.isLowercase == true || name.first == "_" else { return .visitChildren }
        if isCompared(node) { return .visitChildren }
        var use = Use(name: name, hasArguments: false, transitionOwner: transitionOwner.last ?? nil)
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id {
            use.hasArguments = !call.arguments.isEmpty || call.trailingClosure != nil
            use.labels = call.arguments.map { $0.label?.text }
        }
        if let base = node.base {
            guard let type = BranchScanner.typeReference(base) else { return .visitChildren }
            let resolved = type == "Self" ? typeStack.last : type
            guard let resolved, progressionNames.contains(resolved) else { return .visitChildren }
            use.explicitType = resolved
        } else {
            use.enclosingProgression = enclosingProgression
            if use.enclosingProgression == nil { describeContext(of: node, into: &use) }
        }
        uses.append(use)
        return .visitChildren
    }

    /// `x == .a`, `.a != x`: a comparison, not a construction.
    private func isCompared(_ node: MemberAccessExprSyntax) -> Bool {
        var current = Syntax(node)
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { current = Syntax(call) }
        guard let list = current.parent?.as(ExprListSyntax.self) else { return false }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == current.id }) else { return false }
        return [index - 1, index + 1].contains { neighbour in
            guard elements.indices.contains(neighbour),
                  let op = elements[neighbour].as(BinaryOperatorExprSyntax.self) else { return false }
            return ["==", "!=", "~=", "===", "!=="].contains(op.operator.text)
        }
    }

    /// What the place of an implicit `.x` says about its type.
    private func describeContext(of node: MemberAccessExprSyntax, into use: inout Use) {
        var value = Syntax(node)
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { value = Syntax(call) }
        guard let parent = value.parent else { return }
        if let initializer = parent.as(InitializerClauseSyntax.self) {
            if let binding = initializer.parent?.as(PatternBindingSyntax.self) {
                use.contextType = progression(binding.typeAnnotation?.type)
            } else if let parameter = initializer.parent?.as(FunctionParameterSyntax.self) {
                use.contextType = progression(parameter.type)
            }
        } else if parent.is(ReturnStmtSyntax.self) {
            use.contextType = returnTypes.last ?? nil
        } else if let argument = parent.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
            if let callee = call.calledExpression.calleeName {
                use.callee = Callee(name: callee == "init" ? (call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.dottedPath?.last ?? callee) : callee,
                                    label: argument.label?.text)
            }
        } else if let list = parent.as(ExprListSyntax.self) {
            let elements = Array(list)
            if elements.count == 3, elements[2].id == value.id, elements[1].is(AssignmentExprSyntax.self) {
                use.assignedProperty = elements[0].simpleName
            }
        }
    }
}
