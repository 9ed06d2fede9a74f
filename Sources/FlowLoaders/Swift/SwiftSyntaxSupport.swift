import FlowModel
import Foundation
import SwiftParser
// The raw tree (SPI) gives `transientTree` a root of its own over the same nodes.
@_spi(RawSyntax) import SwiftSyntax

/// One parsed Swift file.
struct ParsedSwiftFile {
    let file: InputFile
    let tree: SourceFileSyntax
    /// Where its lines start: a node's line and column.
    let lines: SwiftLines
    /// Why the file was not read (nested past `Limits`), an `invalid-input` finding; its `tree` is
    /// then empty, so no reader walks what could overflow the stack.
    let problem: Finding?
    /// The text holds one of the merge-conflict markers (`SwiftSources.conflictMarkers`) somewhere:
    /// only then does `SwiftSources.firstError` look through every token's trivia for one.
    let mayHoldConflictMarker: Bool
    /// The text parsed: the tree's positions are UTF-8 offsets into it.
    let text: String

    init(_ source: SourceText, limits: Limits = .default) {
        file = source.file
        text = source.contents
        mayHoldConflictMarker = source.contents.utf8.withContiguousStorageIfAvailable { bytes in
            SwiftSources.conflictMarkers.contains { ByteSearch.contains(Array($0.utf8), in: bytes) }
        } ?? true
        let shown = source.file.displayPath
        lines = SwiftLines(source.contents)
        if let found = SwiftNesting.check(source.contents, limits: limits) {
            problem = .invalidInput(found.message, at: FlowModel.SourceLocation(file: shown, line: found.line, column: found.column))
        } else {
            // The parser counts `<` and `#if` as nesting too, which the scan does not: a margin, and
            // a file the parser still stops in is reported rather than read in part.
            var parser = Parser(source.contents, maximumNestingLevel: 2 * limits.nesting)
            let parsed = SourceFileSyntax.parse(from: &parser)
            let lines = lines
            func at(_ node: Syntax) -> FlowModel.SourceLocation {
                let (line, column) = lines.location(of: node.positionAfterSkippingLeadingTrivia.utf8Offset)
                return FlowModel.SourceLocation(file: shown, line: line, column: column)
            }
            if parsed.hasMaximumNestingLevelOverflow {
                // The flag is set on every ancestor of where the parser stopped: follow it down.
                var node = Syntax(parsed)
                while let child = node.children(viewMode: SyntaxTreeViewMode.all).first(where: { $0.hasMaximumNestingLevelOverflow }) { node = child }
                let location = at(node)
                problem = .invalidInput("nested deeper than \(2 * limits.nesting) levels (brackets, generics and #if) at line \(location.line)",
                                        at: location)
            } else if let deep = SwiftNesting.firstNode(deeperThan: limits.syntaxDepth, in: parsed) {
                let location = at(deep)
                problem = .invalidInput("syntax nested deeper than \(limits.syntaxDepth) levels at line \(location.line) (a chain of calls this long cannot be read)",
                                        at: location)
            } else {
                problem = nil
                tree = parsed
                return
            }
        }
        tree = Parser.parse(source: "")
    }

    /// The same tree under a root of its own, for a walk that keeps no node: swift-syntax keeps
    /// every node a walk visits (its `Syntax` data) as long as the walk's root lives, and `tree`
    /// lives until the last reader has run, so a full walk of `tree` keeps a second copy of the
    /// whole file. The nodes a walk of this root visits are freed with it (once no node of it is
    /// kept). Both roots share the raw nodes, so a node has the same position and identifier in
    /// each, and `tree.node(at: node.id)` is its twin in `tree`, for a node to keep.
    var transientTree: SourceFileSyntax {
        SourceFileSyntax(Syntax(raw: tree.raw, rawNodeArena: tree.raw.arena))!
    }

    /// Whether the text of `node` (its trivia included) holds one of `words` as a whole word
    /// (`SwiftRelevance.containsWord`): a walk passes over a body that cannot hold what it looks for.
    /// True when the text cannot be searched in place, so that nothing is passed over then.
    func mentions(_ words: [[UInt8]], in node: some SyntaxProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            SwiftRelevance.containsWord(bytes, words, in: node.position.utf8Offset..<node.endPosition.utf8Offset)
        } ?? true
    }

    /// Where `node` starts (after its leading trivia), 1-based, columns in UTF-8 bytes as the Swift
    /// compiler counts them.
    func location(_ node: some SyntaxProtocol) -> FlowModel.SourceLocation {
        let (line, column) = lines.location(of: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        return FlowModel.SourceLocation(file: file.displayPath, line: line, column: column)
    }
}

extension ParsedSwiftFile {
    /// Where a call is written: at `.add` for a chained `x.add(...)` (a chain's callee starts at its
    /// first line), else at the call.
    func callLocation(_ call: FunctionCallExprSyntax) -> FlowModel.SourceLocation {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return location(member.period) }
        return location(call.calledExpression)
    }
}

extension SyntaxProtocol {
    /// The node's source without the leading trivia of its first token and the trailing trivia of its
    /// last: the text of swift-syntax's `trimmedDescription`, taken from the node's own bytes. (That
    /// property builds a detached copy of the node with new trivia, in a new arena, and prints it:
    /// 4% of `check` on an app, through the readers' type names and conditions.) The same text to the
    /// byte: `trimmed` empties the trivia of the first and last token of the layout, present or missing
    /// (a missing one has none), so a node ending in a missing token keeps the trivia before it.
    var trimmedText: String {
        let bytes = syntaxTextBytes
        let start = firstToken(viewMode: .all)?.leadingTriviaLength.utf8Length ?? 0
        let end = max(start, bytes.count - (lastToken(viewMode: .all)?.trailingTriviaLength.utf8Length ?? 0))
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The path of the types (and extensions) around this node, outermost first: `Outer.Inner`.
    var enclosingTypePath: String? {
        var names: [String] = []
        var current = parent
        while let node = current {
            if let decl = node.as(ClassDeclSyntax.self) { names.insert(decl.name.text, at: 0) }
            if let decl = node.as(StructDeclSyntax.self) { names.insert(decl.name.text, at: 0) }
            if let decl = node.as(EnumDeclSyntax.self) { names.insert(decl.name.text, at: 0) }
            if let decl = node.as(ActorDeclSyntax.self) { names.insert(decl.name.text, at: 0) }
            if let decl = node.as(ExtensionDeclSyntax.self) { names.insert(decl.extendedType.trimmedText, at: 0) }
            current = node.parent
        }
        return names.isEmpty ? nil : names.joined(separator: ".")
    }

    /// The path of the type this node declares as `name`: its enclosing types and its own name.
    func typePath(named name: String) -> String {
        enclosingTypePath.map { "\($0).\(name)" } ?? name
    }

    /// The code as one line, shortened to 60 characters: how a condition is quoted in a message or on
    /// a diagram edge.
    var oneLineText: String {
        let line = trimmedText.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.count > 60 ? String(line.prefix(57)) + "..." : line
    }

    /// The nearest enclosing node of type `T`.
    func enclosing<T: SyntaxProtocol>(_: T.Type) -> T? {
        var node = parent
        while let current = node {
            if let match = current.as(T.self) { return match }
            node = current.parent
        }
        return nil
    }
}

extension ExprSyntax {
    /// The value of a string literal without interpolation.
    var stringLiteralValue: String? {
        guard let literal = self.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard case let .stringSegment(part) = segment else { return nil }
            text += part.content.text
        }
        return text
    }

    /// `x` for `x`, `self.x`; nil otherwise.
    var simpleName: String? {
        if let ref = self.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        if let member = self.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           base.baseName.text == "self" {
            return member.declName.baseName.text
        }
        return nil
    }

    /// `A.b.c` as `["A", "b", "c"]` for a chain of plain member accesses on a name.
    var dottedPath: [String]? {
        if let ref = self.as(DeclReferenceExprSyntax.self) { return [ref.baseName.text] }
        if let member = self.as(MemberAccessExprSyntax.self), let base = member.base, let path = base.dottedPath {
            return path + [member.declName.baseName.text]
        }
        return nil
    }

    /// The name a call calls: `f` for `f(...)`, `self.f(...)` and `x.f(...)`.
    var calleeName: String? {
        if let ref = self.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        if let member = self.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }
}

extension FunctionCallExprSyntax {
    /// The argument with `label`.
    func argument(_ label: String) -> ExprSyntax? {
        arguments.first { $0.label?.text == label }?.expression
    }
}

/// A type name as FlowLens compares it, from type syntax (`Flow_iOS.FlowOperation` is `FlowOperation`).
func typeName(_ type: TypeSyntax) -> TypeName? {
    TypeName(type.trimmedText)
}

/// The last component of a possibly module-qualified type name, without generic arguments.
func baseTypeName(_ type: TypeSyntax) -> String {
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    return type.trimmedText
}

/// What is known, from syntax alone, about a value's type.
struct ValueFacts {
    var type: TypeName?
    var elementTypes: [TypeName?]?
    var stringValue: String?
    var display: String?
    /// The strings the value can be, when it is one of a few: either side of `c ? "a" : "b"`.
    var possibleStrings: [String]?
    /// For `x.rawValue` with `x` of a known type: that type, whose String raw values the value is one of
    /// (resolved once every file's enums are known).
    var rawValueOf: String?

    static let unknown = ValueFacts()
}

/// Types of locals in a function body: annotated (`let x: T`), bound by `guard let x: T = ...`, or
/// initialised with a value whose type syntax shows.
struct LocalTypes {
    private var types: [String: ValueFacts] = [:]
    /// The expression each local is initialised with, for values built before use (a dispatcher).
    private(set) var initializers: [String: ExprSyntax] = [:]

    init() {}

    /// The locals declared in `body` (and in the closures and blocks within it): the first declaration
    /// of a name wins, and any local shadows a stored property of the same name.
    init(_ body: some SyntaxProtocol, properties: [String: TypeName] = [:]) {
        let collector = LocalDeclarations(viewMode: .sourceAccurate)
        collector.walk(body)
        var declared = Set<String>()
        for (name, annotation, initializer) in collector.found where declared.insert(name).inserted {
            if let initializer { initializers[name] = initializer }
            if let annotation, let type = typeName(annotation) {
                types[name] = ValueFacts(type: type.unwrappedIfImplicitlyUnwrapped)
            } else if let initializer {
                types[name] = ValueTypes.facts(initializer, locals: self)
            } else {
                types[name] = .unknown
            }
        }
        for (name, type) in properties where !declared.contains(name) { types[name] = ValueFacts(type: type) }
    }

    subscript(name: String) -> ValueFacts? { types[name] }
}

/// Every name a body declares: parameters, locals, optional bindings, loop and closure variables.
enum LocalNames {
    static func declared(in body: Syntax) -> Set<String> {
        final class Names: SyntaxVisitor {
            var names = Set<String>()
            override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
                names.insert(node.identifier.text)
                return .visitChildren
            }
            override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
                names.insert((node.secondName ?? node.firstName).text)
                return .visitChildren
            }
            override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
                names.insert(node.name.text)
                return .visitChildren
            }
            override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
                names.insert((node.secondName ?? node.firstName).text)
                return .visitChildren
            }
        }
        let visitor = Names(viewMode: .sourceAccurate)
        // The function's own parameters are in its signature, outside the body.
        visitor.walk(Syntax(body).parent?.as(FunctionDeclSyntax.self).map(Syntax.init) ?? Syntax(body))
        return visitor.names
    }
}

/// The local names declared in a body, with their annotations and initial values.
final class LocalDeclarations: SyntaxVisitor {
    var found: [(String, TypeSyntax?, ExprSyntax?)] = []

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            found.append((name, node.typeAnnotation?.type, node.initializer?.value))
        }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            found.append((name, node.typeAnnotation?.type, nil))
        }
        return .visitChildren
    }
}

extension TypeName {
    /// `T` for `T!`: an implicitly unwrapped value is stored as the value.
    var unwrappedIfImplicitlyUnwrapped: TypeName {
        spelling.hasSuffix("!") ? (TypeName(String(spelling.dropLast())) ?? self) : self
    }
}

/// Value types known from syntax alone: literals, initializer calls of capitalised types, locals with
/// a known type, `as T` casts, and string concatenation with a literal. Anything else is unknown.
enum ValueTypes {
    static func facts(_ expression: ExprSyntax, locals: LocalTypes) -> ValueFacts {
        if let string = expression.stringLiteralValue {
            return ValueFacts(type: "String", stringValue: string, display: "\"\(string)\"")
        }
        if expression.is(StringLiteralExprSyntax.self) { return ValueFacts(type: "String", display: expression.trimmedText) }
        if expression.is(IntegerLiteralExprSyntax.self) { return ValueFacts(type: "Int", display: expression.trimmedText) }
        if expression.is(FloatLiteralExprSyntax.self) { return ValueFacts(type: "Double", display: expression.trimmedText) }
        if expression.is(BooleanLiteralExprSyntax.self) { return ValueFacts(type: "Bool", display: expression.trimmedText) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return facts(prefix.expression, locals: locals)
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            let elements = array.elements.map { facts($0.expression, locals: locals).type }
            let known = Set(elements.compactMap { $0 })
            let type: TypeName = known.count == 1 && !elements.contains(nil) ? .array(of: known.first!) : .array(of: .any)
            return ValueFacts(type: elements.isEmpty ? nil : type, elementTypes: elements, display: shortened(expression))
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self) {
            guard case let .elements(elements) = dictionary.content else { return ValueFacts(display: "[:]") }
            let keys = Set(elements.map { facts($0.key, locals: locals).type })
            let values = Set(elements.map { facts($0.value, locals: locals).type })
            if keys.count == 1, let k = keys.first!, values.count == 1, let v = values.first! {
                return ValueFacts(type: TypeName(stringLiteral: "[\(k.spelling):\(v.spelling)]"), display: shortened(expression))
            }
            return ValueFacts(type: keys == ["String"] ? "[String:Any]" : nil, display: shortened(expression))
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let type = initializedType(call.calledExpression) {
            return ValueFacts(type: type, display: shortened(expression))
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return facts(only.expression, locals: locals)
        }
        if let name = expression.simpleName, let known = locals[name] { return known }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue",
           let base = member.base?.simpleName, let known = locals[base]?.type {
            return ValueFacts(type: "String", display: shortened(expression), rawValueOf: known.unwrapped.spelling)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) { return facts(sequence, locals: locals) }
        if let cast = expression.as(AsExprSyntax.self) {
            let type = typeName(cast.type)
            return ValueFacts(type: cast.questionOrExclamationMark?.text == "?" ? type.map { TypeName(stringLiteral: $0.spelling + "?") } : type)
        }
        return .unknown
    }

    /// Unfolded operator sequences (FlowLens does not fold operators): `x as T`, `"a" + b`.
    private static func facts(_ sequence: SequenceExprSyntax, locals: LocalTypes) -> ValueFacts {
        let elements = Array(sequence.elements)
        if elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self),
           let type = elements[2].as(TypeExprSyntax.self).flatMap({ typeName($0.type) }) {
            // `as?` gives an optional; storing it in a `[String: Any]` stores the optional's value.
            return ValueFacts(type: type)
        }
        // `condition ? "a" : "b"`: one of two strings.
        if elements.count >= 3, let ternary = elements[elements.count - 2].as(UnresolvedTernaryExprSyntax.self),
           let then = ternary.thenExpression.stringLiteralValue, let otherwise = elements[elements.count - 1].stringLiteralValue {
            return ValueFacts(type: "String", display: shortened(ExprSyntax(sequence)), possibleStrings: [then, otherwise])
        }
        let operators = stride(from: 1, to: elements.count, by: 2).map { elements[$0].as(BinaryOperatorExprSyntax.self)?.operator.text }
        if !operators.isEmpty, operators.allSatisfy({ $0 == "+" }),
           stride(from: 0, to: elements.count, by: 2).contains(where: { elements[$0].is(StringLiteralExprSyntax.self) }) {
            return ValueFacts(type: "String")
        }
        return .unknown
    }

    /// `Date` for `Date(...)`, `LoginData` for `LoginData(...)`, `Models.User` for `Models.User(...)`:
    /// capitalised names are types by Swift convention; `URL(string:)` is failable but its value is
    /// stored (and read) as a `URL`.
    /// Standard generic types commonly initialised without their arguments written.
    static let inferredGenerics: Set<String> = ["Array", "Set", "Dictionary", "Optional", "ContiguousArray", "ArraySlice",
                                                "Result", "AnySequence", "AnyCollection", "Range", "ClosedRange"]

    static func initializedType(_ callee: ExprSyntax) -> TypeName? {
        if let generic = callee.as(GenericSpecializationExprSyntax.self) {
            return TypeName(generic.trimmedText)
        }
        guard let path = callee.dottedPath, let last = path.last, let first = last.first, first.isUppercase else { return nil }
        guard path.allSatisfy({ $0.first?.isUppercase == true }) else { return nil }
        // `Array(results)`, `Set(ids)`: a generic type's arguments are inferred from the argument,
        // which syntax alone does not type. Unknown, never a guess.
        if path.count == 1, inferredGenerics.contains(last) { return nil }
        return TypeName(path.joined(separator: "."))
    }

    static func shortened(_ expression: ExprSyntax) -> String { expression.oneLineText }
}
