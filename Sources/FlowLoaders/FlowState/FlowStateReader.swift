import Dispatch
import FlowModel
import Foundation
import SwiftSyntax

/// Reads FlowState flows from Swift sources (`../shared/flow-libraries.md` §2).
///
/// FlowState has no flow object: a flow is a set of `FlowStep`s linked at run time by their
/// `nextStep`. FlowLens groups the steps by where they are built, and reads one flow per group:
///
/// - a type that holds steps in stored properties (`let displayStep = FlowStep(...)`, or
///   `let displayStep: FlowStep<String, Action>` assigned in `init`) is one flow named after the type
///   (`ProfileCoordinator`); every member of the type, in every file (extensions too), may wire it;
/// - otherwise every function, initializer or property body that binds steps to local names is one
///   flow named `Type.function` (`ExampleFlowCoordinator.init`), as Flow-iOS flows are;
/// - top-level code (a script) is one flow named after the file.
///
/// Pass 1 (all cores) finds these groups in every file; pass 2 (all cores) builds each flow with
/// `FlowStateBuilder`. Output order follows the files and positions.
struct FlowStateReader {
    /// The FlowState flows in already parsed files.
    func flows(in files: [ParsedSwiftFile]) -> [Flow] {
        let scans = files.parallelMap { FlowStateFileScan($0) }
        // Types that hold steps in properties are one flow each, over all their declarations.
        var typeRoots: [String: [FlowStateUnit.Root]] = [:]
        var typeFirst: [String: (file: Int, position: AbsolutePosition, location: FlowModel.SourceLocation)] = [:]
        var stepTypes = Set<String>()
        for i in files.indices {
            for decl in scans[i].types {
                typeRoots[decl.path, default: []].append(FlowStateUnit.Root(file: files[i], node: decl.node, mode: .typeMembers))
                if typeFirst[decl.path] == nil { typeFirst[decl.path] = (i, decl.node.position, decl.location) }
                if decl.holdsSteps { stepTypes.insert(decl.path) }
            }
        }
        var units: [(file: Int, position: AbsolutePosition, unit: FlowStateUnit)] = []
        for path in stepTypes {
            let first = typeFirst[path]!
            units.append((first.file, first.position,
                          FlowStateUnit(name: path, location: first.location, ownerType: path, roots: typeRoots[path]!)))
        }
        for i in files.indices {
            for body in scans[i].bodies {
                // A member of a type that is a flow of its own belongs to that flow.
                if let owner = body.ownerType, stepTypes.contains(owner) { continue }
                let name = [body.ownerType, body.function].compactMap { $0 }.joined(separator: ".")
                units.append((i, body.node.position,
                              FlowStateUnit(name: name, location: body.location, ownerType: body.ownerType,
                                            roots: [FlowStateUnit.Root(file: files[i], node: body.node, mode: body.mode)])))
            }
        }
        let ordered = units.sorted { ($0.file, $0.position) < ($1.file, $1.position) }.map(\.unit)

        let built = ordered.parallelMap { FlowStateBuilder(unit: $0).flow() }
        // Overloaded functions give two flows one name: the later ones get `#2`, `#3`.
        var seen: [String: Int] = [:]
        return ordered.indices.compactMap { i -> Flow? in
            guard var flow = built[i] else { return nil }
            seen[flow.id, default: 0] += 1
            if seen[flow.id]! > 1 {
                flow.id += "#\(seen[flow.id]!)"
                flow.name = flow.id
            }
            return flow
        }
    }
}

/// A place that builds one flow: the syntax to read, and what to call the flow.
struct FlowStateUnit {
    /// One piece of syntax the flow is read from.
    struct Root {
        enum Mode {
            /// A function, initializer or property body: everything inside it.
            case body
            /// A type or extension declaration: its members, not the types nested in it.
            case typeMembers
            /// A file's top-level code: not the functions and types it declares.
            case topLevel
        }
        let file: ParsedSwiftFile
        let node: Syntax
        let mode: Mode
    }

    let name: String
    let location: FlowModel.SourceLocation
    let ownerType: String?
    let roots: [Root]
}

/// Pass 1 for one file: the types that hold steps in properties, and the bodies that create steps.
struct FlowStateFileScan {
    struct TypeDecl {
        let path: String
        let node: Syntax
        let location: FlowModel.SourceLocation
        let holdsSteps: Bool
    }

    struct Body {
        let ownerType: String?
        let function: String
        let node: Syntax
        let location: FlowModel.SourceLocation
        let mode: FlowStateUnit.Root.Mode
    }

    var types: [TypeDecl] = []
    var bodies: [Body] = []

    init(_ file: ParsedSwiftFile) {
        // One walk: types, candidate bodies (the outermost function, initializer, accessor or member
        // property value around a node), and which of them create steps.
        final class Scanner: SyntaxVisitor {
            let file: ParsedSwiftFile
            var types: [TypeDecl] = []
            var candidates: [(body: Body, creates: Bool)] = []
            /// The candidate body being walked, and the node that opened it.
            var current: (index: Int, opener: SyntaxIdentifier)?
            var typeDepth = 0
            var topLevelCreates = false

            init(_ file: ParsedSwiftFile) {
                self.file = file
                super.init(viewMode: .sourceAccurate)
            }

            func enterType(_ node: some DeclSyntaxProtocol, path: String, nameToken: some SyntaxProtocol, members: MemberBlockSyntax?) {
                typeDepth += 1
                let holds = members?.members.contains { member in
                    guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
                    return variable.bindings.contains { binding in
                        if let value = binding.initializer?.value, FlowStateSyntax.creationKind(value) != nil { return true }
                        if let type = binding.typeAnnotation?.type, FlowStateSyntax.stepTypeNames.contains(baseTypeName(type)) { return true }
                        return false
                    }
                } ?? false
                types.append(TypeDecl(path: path, node: Syntax(node), location: file.location(nameToken), holdsSteps: holds))
            }

            /// Opens a candidate body at `opener` unless one is open (a nested function is part of it).
            func open(_ body: some SyntaxProtocol, function: String, at token: some SyntaxProtocol, opener: some SyntaxProtocol) {
                guard current == nil else { return }
                candidates.append((Body(ownerType: body.enclosingTypePath, function: function, node: Syntax(body),
                                        location: file.location(token), mode: .body), false))
                current = (candidates.count - 1, opener.id)
            }

            func close(_ node: some SyntaxProtocol) {
                if current?.opener == node.id { current = nil }
            }

            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
                enterType(node, path: node.typePath(named: node.name.text), nameToken: node.name, members: node.memberBlock)
                return .visitChildren
            }
            override func visitPost(_ node: ClassDeclSyntax) { typeDepth -= 1 }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
                enterType(node, path: node.typePath(named: node.name.text), nameToken: node.name, members: node.memberBlock)
                return .visitChildren
            }
            override func visitPost(_ node: StructDeclSyntax) { typeDepth -= 1 }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
                enterType(node, path: node.typePath(named: node.name.text), nameToken: node.name, members: node.memberBlock)
                return .visitChildren
            }
            override func visitPost(_ node: EnumDeclSyntax) { typeDepth -= 1 }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
                enterType(node, path: node.typePath(named: node.name.text), nameToken: node.name, members: node.memberBlock)
                return .visitChildren
            }
            override func visitPost(_ node: ActorDeclSyntax) { typeDepth -= 1 }
            override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
                // An extension adds to the type it extends: same path, so it joins that type's flow.
                let path = node.enclosingTypePath.map { "\($0).\(node.extendedType.trimmedText)" }
                    ?? node.extendedType.trimmedText
                enterType(node, path: path, nameToken: node.extendedType, members: nil)
                return .visitChildren
            }
            override func visitPost(_ node: ExtensionDeclSyntax) { typeDepth -= 1 }

            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body { open(body, function: node.name.text, at: node.name, opener: node) }
                return .visitChildren
            }
            override func visitPost(_ node: FunctionDeclSyntax) { close(node) }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body { open(body, function: "init", at: node.initKeyword, opener: node) }
                return .visitChildren
            }
            override func visitPost(_ node: InitializerDeclSyntax) { close(node) }
            override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
                if let body = node.body, let binding = node.enclosing(PatternBindingSyntax.self),
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                    open(body, function: name, at: binding.pattern, opener: node)
                }
                return .visitChildren
            }
            override func visitPost(_ node: AccessorDeclSyntax) { close(node) }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                guard current == nil, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
                if case let .getter(items)? = node.accessorBlock?.accessors {
                    open(items, function: name, at: node.pattern, opener: node)
                } else if let initializer = node.initializer, node.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true,
                          FlowStateSyntax.creationKind(initializer.value) == nil {
                    // A stored property: a step itself belongs to its type's flow; any other initial
                    // value that builds steps (`lazy var steps = { ... }()`) is a body of its own.
                    open(initializer.value, function: name, at: node.pattern, opener: node)
                }
                return .visitChildren
            }
            override func visitPost(_ node: PatternBindingSyntax) { close(node) }

            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                guard FlowStateSyntax.creationKind(node) != nil else { return .visitChildren }
                if let current {
                    candidates[current.index].creates = true
                } else if typeDepth == 0 {
                    topLevelCreates = true
                }
                return .visitChildren
            }
        }
        // The walk visits every node of the file, so it walks a root of its own, freed with all it
        // visited once the scan ends (a third of `check`'s peak memory on a folder of Flow-iOS
        // files, which mention `Flow` too); the few nodes kept are taken again from `file.tree`,
        // where pass 2 reads them (same raw tree, so the same identifiers).
        let scanner = Scanner(file)
        scanner.walk(file.transientTree)
        func kept(_ node: Syntax) -> Syntax { file.tree.node(at: node.id)! }
        types = scanner.types.map { TypeDecl(path: $0.path, node: kept($0.node), location: $0.location, holdsSteps: $0.holdsSteps) }
        bodies = scanner.candidates.filter(\.creates).map(\.body).map {
            Body(ownerType: $0.ownerType, function: $0.function, node: kept($0.node), location: $0.location, mode: $0.mode)
        }
        // Top-level code (a script or playground page) is one more body, named after the file.
        if scanner.topLevelCreates {
            let stem = ((file.file.displayPath as NSString).lastPathComponent as NSString).deletingPathExtension
            bodies.append(Body(ownerType: nil, function: stem, node: Syntax(file.tree),
                               location: FlowModel.SourceLocation(file: file.file.displayPath, line: 1, column: 1), mode: .topLevel))
        }
    }
}
