import Dispatch
import FlowModel
import Foundation
import SwiftSyntax

/// Reads Syrup progressions from Swift sources (`../shared/flow-libraries.md` §3).
///
/// One flow per type conforming to `Progression`, named after the type. An enum's cases are its steps
/// (kind `state`, associated values in `details`); its transitions come from `switch self` in
/// `updateOrDeferNext` (see `BranchScanner`); its terminal cases are those its `result` returns a value
/// for (see `TerminalReader`). A struct or class progression is driven by its stored properties, which
/// only run time decides: it becomes one step and a `Limitation`, never a guess.
struct SyrupReader {
    /// The id of the step every error exit leads to. `throws` is a keyword, so no case can have this id.
    static let errorStepID = "throws"

    /// The Syrup progressions in already parsed files.
    func flows(in files: [ParsedSwiftFile]) -> [Flow] {
        let declarations = files.indices.parallelMap { i in
            let indexer = ProgressionIndexer(fileIndex: i)
            indexer.walk(files[i].tree)
            return indexer.declarations
        }
        let catalog = ProgressionCatalog(declarations.flatMap { $0 })
        let progressions = catalog.types.map { type in
            let cases = ProgressionReader(type: type, files: files, catalog: catalog).readCases()
            return CaseConstructions.Progression(path: type.path, cases: Set(cases.map(\.name)),
                                                 labels: Dictionary(cases.map { ($0.name, $0.labels) }, uniquingKeysWith: { a, _ in a }))
        }
        let constructions = CaseConstructions(files: files, progressions: progressions)
        return catalog.types.map {
            ProgressionReader(type: $0, files: files, catalog: catalog, constructed: constructions.constructed[$0.path] ?? []).flow()
        }
    }
}

/// Builds the flow of one progression.
struct ProgressionReader {
    let type: ProgressionType
    let files: [ParsedSwiftFile]
    let catalog: ProgressionCatalog
    /// The cases something outside the progression's transitions constructs (see `CaseConstructions`).
    var constructed: Set<String> = []

    private var declaration: TypeDeclaration { type.declaration }
    private var file: ParsedSwiftFile { files[declaration.fileIndex] }

    /// One case of the enum, with where it is declared.
    struct Case {
        let name: String
        let element: EnumCaseElementSyntax
        /// Marked by a doc comment containing "initial" (on its declaration or an earlier one).
        let markedInitial: Bool

        /// The associated values as `label: Type` (or `Type` when unlabelled), one a line.
        var details: [String] {
            element.parameterClause?.parameters.map { parameter in
                let type = Self.oneLine(parameter.type.trimmedText)
                let label = [parameter.secondName, parameter.firstName].compactMap { $0 }.first { $0.text != "_" }
                return label.map { "\($0.text): \(type)" } ?? type
            } ?? []
        }

        /// The associated values' argument labels by position (nil for an unlabelled one).
        var labels: [String?] {
            element.parameterClause?.parameters.map { parameter in
                parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
            } ?? []
        }

        /// The associated value types by position.
        var associatedTypes: [TypeSyntax] { element.parameterClause?.parameters.map(\.type) ?? [] }

        static func oneLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
    }

    func flow() -> Flow {
        var flow = Flow(id: type.path, name: type.path, kind: .syrup, location: file.location(declaration.nameNode))
        flow.outputType = resultType()
        let function = transitionFunction()
        switch declaration.kind {
        case .enum:
            let cases = readCases()
            guard !cases.isEmpty else {
                return opaque(flow, because: "\(type.path) has no cases: its steps cannot be read from the source", function: function, cases: cases)
            }
            guard let function else {
                return opaque(flow, because: "\(type.path) implements neither updateOrDeferNext nor next() here: its steps cannot be read from the source",
                              function: nil, cases: cases)
            }
            let functionFile = files[function.fileIndex]
            guard let body = function.node.body, let branches = branches(in: body, file: functionFile, cases: cases) else {
                return opaque(flow, because: "\(type.path)'s \(function.node.name.text) does not switch over self: its steps cannot be read from the source",
                              function: function, cases: cases)
            }
            return enumFlow(flow, cases: cases, branches: branches, functionFile: functionFile)
        default:
            return opaque(flow, because: "\(type.path) is a \(declaration.kind.rawValue) driven by flags: its steps are decided at run time and cannot be read from the source",
                          function: function, cases: [])
        }
    }

    // MARK: - Enum progressions

    private func enumFlow(_ base: Flow, cases: [Case], branches: [(branch: SwitchBranches.Branch, facts: BranchFacts)],
                          functionFile: ParsedSwiftFile) -> Flow {
        var flow = base
        let names = cases.map(\.name)
        let terminal = terminalCases(cases: names, branches: branches, flow: &flow)

        var facts: [String: BranchFacts] = [:]
        var branchLocation: [String: FlowModel.SourceLocation] = [:]
        // Each branch's own cases, not every case asked of every branch (a progression of thousands
        // of cases was quadratic); in branch order, so the first branch of a case gives its location.
        let known = Set(names)
        for (branch, found) in branches {
            for name in branch.cases where known.contains(name) {
                facts[name, default: BranchFacts()].merge(found)
                if branchLocation[name] == nil { branchLocation[name] = functionFile.location(branch.label) }
            }
        }

        var transitions: [Transition] = []
        var errorLocations: [FlowModel.SourceLocation] = []
        var steps: [Step] = []
        for item in cases {
            let found = facts[item.name] ?? BranchFacts()
            var step = Step(id: item.name, kind: .state, location: file.location(item.element.name),
                            terminal: terminal.contains(item.name), details: item.details)
            if let compose = found.compose {
                step.kind = .subflow
                step.subflow = compose.type.map(catalog.flowID(forTypeReference:))
            }
            steps.append(step)
            // Syrup asks `result` before every update: a terminal case's branch never runs.
            guard !step.terminal else { continue }
            var seen = Set<String>()
            for target in found.targets where seen.insert("\(target.to)\u{0}\(target.label ?? "")").inserted {
                transitions.append(Transition(from: item.name, to: target.to, label: target.label, location: target.location))
            }
            if let at = found.errorLocation {
                transitions.append(Transition(from: item.name, to: SyrupReader.errorStepID, label: SyrupLabel.error, kind: .error, location: at))
                errorLocations.append(at)
            }
            if found.movesOn, !found.retries.isEmpty {
                // Some paths move on and some leave self as it was: Syrup runs the case again at once.
                let conditions = found.retries.map { path in
                    path.conditions.isEmpty ? "it does not throw" : path.conditions.joined(separator: " and ")
                }
                var seenConditions = Set<String>()
                let unique = conditions.filter { seenConditions.insert($0).inserted }
                let when = unique.joined(separator: "; or when ")
                transitions.append(Transition(from: item.name, to: item.name, label: SyrupLabel.retries(when: when),
                                              condition: .expression(when), kind: .retry,
                                              location: found.retries.compactMap(\.location).first ?? branchLocation[item.name] ?? step.location))
            }
            if !found.movesOn {
                // Neither changes self, returns a Deferred, nor throws: every update leaves it where it is.
                transitions.append(Transition(from: item.name, to: item.name, label: SyrupLabel.stays,
                                              location: branchLocation[item.name] ?? step.location))
            }
            for at in found.unreadable {
                flow.limitations.append(Limitation(message: "case '\(item.name)' of \(type.path) assigns self a value whose case cannot be read from the source", location: at))
            }
            if found.changesSelf || found.returnsDeferred, found.targets.isEmpty, found.errorLocation == nil, found.unreadable.isEmpty {
                flow.limitations.append(Limitation(message: "case '\(item.name)' of \(type.path) returns a Deferred whose next case cannot be read from the source",
                                                   location: branchLocation[item.name] ?? step.location))
            }
        }
        if let first = errorLocations.min() {
            steps.append(Step(id: SyrupReader.errorStepID, name: "thrown error", kind: .fail, location: first))
        }
        flow.steps = steps
        flow.transitions = transitions

        // Entries: the cases marked initial by a doc comment or constructed outside the transitions
        // (a case nothing constructs is dead code, never a start). Only when the sources read
        // construct none of the cases (the caller is elsewhere) are the cases no other case leads
        // to taken as the starts.
        let starts = cases.filter { $0.markedInitial || constructed.contains($0.name) }.map(\.name)
        if !starts.isEmpty {
            flow.entries = starts
        } else {
            let targeted = Set(transitions.filter { $0.from != $0.to }.map(\.to))
            let unreached = names.filter { !targeted.contains($0) }
            flow.entries = unreached.isEmpty ? [names[0]] : unreached
        }
        return flow
    }

    /// Each branch of `switch self` in `updateOrDeferNext` (or of an `if case ... = self` chain), read.
    private func branches(in body: CodeBlockSyntax, file functionFile: ParsedSwiftFile,
                          cases list: [Case]) -> [(branch: SwitchBranches.Branch, facts: BranchFacts)]? {
        let cases = Set(list.map(\.name))
        let found: [SwitchBranches.Branch]
        if let statement = Self.switchOnSelf(in: body) {
            found = SwitchBranches(statement, cases: cases, typeName: type.simpleName).branches
        } else if let chain = ifCaseChain(in: body, cases: cases) {
            found = chain
        } else {
            return nil
        }
        let associated = Dictionary(list.map { ($0.name, $0.associatedTypes) }, uniquingKeysWith: { a, _ in a })
        return found.map { branch in
            var bindings: [String: TypeSyntax] = [:]
            if let pattern = branch.pattern, let name = SwitchBranches.caseNames(pattern, cases: cases, typeName: type.simpleName)?.first,
               let types = associated[name] {
                for (index, bound) in SwitchBranches.boundNames(pattern) where index < types.count { bindings[bound] = types[index] }
            }
            let scanner = BranchScanner(file: functionFile, typeName: type.simpleName, cases: cases, bindings: bindings)
            scanner.scan(branch: branch.statements)
            return (branch, scanner.facts)
        }
    }

    /// The first `switch self` of a body, outside closures.
    static func switchOnSelf(in body: CodeBlockSyntax) -> SwitchExprSyntax? {
        final class Finder: SyntaxVisitor {
            var found: SwitchExprSyntax?
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
                if found == nil, BranchScanner.unwrapped(node.subject).as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                    found = node
                }
                return found == nil ? .visitChildren : .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(body)
        return finder.found
    }

    /// `if case .a = self { ... } else if case let .b(x) = self { ... } else { ... }` as a statement of
    /// the body: one branch per `if`, the final `else` for every case not named before.
    private func ifCaseChain(in body: CodeBlockSyntax, cases: Set<String>) -> [SwitchBranches.Branch]? {
        var branches: [SwitchBranches.Branch] = []
        var named = Set<String>()
        for item in body.statements {
            guard var current = BranchScanner.expression(of: item)?.as(IfExprSyntax.self) else { continue }
            while true {
                guard let condition = current.conditions.first, case let .matchingPattern(match) = condition.condition,
                      BranchScanner.unwrapped(match.initializer.value).as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
                      let names = SwitchBranches.caseNames(match.pattern, cases: cases, typeName: type.simpleName) else { break }
                branches.append(SwitchBranches.Branch(cases: names, statements: current.body.statements, label: Syntax(current.ifKeyword),
                                                      pattern: match.pattern))
                named.formUnion(names)
                switch current.elseBody {
                case let .ifExpr(next)?:
                    current = next
                    continue
                case let .codeBlock(block)?:
                    branches.append(SwitchBranches.Branch(cases: cases.subtracting(named), statements: block.statements,
                                                          label: Syntax(block.leftBrace), pattern: nil))
                case nil:
                    break
                }
                break
            }
        }
        return branches.isEmpty ? nil : branches
    }

    /// The cases `result` returns a value for. When `result` cannot be read, a limitation says so and
    /// the cases whose branch does nothing are taken as the ends (rather than reported as stuck).
    private func terminalCases(cases: [String], branches: [(branch: SwitchBranches.Branch, facts: BranchFacts)], flow: inout Flow) -> Set<String> {
        let property = member(VariableDeclSyntax.self) { decl in
            decl.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "result" }
        }
        var reader = TerminalReader(cases: Set(cases), typeName: type.simpleName)
        if let property, let body = Self.getterBody(property.node), let terminal = reader.terminalCases(body) {
            return terminal
        }
        let at = property.map { files[$0.fileIndex].location($0.node.bindings.first!.pattern) } ?? flow.location
        flow.limitations.append(Limitation(
            message: "the result of \(type.path) cannot be read from the source: the cases whose branch does nothing are taken as its ends",
            location: at))
        var active = Set<String>()
        for (branch, facts) in branches where facts.movesOn { active.formUnion(branch.cases) }
        return Set(cases).subtracting(active)
    }

    /// The statements of a computed property's getter.
    static func getterBody(_ variable: VariableDeclSyntax) -> CodeBlockItemListSyntax? {
        guard let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "result" }),
              let accessors = binding.accessorBlock?.accessors else { return nil }
        switch accessors {
        case let .getter(items): return items
        case let .accessors(list): return list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
        }
    }

    // MARK: - Opaque progressions

    /// A progression whose steps cannot be read: one step standing for the whole progression (an end,
    /// so that no rule guesses about it), and a limitation at `updateOrDeferNext` (or the type).
    private func opaque(_ base: Flow, because message: String, function: (node: FunctionDeclSyntax, fileIndex: Int)?, cases: [Case]) -> Flow {
        var flow = base
        var details = cases.map { item in item.details.isEmpty ? item.name : "\(item.name)(\(item.details.joined(separator: ", ")))" }
        if cases.isEmpty { details = storedProperties() }
        flow.steps = [Step(id: type.path, kind: .operation, location: flow.location, terminal: true, details: details)]
        flow.entries = [type.path]
        let at = function.map { files[$0.fileIndex].location($0.node.name) } ?? flow.location
        flow.limitations = [Limitation(message: message, location: at)]
        return flow
    }

    /// The stored instance properties (the state a struct progression is driven by), as `name: Type`.
    private func storedProperties() -> [String] {
        var result: [String] = []
        for part in type.parts {
            for item in part.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      !variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) else { continue }
                for binding in variable.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    // Computed properties hold no state; observed ones (`didSet`) do.
                    if case let .accessors(list)? = binding.accessorBlock?.accessors,
                       list.contains(where: { [.keyword(.get), .keyword(.set)].contains($0.accessorSpecifier.tokenKind) }) { continue }
                    if case .getter? = binding.accessorBlock?.accessors { continue }
                    if let annotation = binding.typeAnnotation {
                        result.append("\(name): \(Case.oneLine(annotation.type.trimmedText))")
                    } else if let value = binding.initializer?.value {
                        result.append("\(name) = \(ValueTypes.shortened(value))")
                    } else {
                        result.append(name)
                    }
                }
            }
        }
        return result
    }

    // MARK: - Members

    /// The cases of the enum in declaration order, with their "initial" marks: a doc comment containing
    /// "initial" marks its case declaration and the following ones, until another doc comment.
    func readCases() -> [Case] {
        var result: [Case] = []
        var marking = false
        for item in declaration.members {
            guard let decl = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
            let docs = decl.leadingTrivia.compactMap { piece -> String? in
                switch piece {
                case let .docLineComment(text), let .docBlockComment(text): return text
                default: return nil
                }
            }
            if !docs.isEmpty { marking = docs.contains { $0.lowercased().contains("initial") } }
            for element in decl.elements {
                result.append(Case(name: element.name.text, element: element, markedInitial: marking))
            }
        }
        return result
    }

    /// The functions that hold a progression's transitions, by preference: Syrup's
    /// `updateOrDeferNext()`, else `next()` (Syrup's non-mutating form, and the older API's
    /// `StageProtocol.next() -> Deferred<Self>`). Both are read the same way.
    static let transitionFunctions = ["updateOrDeferNext", "next"]

    /// The progression's transition function (see `transitionFunctions`), with its file.
    private func transitionFunction() -> (node: FunctionDeclSyntax, fileIndex: Int)? {
        for name in Self.transitionFunctions {
            if let found = member(FunctionDeclSyntax.self, where: { $0.name.text == name && $0.signature.parameterClause.parameters.isEmpty }) {
                return found
            }
        }
        return nil
    }

    /// The first member of type `T` matching `predicate`, in the declaration then its extensions.
    private func member<T: DeclSyntaxProtocol>(_: T.Type, where predicate: (T) -> Bool) -> (node: T, fileIndex: Int)? {
        for part in type.parts {
            for item in part.members {
                if let node = item.decl.as(T.self), predicate(node) { return (node, part.fileIndex) }
            }
        }
        return nil
    }

    /// `typealias Result = T`, else the type of `var result: T?` without its `?`.
    private func resultType() -> TypeName? {
        if let alias = member(TypeAliasDeclSyntax.self, where: { $0.name.text == "Result" }) {
            return TypeName(Case.oneLine(alias.node.initializer.value.trimmedText))
        }
        if let property = member(VariableDeclSyntax.self, where: { decl in
            decl.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "result" }
        }), let annotation = property.node.bindings.first?.typeAnnotation?.type {
            if let optional = annotation.as(OptionalTypeSyntax.self) { return TypeName(Case.oneLine(optional.wrappedType.trimmedText)) }
            return TypeName(Case.oneLine(annotation.trimmedText))
        }
        return nil
    }
}
