import FlowModel

/// Reads Elevate tasks from RubyMotion sources (`*.rb`), one file at a time.
///
/// Elevate (github.com/mattgreen/elevate) runs a task's body on a background `NSOperationQueue` and
/// its callbacks on the UI thread. Two spellings are read:
///
/// - 0.4 (`async`): `@login_task = async username: x, password: y do; task do … end;
///   on_started do … end; on_completed do |result, exception| … end; end`. The flow is named after
///   the variable the task is assigned to, else the method it is in.
/// - 0.7 (`task`/`launch`): `task :name[, options] do; background do … end; on_start; on_update;
///   on_error; on_<error>; on_finish do |result, exception|; timeout N; end`, started with
///   `launch(:name, key: value)`. The flow is named after the task.
///
/// The callback names of both versions are accepted in both forms, and `worker do` is read like
/// `background do`. Flows are named `Class.task` inside a class (like Flow-iOS flows).
///
/// Each task is one flow: `on_start` → the background step → `on_finish` → `finished` (end) or
/// `failed` (fail). An exception goes from the background step (`.error` transitions) to the handler
/// Elevate picks — `on_<name>` for a `<Name>Error` (`on_timeout` for `TimeoutError`), else `on_error`
/// — and then to `on_finish`, which receives the exception. `on_update` runs whenever the task
/// reports progress and hands back to it. `timeout N` is a detail of the background step.
///
/// Data: the keyword arguments given to `async`, or to every `launch(:name, …)` of the task **in the
/// same file** (the loader reads one file at a time; the union of their keys), are the flow's initial
/// data. Elevate makes them instance variables of the background block, so each `@ivar` read there
/// (not assigned first) is a required read of that key, as is `task_args[:key]`; `task_args[:key]`
/// in a callback is an optional read (Elevate sets `task_args` on the controller while callbacks run;
/// a callback's own `@ivars` are the controller's, not data). When the arguments cannot be known
/// (no `launch` of the task in the file, `launch(:t, params)`, `async options do`, `**opts`), the
/// reads are kept as optional and the flow says so (`unanalyzable-flow`): nothing is guessed.
///
/// Calls: every method call in the background block is recorded in `Step.calls` with its receiver
/// as written, except inside a `Dispatch::Queue.main.async`/`sync` (or `NSOperationQueue.mainQueue`)
/// block, which runs on the main thread. Callbacks record their calls too.
///
/// Unreadable input — an unterminated string or heredoc, a block whose `end` is missing, an `end`
/// too many, a task without a background block — is an `invalid-input` finding at its line; the
/// rest of the file is still read (a missing `end` is placed using the file's indentation). A
/// `task :name do` or `async do` without a background block is reported only when it is
/// recognisably Elevate (the file has `include Elevate`, or the block has `on_…` callbacks or a
/// `timeout`): Rake's `task :name do … end` is not an Elevate task.
public struct ElevateLoader: FlowLoader {
    /// The bounds a file must keep to be read (interpolation nesting).
    public var limits: Limits

    /// Creates the loader.
    public init(limits: Limits = .default) { self.limits = limits }

    public func load(_ file: InputFile, contents: String) -> FlowGraph {
        var reader = ElevateReader(source: RubySource(file: file.displayPath, text: contents, maximumNesting: limits.nesting))
        return reader.read()
    }
}

/// One task found in a file, before it becomes a flow.
struct ElevateTask {
    enum Form { case async, definition }

    struct Part {
        /// `background`, `on_finish` … as written.
        var name: String
        /// The name token.
        var nameIndex: Int
        /// The `do`/`{` block.
        var block: Int
        /// `|result, exception|`.
        var parameters: [String]
    }

    var form: Form
    /// The task's own name: the `:name`, or for `async` the variable or method it is in.
    var name: String
    var call: RubySource.Call
    var block: Int
    var body: Part?
    var callbacks: [Part] = []
    /// `timeout N`: the seconds as written, and where.
    var timeout: (text: String, index: Int)?
    /// `task :name, key: value`: other options, as written.
    var options: [String] = []
}

struct ElevateReader {
    let src: RubySource
    private(set) var findings: [Finding] = []

    static let bodyNames: Set<String> = ["task", "background", "worker"]
    static let startNames: Set<String> = ["on_start", "on_started"]
    static let finishNames: Set<String> = ["on_finish", "on_completed"]

    init(source: RubySource) { src = source }

    private var tokens: [RubyToken] { src.tokens }

    private func location(_ index: Int) -> SourceLocation { src.location(index) }

    mutating func read() -> FlowGraph {
        if src.abandoned {
            // Only a prefix was lexed: its unclosed blocks and any task in it would be false reports.
            return FlowGraph(loadFindings: src.problems.map {
                .invalidInput($0.message, at: SourceLocation(file: src.file, line: $0.line, column: $0.column))
            })
        }
        reportStructureProblems()
        let launches = findLaunches()
        var tasks: [ElevateTask] = []
        for block in src.structure.blocks.indices {
            if let task = task(at: block) { tasks.append(task) }
        }
        var flows: [Flow] = []
        var usedNames: [String: Int] = [:]
        // `task :name do … end` is also Rake's DSL, and `async do … end` other libraries': without a
        // background block, only a task that is recognisably Elevate is reported.
        let includesElevate = tokens.indices.contains {
            tokens[$0].kind == .identifier && tokens[$0].text == "include" && $0 + 1 < tokens.count
                && tokens[$0 + 1].kind == .constant && tokens[$0 + 1].text == "Elevate"
        }
        for task in tasks {
            guard let body = task.body else {
                guard includesElevate || !task.callbacks.isEmpty || task.timeout != nil else { continue }
                let message: String
                switch task.form {
                case .definition:
                    message = "task ':\(task.name)' has no 'background do … end' block: nothing would run in the background"
                case .async:
                    let useCase = src.arguments(task.call.argsStart, task.call.argsEnd).contains {
                        if case .positional = $0 { return true } else { return false }
                    }
                    message = useCase
                        ? "'async' with a use-case object is the Elevate 0.3 API, which FlowLens does not read: an 'async' task needs a 'task do … end' block"
                        : "'async' has no 'task do … end' block: nothing would run in the background"
                }
                findings.append(.invalidInput(message, at: location(task.call.nameIndex)))
                continue
            }
            var flow = buildFlow(task, body: body, launches: launches[task.name] ?? [])
            let count = (usedNames[flow.id] ?? 0) + 1
            usedNames[flow.id] = count
            if count > 1 {
                flow.id += "#\(count)"
                flow.name = flow.id
            }
            flows.append(flow)
        }
        return FlowGraph(flows: flows, loadFindings: findings)
    }

    // MARK: - Problems

    private mutating func reportStructureProblems() {
        for problem in src.problems {
            findings.append(.invalidInput(problem.message, at: SourceLocation(file: src.file, line: problem.line, column: problem.column)))
        }
        for problem in src.structure.problems {
            var message = problem.message
            var at = problem.token
            if let block = src.structure.blockAt[problem.token], !src.structure.blocks[block].closed,
               let owner = src.owner(ofBlock: block) {
                message = "the block of '\(owner.name)' is never closed ('\(src.structure.blocks[block].kind.closer)' missing)"
                at = owner.nameIndex
            }
            findings.append(.invalidInput(message, at: location(at)))
        }
    }

    // MARK: - Finding tasks

    /// The task whose DSL block is `block`, if it is one.
    private func task(at block: Int) -> ElevateTask? {
        let b = src.structure.blocks[block]
        guard b.kind == .doBlock || b.kind == .brace, let call = src.owner(ofBlock: block) else { return nil }
        guard call.receiver == nil || call.receiver == "self" else { return nil }
        var task: ElevateTask
        switch call.name {
        case "async":
            let name = call.assignedTo ?? enclosingMethod(of: call.nameIndex) ?? "async"
            task = ElevateTask(form: .async, name: name, call: call, block: block)
        case "task":
            // `task :name do` defines a task; a bare `task do` is the body of an `async`.
            let arguments = src.arguments(call.argsStart, call.argsEnd)
            guard case let .positional(range)? = arguments.first, range.count == 1,
                  let name = literalName(range.lowerBound) else { return nil }
            task = ElevateTask(form: .definition, name: name, call: call, block: block)
            for argument in arguments.dropFirst() {
                if case let .pair(key, _, value) = argument, !value.isEmpty {
                    task.options.append("\(key): \(src.text(value.lowerBound, value.upperBound - 1))")
                }
            }
        default:
            return nil
        }
        // Its parts: the blocks directly inside it, and `timeout N`.
        for child in src.structure.children[block] {
            let kind = src.structure.blocks[child].kind
            guard kind == .doBlock || kind == .brace, let owner = src.owner(ofBlock: child), owner.receiver == nil,
                  src.structure.enclosing[owner.nameIndex] == block else { continue }
            let part = ElevateTask.Part(name: owner.name, nameIndex: owner.nameIndex, block: child,
                                        parameters: src.blockParameters(child))
            if Self.bodyNames.contains(owner.name), src.arguments(owner.argsStart, owner.argsEnd).isEmpty {
                task.body = part  // Elevate keeps the last one
            } else if owner.name.hasPrefix("on_") {
                task.callbacks.removeAll { $0.name == owner.name }
                task.callbacks.append(part)
            }
        }
        let open = b.open, close = min(b.close, tokens.count)
        var i = open + 1
        while i < close {
            if tokens[i].kind == .identifier, tokens[i].text == "timeout", src.structure.enclosing[i] == block,
               i == 0 || !(tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("::")) {
                var start = i + 1, end = src.commandArgumentsEnd(from: i + 1)
                if start < close, tokens[start].isPunct("("), !tokens[start].spaceBefore, let paren = src.structure.closeIndex(ofOpener: start) {
                    end = paren
                    start += 1
                }
                if start < end { task.timeout = (src.text(start, end - 1), i) }
            }
            i += 1
        }
        return task
    }

    /// A task name written as `:name` or `"name"`.
    private func literalName(_ index: Int) -> String? {
        let t = tokens[index]
        if t.kind == .symbol { return t.text }
        if t.kind == .string, t.plainString { return t.value }
        return nil
    }

    /// The method (`def name`) containing token `index`.
    private func enclosingMethod(of index: Int) -> String? {
        for block in src.structure.ancestors(of: index) where src.structure.blocks[block].kind == .keyword("def") {
            var j = src.structure.blocks[block].open + 1
            if j + 1 < tokens.count, tokens[j + 1].isPunct(".") { j += 2 }  // def self.name
            if j < tokens.count, tokens[j].kind == .identifier || tokens[j].kind == .constant { return tokens[j].text }
            return nil
        }
        return nil
    }

    /// The class or module (innermost) containing token `index`.
    private func enclosingType(of index: Int) -> String? {
        for block in src.structure.ancestors(of: index) {
            guard case let .keyword(k) = src.structure.blocks[block].kind, k == "class" || k == "module" else { continue }
            var j = src.structure.blocks[block].open + 1
            var name = ""
            while j < tokens.count, tokens[j].kind == .constant || tokens[j].isPunct("::") {
                name += tokens[j].text
                j += 1
            }
            if !name.isEmpty { return name }  // `class << self` has none: look further out
        }
        return nil
    }

    // MARK: - Launches

    struct Launch {
        var index: Int
        var arguments: [RubySource.Argument]
    }

    /// Every `launch(:name, key: value)` / `launch :name, key: value` in the file (also on a receiver:
    /// `@controller.launch(:name, …)`), by task name.
    private func findLaunches() -> [String: [Launch]] {
        var out: [String: [Launch]] = [:]
        for i in tokens.indices where tokens[i].kind == .identifier && tokens[i].text == "launch" {
            // On any receiver: specs launch on the controller (`@controller.launch(:task, …)`).
            if i > 0, tokens[i - 1].isKeyword("def") || tokens[i - 1].isPunct("::") { continue }
            let next = i + 1
            guard next < tokens.count else { continue }
            let arguments: [RubySource.Argument]
            if tokens[next].isPunct("("), !tokens[next].spaceBefore, let close = src.structure.closeIndex(ofOpener: next) {
                arguments = src.arguments(next + 1, close)
            } else if tokens[next].kind == .symbol || tokens[next].kind == .string {
                arguments = src.arguments(next, src.commandArgumentsEnd(from: next))
            } else {
                continue
            }
            guard case let .positional(range)? = arguments.first, range.count == 1, let name = literalName(range.lowerBound) else { continue }
            out[name, default: []].append(Launch(index: i, arguments: Array(arguments.dropFirst())))
        }
        return out
    }

    // MARK: - Flows

    private func buildFlow(_ task: ElevateTask, body: ElevateTask.Part, launches: [Launch]) -> Flow {
        let type = enclosingType(of: task.call.nameIndex)
        let id = type.map { "\($0).\(task.name)" } ?? task.name
        var flow = Flow(id: id, name: id, kind: .elevate, location: location(task.call.nameIndex))

        // Initial data: the keyword arguments of `async`, or of every `launch` of the task.
        var inputsKnown = true
        var unknownReason = ""
        var given: [DataAccess] = []
        func take(_ arguments: [RubySource.Argument]) {
            for argument in arguments {
                switch argument {
                case let .pair(key, keyIndex, value):
                    let access = initialValue(key: key, at: keyIndex, value: value)
                    guard let known = given.firstIndex(where: { $0.key == key }) else {
                        given.append(access)
                        continue
                    }
                    // Launched with several values: keep only what they agree on.
                    if given[known].value != access.value {
                        given[known].value = nil
                        given[known].stringValue = nil
                    }
                    if given[known].type != access.type { given[known].type = nil }
                case .positional, .splat:
                    inputsKnown = false
                }
            }
        }
        switch task.form {
        case .async:
            take(src.arguments(task.call.argsStart, task.call.argsEnd))
            flow.summary = "Elevate 'async' task"
            if !inputsKnown { unknownReason = "'async' is given arguments that are not written out as 'key: value'" }
        case .definition:
            if launches.isEmpty {
                inputsKnown = false
                unknownReason = "task ':\(task.name)' is not launched in this file, so the arguments it is given are unknown"
            }
            for launch in launches { take(launch.arguments) }
            // Each launch is its own run: a key only some launches pass is missing in the others.
            if launches.count > 1 {
                for n in given.indices {
                    let key = given[n].key
                    let passing = launches.filter { launch in
                        launch.arguments.contains { if case let .pair(k, _, _) = $0 { return k == key } else { return false } }
                    }
                    guard passing.count < launches.count else { continue }
                    let lacking = launches.filter { launch in !passing.contains { $0.index == launch.index } }
                    func lines(_ list: [Launch]) -> String {
                        (list.count == 1 ? "line " : "lines ") + list.map { String(tokens[$0.index].line) }.joined(separator: ", ")
                    }
                    given[n].condition = "the task is launched at \(lines(passing)) (the launch at \(lines(lacking)) does not pass it)"
                }
            }
            if !launches.isEmpty, !inputsKnown {
                unknownReason = "a 'launch(:\(task.name), …)' passes arguments that are not written out as 'key: value'"
            }
            let lines = launches.map { String(tokens[$0.index].line) }
            flow.summary = "Elevate task ':\(task.name)'" + (lines.isEmpty ? "" : ", launched at line\(lines.count == 1 ? "" : "s") \(lines.joined(separator: ", "))")
        }
        flow.initialData = given

        // Steps.
        var steps: [Step] = []
        var transitions: [Transition] = []
        let start = task.callbacks.last { Self.startNames.contains($0.name) }
        let finish = task.callbacks.last { Self.finishNames.contains($0.name) }
        let update = task.callbacks.last { $0.name == "on_update" }
        let onError = task.callbacks.last { $0.name == "on_error" }
        let named = task.callbacks.filter {
            !Self.startNames.contains($0.name) && !Self.finishNames.contains($0.name) && $0.name != "on_update" && $0.name != "on_error"
        }

        func callbackStep(_ part: ElevateTask.Part, _ when: String) -> Step {
            var step = Step(id: part.name, kind: .callback, location: location(part.nameIndex))
            var details = ["UI thread, \(when)"]
            if !part.parameters.isEmpty { details.append("receives \(part.parameters.joined(separator: ", "))") }
            step.details = details
            step.reads = reads(in: part.block, ivars: .ignored, optional: true)
            step.calls = calls(in: part.block)
            return step
        }

        if let start { steps.append(callbackStep(start, "when the task is queued")) }

        var background = Step(id: body.name, kind: .operation, location: location(body.nameIndex))
        var details = ["runs in the background"]
        if let timeout = task.timeout { details.append("times out after \(timeout.text) s") }
        details += task.options
        background.details = details
        // 0.4–0.6: `async` arguments are the body's instance variables. 0.7: `background` runs in a
        // sandbox where they arrive only as `task_args[:key]`, and an `@ivar` is an unset, nil one.
        background.reads = reads(in: body.block, ivars: task.form == .async ? .arguments : .unset, optional: !inputsKnown)
        background.calls = calls(in: body.block)
        steps.append(background)
        let argumentReads = background.reads.filter { !$0.key.hasPrefix("@") }
        if !inputsKnown, !argumentReads.isEmpty {
            flow.limitations.append(Limitation(
                message: "\(unknownReason): the reads of \(argumentReads.map { "'\($0.key)'" }.joined(separator: ", ")) are not checked",
                location: flow.location))
        }

        if let update { steps.append(callbackStep(update, "each time the task reports progress")) }
        for handler in named { steps.append(callbackStep(handler, "when the task raises \(Self.errorClass(forHandler: handler.name))")) }
        if let onError { steps.append(callbackStep(onError, named.isEmpty ? "when the task raises" : "when the task raises another error")) }
        if let finish { steps.append(callbackStep(finish, "after the task, with its result or exception")) }
        let closing = src.structure.blocks[task.block].closed ? src.structure.blocks[task.block].close : task.call.nameIndex
        steps.append(Step(id: "finished", kind: .end, location: location(closing)))
        steps.append(Step(id: "failed", kind: .fail, location: location(closing)))

        func edge(_ from: String, _ to: String, _ label: String? = nil, kind: TransitionKind = .normal, at index: Int) {
            transitions.append(Transition(from: from, to: to, label: label, kind: kind, location: location(index)))
        }
        if let start { edge(start.name, body.name, at: start.nameIndex) }
        if let update {
            edge(body.name, update.name, "reports progress", at: update.nameIndex)
            edge(update.name, body.name, "goes on", at: update.nameIndex)
        }
        edge(body.name, finish?.name ?? "finished", finish == nil ? nil : "result", at: finish?.nameIndex ?? body.nameIndex)
        for handler in named {
            edge(body.name, handler.name, Self.errorClass(forHandler: handler.name), kind: .error, at: handler.nameIndex)
            edge(handler.name, finish?.name ?? "failed", at: handler.nameIndex)
        }
        let otherErrors = named.isEmpty ? nil : "any other error"
        if let onError {
            edge(body.name, onError.name, otherErrors, kind: .error, at: onError.nameIndex)
            edge(onError.name, finish?.name ?? "failed", at: onError.nameIndex)
        } else {
            edge(body.name, finish?.name ?? "failed", otherErrors, kind: .error, at: finish?.nameIndex ?? body.nameIndex)
        }
        if let finish {
            edge(finish.name, "finished", "no exception", at: finish.nameIndex)
            edge(finish.name, "failed", "exception", at: finish.nameIndex)
        }
        flow.steps = steps
        flow.transitions = transitions
        flow.entries = [start?.name ?? body.name]
        return flow
    }

    /// The exception class Elevate sends to `on_<name>`: `on_timeout` ← `TimeoutError`,
    /// `on_request_failed` ← `RequestFailedError` (it strips `Error` and snake-cases the class name).
    static func errorClass(forHandler name: String) -> String {
        let words = name.dropFirst("on_".count).split(separator: "_")
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Error"
    }

    /// A key given to the task, with its literal value and type when the value is a literal.
    private func initialValue(key: String, at keyIndex: Int, value: Range<Int>) -> DataAccess {
        var access = DataAccess(key: key, location: location(keyIndex))
        guard value.count == 1 || (value.count >= 2 && (tokens[value.lowerBound].isPunct("[") || tokens[value.lowerBound].isPunct("-"))) else { return access }
        let first = tokens[value.lowerBound]
        let text = src.text(value.lowerBound, value.upperBound - 1)
        switch first.kind {
        case .string where first.plainString && value.count == 1:
            access.type = "String"
            access.value = text
            access.stringValue = first.value
        case .number where value.count == 1:
            access.type = text.contains(".") || text.lowercased().contains("e") && !text.lowercased().hasPrefix("0x") ? "Float" : "Integer"
            access.value = text
        case .symbol where value.count == 1:
            access.type = "Symbol"
            access.value = text
        case .keyword where value.count == 1 && (first.text == "true" || first.text == "false"):
            access.type = "Boolean"
            access.value = text
        case .punct where first.text == "-" && value.count == 2 && tokens[value.lowerBound + 1].kind == .number:
            access.type = text.contains(".") ? "Float" : "Integer"
            access.value = text
        case .punct where first.text == "[" && src.structure.closeIndex(ofOpener: value.lowerBound) == value.upperBound - 1:
            access.type = "Array"
            if value.count <= 12, tokens[value].allSatisfy({ [.string, .number, .symbol, .punct].contains($0.kind) }) { access.value = text }
        default:
            break
        }
        return access
    }

    // MARK: - Reads and calls

    /// What a block's `@ivar`s are.
    enum IvarMeaning {
        /// 0.4–0.6 `task`: the `async` arguments, read as their keys.
        case arguments
        /// 0.7 `background`: the sandbox's own, never set: read as the key `@name`, which nothing gives.
        case unset
        /// A callback's: the controller's own, not data.
        case ignored
    }

    /// The keys a block reads: `@key` (see `IvarMeaning`; an ivar assigned before it is read is a
    /// local of the block, not data) and `task_args[:key]`. One access per key, at its first read. A
    /// read that is only tested (`raise X if task_args[:raise]`, `@cancel ? a : b`) tolerates nil:
    /// it is optional.
    private func reads(in block: Int, ivars: IvarMeaning, optional: Bool) -> [DataAccess] {
        let close = min(src.structure.blocks[block].close, tokens.count)
        var out: [DataAccess] = []
        var seen = Set<String>()
        var assigned = Set<String>()
        var i = src.bodyStart(block)
        while i < close {
            let t = tokens[i]
            if ivars != .ignored, t.kind == .ivar {
                let key = ivars == .unset ? t.text : String(t.text.dropFirst())
                if i + 1 < close, tokens[i + 1].isPunct("=") {
                    if !seen.contains(key) { assigned.insert(key) }
                } else if !assigned.contains(key), seen.insert(key).inserted {
                    // Nothing can give the sandbox an ivar: its reads are never "unknown", only tested or not.
                    let tolerant = (ivars == .arguments && optional) || isOnlyTested(i, i)
                    out.append(DataAccess(key: key, optional: tolerant, location: location(i)))
                }
            } else if t.kind == .identifier, t.text == "task_args",
                      i == 0 || !tokens[i - 1].isPunct(".") || (i > 1 && tokens[i - 2].isKeyword("self")) {
                // task_args[:key], task_args.fetch(:key), task_args["key"]
                var keyIndex: Int?
                if i + 3 < close, tokens[i + 1].isPunct("["), !tokens[i + 1].spaceBefore, tokens[i + 3].isPunct("]") {
                    keyIndex = i + 2
                } else if i + 4 < close, tokens[i + 1].isPunct("."), tokens[i + 2].text == "fetch", tokens[i + 3].isPunct("(") {
                    keyIndex = i + 4
                }
                if let k = keyIndex, let key = literalName(k), seen.insert(key).inserted {
                    let last = tokens[i + 1].isPunct("[") ? i + 3 : (src.structure.closeIndex(ofOpener: i + 3) ?? i + 4)
                    out.append(DataAccess(key: key, optional: optional || isOnlyTested(i, last), location: location(k)))
                }
            }
            i += 1
        }
        return out
    }

    /// Whether the value of tokens `first...last` is only tested for truth (a missing key's nil is
    /// then harmless): the condition of `if`/`unless`/`while`/`until` (also as modifiers), an operand
    /// of `!`, `&&`, `||`, `and`, `or`, `not`, a ternary's condition, or asked `.nil?`.
    private func isOnlyTested(_ first: Int, _ last: Int) -> Bool {
        let before = first > 0 ? tokens[first - 1] : nil
        let after = last + 1 < tokens.count ? tokens[last + 1] : nil
        if let after {
            if after.isPunct("."), last + 2 < tokens.count, tokens[last + 2].text == "nil?" { return true }
            if after.isPunct(".") || after.isPunct("&.") || after.isPunct("[") && !after.spaceBefore || after.isPunct("::") { return false }
            if after.isPunct("=") || after.isPunct("+=") || after.isPunct("-=") { return false }
            if after.isPunct("?") || after.isPunct("&&") || after.isPunct("||") { return true }
            if ["and", "or", "then"].contains(where: after.isKeyword) { return after.isKeyword("then") ? conditionKeywordStarts(before) : true }
        }
        guard let before else { return false }
        if before.isPunct("!") || before.isPunct("&&") || before.isPunct("||") { return true }
        if ["and", "or", "not"].contains(where: before.isKeyword) { return true }
        // `if x` / `x if` : the whole condition is the value when nothing else follows on the line.
        if conditionKeywordStarts(before) {
            return after == nil || after!.kind == .newline || after!.isPunct(";") || after!.isKeyword("then")
        }
        return false
    }

    private func conditionKeywordStarts(_ token: RubyToken?) -> Bool {
        guard let token else { return false }
        return ["if", "unless", "elsif", "while", "until"].contains(where: token.isKeyword)
    }

    /// True for a block that runs on the main thread: `Dispatch::Queue.main.async do`,
    /// `NSOperationQueue.mainQueue.addOperationWithBlock { }`.
    private func runsOnMainThread(_ block: Int) -> Bool {
        guard let owner = src.owner(ofBlock: block), let receiver = owner.receiver?.filter({ $0 != " " }) else { return false }
        return receiver.hasSuffix("Queue.main") || receiver.hasSuffix("Queue.mainQueue") || receiver.contains("dispatch_get_main_queue")
    }

    /// The method calls in a block, in source order, with receivers as written.
    private func calls(in block: Int) -> [CallSite] {
        let close = min(src.structure.blocks[block].close, tokens.count)
        var locals = Set(src.blockParameters(block))
        var out: [CallSite] = []
        var i = src.bodyStart(block)
        var statementStart = true
        while i < close {
            let t = tokens[i]
            defer { statementStart = t.kind == .newline || t.isPunct(";") || t.isKeyword("do") || t.isPunct("{") || t.isPunct("|") && statementStart }
            // A block run on the main thread: record the dispatch call, not what it runs.
            if let inner = src.structure.blockAt[i], src.structure.blocks[inner].kind == .doBlock || src.structure.blocks[inner].kind == .brace {
                if runsOnMainThread(inner) {
                    i = src.structure.blocks[inner].close + 1
                    continue
                }
                for name in src.blockParameters(inner) { locals.insert(name) }
                i = src.bodyStart(inner)
                continue
            }
            if t.isKeyword("for") {
                var j = i + 1
                while j < close, !tokens[j].isKeyword("in"), tokens[j].kind != .newline {
                    if tokens[j].kind == .identifier { locals.insert(tokens[j].text) }
                    j += 1
                }
                i = j
                continue
            }
            if t.isPunct("=>"), i + 1 < close, tokens[i + 1].kind == .identifier,
               i + 2 >= close || tokens[i + 2].kind == .newline || tokens[i + 2].isPunct(";") || tokens[i + 2].isKeyword("then") {
                locals.insert(tokens[i + 1].text)  // rescue SomeError => e
                i += 2
                continue
            }
            if statementStart, t.kind == .identifier {
                // `a, b = …` declares locals.
                var j = i
                var names: [String] = []
                while j + 1 < close, tokens[j].kind == .identifier, tokens[j + 1].isPunct(",") {
                    names.append(tokens[j].text)
                    j += 2
                }
                if !names.isEmpty, j + 1 < close, tokens[j].kind == .identifier, tokens[j + 1].isPunct("=") {
                    names.append(tokens[j].text)
                    locals.formUnion(names)
                    i = j + 2
                    continue
                }
            }
            if t.kind == .identifier {
                let afterDot = i > 0 && (tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("&.") || tokens[i - 1].isPunct("::"))
                let setter = i + 1 < close && tokens[i + 1].isPunct("=")
                if afterDot {
                    let receiver = src.receiver(ofNameAt: i)
                    out.append(CallSite(receiver: receiver, receiverPath: receiver.map(RubyReceiver.segments) ?? [], name: t.text + (setter ? "=" : ""), location: location(i)))
                } else if i > 0, tokens[i - 1].isKeyword("def") || tokens[i - 1].isKeyword("alias") {
                    // a name being defined
                } else if src.isAssignment(i + 1) {
                    locals.insert(t.text)
                } else if !locals.contains(t.text) || (i + 1 < close && tokens[i + 1].isPunct("(") && !tokens[i + 1].spaceBefore) {
                    out.append(CallSite(receiver: nil, name: t.text, location: location(i)))
                }
            }
            i += 1
        }
        return out
    }
}

/// A call's receiver as the rules read it.
enum RubyReceiver {
    /// The parts of a receiver as written, split at `.`, `&.` and `::` outside brackets:
    /// `self.navigationController` → [self, navigationController]; argument lists are kept with their name.
    static func segments(_ receiver: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var iterator = Array(receiver).makeIterator()
        var pending: Character?
        while let c = pending ?? iterator.next() {
            pending = nil
            switch c {
            case "(", "[", "{": depth += 1; current.append(c)
            case ")", "]", "}": depth -= 1; current.append(c)
            case "." where depth == 0, "&" where depth == 0:
                if c == "&" {
                    let next = iterator.next()
                    if next != "." { current.append(c); pending = next; continue }
                }
                parts.append(current)
                current = ""
            case ":" where depth == 0:
                let next = iterator.next()
                if next == ":" { parts.append(current); current = "" } else { current.append(c); pending = next }
            default:
                current.append(c)
            }
        }
        parts.append(current)
        return parts.map { part in
            // `login(a, b)` → `login`, `items[0]` → `items`
            let name = part.prefix { $0 != "(" && $0 != "[" && $0 != " " }
            return String(name)
        }.filter { !$0.isEmpty }
    }
}
