import FlowModel
import Foundation
import Testing
@testable import FlowLoaders
import FlowRules

// Swift sources that do not parse, or hold merge-conflict markers, are `invalid-input` (never read as
// if they were whole, never one side of a conflict), carrying the id of each flow defined in them;
// such a flow gets no graph findings, which could be the error's.

@Suite("Swift sources with syntax errors or conflict markers")
struct SwiftBrokenFileTests {
    private func report(_ files: [(name: String, text: String)]) -> [Finding] { Analyzer().analyze(load(files)) }

    @Test("a Syrup progression with merge-conflict markers: invalid-input at the marker, with the flow's id, and no stuck-step")
    func conflictedProgression() throws {
        let text = """
            import Syrup

            enum Checkout: Progression {
                case cart([Item])
                case paying(Order)
                case paid(Receipt)
                init(items: [Item]) { self = .cart(items) }
                mutating func updateOrDeferNext() throws -> Deferred<Checkout>? {
                    switch self {
                    case let .cart(items):
            <<<<<<< HEAD
                        self = .paying(Order(items))
            =======
                        return nil
            >>>>>>> feature/express-pay
                    case let .paying(order):
                        return .future { resolve in Payments.charge(order) { r in resolve { .paid(r) } } }
                    case .paid:
                        return nil
                    }
                    return nil
                }
                var result: Receipt? { if case let .paid(r) = self { return r }; return nil }
            }
            """
        let found = report([(name: "Checkout.swift", text: text)])
        let invalid = found.filter { $0.rule == RuleID.invalidInput }
        try #require(invalid.count == 1, "\(found.map(\.message))")
        #expect(invalid[0].flow == "Checkout")
        #expect(invalid[0].location == FlowModel.SourceLocation(file: "Checkout.swift", line: 11, column: 1))
        #expect(invalid[0].message.contains("merge-conflict"))
        #expect(found.allSatisfy { $0.rule == RuleID.invalidInput }, "\(found.map(\.rule))")
    }

    @Test("a truncated Flow-iOS controller: invalid-input at the first error, with its flow's id, and no graph findings")
    func truncatedFlow() throws {
        let text = """
            import Flow_iOS

            class UploadController {
                func upload() {
                    Flow()
                        .add(operation: PickPhotoOp())
                        .add(operation: UploadOp(
                }
            """
        let found = report([(name: "UploadController.swift", text: text)])
        let invalid = found.filter { $0.rule == RuleID.invalidInput }
        try #require(invalid.count == 1, "\(found.map(\.message))")
        #expect(invalid[0].flow == "UploadController.upload")
        #expect(invalid[0].message.hasPrefix("Swift syntax error"))
        #expect(invalid[0].location?.file == "UploadController.swift")
        #expect(found.allSatisfy { $0.rule == RuleID.invalidInput }, "\(found.map(\.rule))")
    }

    @Test("a broken file without flows that a flow's file uses is invalid-input on its own (a note when it names no flow library, an error when it does); a well-formed file beside it is read and checked; one nothing uses is not parsed")
    func brokenHelper() throws {
        let broken = """
            struct Keys {
                static let token = "token"
                static func all() -> [String] { [token, }
            }
            """
        let fine = """
            import Syrup
            enum Ping: Progression {
                case send(URL), stuck, done
                static let label = Keys.token
                init(url: URL) { self = .send(url) }
                mutating func updateOrDeferNext() -> Deferred<Ping>? {
                    switch self {
                    case .send: self = .stuck
                    case .stuck: return nil
                    case .done: return nil
                    }
                }
                var result: Bool? { self == .done ? true : nil }
            }
            """
        let found = report([(name: "Keys.swift", text: broken), (name: "Ping.swift", text: fine)])
        let invalid = found.filter { $0.rule == RuleID.invalidInput }
        #expect(invalid.count == 1 && invalid[0].flow == nil && invalid[0].location?.file == "Keys.swift", "\(invalid)")
        // Keys.swift names no flow library (old or foreign Swift): a note, which fails no run.
        #expect(invalid.first?.severity == .note)
        #expect(invalid.first?.message.contains("in a file that names no flow library") == true, "\(invalid)")
        #expect(found.contains { $0.rule == "stuck-step" && $0.flow == "Ping" })
        // The same file naming a library it uses is one the flows may depend on: an error.
        let withLibrary = report([(name: "Keys.swift", text: "typealias Later = Deferred<Ping>\n" + broken), (name: "Ping.swift", text: fine)])
        #expect(withLibrary.filter { $0.rule == RuleID.invalidInput }.map(\.severity) == [.error])
        // Without `Keys.token`, nothing connects Keys.swift to a flow: it is not parsed (its errors are
        // the compiler's), and the flow's findings are the same.
        let alone = report([(name: "Keys.swift", text: broken),
                            (name: "Ping.swift", text: fine.replacingOccurrences(of: "    static let label = Keys.token\n", with: ""))])
        #expect(!alone.contains { $0.rule == RuleID.invalidInput })
        #expect(alone.contains { $0.rule == "stuck-step" && $0.flow == "Ping" })
    }

    @Test("a well-formed file gives no invalid-input")
    func wellFormed() {
        let text = "import Syrup\nenum A: Progression { case a\n mutating func updateOrDeferNext() -> Deferred<A>? { switch self { case .a: return nil } }\n var result: Int? { 1 } }\n"
        #expect(!load([(name: "A.swift", text: text)]).loadFindings.contains { $0.rule == RuleID.invalidInput })
    }
}
