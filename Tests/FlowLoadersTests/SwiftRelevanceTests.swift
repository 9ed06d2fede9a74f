import FlowLensTestSupport
import FlowModel
import Foundation
import Testing
@testable import FlowLoaders

/// The Swift pre-filter (`SwiftRelevance`): which files are parsed, and that skipping the others
/// changes nothing a reader finds.
@Suite("Swift pre-filter: parse only what can matter")
struct SwiftRelevanceTests {
    private func sources(_ files: [(String, String)]) -> [SourceText] {
        files.map { SourceText(file: InputFile(path: $0.0), contents: $0.1) }
    }

    /// The names of the files the pre-filter parses.
    private func selected(_ files: [(String, String)]) -> [String] {
        let list = sources(files)
        return zip(list, SwiftRelevance.select(list)).filter(\.1).map(\.0.file.path)
    }

    /// The graph with and without the pre-filter, as JSON, for comparing byte for byte.
    private func bothWays(_ files: [(String, String)]) throws -> (filtered: String, everyFile: String) {
        var every = SwiftSourcesLoader()
        every.parsesEveryFile = true
        var filtered = SwiftSourcesLoader()
        filtered.parsesEveryFile = false
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let a = try encoder.encode(filtered.load(sources(files)))
        let b = try encoder.encode(every.load(sources(files)))
        return (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
    }

    private let settingsView = """
        import UIKit

        final class SettingsView: UIView {
            private let toggle = UISwitch()
            var title: String = "Settings" { didSet { setNeedsLayout() } }

            override func layoutSubviews() {
                super.layoutSubviews()
                toggle.frame = bounds.insetBy(dx: 12, dy: 8)
            }
        }
        """

    private let priceFormatting = """
        import Foundation

        extension Decimal {
            /// "12.50 €" for a price (`#"{"#` braces in strings are not code).
            func formatted(currency code: String) -> String {
                let brace = #"{ not a scope"#
                let nested = "total: \\(code.isEmpty ? "none" : "\\(code)")"
                /* a /* nested */ comment with { */
                return "\\(self) \\(code)" + (brace.isEmpty ? nested : "")
            }
        }
        """

    @Test("ordinary app files are skipped; a subclass of a user base class in another file is parsed")
    func baseClassInAnotherFile() throws {
        let files = [
            ("Base.swift", """
                import Flow_iOS

                /// Every payment step logs its key first.
                class PaymentStep: FlowOperation {
                    override var primaryInputParamKey: String { return "cart" }
                }
                """),
            ("Charge.swift", """
                final class ChargeCard: PaymentStep {
                    override init() { super.init() }
                }
                """),
            ("Checkout.swift", """
                import Flow_iOS

                final class CheckoutController {
                    func pay() {
                        Flow()
                            .setDataBucket(dataBucket: ["cart": "c1"])
                            .add(operation: ChargeCard())
                            .start()
                    }
                }
                """),
            ("SettingsView.swift", settingsView),
            ("Price.swift", priceFormatting),
        ]
        #expect(selected(files) == ["Base.swift", "Charge.swift", "Checkout.swift"])
        let graphs = try bothWays(files)
        #expect(graphs.filtered == graphs.everyFile)
    }

    @Test("a constants file that never names the library is parsed when an operation reads its keys")
    func constantsInAnotherFile() throws {
        let files = [
            ("Keys.swift", """
                enum SessionKeys {
                    static let token = "session.token", user = "session.user"
                }
                let (defaultRegion, fallbackRegion) = ("eu", "us")
                """),
            ("Login.swift", """
                import Flow_iOS

                final class StoreSession: FlowOperation {
                    override func mainLogic() {
                        guard let token: String = getData(name: SessionKeys.token) else { return }
                        setData(name: SessionKeys.user, value: token + fallbackRegion)
                        finishSuccessfully()
                    }
                }

                final class LoginController {
                    func signIn() {
                        Flow().add(operation: StoreSession()).start()
                    }
                }
                """),
            ("SettingsView.swift", settingsView),
        ]
        #expect(selected(files) == ["Keys.swift", "Login.swift"])
        let graphs = try bothWays(files)
        #expect(graphs.filtered == graphs.everyFile)
        #expect(graphs.filtered.contains("session.token"))
    }

    @Test("a progression's case constructed in a file that names neither the library nor the type is parsed")
    func progressionCaseElsewhere() throws {
        let files = [
            ("Download.swift", """
                enum Download: Progression {
                    case fetch(URL)
                    case done(Data)

                    mutating func updateOrDeferNext() throws -> Deferred<Download>? {
                        switch self {
                        case let .fetch(url):
                            return .future { resolve in resolve { .done(try Data(contentsOf: url)) } }
                        case .done:
                            return nil
                        }
                    }

                    var result: Data? {
                        guard case let .done(data) = self else { return nil }
                        return data
                    }
                }
                """),
            ("Runner.swift", """
                final class Runner {
                    func begin(_ url: URL) {
                        queue.run(.fetch(url))
                    }
                }
                """),
            ("Price.swift", priceFormatting),
        ]
        #expect(selected(files) == ["Download.swift", "Runner.swift"])
        let graphs = try bothWays(files)
        #expect(graphs.filtered == graphs.everyFile)
    }

    @Test("a FlowKit controller whose machine protocol is named through a typealias, and its extension")
    func controllerThroughTypealias() throws {
        let files = [
            ("Machines.swift", "typealias SignInMachine = SignInFlowStateMachine\n"),
            ("SignIn.swift", """
                final class SignInController: SignInMachine {
                    func onPrompt(state: State.Prompt, context: String?) -> Promise<State.Prompt> { fatalError() }
                }
                """),
            ("SignIn+Done.swift", """
                extension SignInController {
                    func onDone(state: State.Done, context: Void) -> Promise<State.Done> { fatalError() }
                }
                """),
            ("SettingsView.swift", settingsView),
        ]
        #expect(selected(files) == ["Machines.swift", "SignIn.swift", "SignIn+Done.swift"])
    }

    @Test("a file the light pass cannot follow is parsed; a broken file that cannot matter is not reported")
    func unsureAndBroken() throws {
        let unterminated = ("Broken.swift", "let greeting = \"hello\nstruct Other {}\n")
        let unbalanced = ("Unbalanced.swift", "struct Loose {\n    func f() {\n}\n")
        #expect(selected([unterminated, unbalanced, ("SettingsView.swift", settingsView)]) == ["Broken.swift", "Unbalanced.swift"])
        // Balanced but not Swift: skipped, so its syntax error is not reported (it holds no flow).
        let notSwift = ("Notes.swift", "this is { not swift } at all\n")
        let graph = SwiftSourcesLoader().load(sources([notSwift, ("SettingsView.swift", settingsView)]))
        #expect(graph.loadFindings.isEmpty)
        var every = SwiftSourcesLoader()
        every.parsesEveryFile = true
        #expect(every.load(sources([notSwift])).loadFindings.map(\.rule) == ["invalid-input"])
        // The same error in a file that uses a flow library is reported either way.
        let brokenFlow = ("Flow.swift", "import Flow_iOS\nlet flow = Flow(\n")
        #expect(SwiftSourcesLoader().load(sources([brokenFlow])).loadFindings.map(\.rule) == ["invalid-input"])
    }

    @Test("names declared inside function bodies connect nothing; names at type scope do")
    func scopes() {
        let skim = SwiftRelevance.Skim("""
            struct Profile {
                let name: String, email: String
                var age = 3
                case bogus
                class func make() -> Profile {
                    let local = Profile(name: "a", email: "b")
                    func helper() {}
                    return local
                }
                enum Kind: String { case admin = "a", guest }
            }
            func topLevel(_ value: Int) -> Int { let inner = value; return inner }
            """)
        #expect(!skim.unsure)
        let declared = ["Profile", "name", "email", "age", "bogus", "make", "Kind", "admin", "guest", "topLevel"]
        #expect(skim.declared == declared.map(SwiftRelevance.key).sorted())
        #expect(Set(skim.mentions).isSuperset(of: ["local", "helper", "inner", "String"].map(SwiftRelevance.key)))
        // Keywords are told by their bytes, not only their keys; a backquoted keyword is a name.
        let quoted = SwiftRelevance.Skim("enum Mode { case `default`, fast }\nstruct Holder { var `class`: Int }")
        #expect(quoted.declared == ["Mode", "default", "fast", "Holder", "class"].map(SwiftRelevance.key).sorted())
        // A name written with a precomposed letter in one file and a combining accent in another is
        // one name, as Swift's strings compare them.
        let composed = SwiftRelevance.Skim("struct Caf\u{E9} {}"), decomposed = SwiftRelevance.Skim("let x = Cafe\u{301}()")
        #expect(composed.declared == [SwiftRelevance.key("Caf\u{E9}")])
        #expect(decomposed.mentions.contains(SwiftRelevance.key("Caf\u{E9}")))
    }

    @Test("each key once and sorted: as sorting and dropping repeats, on random keys with many repeats and zero")
    func sortedOnceAsSortingAndDroppingRepeats() {
        var random = SplitMix64(seed: 0x5047)
        func next() -> UInt64 { random.next() }
        for round in 0..<300 {
            // A few distinct keys, repeated: as the identifiers of a file; some rounds hold 0 or
            // keys sharing their top bits (one slot), so probing and the kept-aside 0 are exercised.
            let distinct = (0..<(1 + Int(next() % 200))).map { i -> UInt64 in
                switch (round % 3, i % 4) {
                case (1, 0): return 0
                case (2, _): return (0xABCD << 48) | (next() & 0xFFFF)
                default: return next()
                }
            }
            let keys = (0..<Int(next() % 2_000)).map { _ in distinct[Int(next() % UInt64(distinct.count))] }
            #expect(SwiftRelevance.Skim.sortedOnce(keys) == Array(Set(keys)).sorted())
        }
        #expect(SwiftRelevance.Skim.sortedOnce([]) == [])
    }

    @Test("key numbers: dense, in the order added, one per key however often added; 0 and keys sharing their top bits; grown past the size expected")
    func keyNumbers() {
        var random = SplitMix64(seed: 0x4B4E)
        for round in 0..<50 {
            var numbers = SwiftRelevance.KeyNumbers(expected: round % 7)
            var reference: [UInt64: Int32] = [:]
            let distinct = (0..<(1 + Int(random.next() % 3_000))).map { i -> UInt64 in
                i % 97 == 0 ? 0 : round % 2 == 0 ? random.next() : (0x1234 << 48) | (random.next() & 0xFFFFF)
            }
            for _ in 0..<(distinct.count * 2) {
                let key = distinct[Int(random.next() % UInt64(distinct.count))]
                let number = numbers.add(key)
                #expect(number == reference[key, default: Int32(reference.count)])
                reference[key] = number
            }
            #expect(numbers.count == reference.count)
            for key in distinct { #expect(numbers[key] == reference[key]) }
            for _ in 0..<100 {
                let key = random.next()
                if reference[key] == nil { #expect(numbers[key] == nil) }
            }
        }
    }

    @Test("the files chosen are those reached by following every name each way from the library's files, on 200 random apps")
    func selectAsFollowingNames() {
        var random = SplitMix64(seed: 0x5E1E)
        func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var chosenBeyondLibrary = 0
        for _ in 0..<200 {
            let count = 1 + next(40), names = 1 + next(60)
            let files = (0..<count).map { f -> SourceText in
                var text = next(6) == 0 ? "import Flow_iOS\n" : "import UIKit\n"
                for _ in 0..<next(3) { text += "struct Type\(next(names)) { func member\(next(names))() {} }\n" }
                for _ in 0..<next(4) { text += "func use\(f)_\(next(1000))() { _ = Type\(next(names))(); let local\(next(names)) = 1 }\n" }
                return SourceText(file: InputFile(path: "F\(f).swift"), contents: text)
            }
            // The reference: a breadth-first search over the skims' names, by dictionaries of names.
            let skims = files.map { SwiftRelevance.Skim($0.contents) }
            var declaredBy: [UInt64: [Int]] = [:], mentionedBy: [UInt64: [Int]] = [:]
            for (i, skim) in skims.enumerated() {
                for name in skim.declared { declaredBy[name, default: []].append(i) }
                for name in skim.mentions { mentionedBy[name, default: []].append(i) }
            }
            var expected = skims.map { $0.unsure || $0.hasLibraryWord }
            var queue = expected.indices.filter { expected[$0] }
            while let i = queue.popLast() {
                for other in skims[i].mentions.flatMap({ declaredBy[$0] ?? [] }) + skims[i].declared.flatMap({ mentionedBy[$0] ?? [] })
                where !expected[other] {
                    expected[other] = true
                    queue.append(other)
                }
            }
            #expect(SwiftRelevance.select(files) == expected)
            chosenBeyondLibrary += zip(expected, skims).filter { $0.0 && !$0.1.hasLibraryWord }.count
        }
        #expect(chosenBeyondLibrary > 100)
    }

    @Test("the keyword table finds every keyword by its key, and no other word")
    func keywordTable() {
        let words = ["class", "struct", "enum", "protocol", "actor", "extension", "func", "typealias", "associatedtype",
                     "let", "var", "case", "static", "init", "deinit", "subscript", "private", "package", "distributed"]
        for word in words { #expect(SwiftRelevance.keywords[SwiftRelevance.key(word)]?.bytes == Array(word.utf8), "\(word)") }
        for word in ["Class", "classes", "self", "Flow", "getData", "x", "", "é", "letter", "functional"] {
            #expect(SwiftRelevance.keywords[SwiftRelevance.key(word)] == nil, "\(word)")
        }
        var random = SplitMix64(seed: 0x7AB)
        for _ in 0..<10_000 { #expect(SwiftRelevance.keywords[random.next()] == nil) }
    }
}
