import FlowModel
import Foundation
import Testing
@testable import FlowLoaders
import FlowRules

// Which cases a Syrup progression starts in (only those something constructs outside its own
// transitions, or a doc comment marks), busy retries (a branch path that leaves self unchanged and
// returns nil), and the older API (`StageProtocol`, `next()`). Each test writes its own app code.

/// The Syrup flows of several in-memory files.
private func syrupFlows(_ files: [(name: String, text: String)]) -> [Flow] {
    load(files).flows.filter { $0.kind == .syrup }
}

/// Findings as `rule file:line step`, sorted, for several files.
private func verdicts(_ files: [(name: String, text: String)]) -> [String] {
    Analyzer().analyze(load(files)).map { "\($0.rule) \($0.location?.file ?? "-"):\($0.location?.line ?? 0) \($0.step ?? "-")" }
}

/// A payment progression with a case nothing ever constructs (`idle`) and a retry-free body.
private let payment = """
    import Syrup

    enum PaymentStage: Progression {
        case idle
        case authorize(amount: Decimal)
        case capture(token: String)
        case receipt(String)

        mutating func updateOrDeferNext() throws -> Deferred<PaymentStage>? {
            switch self {
            case .idle:
                return nil
            case let .authorize(amount):
                return .future { resolve in
                    Gateway.authorize(amount) { token in resolve { .capture(token: token) } }
                }
            case let .capture(token):
                self = .receipt(try Gateway.capture(token))
            case .receipt:
                break
            }
            return nil
        }

        var result: String? {
            guard case let .receipt(id) = self else { return nil }
            return id
        }
    }
    """

@Suite("Syrup: a case is a start only when something constructs it")
struct SyrupStartTests {
    @Test("an explicit caller in another file makes its case the start; a case nothing constructs is unreachable, never stuck")
    func explicitCaller() throws {
        let caller = """
            final class CheckoutViewController {
                func pay(_ total: Decimal) {
                    let progression = PaymentStage.authorize(amount: total)
                    executor.run(progression)
                }
            }
            """
        let files = [(name: "PaymentStage.swift", text: payment), (name: "Checkout.swift", text: caller)]
        let flow = try #require(syrupFlows(files).first)
        #expect(flow.entries == ["authorize"])
        let found = verdicts(files)
        #expect(found.contains("unreachable-step PaymentStage.swift:4 idle"))
        #expect(!found.contains { $0.hasPrefix("stuck-step") }, "\(found)")
    }

    @Test("an initializer, a stored default, an annotated binding, a typed parameter and a factory all construct")
    func implicitConstructions() throws {
        let upload = """
            import Syrup

            enum Upload: Progression {
                case pending(URL)
                case resumed(URL, offset: Int)
                case waitingForNetwork
                case sending(Data)
                case sent
                case cancelled

                init(file: URL) { self = .pending(file) }

                mutating func updateOrDeferNext() throws -> Deferred<Upload>? {
                    switch self {
                    case let .pending(url), let .resumed(url, _):
                        self = .sending(try Data(contentsOf: url))
                    case .waitingForNetwork:
                        return .future { resolve in Reachability.onOnline { resolve { .pending(Spool.next) } } }
                    case .sending:
                        return .future { resolve in Client.post { resolve { .sent } } }
                    case .sent, .cancelled:
                        break
                    }
                    return nil
                }

                var result: Bool? {
                    switch self {
                    case .sent: return true
                    case .cancelled: return false
                    default: return nil
                    }
                }
            }
            """
        let queue = """
            struct UploadQueue {
                var parked: Upload = .waitingForNetwork
                func restore(from record: Record) {
                    enqueue(stage: .resumed(record.url, offset: record.bytes))
                }
                func enqueue(stage: Upload) {}
                func isFinished(_ u: Upload) -> Bool { u == .sent || u == .cancelled }
            }
            """
        let flow = try #require(syrupFlows([(name: "Upload.swift", text: upload), (name: "UploadQueue.swift", text: queue)]).first)
        // `cancelled` is only compared with, and `sending`/`sent` only reached by transitions.
        #expect(flow.entries == ["pending", "resumed", "waitingForNetwork"])
        let found = verdicts([(name: "Upload.swift", text: upload), (name: "UploadQueue.swift", text: queue)])
        #expect(found.contains("unreachable-step Upload.swift:9 cancelled"), "\(found)")
    }

    @Test("a no-argument case passed to a parameter declared with the progression's type, or returned by a factory, constructs it")
    func parametersAndFactories() throws {
        let sync = """
            import Syrup
            enum Sync: Progression {
                case cold, warm, running(Int), finished
                mutating func updateOrDeferNext() -> Deferred<Sync>? {
                    switch self {
                    case .cold: self = .running(0)
                    case .warm: self = .running(1)
                    case let .running(n): self = n > 3 ? .finished : .running(n + 1)
                    case .finished: break
                    }
                    return nil
                }
                var result: Void? { if case .finished = self { return () } else { return nil } }
            }
            """
        let driver = """
            enum Launch {
                static func firstRun() -> Sync { return .cold }
            }
            final class Driver {
                init(start: Sync) {}
            }
            let driver = Driver(start: .warm)
            """
        let flow = try #require(syrupFlows([(name: "Sync.swift", text: sync), (name: "Driver.swift", text: driver)]).first)
        #expect(flow.entries == ["cold", "warm"])
    }

    @Test("a `/// Initial` mark and a construction both make starts; patterns and comparisons do not")
    func marksAndPatterns() throws {
        let text = """
            import Syrup
            enum Onboarding: Progression {
                /// Initial: a fresh install.
                case welcome
                /// Steps
                case permissions, profile
                case done
                case skipped
                mutating func updateOrDeferNext() -> Deferred<Onboarding>? {
                    switch self {
                    case .welcome: self = .permissions
                    case .permissions: self = .profile
                    case .profile, .skipped: self = .done
                    case .done: break
                    }
                    return nil
                }
                var result: Bool? { self == .done ? true : nil }
            }
            func resume(_ stage: Onboarding) {
                switch stage {
                case .skipped: print("skipped")
                default: break
                }
                if case .profile = stage { print("profile") }
            }
            let restored = Onboarding.profile
            """
        let flow = try #require(syrupFlows([(name: "Onboarding.swift", text: text)]).first)
        #expect(flow.entries == ["welcome", "profile"])
        #expect(verdicts([(name: "Onboarding.swift", text: text)]).contains("unreachable-step Onboarding.swift:8 skipped"))
    }

    @Test("an untyped `.x(...)` constructs a case only when its argument labels are the case's: another type's factory does not")
    func labelsTellPayloads() throws {
        let audit = """
            enum AuditEvent { case capture(String, at: Date); static func read(_ k: String) -> AuditEvent { .capture(k, at: Date()) } }
            func log() { AuditLog.record(.capture("tok", at: Date())) }
            """
        let unrelated = try #require(syrupFlows([(name: "PaymentStage.swift", text: payment), (name: "Audit.swift", text: audit)]).first)
        #expect(unrelated.entries == ["idle", "authorize"])
        let resume = "func resume(_ t: String) { Engine.shared.start(.capture(token: t)) }"
        let resumed = try #require(syrupFlows([(name: "PaymentStage.swift", text: payment), (name: "Resume.swift", text: resume)]).first)
        #expect(resumed.entries == ["capture"])
    }

    @Test("when the sources read construct no case at all, the cases no transition leads to are the starts, as before")
    func noEvidence() throws {
        let flow = try #require(syrupFlows([(name: "PaymentStage.swift", text: payment)]).first)
        #expect(flow.entries == ["idle", "authorize"])
    }
}

@Suite("Syrup: busy retries")
struct SyrupBusyRetryTests {
    private func retries(_ body: String, extra: String = "") throws -> (flow: Flow, findings: [Finding]) {
        let text = """
            import Foundation
            import Syrup
            enum Fetch: Progression {
                case load(URL)
                case parse(Data)
                case fallback
                case done(Data)
                init(url: URL) { self = .load(url) }
                mutating func updateOrDeferNext() throws -> Deferred<Fetch>? {
                    switch self {
                    case let .load(url):
            \(body)
                    case let .parse(data):
                        self = .done(data)
                    case .fallback:
                        self = .done(Data())
                    case .done:
                        break
                    }
                    return nil
                }
                var result: Data? { guard case let .done(d) = self else { return nil }; return d }
            }
            \(extra)
            """
        let graph = load([(name: "Fetch.swift", text: text)])
        let flow = try #require(graph.flows.first { $0.kind == .syrup })
        return (flow, Analyzer().analyze(graph))
    }

    private func retryConditions(_ flow: Flow) -> [String] {
        flow.transitions.filter { $0.kind == .retry }.map { "\($0.from): \($0.condition?.text ?? "-")" }
    }

    @Test("a catch that handles one error code and falls through to `return nil` spins: a retry edge and a busy-retry warning naming the path")
    func catchOneCode() throws {
        let (flow, findings) = try retries("""
                        do {
                            self = .parse(try Data(contentsOf: url))
                        } catch let error as URLError {
                            if error.code == .notConnectedToInternet {
                                self = .fallback
                            }
                        }
                        return nil
            """)
        #expect(retryConditions(flow) == ["load: an error matching let error as URLError is thrown and error.code == .notConnectedToInternet is false"])
        let busy = findings.filter { $0.rule == "busy-retry" }
        try #require(busy.count == 1)
        #expect(busy[0].severity == .warning && busy[0].step == "load")
        #expect(busy[0].location?.line == 19)
        #expect(busy[0].message.contains("error.code == .notConnectedToInternet is false"))
        #expect(!findings.contains { $0.rule == "stuck-step" })
    }

    @Test("an `if let` without else, a guard returning nil, and a switch case that only logs each leave a path that spins")
    func otherShapes() throws {
        let ifLet = try retries("""
                        if let cached = Cache.shared.data(for: url) {
                            self = .parse(cached)
                        }
            """)
        #expect(retryConditions(ifLet.flow) == ["load: let cached = Cache.shared.data(for: url) is false"])
        let guarded = try retries("""
                        guard Reachability.isOnline else { return nil }
                        return .future { resolve in Client.get(url) { data in resolve { .parse(data) } } }
            """)
        #expect(retryConditions(guarded.flow) == ["load: Reachability.isOnline is false"])
        let switched = try retries("""
                        switch Settings.mode {
                        case .offline: log("offline, waiting")
                        case .online: self = .parse(try Data(contentsOf: url))
                        }
            """)
        #expect(retryConditions(switched.flow) == ["load: Settings.mode matches .offline"])
        for result in [ifLet, guarded, switched] {
            #expect(result.findings.filter { $0.rule == "busy-retry" }.count == 1)
        }
    }

    @Test("paths that all move on, throw or stop never spin: else branches, rethrowing catches, loops and closures")
    func noRetry() throws {
        let shapes = [
            """
                        if let cached = Cache.shared.data(for: url) { self = .parse(cached) } else { self = .fallback }
            """,
            """
                        do { self = .parse(try Data(contentsOf: url)) } catch { self = .fallback }
            """,
            """
                        do { self = .parse(try Data(contentsOf: url)) } catch let error as URLError where error.code == .timedOut { self = .fallback }
            """,
            """
                        guard let data = Cache.shared.data(for: url) else { throw CacheError.miss }
                        self = .parse(data)
            """,
            """
                        for mirror in Mirrors.all { if mirror.has(url) { self = .fallback } }
            """,
            """
                        let items = [1, 2].compactMap { n -> Int? in return nil }
                        self = .parse(Data(items.map(UInt8.init)))
            """,
            """
                        if url.isFileURL { fatalError("unsupported") } else { return .future { resolve in resolve { .fallback } } }
            """,
        ]
        for body in shapes {
            let (flow, findings) = try retries(body)
            #expect(retryConditions(flow).isEmpty, "\(body)")
            #expect(!findings.contains { $0.rule == "busy-retry" }, "\(body)")
        }
    }

    @Test("a branch that never moves on stays stuck-step (not busy-retry)")
    func stuckIsNotRetry() throws {
        let (flow, findings) = try retries("""
                        print("loading \\(url)")
                        return nil
            """)
        #expect(retryConditions(flow).isEmpty)
        #expect(findings.contains { $0.rule == "stuck-step" && $0.step == "load" })
        #expect(!findings.contains { $0.rule == "busy-retry" })
    }
}

@Suite("Syrup: the older API and next()")
struct SyrupOlderAPITests {
    @Test("StageProtocol with `func next() -> Deferred<Self>`, `.unit { try .x(...) }` and `.future` reads like a progression")
    func stageProtocol() throws {
        let text = """
            import Grain

            enum ThumbnailStage: StageProtocol {
                typealias Result = UIImage

                case read(path: String)
                case decode(Data)
                case scale(UIImage)
                case finished(UIImage)

                func next() -> Deferred<ThumbnailStage> {
                    switch self {
                    case let .read(path):
                        return .unit { try .decode(Data(contentsOf: URL(fileURLWithPath: path))) }
                    case let .decode(data):
                        return .future { resolve in
                            ImageDecoder.decode(data) { image in resolve { .scale(image) } }
                        }
                    case let .scale(image):
                        return .unit { .finished(image.scaled(to: 128)) }
                    case .finished:
                        fatalError("finished stages are not advanced")
                    }
                }

                var result: UIImage? {
                    guard case let .finished(image) = self else { return nil }
                    return image
                }
            }
            """
        let flow = try #require(syrupFlows([(name: "ThumbnailStage.swift", text: text)]).first)
        #expect(flow.limitations.isEmpty, "\(flow.limitations)")
        let edges = flow.transitions.map { "\($0.from) -> \($0.to)\($0.kind == .error ? " !error" : "")" }
        #expect(edges == ["read -> decode", "read -> throws !error", "decode -> scale", "scale -> finished"])
        #expect(flow.steps.filter(\.terminal).map(\.id) == ["finished"])
        #expect(flow.entries == ["read"])
    }

    @Test("a Progression implementing only next() is read from next()")
    func progressionWithNext() throws {
        let text = """
            import Syrup
            enum Login: Progression {
                case credentials(String, String)
                case token(String)
                func next() throws -> Deferred<Login> {
                    switch self {
                    case let .credentials(user, password):
                        return Deferred.future { resolve in API.login(user, password) { t in resolve { .token(t) } } }
                    case .token:
                        throw LoginError.alreadyDone
                    }
                }
                var result: String? { if case let .token(t) = self { return t }; return nil }
            }
            """
        let flow = try #require(syrupFlows([(name: "Login.swift", text: text)]).first)
        #expect(flow.transitions.map { "\($0.from) -> \($0.to)" } == ["credentials -> token"])
        #expect(flow.limitations.isEmpty)
    }

    @Test("a StageProtocol type that cannot be read gets a limitation (unanalyzable-flow), never silence")
    func unreadable() throws {
        let text = """
            import Grain
            struct PollStage: StageProtocol {
                var attempts = 0
                var done = false
                func next() -> Deferred<PollStage> { .unit { PollStage(attempts: attempts + 1, done: attempts > 3) } }
                var result: Int? { done ? attempts : nil }
            }
            enum Empty: StageProtocol {
                case a, b
                var result: Int? { nil }
            }
            """
        let flows = syrupFlows([(name: "Stages.swift", text: text)])
        #expect(flows.map(\.id) == ["PollStage", "Empty"])
        #expect(flows.allSatisfy { $0.limitations.count == 1 })
        let notes = Analyzer().analyze(load([(name: "Stages.swift", text: text)])).filter { $0.rule == "unanalyzable-flow" }
        #expect(notes.count == 2)
    }
}
