import FlowModel
import Foundation

/// One line of a `@startuml` block after preprocessing: comments removed, variables substituted.
struct PlantUMLLine {
    /// 1-based line number in the file.
    var number: Int
    /// The text after preprocessing, trimmed.
    var text: String
    /// The line as written (for columns).
    var original: String

    /// The 1-based column (UTF-8) where `token` starts in the line as written, looking from column
    /// `start` on (so that the second name of `AB --> B` is not found inside the first), else
    /// anywhere in the line (a substituted variable is not in the line as written), else where the
    /// text starts.
    func column(of token: String? = nil, from start: Int = 1) -> Int {
        if let token, !token.isEmpty {
            let utf8 = original.utf8
            let offset = min(max(start - 1, 0), utf8.count)
            if let lower = String.Index(utf8.index(utf8.startIndex, offsetBy: offset), within: original),
               let range = original.range(of: token, range: lower..<original.endIndex) {
                return utf8.distance(from: utf8.startIndex, to: range.lowerBound) + 1
            }
            if let range = original.range(of: token) {
                return utf8.distance(from: utf8.startIndex, to: range.lowerBound) + 1
            }
        }
        let indent = original.prefix { $0 == " " || $0 == "\t" }
        return indent.utf8.count + 1
    }
}

/// One `@startuml` … `@enduml` block.
struct PlantUMLBlock {
    /// The line of `@startuml`.
    var start: Int
    /// The lines between the markers that survived preprocessing, in order.
    var lines: [PlantUMLLine]
}

/// The PlantUML preprocessor as FlowKit files use it, run over a whole file.
///
/// Supported: `!$var = value` and `!$var ?= value` (a string, a number, another variable,
/// `%getenv("NAME")`, joined with `+`), legacy `!define NAME [value]` / `!undef NAME`, `!if` /
/// `!elseif` / `!else` / `!endif` and `!ifdef` / `!ifndef` with `==`, `!=`, `<`, `>`, `<=`, `>=`,
/// `&&`, `||`, `!` and parentheses, the functions `%getenv`, `%not`, `%strlen`, `%upper`, `%lower`,
/// `%true`, `%false`, `%variable_exists`, and `$var` / `%getenv(...)` substituted in every line.
/// `!pragma` and `!theme` change only how PlantUML draws, so they are read and have no effect.
/// Any other directive (`!include`, `!procedure` …) is an `invalid-input` finding naming it:
/// FlowLens cannot know what it would add, and says so rather than ignore it.
///
/// `'` comment lines and `/' … '/` comments (on one line or several) are removed. Text outside
/// `@startuml` … `@enduml` (such as a `/* … */` licence header) is not PlantUML and is skipped.
/// Lines end with LF, CRLF or CR.
struct PlantUMLPreprocessor {
    let file: String
    let environment: [String: String]
    /// Variables by name: `$name` for `!$name = …`, the bare name for `!define`. Changed only by
    /// `setVariable`, which counts the defines.
    private(set) var variables: [String: String] = [:]
    /// How many of `variables` are `!define`d (no `$`): a line with no `$` or `%` is substituted only
    /// when there is one. Kept as a count, where asking the variables for each line made a file of
    /// thousands of variables quadratic.
    private var defines = 0
    var findings: [Finding] = []
    /// The names `%getenv` looked up, set or not: all of the environment the result depends on.
    var environmentNamesRead = Set<String>()
    /// Procedures and functions defined by unsupported directives, whose calls are skipped.
    private var unsupportedCalls = Set<String>()
    /// How deeply an expression may nest `(`, `!` and function calls.
    var maximumNesting = Limits.default.nesting
    /// The longest value a variable may hold, in characters: `!$a = $a + $a` on 64 lines would
    /// otherwise need 2^64 of them.
    static let maximumValueLength = 1 << 16

    init(file: String, environment: [String: String]) {
        self.file = file
        self.environment = environment
    }

    private struct Conditional {
        var line: Int
        /// Whether the enclosing text is read.
        var outerActive: Bool
        /// Whether a branch has been taken already.
        var taken: Bool
        /// Whether the current branch is read.
        var active: Bool
        var sawElse = false
    }

    /// Directives that open a block FlowLens does not support, and the directive that closes it.
    private static let unsupportedBlocks: [String: String] = [
        "procedure": "endprocedure", "function": "endfunction", "unquoted": "endprocedure",
        "while": "endwhile", "foreach": "endfor", "startsub": "endsub",
    ]

    mutating func blocks(_ text: String) -> [PlantUMLBlock] {
        var blocks: [PlantUMLBlock] = []
        var current: PlantUMLBlock?
        var conditionals: [Conditional] = []
        var inBlockComment = false
        var inCComment = false
        var skipUntil: String?  // the closing directive of an unsupported block
        // "\r\n" is one Character in Swift: splitting on "\n" alone would leave a CRLF file one line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        for (index, original) in lines.enumerated() {
            let number = index + 1
            // Outside a block only `@startuml` matters (and a C comment that might hide one).
            if current == nil {
                var rest = Substring(original)
                if inCComment {
                    guard let end = rest.range(of: "*/") else { continue }
                    inCComment = false
                    rest = rest[end.upperBound...]
                }
                let trimmed = rest.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("/*"), !trimmed.contains("*/") { inCComment = true; continue }
                if trimmed.lowercased().hasPrefix("@startuml") {
                    // A block inside a false `!if` is not read at all.
                    if conditionals.last?.active ?? true { current = PlantUMLBlock(start: number, lines: []) }
                    continue
                }
                // Preprocessor directives before `@startuml` still apply to the blocks after them.
                if !trimmed.hasPrefix("!") { continue }
            }
            // Comments.
            var line = original
            if inBlockComment {
                guard let end = line.range(of: "'/") else { continue }
                inBlockComment = false
                line = String(line[end.upperBound...])
            }
            // A line starting with `'` is a comment whatever follows, even a `/'`.
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("'") { continue }
            while let open = line.range(of: "/'") {
                if let close = line.range(of: "'/", range: open.upperBound..<line.endIndex) {
                    line.removeSubrange(open.lowerBound..<close.upperBound)
                } else {
                    line = String(line[..<open.lowerBound])
                    inBlockComment = true
                }
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("'") { continue }
            let location = SourceLocation(file: file, line: number, column: original.prefix { $0 == " " || $0 == "\t" }.utf8.count + 1)

            if let closing = skipUntil {
                if trimmed.hasPrefix("!") && directiveName(trimmed) == closing { skipUntil = nil }
                continue
            }
            let active = conditionals.last?.active ?? true

            if trimmed.lowercased().hasPrefix("@enduml") {
                guard active else { continue }
                if let block = current { blocks.append(block) }
                current = nil
                continue
            }
            if trimmed.lowercased().hasPrefix("@startuml") {
                guard active, let block = current else { continue }
                report("@startuml at line \(block.start) has no @enduml before the next @startuml", at: SourceLocation(file: file, line: block.start, column: 1))
                blocks.append(block)
                current = PlantUMLBlock(start: number, lines: [])
                continue
            }

            if trimmed.hasPrefix("!") {
                let name = directiveName(trimmed)
                let argument = String(trimmed.dropFirst(1 + name.count)).trimmingCharacters(in: .whitespaces)
                switch name {
                case "if", "ifdef", "ifndef":
                    var value = false
                    if active {
                        switch name {
                        case "if": value = truth(evaluate(argument, at: location))
                        case "ifdef": value = variables[argument] != nil
                        default: value = variables[argument] == nil
                        }
                    }
                    conditionals.append(Conditional(line: number, outerActive: active, taken: value, active: active && value))
                case "elseif":
                    guard var top = conditionals.popLast() else {
                        report("!elseif without an !if", at: location); continue
                    }
                    let value = top.outerActive && !top.taken && truth(evaluate(argument, at: location))
                    top.active = value
                    top.taken = top.taken || value
                    conditionals.append(top)
                case "else":
                    guard var top = conditionals.popLast() else {
                        report("!else without an !if", at: location); continue
                    }
                    if top.sawElse { report("a second !else for the !if at line \(top.line)", at: location) }
                    top.sawElse = true
                    top.active = top.outerActive && !top.taken
                    top.taken = true
                    conditionals.append(top)
                case "endif":
                    if conditionals.popLast() == nil { report("!endif without an !if", at: location) }
                default:
                    guard active else { continue }
                    if trimmed.hasPrefix("!$") || name == "local" || name == "global" {
                        assign(trimmed, at: location)
                    } else if name == "define" || name == "definelong" {
                        define(argument, at: location)
                    } else if name == "undef" {
                        setVariable(argument, to: nil)
                    } else if name == "pragma" || name == "theme" {
                        continue
                    } else {
                        report("unsupported PlantUML directive '!\(name)': FlowLens cannot know what it adds to the diagram", at: location)
                        if let closing = Self.unsupportedBlocks[name] {
                            skipUntil = closing
                            // Its calls are not reported again: the directive's finding says it all.
                            let called = argument.prefix { $0 != "(" && $0 != " " }
                            if !called.isEmpty { unsupportedCalls.insert(String(called)) }
                        }
                    }
                }
                continue
            }
            guard active, current != nil else { continue }
            if unsupportedCalls.contains(where: { trimmed.hasPrefix($0 + "(") }) { continue }
            let text = substitute(trimmed, at: location).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            current!.lines.append(PlantUMLLine(number: number, text: text, original: original))
        }
        for open in conditionals {
            report("!if at line \(open.line) has no !endif", at: SourceLocation(file: file, line: open.line, column: 1))
        }
        if let block = current {
            report("@startuml at line \(block.start) has no @enduml", at: SourceLocation(file: file, line: block.start, column: 1))
            blocks.append(block)
        }
        return blocks
    }

    private mutating func report(_ message: String, at location: SourceLocation) {
        findings.append(.invalidInput(message, at: location))
    }

    private func directiveName(_ line: String) -> String {
        let body = line.dropFirst()
        if body.hasPrefix("$") { return "$" }
        return String(body.prefix { $0.isLetter || $0.isNumber || $0 == "_" }).lowercased()
    }

    // MARK: - Variables

    /// `!$name = value`, `!$name ?= value` (only when not set), `!local $name = value`.
    private mutating func assign(_ line: String, at location: SourceLocation) {
        var body = Substring(line.dropFirst())
        for prefix in ["local ", "global "] where body.hasPrefix(prefix) {
            body = body.dropFirst(prefix.count).drop { $0 == " " }
        }
        let name = String(body.prefix { $0 == "$" || $0.isLetter || $0.isNumber || $0 == "_" })
        var rest = body.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        var onlyIfUnset = false
        if rest.hasPrefix("?=") { onlyIfUnset = true; rest = rest.dropFirst(2) } else if rest.hasPrefix("=") { rest = rest.dropFirst() } else {
            report("expected '=' after \(name) in a PlantUML variable assignment", at: location)
            return
        }
        guard name.count > 1 else { report("a PlantUML variable needs a name after '$'", at: location); return }
        if onlyIfUnset && variables[name] != nil { return }
        let value = evaluate(String(rest).trimmingCharacters(in: .whitespaces), at: location)
        guard value.utf8.count <= Self.maximumValueLength else {
            report("the value of \(name) is longer than \(Self.maximumValueLength) bytes", at: location)
            setVariable(name, to: "")
            return
        }
        setVariable(name, to: value)
    }

    /// Sets the variable `name`, or with nil removes it.
    private mutating func setVariable(_ name: String, to value: String?) {
        let existed = value.map { variables.updateValue($0, forKey: name) != nil } ?? (variables.removeValue(forKey: name) != nil)
        guard !name.hasPrefix("$") else { return }
        if value != nil, !existed { defines += 1 }
        if value == nil, existed { defines -= 1 }
    }

    /// `!define NAME value`: NAME is replaced by value wherever it appears as a word.
    private mutating func define(_ argument: String, at location: SourceLocation) {
        let name = String(argument.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard !name.isEmpty else { report("!define needs a name", at: location); return }
        if argument.dropFirst(name.count).hasPrefix("(") {
            report("unsupported PlantUML directive '!define' with parameters (a macro): FlowLens cannot know what it adds to the diagram", at: location)
            return
        }
        setVariable(name, to: String(argument.dropFirst(name.count)).trimmingCharacters(in: .whitespaces))
    }

    /// `$name`, legacy defines and `%getenv("NAME")` replaced in a line.
    mutating func substitute(_ line: String, at location: SourceLocation) -> String {
        guard line.contains("$") || line.contains("%") || defines > 0 else { return line }
        var out = ""
        var i = line.startIndex
        while i < line.endIndex {
            // Each variable is bounded, but a line may use many: bound the line too.
            guard out.utf8.count <= Self.maximumValueLength else {
                report("the line is longer than \(Self.maximumValueLength) bytes once its variables are substituted", at: location)
                return ""
            }
            let c = line[i]
            if c == "$" || c == "%" {
                let nameEnd = line[line.index(after: i)...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? line.endIndex
                let name = String(line[i..<nameEnd])
                if c == "$", let value = variables[name] {
                    out += value
                    i = nameEnd
                    continue
                }
                if c == "%", nameEnd < line.endIndex, line[nameEnd] == "(", let close = matchingParen(line, from: nameEnd) {
                    out += evaluate(String(line[i...close]), at: location)
                    i = line.index(after: close)
                    continue
                }
                out.append(c)
                i = line.index(after: i)
            } else if c.isLetter || c == "_" {
                let end = line[i...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? line.endIndex
                let word = String(line[i..<end])
                out += variables[word] ?? word
                i = end
            } else {
                out.append(c)
                i = line.index(after: i)
            }
        }
        return out
    }

    private func matchingParen(_ text: String, from open: String.Index) -> String.Index? {
        var depth = 0
        var quote: Character?
        var i = open
        while i < text.endIndex {
            let c = text[i]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == "(" { depth += 1 } else if c == ")" {
                depth -= 1
                if depth == 0 { return i }
            }
            i = text.index(after: i)
        }
        return nil
    }

    // MARK: - Expressions

    private enum Token: Equatable {
        case value(String)
        case op(String)
        case function(String)
    }

    private mutating func tokens(_ text: String, at location: SourceLocation) -> [Token]? {
        var tokens: [Token] = []
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == " " || c == "\t" { i = text.index(after: i); continue }
            if c == "\"" || c == "'" {
                guard let close = text[text.index(after: i)...].firstIndex(of: c) else {
                    report("unterminated string in a PlantUML expression: \(text)", at: location)
                    return nil
                }
                tokens.append(.value(String(text[text.index(after: i)..<close])))
                i = text.index(after: close)
                continue
            }
            let two = text[i...].prefix(2)
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                tokens.append(.op(String(two)))
                i = text.index(i, offsetBy: 2)
                continue
            }
            if "()!<>,+".contains(c) {
                tokens.append(.op(String(c)))
                i = text.index(after: i)
                continue
            }
            if c == "$" || c == "%" || c.isLetter || c.isNumber || c == "_" || c == "-" || c == "." {
                let end = text[text.index(after: i)...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? text.endIndex
                let word = String(text[i..<end])
                if c == "%" { tokens.append(.function(String(word.dropFirst()).lowercased())) } else if c == "$" {
                    tokens.append(.value(variables[word] ?? ""))
                } else {
                    tokens.append(.value(variables[word] ?? word))
                }
                i = end
                continue
            }
            report("unexpected '\(c)' in a PlantUML expression: \(text)", at: location)
            return nil
        }
        return tokens
    }

    /// The value of a PlantUML expression, as a string (numbers are strings of digits).
    mutating func evaluate(_ text: String, at location: SourceLocation) -> String {
        guard let tokens = tokens(text, at: location) else { return "" }
        var parser = ExpressionParser(tokens: tokens, environment: environment, variables: variables, maximumDepth: maximumNesting)
        let value = parser.parseOr()
        environmentNamesRead.formUnion(parser.environmentNamesRead)
        if let problem = parser.problem ?? (parser.position < tokens.count ? "unexpected text after the expression" : nil) {
            // Quoted in part: a hostile expression can be megabytes long.
            let shown = text.count > 80 ? String(text.prefix(77)) + "..." : text
            report("cannot evaluate PlantUML expression '\(shown)': \(problem)", at: location)
        }
        return value
    }

    func truth(_ value: String) -> Bool { !(value.isEmpty || value == "0" || value == "false") }

    private struct ExpressionParser {
        let tokens: [Token]
        let environment: [String: String]
        let variables: [String: String]
        var position = 0
        var problem: String?
        var environmentNamesRead = Set<String>()
        /// Recursive descent: the nesting of `(`, `!` and calls is bounded so that no input can
        /// overflow the stack.
        let maximumDepth: Int
        private var depth = 0

        init(tokens: [Token], environment: [String: String], variables: [String: String], maximumDepth: Int) {
            self.tokens = tokens
            self.environment = environment
            self.variables = variables
            self.maximumDepth = maximumDepth
        }

        /// Enters one level of nesting; false (with the problem set and the rest of the tokens skipped)
        /// past the limit.
        private mutating func enter() -> Bool {
            depth += 1
            guard depth > maximumDepth else { return true }
            problem = problem ?? "nested deeper than \(maximumDepth) levels"
            position = tokens.count
            return false
        }

        private var next: Token? { position < tokens.count ? tokens[position] : nil }
        private mutating func take(_ op: String) -> Bool {
            if next == .op(op) { position += 1; return true }
            return false
        }
        private func truth(_ v: String) -> Bool { !(v.isEmpty || v == "0" || v == "false") }

        mutating func parseOr() -> String {
            var left = parseAnd()
            while take("||") { let right = parseAnd(); left = truth(left) || truth(right) ? "1" : "0" }
            return left
        }

        mutating func parseAnd() -> String {
            var left = parseComparison()
            while take("&&") { let right = parseComparison(); left = truth(left) && truth(right) ? "1" : "0" }
            return left
        }

        mutating func parseComparison() -> String {
            let left = parseSum()
            for op in ["==", "!=", "<=", ">=", "<", ">"] where take(op) {
                let right = parseSum()
                switch op {
                case "==": return left == right ? "1" : "0"
                case "!=": return left != right ? "1" : "0"
                default:
                    let ordered: Bool
                    if let l = Int(left), let r = Int(right) {
                        ordered = op == "<" ? l < r : op == ">" ? l > r : op == "<=" ? l <= r : l >= r
                    } else {
                        ordered = op == "<" ? left < right : op == ">" ? left > right : op == "<=" ? left <= right : left >= right
                    }
                    return ordered ? "1" : "0"
                }
            }
            return left
        }

        mutating func parseSum() -> String {
            var left = parseUnary()
            while take("+") {
                let right = parseUnary()
                if let l = Int(left), let r = Int(right) {
                    // Overflow concatenates, as for non-numbers, instead of trapping.
                    let (sum, overflow) = l.addingReportingOverflow(r)
                    left = overflow ? left + right : String(sum)
                } else {
                    left += right
                }
            }
            return left
        }

        mutating func parseUnary() -> String {
            guard enter() else { return "" }
            defer { depth -= 1 }
            if take("!") { return truth(parseUnary()) ? "0" : "1" }
            return parsePrimary()
        }

        mutating func parsePrimary() -> String {
            guard let token = next else { problem = problem ?? "an operand is missing"; return "" }
            position += 1
            switch token {
            case let .value(v): return v
            case .op("("):
                let v = parseOr()
                if !take(")") { problem = problem ?? "a ')' is missing" }
                return v
            case let .function(name):
                var arguments: [String] = []
                guard take("(") else { problem = problem ?? "%\(name) needs '(' and ')'"; return "" }
                if !take(")") {
                    repeat { arguments.append(parseOr()) } while take(",")
                    if !take(")") { problem = problem ?? "a ')' is missing after the arguments of %\(name)" }
                }
                let first = arguments.first ?? ""
                switch name {
                case "getenv":
                    environmentNamesRead.insert(first)
                    return environment[first] ?? ""
                case "not": return truth(first) ? "0" : "1"
                case "strlen": return String(first.count)
                case "upper": return first.uppercased()
                case "lower": return first.lowercased()
                case "true": return "1"
                case "false": return "0"
                case "variable_exists":
                    return variables[first] != nil || variables["$" + first] != nil ? "1" : "0"
                default:
                    problem = problem ?? "unsupported function %\(name)"
                    return ""
                }
            case let .op(op):
                problem = problem ?? "unexpected '\(op)'"
                return ""
            }
        }
    }
}
