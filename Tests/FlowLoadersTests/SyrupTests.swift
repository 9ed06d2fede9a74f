import FlowModel
import Foundation
import Testing
@testable import FlowLoaders
import FlowRules

// IR-level tests of the Syrup reader (`Sources/FlowLoaders/Syrup`): which steps, transitions, ends and
// entries it reads from a `Progression`. Fixtures are in memory; locations are found in the fixture
// text (`at(text, "needle")` is where `needle` starts: 1-based line, UTF-8 column), so every
// location assertion is exact.

// MARK: - Helpers

/// The Syrup flows of one in-memory file `P.swift`.
private func progressions(_ text: String, file: String = "P.swift") -> [Flow] {
    load([(name: file, text: text)]).flows.filter { $0.kind == .syrup }
}

/// The one Syrup flow of `text`.
private func progression(_ text: String, file: String = "P.swift") throws -> Flow {
    let flows = progressions(text, file: file)
    try #require(flows.count == 1, "flows: \(flows.map(\.id))")
    return flows[0]
}

/// Where the `occurrence`-th `needle` starts in `text` (1-based line and UTF-8 column).
private func at(_ text: String, _ needle: String, _ occurrence: Int = 1, file: String = "P.swift") -> FlowModel.SourceLocation {
    location(of: needle, in: text, occurrence: occurrence, file: file)
}

/// Each transition as `from -> to (label)`, with ` !error` for error transitions.
private func edges(_ flow: Flow) -> [String] {
    flow.transitions.map { transition in
        var text = "\(transition.from) -> \(transition.to)"
        if let label = transition.label { text += " (\(label))" }
        if transition.kind != .normal { text += " !\(transition.kind.rawValue)" }
        return text
    }
}

private func transition(_ flow: Flow, _ from: String, _ to: String, label: String? = nil) -> Transition? {
    flow.transitions.first { $0.from == from && $0.to == to && (label == nil || $0.label == label) }
}

private func steps(_ flow: Flow) -> [String] {
    flow.steps.map { "\($0.id) \($0.kind.rawValue)\($0.terminal ? " terminal" : "")" }
}

// MARK: - Fixtures

/// The README's HTTP request, with one more case sharing a declaration, a sync step and a throw.
private let fetch = """
    import Foundation
    import Syrup

    enum Fetch: Progression {
        typealias Result = (response: HTTPURLResponse, body: Data?)

        case get(url: URL)
        case post(url: URL, body: Data), head(URL)
        case success(Result)

        mutating func updateOrDeferNext() -> Deferred<Fetch>? {
            switch self {
            case let .get(url):
                return Deferred.future { resolve in
                    URLSession.shared.dataTask(with: url) { data, response, error in
                        if let error = error {
                            resolve { throw error }
                        } else {
                            resolve { .success((response: response as! HTTPURLResponse, body: data)) }
                        }
                    }.resume()
                }
            case let .post(url, _):
                self = .head(url)
            case .head:
                throw FetchError.unsupported
            case .success:
                return nil
            }
        }

        var result: Result? {
            guard case let .success(result) = self else { return nil }
            return result
        }
    }
    """

// MARK: - Steps

@Suite("Syrup reader: steps")
struct SyrupStepTests {
    @Test("one flow per enum conforming to Progression, named after the type; cases are state steps with their associated values")
    func casesAreSteps() throws {
        let flow = try progression(fetch)
        #expect(flow.id == "Fetch")
        #expect(flow.name == "Fetch")
        #expect(flow.kind == .syrup)
        #expect(flow.location == at(fetch, "Fetch: Progression"))
        #expect(flow.outputType == TypeName("(response: HTTPURLResponse, body: Data?)"))
        #expect(flow.limitations == [])
        #expect(steps(flow) == ["get state", "post state", "head state", "success state terminal", "throws fail"])
        #expect(flow.steps.map(\.details) == [["url: URL"], ["url: URL", "body: Data"], ["URL"], ["Result"], []])
        #expect(flow.steps.map(\.location) == [at(fetch, "get(url"), at(fetch, "post(url"), at(fetch, "head(URL)"),
                                               at(fetch, "success(Result)"), at(fetch, "throw error")])
        #expect(flow.steps.last?.name == "thrown error")
    }

    @Test("details: `_ name: T` shows the name, defaults are left out, multi-line types are joined")
    func details() throws {
        let text = """
            enum P: Progression {
                case a(_ count: Int, label: String = "x")
                case b([String:
                          Int])
                case done
                mutating func updateOrDeferNext() -> Deferred<P>? {
                    switch self {
                    case .a: self = .b([:])
                    case .b: self = .done
                    case .done: return nil
                    }
                }
                var result: Bool? { if case .done = self { true } else { nil } }
            }
            """
        let flow = try progression(text)
        #expect(flow.steps.map(\.details) == [["count: Int", "label: String"], ["[String: Int]"], []])
        #expect(flow.outputType == TypeName("Bool"))
    }

    @Test("types that do not conform to Progression are not read; the conformance may be on an extension in another file")
    func conformance() throws {
        let graph = load([(name: "A.swift", text: """
            enum NotAProgression { case a, b }
            enum Steps {
                case start
                case done
            }
            """), (name: "B.swift", text: """
            extension Steps: Syrup.Progression {
                mutating func updateOrDeferNext() throws -> Deferred<Steps>? {
                    switch self {
                    case .start: self = .done
                    case .done: break
                    }
                    return nil
                }
                var result: Void? { guard case .done = self else { return nil }; return () }
            }
            """)])
        let flows = graph.flows.filter { $0.kind == .syrup }
        #expect(flows.map(\.id) == ["Steps"])
        #expect(flows.first.map(edges) == ["start -> done"])
        #expect(flows.first?.location == FlowModel.SourceLocation(file: "A.swift", line: 2, column: 6))
        #expect(flows.first?.transitions.first?.location == FlowModel.SourceLocation(file: "B.swift", line: 4, column: 29))
    }

    @Test("a nested progression is named by its path; an extension of the path is joined to it")
    func nested() throws {
        let text = """
            enum Import {
                enum Stage: Progression {
                    case start, done
                }
            }
            extension Import.Stage {
                mutating func updateOrDeferNext() -> Deferred<Import.Stage>? {
                    switch self {
                    case .start: return Deferred { Import.Stage.done }
                    case .done: return nil
                    }
                }
                var result: Int? { self == .done ? 1 : nil }
            }
            """
        let flow = try progression(text)
        #expect(flow.id == "Import.Stage")
        #expect(edges(flow) == ["start -> done (async)"])
    }
}

// MARK: - Transitions

@Suite("Syrup reader: transitions")
struct SyrupTransitionTests {
    @Test("`self = .x(...)` is a sync transition without a label, at the case reference")
    func sync() throws {
        let flow = try progression(fetch)
        let found = try #require(transition(flow, "post", "head"))
        #expect(found.label == nil)
        #expect(found.kind == .normal)
        #expect(found.condition == nil)
        #expect(found.location == at(fetch, ".head(url)"))
    }

    @Test("`return Deferred.future { resolve in ... resolve { .x } }` is an async transition, found inside nested callbacks")
    func future() throws {
        let flow = try progression(fetch)
        #expect(edges(flow) == ["get -> success (async)", "get -> throws (throws) !error", "post -> head", "head -> throws (throws) !error"])
        #expect(transition(flow, "get", "success")?.location == at(fetch, ".success((response"))
    }

    @Test("`throw` and `resolve { throw }` are error transitions to the one fail step, at the throw")
    func errors() throws {
        let flow = try progression(fetch)
        #expect(transition(flow, "get", "throws")?.location == at(fetch, "throw error"))
        #expect(transition(flow, "get", "throws")?.kind == .error)
        #expect(transition(flow, "head", "throws")?.location == at(fetch, "throw FetchError"))
        #expect(flow.steps.filter { $0.kind == .fail }.map(\.id) == ["throws"])
    }

    @Test("`try` throws too, unless it is `try?`/`try!` or inside a `do` with a `catch`; one error transition per case")
    func tryForms() throws {
        let text = """
            enum P: Progression {
                case a(Data), b, c, d, done
                mutating func updateOrDeferNext() throws -> Deferred<P>? {
                    switch self {
                    case let .a(data):
                        let object = try JSONSerialization.jsonObject(with: data)
                        self = .b
                        _ = try decode(object)
                    case .b:
                        self = (try? check()) == true ? .c : .d
                    case .c:
                        do {
                            try check()
                            self = .done
                        } catch {
                            self = .d
                        }
                    case .d:
                        _ = try! check()
                        self = .done
                    case .done:
                        break
                    }
                    return nil
                }
                var result: Bool? { guard case .done = self else { return nil }; return true }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["a -> b", "a -> throws (throws) !error", "b -> c", "b -> d", "c -> done", "c -> d", "d -> done"])
        #expect(transition(flow, "a", "throws")?.location == at(text, "try JSONSerialization"))
    }

    @Test("`return .future {}` shorthand, `Deferred { .x }`, `.unit { }`, `Deferred(throwing:)`, `Self.x` and `Type.x` references")
    func deferredForms() throws {
        let text = """
            enum Job: Progression {
                case a, b, c, d, e, done
                mutating func updateOrDeferNext() throws -> Deferred<Self>? {
                    switch self {
                    case .a:
                        return .future { complete in
                            queue.async { complete { Self.b } }
                        }
                    case .b:
                        return Deferred { try step(); return Job.c }
                    case .c:
                        return .unit({ .d })
                    case .d:
                        return Deferred<Job>(throwing: JobError.gone)
                    case .e:
                        return Deferred<Job>.future { $0 { .done } }
                    case .done:
                        return nil
                    }
                }
                var result: Bool? { switch self { case .done: return true; default: return nil } }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["a -> b (async)", "b -> c (async)", "b -> throws (throws) !error", "c -> d (async)",
                                "d -> throws (throws) !error", "e -> done (async)"])
        #expect(transition(flow, "a", "b")?.location == at(text, "Self.b"))
        #expect(transition(flow, "b", "throws")?.location == at(text, "try step()"))
        #expect(transition(flow, "d", "throws")?.location == at(text, "Deferred<Job>(throwing"))
        #expect(flow.entries == ["a", "e"])
    }

    @Test("in a future, only what is passed to the resolver counts: other case-like names and patterns do not")
    func futureIgnoresOtherReferences() throws {
        let text = """
            enum Pay: Progression {
                case start, declined, paid
                mutating func updateOrDeferNext() -> Deferred<Pay>? {
                    switch self {
                    case .start:
                        return .future { resolve in
                            let fallback: Pay = .declined
                            service.charge { outcome in
                                switch outcome {
                                case .declined: resolve { .declined }
                                case .paid: resolve { .paid }
                                }
                            }
                        }
                    case .declined, .paid:
                        return nil
                    }
                }
                var result: Bool? {
                    switch self {
                    case .declined: return false
                    case .paid: return true
                    case .start: return nil
                    }
                }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["start -> declined (async)", "start -> paid (async)"])
        #expect(transition(flow, "start", "declined")?.location == at(text, ".declined }"))
    }

    @Test("compose: the case becomes a subflow step naming the sub-progression; mapNext and mapResult are its transitions")
    func compose() throws {
        let text = """
            enum Load: Progression {
                /// Initial stages
                case open(fileURL: URL)
                /// Intermediate stages
                case read(access: FileAccess)
                case parse(Data)
                /// Completed
                case loaded(Any)

                mutating func updateOrDeferNext() throws -> Deferred<Load>? {
                    switch self {
                    case let .open(fileURL):
                        self = .read(access: FileAccess(fileURL: fileURL))
                    case let .read(access):
                        return compose(access,
                            mapNext: Load.read,
                            flatMapResult: { granted in
                                return Deferred { Load.parse(try Data(contentsOf: granted.fileURL)) }
                            }
                        )
                    case let .parse(data):
                        self = .loaded(try JSONSerialization.jsonObject(with: data))
                    case .loaded:
                        break
                    }
                    return nil
                }

                var result: Any? {
                    guard case let .loaded(object) = self else { return nil }
                    return object
                }
            }

            struct FileAccess: Progression {
                let fileURL: URL
                var done = false
                mutating func updateOrDeferNext() throws -> Deferred<FileAccess>? { done = true; return nil }
                var result: FileAccess? { done ? self : nil }
            }
            """
        let flows = progressions(text)
        #expect(flows.map(\.id) == ["Load", "FileAccess"])
        let flow = try #require(flows.first)
        let read = try #require(flow.step("read"))
        #expect(read.kind == .subflow)
        #expect(read.subflow == "FileAccess")
        #expect(read.details == ["access: FileAccess"])
        #expect(edges(flow) == ["open -> read", "read -> read (while FileAccess runs)", "read -> parse (when FileAccess finishes)",
                                "read -> throws (throws) !error", "parse -> loaded", "parse -> throws (throws) !error"])
        #expect(transition(flow, "read", "read")?.location == at(text, "Load.read,"))
        #expect(transition(flow, "read", "parse")?.location == at(text, "Load.parse("))
        #expect(transition(flow, "read", "throws")?.location == at(text, "try Data("))
    }

    @Test("compose: the sub-progression's type from an initializer, another progression's case, a local, or `self.compose`")
    func composeTypes() throws {
        let text = """
            enum Chain: Progression {
                case a, b, c(Sub), d, done
                mutating func updateOrDeferNext() -> Deferred<Chain>? {
                    switch self {
                    case .a:
                        return compose(Remote.fetch(id: 1), mapNext: { _ in .a }, mapResult: { _ in .b })
                    case .b:
                        let sub = Other<Int>(seed: 2)
                        return self.compose(sub, mapNext: { _ in Chain.b }) { _ in .d }
                    case .c(let sub):
                        return compose(sub, mapNext: Chain.c, mapResult: { _ in .d })
                    case .d:
                        return compose(makeSomething(), mapNext: { _ in .d }, mapResult: { _ in .done })
                    case .done:
                        return nil
                    }
                }
                var result: Bool? { if case .done = self { return true }; return nil }
            }
            """
        let flow = try progression(text)
        #expect(flow.steps.map(\.subflow) == ["Remote", "Other", "Sub", nil, nil])
        #expect(flow.steps.map(\.kind) == [.subflow, .subflow, .subflow, .subflow, .state])
        #expect(edges(flow) == ["a -> a (while Remote runs)", "a -> b (when Remote finishes)",
                                "b -> b (while Other runs)", "b -> d (when Other finishes)",
                                "c -> c (while Sub runs)", "c -> d (when Sub finishes)",
                                "d -> d (while the sub-progression runs)", "d -> done (when the sub-progression finishes)"])
    }

    @Test("a sub-progression that is among the sources read is named by its flow id (a nested path)")
    func composeResolvesNestedPath() throws {
        let text = """
            enum Outer {
                enum Inner: Progression {
                    case x, y
                    mutating func updateOrDeferNext() -> Deferred<Inner>? {
                        switch self { case .x: self = .y; case .y: break }
                        return nil
                    }
                    var result: Int? { guard case .y = self else { return nil }; return 1 }
                }
            }
            enum Host: Progression {
                case run(Outer.Inner), done
                mutating func updateOrDeferNext() -> Deferred<Host>? {
                    switch self {
                    case let .run(inner): return compose(inner, mapNext: Host.run, mapResult: { _ in .done })
                    case .done: return nil
                    }
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """
        let flows = progressions(text)
        #expect(flows.map(\.id) == ["Outer.Inner", "Host"])
        #expect(flows.last?.step("run")?.subflow == "Outer.Inner")
    }

    @Test("shared branches, bindings in every form, `default:`, nested ifs, ternaries, guard-else, if/switch expressions")
    func variations() throws {
        let text = """
            enum Import: Progression {
                case file(URL), camera(URL), web(URL, retries: Int)
                case decode(Data, source: URL?)
                case thumbnail(Image)
                case imported(Image), skipped(String)

                mutating func updateOrDeferNext() throws -> Deferred<Import>? {
                    switch self {
                    case let .file(url), let .camera(url):
                        self = .decode(try Data(contentsOf: url), source: url)
                    case .web(let url, let retries):
                        if retries > 0 {
                            if offline {
                                self = retries > 1 ? .web(url, retries: retries - 1) : .skipped("offline")
                            } else {
                                self = .decode(download(url), source: url)
                            }
                        } else {
                            self = .skipped("gave up")
                        }
                    case .decode(let data, _):
                        guard let image = Image(data: data) else {
                            self = .skipped("not an image")
                            return nil
                        }
                        self = .thumbnail(image)
                    case .thumbnail(let image):
                        self = if image.isSmall {
                            .imported(image)
                        } else {
                            switch mode {
                            case .fast: .imported(image.scaled)
                            default: .skipped("large")
                            }
                        }
                    default:
                        return nil
                    }
                    return nil
                }

                var result: Image? {
                    switch self {
                    case let .imported(image): return image
                    case .skipped: return Image.placeholder
                    default: return nil
                    }
                }
            }
            """
        let flow = try progression(text)
        #expect(steps(flow) == ["file state", "camera state", "web state", "decode state", "thumbnail state",
                                "imported state terminal", "skipped state terminal", "throws fail"])
        #expect(edges(flow) == [
            "file -> decode", "file -> throws (throws) !error",
            "camera -> decode", "camera -> throws (throws) !error",
            "web -> web", "web -> skipped", "web -> decode",
            "decode -> skipped", "decode -> thumbnail",
            "thumbnail -> imported", "thumbnail -> skipped",
        ])
        // `.web` is led to only by its own retry: it is an entry too.
        #expect(flow.entries == ["file", "camera", "web"])
        #expect(flow.step("web")?.details == ["URL", "retries: Int"])
    }

    @Test("an `if case ... = self` chain instead of a switch; its final else covers the other cases")
    func ifCaseChain() throws {
        let text = """
            enum Wait: Progression {
                case idle, ready(Int), done
                mutating func updateOrDeferNext() -> Deferred<Wait>? {
                    if case .idle = self {
                        self = .ready(1)
                    } else if case let .ready(n) = self {
                        return .future { resolve in resolve { .done } }
                    } else {
                        return nil
                    }
                    return nil
                }
                var result: Void? { if case .done = self { return () } else { return nil } }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["idle -> ready", "ready -> done (async)"])
        #expect(flow.entries == ["idle"])
    }

    @Test("a terminal case's branch never runs (Syrup asks `result` first): its transitions are left out")
    func terminalBranchesDoNotRun() throws {
        let text = """
            enum Loop: Progression {
                case start, middle, done
                mutating func updateOrDeferNext() -> Deferred<Loop>? {
                    switch self {
                    case .start: self = .done
                    case .done: self = .middle
                    case .middle: self = .done
                    }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 0 }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["start -> done", "middle -> done"])
        #expect(flow.entries == ["start", "middle"])
    }

    @Test("`self = <something unreadable>` and an unreadable Deferred are limitations, not guesses")
    func unreadableNextCase() throws {
        let text = """
            enum Odd: Progression {
                case a, b, done
                mutating func updateOrDeferNext() -> Deferred<Odd>? {
                    switch self {
                    case .a: self = Odd.next(after: self)
                    case .b: return makeDeferred()
                    case .done: return nil
                    }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 0 }
            }
            """
        let flow = try progression(text)
        #expect(flow.transitions == [])
        #expect(flow.limitations == [
            Limitation(message: "case 'a' of Odd assigns self a value whose case cannot be read from the source", location: at(text, "self = Odd")),
            Limitation(message: "case 'b' of Odd returns a Deferred whose next case cannot be read from the source", location: at(text, "case .b:")),
        ])
    }
}

// MARK: - Ends, entries, staying put

@Suite("Syrup reader: terminal and initial cases")
struct SyrupTerminalInitialTests {
    /// A progression whose `result` getter is `body`, with cases a, b, c and a branch for each.
    private func terminal(_ body: String) throws -> [String] {
        let flow = try progression("""
            enum T: Progression {
                case a(Int), b(Int), c
                mutating func updateOrDeferNext() -> Deferred<T>? {
                    switch self {
                    case .a: self = .b(1)
                    case .b: self = .c
                    case .c: self = .a(0)
                    }
                    return nil
                }
                var result: Int? {
                    \(body)
                }
            }
            """)
        return flow.steps.filter(\.terminal).map(\.id)
    }

    @Test("guard case / if case / switch / default / `self ==` / implicit returns mark the cases result returns a value for")
    func resultForms() throws {
        #expect(try terminal("guard case let .b(n) = self else { return nil }\nreturn n") == ["b"])
        #expect(try terminal("if case let .a(n) = self { return n }\nreturn nil") == ["a"])
        #expect(try terminal("if case .a(let n) = self { return n } else if case .c = self { return 0 } else { return nil }") == ["a", "c"])
        #expect(try terminal("switch self {\ncase let .a(n), let .b(n): return n\ndefault: return nil\n}") == ["a", "b"])
        #expect(try terminal("switch self {\ncase .c: return nil\ndefault: return 1\n}") == ["a", "b"])
        #expect(try terminal("self == .c ? 1 : nil") == ["c"])
        #expect(try terminal("return self == .c ? nil : 2") == ["a", "b"])
        #expect(try terminal("if self == .c { return 3 }\nreturn nil") == ["c"])
        #expect(try terminal("if case .b = self { 2 } else { nil }") == ["b"])
        #expect(try terminal("get { guard case .c = self else { return nil }; return 1 }") == ["c"])
        #expect(try terminal("guard ready, case let .a(n) = self else { return nil }\nreturn n") == ["a"])
    }

    @Test("a result that does not test self cannot say which cases end: a limitation, and cases whose branch does nothing are the ends")
    func unreadableResult() throws {
        let text = """
            enum U: Progression {
                case a, b
                mutating func updateOrDeferNext() -> Deferred<U>? {
                    switch self {
                    case .a: self = .b
                    case .b: return nil
                    }
                    return nil
                }
                var result: Int? { cached }
            }
            """
        let flow = try progression(text)
        #expect(steps(flow) == ["a state", "b state terminal"])
        #expect(edges(flow) == ["a -> b"])
        #expect(flow.limitations == [Limitation(
            message: "the result of U cannot be read from the source: the cases whose branch does nothing are taken as its ends",
            location: at(text, "result: Int?"))])
    }

    @Test("initial: a doc comment containing 'initial' marks the cases after it, until another doc comment")
    func initialMarks() throws {
        let text = """
            enum M: Progression {
                case legacy
                /// Initial stages: start here.
                case fromFile(URL)
                case fromData(Data)
                /** The work */
                case work
                // A plain comment does not end the marking, and neither starts it.
                case more
                /// INITIAL too
                indirect case resume(M)
                case done
                mutating func updateOrDeferNext() -> Deferred<M>? {
                    switch self {
                    case .legacy, .fromFile, .fromData, .resume: self = .work
                    case .work: self = .more
                    case .more: self = .done
                    case .done: return nil
                    }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """
        let flow = try progression(text)
        #expect(flow.entries == ["fromFile", "fromData", "resume", "done"])
    }

    @Test("initial without marks: the cases no other case leads to (a case staying put still counts); the first case when every case is led to")
    func initialByReachability() throws {
        let unmarked = try progression("""
            enum N: Progression {
                case a, b, c, waiting, done
                mutating func updateOrDeferNext() -> Deferred<N>? {
                    switch self {
                    case .a, .b: self = .c
                    case .c: self = .done
                    case .waiting: return nil
                    case .done: return nil
                    }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """)
        #expect(unmarked.entries == ["a", "b", "waiting"])
        let cycle = try progression("""
            enum Cycle: Progression {
                case x, y
                mutating func updateOrDeferNext() -> Deferred<Cycle>? {
                    switch self { case .x: self = .y; case .y: self = .x }
                    return nil
                }
                var result: Int? { nil }
            }
            """)
        #expect(cycle.entries == ["x"])
    }

    @Test("a non-terminal case whose branch neither changes self, defers nor throws stays: a transition to itself labelled 'stays', at its branch")
    func stays() throws {
        let text = """
            enum S: Progression {
                case start, waiting, done, crash
                mutating func updateOrDeferNext() -> Deferred<S>? {
                    switch self {
                    case .start:
                        self = .waiting
                    case .waiting:
                        if isReady { print("ready") }
                        return nil
                    case .crash:
                        fatalError("no way on")
                    case .done:
                        break
                    }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["start -> waiting", "waiting -> waiting (stays)"])
        #expect(transition(flow, "waiting", "waiting")?.location == at(text, "case .waiting:"))
        // `.crash` never returns: no way on at all (dead-end), not staying put. `.done` is an end.
        #expect(flow.transitions.filter { $0.from == "crash" || $0.from == "done" } == [])
    }

    @Test("a case no branch handles stays, located at the case")
    func unhandledCaseStays() throws {
        let text = """
            enum H: Progression {
                case a, b, done
                mutating func updateOrDeferNext() -> Deferred<H>? {
                    if case .a = self { self = .done }
                    return nil
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """
        let flow = try progression(text)
        #expect(edges(flow) == ["a -> done", "b -> b (stays)"])
        #expect(transition(flow, "b", "b")?.location == at(text, "b, done"))
    }
}

// MARK: - Progressions that cannot be read

@Suite("Syrup reader: progressions driven by flags")
struct SyrupOpaqueTests {
    @Test("a struct progression is one step (an end) with its stored properties, and a limitation at updateOrDeferNext")
    func structProgression() throws {
        let text = """
            struct FileAccessProgression : Progression {
                let fileURL: URL
                private var startAccess: Bool
                private var done = false
                static var count = 0
                var isActive: Bool { startAccess && !done }

                mutating func updateOrDeferNext() throws -> Deferred<FileAccessProgression>? {
                    done = true
                    return nil
                }

                typealias Result = FileAccessProgression
                var result: FileAccessProgression? { done ? self : nil }
            }
            """
        let flow = try progression(text)
        #expect(flow.id == "FileAccessProgression")
        #expect(flow.outputType == TypeName("FileAccessProgression"))
        #expect(flow.steps == [Step(id: "FileAccessProgression", kind: .operation, location: at(text, "FileAccessProgression :"), terminal: true,
                                    details: ["fileURL: URL", "startAccess: Bool", "done = false"])])
        #expect(flow.entries == ["FileAccessProgression"])
        #expect(flow.transitions == [])
        #expect(flow.limitations == [Limitation(
            message: "FileAccessProgression is a struct driven by flags: its steps are decided at run time and cannot be read from the source",
            location: at(text, "updateOrDeferNext"))])
    }

    @Test("a class progression, and an enum whose updateOrDeferNext or next() does not switch over self, are limitations too")
    func otherOpaque() throws {
        let text = """
            final class Poller: Progression {
                var attempts = 0
                func updateOrDeferNext() throws -> Deferred<Poller>? { attempts += 1; return nil }
                var result: Int? { attempts > 3 ? attempts : nil }
            }
            enum Opaque: Progression {
                case a(Int), b
                mutating func updateOrDeferNext() -> Deferred<Opaque>? { return step(self) }
                var result: Int? { nil }
            }
            enum NextOnly: Progression {
                case a
                func next() -> Deferred<NextOnly> { .unit { .a } }
                var result: Int? { nil }
            }
            """
        let flows = progressions(text)
        #expect(flows.map(\.id) == ["Poller", "Opaque", "NextOnly"])
        #expect(flows.map { $0.limitations.map(\.message) } == [
            ["Poller is a class driven by flags: its steps are decided at run time and cannot be read from the source"],
            ["Opaque's updateOrDeferNext does not switch over self: its steps cannot be read from the source"],
            // `next()` is read like updateOrDeferNext (Syrup's non-mutating form, Grain's StageProtocol).
            ["NextOnly's next does not switch over self: its steps cannot be read from the source"],
        ])
        #expect(flows.map { $0.limitations.map(\.location) } == [[at(text, "updateOrDeferNext")], [at(text, "updateOrDeferNext", 2)],
                                                                 [at(text, "next()")]])
        #expect(flows.map { $0.steps.map(\.details) } == [[["attempts = 0"]], [["a(Int)", "b"]], [["a"]]])
        #expect(flows.allSatisfy { $0.steps.count == 1 && $0.steps[0].terminal })
    }
}

// MARK: - Rules over Syrup flows

/// The findings for in-memory Swift files, as `rule line:column`.
private func findings(_ text: String, file: String = "P.swift") -> [String] {
    Analyzer().analyze(load([(name: file, text: text)])).map { "\($0.rule) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
}

@Suite("Syrup reader: rules")
struct SyrupRuleTests {
    @Test("the README's clean progressions give no finding; the struct gives exactly its unanalyzable-flow note")
    func clean() throws {
        #expect(findings(fetch) == [])
        let structText = """
            struct FileAccessProgression: Progression {
                private var done = false
                mutating func updateOrDeferNext() throws -> Deferred<FileAccessProgression>? {
                    done = true
                    return nil
                }
                var result: Bool? { done ? true : nil }
            }
            """
        #expect(findings(structText) == ["unanalyzable-flow 3:19"])
    }

    @Test("stuck-step reports a case that stays, at the case; dead-end does not report it too")
    func stuck() throws {
        let text = """
            enum Upload: Progression {
                case prepare
                case waitForNetwork
                case uploaded
                mutating func updateOrDeferNext() -> Deferred<Upload>? {
                    switch self {
                    case .prepare: self = online ? .uploaded : .waitForNetwork
                    case .waitForNetwork: return nil
                    case .uploaded: return nil
                    }
                }
                var result: Bool? { guard case .uploaded = self else { return nil }; return true }
            }
            """
        #expect(findings(text) == ["stuck-step 3:10"])
    }

    @Test("dead-end reports a non-terminal case that never returns, and a loop of cases with no way to an end")
    func deadEnd() throws {
        let crash = """
            enum Checkout: Progression {
                case pay, declined, paid
                mutating func updateOrDeferNext() -> Deferred<Checkout>? {
                    switch self {
                    case .pay: return .future { resolve in charge { ok in resolve { ok ? .paid : .declined } } }
                    case .declined, .paid: completedStep(self)
                    }
                }
                var result: Bool? { guard case .paid = self else { return nil }; return true }
            }
            """
        #expect(findings(crash) == ["dead-end 2:15"])
        let loop = """
            enum Poll: Progression {
                case start, poll, wait, done
                mutating func updateOrDeferNext() -> Deferred<Poll>? {
                    switch self {
                    case .start: self = .poll
                    case .poll: self = .wait
                    case .wait: return Deferred { .poll }
                    case .done: return nil
                    }
                    return nil
                }
                var result: Bool? { guard case .done = self else { return nil }; return true }
            }
            """
        // `.done` is nobody's target, so it is initial and reachable; the loop is the defect.
        #expect(findings(loop) == ["dead-end 2:17"])
    }

    @Test("unreachable-step reports a case nothing leads to when the initial cases are marked")
    func unreachable() throws {
        let text = """
            enum Receipt: Progression {
                /// Initial stage
                case render
                /// Printing stages
                case print
                case legacyFax
                case printed
                mutating func updateOrDeferNext() throws -> Deferred<Receipt>? {
                    switch self {
                    case .render: self = .print
                    case .print, .legacyFax: self = .printed
                    case .printed: break
                    }
                    return nil
                }
                var result: Bool? { guard case .printed = self else { return nil }; return true }
            }
            """
        #expect(findings(text) == ["unreachable-step 6:10"])
    }

    @Test("a compose of a progression that is not among the sources read is an unknown-step finding")
    func unknownSubProgression() throws {
        let text = """
            enum Host: Progression {
                case run(Missing), done
                mutating func updateOrDeferNext() -> Deferred<Host>? {
                    switch self {
                    case let .run(sub): return compose(sub, mapNext: Host.run, mapResult: { _ in .done })
                    case .done: return nil
                    }
                }
                var result: Int? { guard case .done = self else { return nil }; return 1 }
            }
            """
        #expect(findings(text) == ["unknown-step 2:10"])
    }

    @Test("samples/syrup: every planted defect at its line, nothing else")
    func samples() throws {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let graph = SourceLoader().load(paths: ["samples/syrup"], workingDirectory: root.path)
        #expect(graph.loadFindings == [])
        #expect(graph.flows.map(\.id) == ["DocumentLoadProgression", "FileAccessProgression", "HTTPRequestProgression", "ImageImportProgression",
                                          "ProfileSyncProgression", "NotesBackupProgression", "CheckoutProgression", "UploadProgression",
                                          "ReceiptPrintProgression"])
        let found = Analyzer().analyze(graph).map { "\($0.location.map { "\($0.file):\($0.line)" } ?? "-") \($0.rule)" }
        #expect(found == [
            "samples/syrup/FileAccessProgression.swift:21 unanalyzable-flow",
            "samples/syrup/broken/BusyRetryBackupProgression.swift:12 unreachable-step",
            "samples/syrup/broken/BusyRetryBackupProgression.swift:26 busy-retry",
            "samples/syrup/broken/DeadEndCheckoutProgression.swift:11 dead-end",
            "samples/syrup/broken/StuckUploadProgression.swift:10 stuck-step",
            "samples/syrup/broken/UnreachableFaxProgression.swift:13 unreachable-step",
        ])
    }
}
