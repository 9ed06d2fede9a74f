import FlowModel
import Foundation
import Testing
@testable import FlowLoaders

// IR-level tests of the FlowKit controller reader (`Sources/FlowLoaders/FlowKit/FlowKitControllerReader.swift`):
// which Swift types implement which machine, their `on<State>(state:context:)` handlers, and the states
// each handler returns. Fixtures are in memory; locations are found in the fixture text
// (`at(text, "needle")` is where `needle` starts: 1-based line, UTF-8 column), and the main fixture's
// lines are also asserted literally.

// MARK: - Helpers

/// The machine implementations read from in-memory Swift files, loaded together.
private func implementations(_ files: [(name: String, text: String)]) -> [MachineImplementation] {
    load(files).machineImplementations
}

/// The implementations of one in-memory file `C.swift`.
private func implementations(_ text: String, file: String = "C.swift") -> [MachineImplementation] {
    implementations([(name: file, text: text)])
}

/// Where the `occurrence`-th `needle` starts in `text` (1-based line and UTF-8 column).
private func at(_ text: String, _ needle: String, _ occurrence: Int = 1, file: String = "C.swift") -> FlowModel.SourceLocation {
    location(of: needle, in: text, occurrence: occurrence, file: file)
}

/// A handler's returns as `case@line:column`.
private func returned(_ handler: StateHandler?) -> [String] {
    (handler?.returns ?? []).map { "\($0.caseName)@\($0.location.map { "\($0.line):\($0.column)" } ?? "-")" }
}

/// Each handler as `State(context) -> [cases]`, with ` opaque` when it is.
private func summary(_ implementation: MachineImplementation) -> [String] {
    implementation.handlers.map { handler in
        "\(handler.state)(\(handler.contextType?.spelling ?? "?")) -> [\(handler.returns.map(\.caseName).joined(separator: ", "))]"
            + (handler.opaque ? " opaque" : "")
    }
}

// MARK: - Fixtures

private let controllerFile = "LoginFlowController.swift"
private let extensionFile = "LoginFlowController+More.swift"

/// FlowKit's sample login controller, with a non-handler `onTap(_:)` and an `onTerminate`.
private let controller = """
    import FlowKit
    import PromiseKit

    public class LoginFlowController: ViewCache, NavStateMachine, LoginFlowStateMachine {
        public typealias State = LoginFlowState
        public func onBegin(state: State, context: Void) -> Promise<State.Begin> { return Promise.value(.prompt(nil)) }
        public func onPrompt(state: State, context: String?) -> Promise<State.Prompt> {
            return self.subflow(to: LoginView.self, context: context)
                .map {
                    switch ($0) {
                        case .forgotPassword(let email): return .forgotPass(email)
                        case .login(let creds): return .authenticate(creds)
                        case .register: return .createAccount(nil)
                    }
                }
                .back { .prompt(context) }
                .cancel { .prompt(context) }
        }
        func onAuthenticate(state: LoginFlowState, context: Credentials) -> Promise<LoginFlowState.Authenticate> {
            return self.service.autenticate(credentials: context)
                .map { .end($0) }
                .recover { Promise.value(.prompt($0.localizedDescription)) }
        }
        func onLogin(state: AppState, context: Void) -> Promise<AppState.Login> {
            return self.subflow(to: LoginFlowController(), context: context)
                .map { token -> AppState.Login in .home(()) }
        }
        func onTap(_ sender: Any) { }
        func onTerminate(state: State, context: Token) -> Promise<Token> { return Promise.value(context) }
    }
    """

/// More handlers of the same controller, in an extension in another file, with two near misses.
private let more = """
    import PromiseKit

    extension LoginFlowController {
        func onForgotPass(state: State, context: String) -> Promise<State.ForgotPass> {
            return self.subflow(to: ForgotView.self, context: context)
                .map { _ in State.ForgotPass.prompt(nil) }
        }
        func onCreateAccount(state: State, context: Optional<String>) -> Promise<State.CreateAccount> {
            return helper(context)
        }
        func onHelp(_ state: State, context: Void) -> Promise<State.Prompt> { return .value(.prompt(nil)) }
        func online(state: State, context: Void) -> Promise<State.Prompt> { return .value(.prompt(nil)) }
    }
    """

private var loginFiles: [(name: String, text: String)] { [(controllerFile, controller), (extensionFile, more)] }

// MARK: - The login controller

@Suite("FlowKit controllers: the login controller")
struct FlowKitControllerLoginTests {
    @Test("every <X>StateMachine in the inheritance clause is an implementation, located at the protocol")
    func implementationsPerProtocol() {
        let found = implementations(loginFiles)
        #expect(found.map(\.machine) == ["Nav", "LoginFlow"])
        #expect(found.map(\.typeName) == ["LoginFlowController", "LoginFlowController"])
        #expect(found.map(\.location) == [at(controller, "NavStateMachine", file: controllerFile),
                                          at(controller, "LoginFlowStateMachine", file: controllerFile)])
        #expect(found.map(\.location) == [SourceLocation(file: controllerFile, line: 4, column: 46),
                                          SourceLocation(file: controllerFile, line: 4, column: 63)])
        // Both protocols are adopted by the same type: same handlers.
        #expect(found[0].handlers == found[1].handlers)
    }

    @Test("handlers: the type body, then the extension in the other file; onTap(_:), onTerminate, onHelp(_:context:) and online are not handlers")
    func handlers() throws {
        let login = try #require(implementations(loginFiles).first { $0.machine == "LoginFlow" })
        #expect(summary(login) == [
            "Begin(Void) -> [prompt]",
            "Prompt(String?) -> [forgotPass, authenticate, createAccount, prompt, prompt]",
            "Authenticate(Credentials) -> [end, prompt]",
            "Login(Void) -> [home]",
            "ForgotPass(String) -> [prompt]",
            "CreateAccount(String?) -> [] opaque",
        ])
        #expect(login.handlers.map(\.location) == [
            at(controller, "onBegin", file: controllerFile), at(controller, "onPrompt", file: controllerFile),
            at(controller, "onAuthenticate", file: controllerFile), at(controller, "onLogin", file: controllerFile),
            at(more, "onForgotPass", file: extensionFile), at(more, "onCreateAccount", file: extensionFile),
        ])
        #expect(login.handlers.map { $0.location?.line } == [6, 7, 19, 24, 4, 8])
        #expect(login.handlers.map(\.contextLocation) == [
            at(controller, "Void)", file: controllerFile), at(controller, "String?)", file: controllerFile),
            at(controller, "Credentials)", file: controllerFile), at(controller, "Void)", 2, file: controllerFile),
            at(more, "String)", file: extensionFile), at(more, "Optional<String>", file: extensionFile),
        ])
        #expect(login.handler(for: "Prompt")?.location == SourceLocation(file: controllerFile, line: 7, column: 17))
    }

    @Test("returns: each at the `.` before the case name, in source order, duplicates kept; the case pattern .forgotPassword is not one")
    func returns() throws {
        let login = try #require(implementations(loginFiles).first { $0.machine == "LoginFlow" })
        // `return Promise.value(.prompt(nil))`.
        #expect(login.handler(for: "Begin")?.returns == [
            ReturnedState(caseName: "prompt", location: at(controller, ".prompt(nil)", file: controllerFile)),
        ])
        #expect(returned(login.handler(for: "Begin")) == ["prompt@6:101"])
        // `return`s in a closure's switch, then `.back { .prompt(context) }` and `.cancel { ... }`.
        #expect(login.handler(for: "Prompt")?.returns == [
            ReturnedState(caseName: "forgotPass", location: at(controller, ".forgotPass(email)", file: controllerFile)),
            ReturnedState(caseName: "authenticate", location: at(controller, ".authenticate(creds)", file: controllerFile)),
            ReturnedState(caseName: "createAccount", location: at(controller, ".createAccount(nil)", file: controllerFile)),
            ReturnedState(caseName: "prompt", location: at(controller, ".prompt(context)", 1, file: controllerFile)),
            ReturnedState(caseName: "prompt", location: at(controller, ".prompt(context)", 2, file: controllerFile)),
        ])
        #expect(returned(login.handler(for: "Prompt")) == ["forgotPass@11:61", "authenticate@12:52", "createAccount@13:44",
                                                           "prompt@16:21", "prompt@17:23"])
        // `.map { .end($0) }` and `.recover { Promise.value(.prompt(...)) }`.
        #expect(returned(login.handler(for: "Authenticate")) == ["end@21:20", "prompt@22:38"])
        #expect(login.handler(for: "Authenticate")?.returns.map(\.location) == [
            at(controller, ".end($0)", file: controllerFile), at(controller, ".prompt($0", file: controllerFile),
        ])
        // The explicit `AppState.Login.home(())` in a closure with a signature.
        #expect(login.handler(for: "Login")?.returns == [
            ReturnedState(caseName: "home", location: at(controller, ".home(())", file: controllerFile)),
        ])
        #expect(returned(login.handler(for: "Login")) == ["home@26:47"])
        // The explicit `State.ForgotPass.prompt(nil)` in the other file.
        #expect(returned(login.handler(for: "ForgotPass")) == ["prompt@6:41"])
        #expect(login.handler(for: "ForgotPass")?.returns.first?.location == at(more, ".prompt(nil)", file: extensionFile))
        #expect(login.handlers.map(\.opaque) == [false, false, false, false, false, true])
    }

    @Test("the same files in the same order read the same; the type body comes first whatever the file order")
    func deterministic() {
        let first = implementations(loginFiles)
        #expect(implementations(loginFiles) == first)
        let reversed = implementations(Array(loginFiles.reversed()))
        #expect(reversed == first)
        #expect(reversed.first?.handlers.map(\.state) == ["Begin", "Prompt", "Authenticate", "Login", "ForgotPass", "CreateAccount"])
    }
}

// MARK: - Adoption

@Suite("FlowKit controllers: which types implement which machine")
struct FlowKitControllerAdoptionTests {
    @Test("qualified, composed and attributed protocols; extensions adopt; nested types keep their own name; bare StateMachine and protocols do not count")
    func adoption() {
        let text = """
            struct A: Module.CheckoutStateMachine, StateMachine, Equatable {}
            enum B: Sendable & PaymentStateMachine {}
            extension Shop.C: ShippingStateMachine {}
            protocol D: OrderStateMachine {}
            final class Outer {
                final class Inner: @preconcurrency ReviewStateMachine {}
            }
            actor E: XStateMachine {}
            class F: ViewCache, AppStateMachine, LoginFlowStateMachine {}
            """
        let found = implementations(text)
        #expect(found.map { "\($0.machine) \($0.typeName)" } == [
            "Checkout A", "Payment B", "Shipping C", "Review Inner", "X E", "App F", "LoginFlow F",
        ])
        #expect(found.map(\.location) == [
            at(text, "Module.CheckoutStateMachine"), at(text, "PaymentStateMachine"), at(text, "ShippingStateMachine"),
            at(text, "ReviewStateMachine"), at(text, "XStateMachine"), at(text, "AppStateMachine"), at(text, "LoginFlowStateMachine"),
        ])
        #expect(found.map { $0.location?.line } == [1, 2, 3, 6, 8, 9, 9])
        #expect(found.allSatisfy { $0.handlers.isEmpty })
    }

    @Test("handlers of a nested type and of a type adopting in an extension: every declaration and extension of that name")
    func handlersByName() {
        let text = """
            final class Outer {
                final class Inner: ReviewStateMachine {
                    func onStart(state: State, context: Void) -> Promise<State.Start> { .value(.rate) }
                }
            }
            extension Outer.Inner {
                func onRate(state: State, context: Int) -> Promise<State.Rate> { .value(.end(context)) }
            }
            class Plain {
                func onOpen(state: State, context: Swift.Void) -> Promise<State.Open> { return .value(.close) }
            }
            extension Plain: DoorStateMachine {
                func onClose(state: State, context: ()) -> Promise<State.Close> { return .value(.open) }
            }
            """
        let found = implementations(text)
        #expect(found.map { "\($0.machine) \($0.typeName)" } == ["Review Inner", "Door Plain"])
        #expect(found.map(summary) == [
            ["Start(Void) -> [rate]", "Rate(Int) -> [end]"],
            ["Open(Void) -> [close]", "Close(Void) -> [open]"],
        ])
        #expect(found[0].handlers.flatMap(\.returns).map(\.location) == [at(text, ".rate"), at(text, ".end(")])
        #expect(found[1].handlers.map(\.location) == [at(text, "onOpen"), at(text, "onClose")])
    }

    @Test("types across files: files in the order given, then source order; handlers of the type body before extensions")
    func order() {
        let ext = """
            extension Second { func onB(state: State, context: Void) -> Promise<State.B> { .value(.a) } }
            extension First { func onY(state: State, context: Void) -> Promise<State.Y> { .value(.x) } }
            """
        let types = """
            class First: OneStateMachine { func onX(state: State, context: Void) -> Promise<State.X> { .value(.y) } }
            class Second: TwoStateMachine { func onA(state: State, context: Void) -> Promise<State.A> { .value(.b) } }
            """
        let found = implementations([(name: "Ext.swift", text: ext), (name: "Types.swift", text: types)])
        #expect(found.map(\.machine) == ["One", "Two"])
        #expect(found.map { $0.handlers.map(\.state) } == [["X", "Y"], ["A", "B"]])
        #expect(found.map { $0.handlers.map { $0.location?.file } } == [["Types.swift", "Ext.swift"], ["Types.swift", "Ext.swift"]])
        // Nothing in a non-Swift file, and no implementations without a StateMachine protocol.
        #expect(implementations([(name: "Ext.swift", text: ext)]) == [])
    }
}

// MARK: - Handlers

@Suite("FlowKit controllers: handlers, context types and returned states")
struct FlowKitControllerHandlerTests {
    @Test("context types: () and Swift.Void are Void, Optional<T> is T?, Array<T> is [T], comments and spaces dropped")
    func contextTypes() throws {
        let text = """
            class C: MStateMachine {
                func onA(state: State, context: ()) -> Promise<State.A> { .value(.b) }
                func onB(state: State, context: Swift.Void) -> Promise<State.B> { .value(.c) }
                func onC(state: State, context: Optional<String>) -> Promise<State.C> { .value(.d) }
                func onD(state: State, context: Array<Swift.Int>) -> Promise<State.D> { .value(.e) }
                func onE(state s: State, context ctx: [String : /* id */ Int]) -> Promise<State.E> { .value(.a) }
                func onF(state: State, context: (name: String, age: Int)) -> Promise<State.F> { .value(.a) }
            }
            """
        let handlers = try #require(implementations(text).first).handlers
        #expect(handlers.map(\.contextType) == ["Void", "Void", "String?", "[Int]", "[String:Int]", "(name:String,age:Int)"])
        #expect(handlers.map(\.state) == ["A", "B", "C", "D", "E", "F"])
        #expect(handlers.map(\.contextLocation) == [
            at(text, "()"), at(text, "Swift.Void"), at(text, "Optional<String>"), at(text, "Array<Swift.Int>"),
            at(text, "[String :"), at(text, "(name: String"),
        ])
        #expect(handlers.map(\.opaque) == [false, false, false, false, false, false])
    }

    @Test("only on<Upper>(state:context:): other labels, arity, lowercase and onTerminate are skipped")
    func nonHandlers() throws {
        let text = """
            class C: MStateMachine {
                func onTap(_ sender: Any) {}
                func onTap(state: State) {}
                func onTap(state: State, context: Void, animated: Bool) {}
                func onTap(context: Void, state: State) {}
                func onTap(_ state: State, context: Void) {}
                func onward(state: State, context: Void) {}
                func on(state: State, context: Void) {}
                func onTerminate(state: State, context: Token) -> Promise<Token> { return Promise.value(context) }
                func onReal(state: State, context: Void) -> Promise<State.Real> { return .value(.done) }
                var onComputed: Int { 1 }
            }
            """
        let found = try #require(implementations(text).first)
        #expect(summary(found) == ["Real(Void) -> [done]"])
        #expect(found.handlers.first?.location == at(text, "onReal"))
    }

    @Test("opaque: a returned value that holds no state at the handler's level, or no state at all")
    func opaque() throws {
        let text = """
            class C: MStateMachine {
                func onA(state: State, context: Int) -> Promise<State.A> { return helper(context) }
                func onB(state: State, context: Int) -> Promise<State.B> { return self.next(context) }
                func onC(state: State, context: Bool) -> Promise<State.C> {
                    if context { return .value(.done(())) }
                    return self.next(context)
                }
                func onD(state: State, context: Int) -> Promise<State.D> { fatalError() }
                func onE(state: State, context: Int) -> Promise<State.E> {
                    func local() -> State.E { return .hidden }
                    return Promise.value(local())
                }
                func onF(state: State, context: Int) -> Promise<State.F> { helper(context) }
                func onG(state: State, context: Int) -> Promise<State.G> {
                    let promise = service.load().map { .done($0) }
                    return promise
                }
                func onH(state: State, context: Int) -> Promise<State.H> {
                    return service.load().map { _ in .done(()) }.recover { _ in self.retry() }
                }
            }
            """
        let found = try #require(implementations(text).first)
        #expect(summary(found) == [
            "A(Int) -> [] opaque",
            "B(Int) -> [] opaque",
            "C(Bool) -> [done] opaque",
            "D(Int) -> [] opaque",
            "E(Int) -> [] opaque",
            "F(Int) -> [] opaque",
            "G(Int) -> [done] opaque",
            "H(Int) -> [done]",
        ])
        #expect(found.handler(for: "C")?.returns.first?.location == at(text, ".done(())"))
    }

    @Test("return positions: ternaries, if/switch expressions, seal.fulfill, single-expression bodies, try/await, bare cases")
    func returnPositions() throws {
        let text = """
            class C: MStateMachine {
                func onA(state: State, context: Int) -> Promise<State.A> {
                    return Promise { seal in seal.fulfill(context > 0 ? .big(context) : .small(context)) }
                }
                func onB(state: State, context: Int) -> Promise<State.B> { Promise.value(context > 0 ? .yes : .no) }
                func onC(state: State, context: [Int]) -> Promise<State.C> {
                    return service.load().map { value in
                        if value.isEmpty { .empty } else if value.count == 1 { .one(value[0]) } else { .many(value) }
                    }
                }
                func onD(state: State, context: Int) -> Promise<State.D> {
                    return try await service.load().map { value -> State.D in
                        switch value {
                        case .some(let x): .found(x)
                        case .none: State.D.missing
                        }
                    }
                }
                func onE(state: State, context: Int) -> Promise<State.E> {
                    return Promise { seal in
                        service.load { result in
                            guard case .success(let v) = result else { return seal.resolve(.failed, nil) }
                            seal.fulfill((.loaded(v)))
                        }
                    }
                }
                func onF(state: State, context: Int) -> Promise<State.F> {
                    return service.load().map { _ in Other.Kind.notAState }.map { .init(rawValue: $0) }.map { .real }
                }
            }
            """
        let found = try #require(implementations(text).first)
        #expect(summary(found) == [
            "A(Int) -> [big, small]",
            "B(Int) -> [yes, no]",
            "C([Int]) -> [empty, one, many]",
            "D(Int) -> [found, missing]",
            "E(Int) -> [failed, loaded]",
            "F(Int) -> [real]",
        ])
        #expect(found.handler(for: "A")?.returns.map(\.location) == [at(text, ".big"), at(text, ".small")])
        #expect(found.handler(for: "D")?.returns.map(\.location) == [at(text, ".found"), at(text, ".missing")])
        #expect(found.handler(for: "E")?.returns.map(\.location) == [at(text, ".failed"), at(text, ".loaded")])
    }
}
