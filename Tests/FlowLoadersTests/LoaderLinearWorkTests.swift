import Foundation
import FlowLensTestSupport
import FlowModel
@testable import FlowLoaders
import SwiftParser
import SwiftSyntax
import Testing

/// Shapes of source on which a loader, or a library's own rule, once did work quadratic in the file's
/// size (issue 16: "every loader is linear or near-linear in its input"). No test is timed: each checks
/// what is read from a file the old code took tens of seconds on, or checks a rewritten piece against
/// the one it replaced.
@Suite struct LoaderLinearWorkTests {
    @Test("a switch case item's text without its comma is what rebuilding the item without the comma gives")
    func caseItemTextWithoutComma() {
        let source = """
            switch value {
            case .a, .b: break
            case .c(let y) where y > 1 /* big */ , .d: break
            case   .e  ,
                 .f: break
            case let (p, q) where p == q, _: break
            case "x" , "y"// trailing
            , "z": break
            default: break
            }
            switch broken {
            case , .x: break
            }
            """
        final class Items: SyntaxVisitor {
            var items: [SwitchCaseItemSyntax] = []
            override func visit(_ node: SwitchCaseItemSyntax) -> SyntaxVisitorContinueKind {
                items.append(node)
                return .visitChildren
            }
        }
        let visitor = Items(viewMode: .sourceAccurate)
        visitor.walk(Parser.parse(source: source))
        #expect(visitor.items.count >= 12)
        #expect(visitor.items.filter { $0.trailingComma != nil }.count >= 6)
        for item in visitor.items {
            #expect(FlowStateSyntax.text(withoutComma: item) == item.with(\.trailingComma, nil).trimmedDescription, "\(item)")
        }
    }

    @Test("Flow-iOS: an operation with 600 conditional writes in a row reads each write's condition")
    func manyConditionalWrites() throws {
        let count = 600
        let blocks = (0..<count).map { i in
            """
                    if let v\(i): String = getData(name: "in\(i)", isOptional: true) {
                        if v\(i).count > \(i % 7) {
                            setData(name: "out\(i)", value: v\(i))
                        } else {
                            log(message: "short \(i)")
                        }
                    }

            """
        }.joined()
        let operations = """
            import Flow_iOS

            class BigOp: FlowOperation {
                override func mainLogic() {
                    guard let seed: String = getData(name: "seed") else { return }
            \(blocks)        setData(name: "bigDone", value: seed)
                    finishSuccessfully()
                }
            }
            """
        let controller = """
            import Flow_iOS

            class BigViewController: UIViewController {
                @IBAction func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["seed": "start"])
                        .add(operation: BigOp())
                        .start()
                }
            }
            """
        let graph = load([(name: "Ops.swift", text: operations), (name: "BigViewController.swift", text: controller)])
        #expect(graph.loadFindings.filter { $0.rule == RuleID.invalidInput }.isEmpty)
        let step = try #require(graph.flows.flatMap(\.steps).first { $0.writes.contains { $0.key == "bigDone" } })
        let writes = Dictionary(step.writes.map { ($0.key, $0.condition) }, uniquingKeysWith: { first, _ in first })
        #expect(writes.count == count + 1)
        #expect(writes["bigDone"] == .some(nil))  // on every successful run
        for i in [0, 1, 299, count - 1] {
            #expect(writes["out\(i)"] == .some("v\(i).count > \(i % 7) holds and let v\(i): String = getData(name: \"in\(i)\", isOptional: true) holds"))
        }
    }

    /// A search for each span's `"spanId"` through Foundation copied the rest of the line at each span
    /// (issue 49: 30,000 spans 15 s, 100,000 over two minutes); a chain of parents was searched at each
    /// step up it. 60,000 spans of one trace, one line, each the parent of the next.
    @Test("60,000 spans of one trace on one line, a chain of parents: every span read, in time", .timeLimit(.minutes(1)))
    func otlpSpansOfOneTraceOnOneLine() {
        let count = 60_000
        var spans = [#"{"traceId":"t","spanId":"s0","name":"Order","startTimeUnixNano":"1","endTimeUnixNano":"\#(10 * count + 10)","attributes":[{"key":"flow.name","value":{"stringValue":"Order"}}]}"#]
        for i in 1..<count {
            spans.append(#"{"traceId":"t","spanId":"s\#(i)","parentSpanId":"s\#(i - 1)","name":"pay","startTimeUnixNano":"\#(10 * i)","endTimeUnixNano":"\#(10 * i + 5)","attributes":[{"key":"flow.step","value":{"stringValue":"pay"}}]}"#)
        }
        let text = #"{"resourceSpans":[{"scopeSpans":[{"spans":["# + spans.joined(separator: ",") + "]}]}]}"
        let records = OTLPTraces.read(text, file: "spans.json")
        #expect(records.findings.isEmpty)
        #expect(records.events.count == 2 * (count - 1) + 1)
        #expect(records.events.allSatisfy { $0.flow == "Order" && $0.location.line == 1 })
    }
}
