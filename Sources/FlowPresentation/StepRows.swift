import FlowModel

/// What a step shows under its name, decided once for every diagram (DOT, state-machine DOT, Mermaid
/// flowcharts and state diagrams): its types, what it does for each element, which flow it runs or
/// that it holds states of its own, its details, the data it needs, may use and gives, and the code
/// that implements it, in that order. Each output writes the rows in its own markup (`Row.text` is
/// the plain wording); what is shown, in which words and in which order, is decided here.
public enum StepRows {
    /// One row under a step's name.
    public enum Row: Hashable, Sendable {
        /// `Credentials → Token`: the content type (nil when none is worth showing) and the result type.
        case types(TypeName?, result: TypeName?)
        /// `for each element of items → results`: a group's input key and the key it collects into.
        case forEach(input: String, output: String?)
        /// `runs the flow “Checkout”`: the name of the flow a sub-flow step runs.
        case runs(flow: String)
        /// A state machine's composite state whose machine is drawn in a diagram of its own.
        case ownStates
        /// A detail the loader recorded (a model field, an option), as written.
        case detail(String)
        /// `needs token (String)`, `may use coupon`, `gives total (Int)`.
        case data(DataVerb, [DataAccess])
        /// The code that implements the step, when its name does not say it.
        case implementation(String)

        /// The row as plain text, as a text-only output (Mermaid) shows it.
        public var text: String {
            switch self {
            case let .types(content, result):
                return (content?.spelling ?? "") + (result.map { (content == nil ? "→ " : " → ") + $0.spelling } ?? "")
            case let .forEach(input, output): return "for each element of \(input)" + (output.map { " → \($0)" } ?? "")
            case let .runs(flow): return "runs the flow “\(flow)”"
            case .ownStates: return "has its own states, drawn in its own diagram"
            case let .detail(text): return text
            case let .data(verb, accesses): return verb.rawValue + " " + accesses.map(StepRows.text).joined(separator: ", ")
            case let .implementation(name): return name
            }
        }
    }

    /// A type worth showing: not unknown, not `Void` (a row saying `Void` tells a reader nothing).
    public static func shownType(_ type: TypeName?) -> TypeName? {
        guard let type, type.spelling != "Void", type.spelling != "()" else { return nil }
        return type
    }

    /// `token (String)`: a key and, when known, its type.
    public static func text(_ access: DataAccess) -> String { access.key + (access.type.map { " (\($0.spelling))" } ?? "") }

    /// How a diagram draws the flow or machine a sub-flow step runs, which decides the step's row.
    public enum Nesting: Sendable {
        /// Not at all: the row names the flow it runs.
        case named
        /// In a diagram of its own (a composite state drawn as one state): the row says so.
        case ownDiagram
        /// Inside the step (a composite drawn as a cluster): no row.
        case drawnInside
    }

    /// The rows of `step` (sub-flow names looked up in `flows`), its sub-flow drawn as `nesting` says.
    public static func rows(of step: Step, flows: [Flow], nesting: Nesting = .named) -> [Row] {
        var rows: [Row] = []
        let content = shownType(step.contentType)
        if content != nil || step.resultType != nil { rows.append(.types(content, result: step.resultType)) }
        if step.kind == .group, let group = step.group {
            rows.append(.forEach(input: group.inputKey, output: group.outputKey))
        } else if step.kind == .subflow {
            switch nesting {
            case .named: rows.append(.runs(flow: subflowName(step.subflow, flows: flows)))
            case .ownDiagram: rows.append(.ownStates)
            case .drawnInside: break
            }
        }
        rows += step.details.map(Row.detail)
        let reads = step.group?.elementReads ?? step.reads
        let writes = step.group?.elementWrites ?? step.writes
        for verb in [DataVerb.needs, .mayUse] {
            let accesses = reads.filter { DataVerb.read(optional: $0.optional) == verb }
            if !accesses.isEmpty { rows.append(.data(verb, accesses)) }
        }
        if !writes.isEmpty { rows.append(.data(.gives, writes)) }
        if let implementation = step.implementation, implementation != step.name { rows.append(.implementation(implementation)) }
        return rows
    }

    /// The name of the flow a sub-flow step runs (its reference when no such flow is loaded).
    public static func subflowName(_ reference: String?, flows: [Flow]) -> String {
        guard let reference else { return "?" }
        return (flows.first { $0.id == reference } ?? flows.first { $0.name == reference })?.name ?? reference
    }
}
