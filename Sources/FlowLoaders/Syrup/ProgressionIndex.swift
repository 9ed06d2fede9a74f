import FlowModel
import SwiftSyntax

/// A type declaration or extension found in a file, with what the Syrup reader needs of it.
struct TypeDeclaration {
    enum Kind: String {
        case `enum`, `struct`, `class`, actor, `extension`
    }

    /// The path of the type declared or extended, through its enclosing types (`Outer.Inner`).
    let path: String
    let kind: Kind
    /// The declaration node (for its name's location and members).
    let node: Syntax
    /// The token naming the type (or, for an extension, the start of the extended type).
    let nameNode: Syntax
    /// Conforms to `Progression` (or `Syrup.Progression`, or the older API's `StageProtocol`) in its
    /// inheritance clause.
    let conformsToProgression: Bool
    let members: MemberBlockItemListSyntax
    /// Index of the parsed file in the batch.
    let fileIndex: Int

    /// The simple name: the last component of `path`.
    var simpleName: String { path.split(separator: ".").last.map(String.init) ?? path }
}

/// Finds, in one file, every type declaration and extension at file scope or nested in types
/// (local types inside functions are not read). Function, initializer and property bodies are
/// skipped, so indexing is cheap.
final class ProgressionIndexer: SyntaxVisitor {
    let fileIndex: Int
    private(set) var declarations: [TypeDeclaration] = []

    init(fileIndex: Int) {
        self.fileIndex = fileIndex
        super.init(viewMode: .sourceAccurate)
    }

    /// The protocols a progression adopts: Syrup's, and `StageProtocol` of its older API (Grain),
    /// whose stages are read the same way.
    static let protocols: Set<String> = ["Progression", "StageProtocol"]

    static func conformsToProgression(_ clause: InheritanceClauseSyntax?) -> Bool {
        clause?.inheritedTypes.contains { protocols.contains(baseTypeName($0.type)) } ?? false
    }

    private func add(_ node: some DeclSyntaxProtocol, name: TokenSyntax, kind: TypeDeclaration.Kind,
                     inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax) {
        let path = node.typePath(named: name.text)
        declarations.append(TypeDeclaration(path: path, kind: kind, node: Syntax(node), nameNode: Syntax(name),
                                            conformsToProgression: Self.conformsToProgression(inheritance),
                                            members: members.members, fileIndex: fileIndex))
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        add(node, name: node.name, kind: .enum, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        add(node, name: node.name, kind: .struct, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        add(node, name: node.name, kind: .class, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        add(node, name: node.name, kind: .actor, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension Outer.Inner`: the path is the extended type as written, without generic arguments.
        let path = node.extendedType.trimmedText.split(separator: "<").first.map(String.init) ?? node.extendedType.trimmedText
        declarations.append(TypeDeclaration(path: path.filter { !$0.isWhitespace }, kind: .extension, node: Syntax(node),
                                            nameNode: Syntax(node.extendedType),
                                            conformsToProgression: Self.conformsToProgression(node.inheritanceClause),
                                            members: node.memberBlock.members, fileIndex: fileIndex))
        return .visitChildren
    }

    // Bodies never declare a type FlowLens reads.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        // Top-level statements (scripts) hold no type declarations worth reading; declarations do.
        node.item.is(DeclSyntax.self) ? .visitChildren : .skipChildren
    }
}

/// A progression: its declaration and every extension of it, in file order.
struct ProgressionType {
    let declaration: TypeDeclaration
    /// The declaration first, then its extensions in file order.
    let parts: [TypeDeclaration]

    var path: String { declaration.path }
    var simpleName: String { declaration.simpleName }
}

/// The progressions of a batch of files.
struct ProgressionCatalog {
    let types: [ProgressionType]
    private let byPath: [String: Int]
    private let bySimpleName: [String: [Int]]

    /// Joins declarations and extensions by path. A type is a progression when its declaration or
    /// any extension of it declares the conformance. An extension of a type declared elsewhere (not in
    /// the sources read) is not read: without its declaration there are no cases.
    init(_ declarations: [TypeDeclaration]) {
        var firstDeclaration: [String: TypeDeclaration] = [:]
        var order: [String] = []
        var extensions: [String: [TypeDeclaration]] = [:]
        for declaration in declarations {
            if declaration.kind == .extension {
                extensions[declaration.path, default: []].append(declaration)
            } else if firstDeclaration[declaration.path] == nil {
                firstDeclaration[declaration.path] = declaration
                order.append(declaration.path)
            }
        }
        // An extension names its type by path (`extension Outer.Inner`); one written with a shorter
        // path than the declaration's (a module-qualified or nested name) is matched by simple name
        // when that name is unique.
        var simple: [String: [String]] = [:]
        for path in order { simple[path.split(separator: ".").last.map(String.init) ?? path, default: []].append(path) }
        var partsByPath: [String: [TypeDeclaration]] = [:]
        for (path, list) in extensions {
            let target: String?
            if firstDeclaration[path] != nil {
                target = path
            } else if let candidates = simple[path], candidates.count == 1 {
                target = candidates[0]
            } else {
                target = nil
            }
            if let target { partsByPath[target, default: []] += list }
        }
        var types: [ProgressionType] = []
        for path in order {
            let declaration = firstDeclaration[path]!
            let extra = (partsByPath[path] ?? []).sorted {
                ($0.fileIndex, $0.node.position) < ($1.fileIndex, $1.node.position)
            }
            guard declaration.conformsToProgression || extra.contains(where: \.conformsToProgression) else { continue }
            guard declaration.kind != .extension else { continue }
            types.append(ProgressionType(declaration: declaration, parts: [declaration] + extra))
        }
        self.types = types
        var byPath: [String: Int] = [:]
        var bySimpleName: [String: [Int]] = [:]
        for (i, type) in types.enumerated() {
            byPath[type.path] = i
            bySimpleName[type.simpleName, default: []].append(i)
        }
        self.byPath = byPath
        self.bySimpleName = bySimpleName
    }

    /// The flow id of the progression a type reference names: the full path when it is one, else the
    /// progression with that simple name when there is exactly one, else the reference as written.
    func flowID(forTypeReference reference: String) -> String {
        if byPath[reference] != nil { return reference }
        let simple = reference.split(separator: ".").last.map(String.init) ?? reference
        if let candidates = bySimpleName[simple], candidates.count == 1 { return types[candidates[0]].path }
        return reference
    }
}
