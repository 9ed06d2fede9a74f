import FlowLensTestSupport
import FlowLensTesting
import FlowModel
import Foundation
import Testing

/// The FlowState source loader and reflection feed one assembler (`FlowStateAssembler`): a machine
/// whose links are all set while it is built (Checkout/CheckoutSteps.swift, compiled into this target
/// and read as source) comes out the same both ways, but for what only one side can know.
@Suite("FlowState: the source loader and reflection build the same flow")
struct FlowStateAssemblyTests {
    static let sourceFile = packageRoot + "/Tests/FlowReflectionTests/Checkout/CheckoutSteps.swift"

    @Test("steps, transitions, data, outputs and entries agree; only reflection's unknown closures differ")
    func sameFlowBothWays() throws {
        let source = FlowLens.load([Self.sourceFile]).flows.filter { $0.kind == .flowState }
        try #require(source.count == 1, "\(source.map(\.id))")
        let theirs = source[0]
        let reflected = try FlowReflector().graph(of: CheckoutSteps(), name: theirs.name)
        try #require(reflected.flows.count == 1)
        var mine = reflected.flows[0]
        #expect(mine.id == theirs.id && mine.name == theirs.name && mine.kind == theirs.kind)

        // Reflection cannot read closures: every FlowStep may set any content; the source sees they do not.
        #expect(mine.steps.filter { $0.mayWriteAnything }.map { $0.id } == theirs.steps.filter { $0.contentType != nil }.map(\.id))
        #expect(!theirs.steps.contains { $0.mayWriteAnything })
        for i in mine.steps.indices { mine.steps[i].unresolved = [] }

        #expect(FlowFacts(mine) == FlowFacts(theirs))
        // Pinned, so that two equally wrong builds cannot agree.
        #expect(FlowFacts(theirs).steps == [
            "cartStep 'Review cart' operation", "extrasStep 'Extras' parallel", "extrasStep.join 'Extras done' join",
            "Gift message 'Gift message' operation", "Gift wrap 'Gift wrap' operation", "paymentStep 'Payment' operation",
            "receipt 'receipt' operation", "end 'end' end",
        ])
        #expect(FlowFacts(theirs).transitions == [
            "cartStep -> extrasStep label=- condition=- kind=normal",
            "extrasStep -> Gift message label=- condition=- kind=parallel",
            "extrasStep -> Gift wrap label=- condition=- kind=parallel",
            "extrasStep.join -> paymentStep label=- condition=- kind=normal",
            "Gift message -> extrasStep.join label=- condition=- kind=normal",
            "Gift wrap -> extrasStep.join label=- condition=- kind=normal",
            "paymentStep -> receipt label=- condition=- kind=normal",
            "receipt -> end label=- condition=- kind=normal",
        ])
        func types(_ accesses: [DataAccess]) -> [String] {
            accesses.map { "\($0.key): \($0.type?.spelling ?? "?")\($0.optional ? " optional" : "")" }
        }
        #expect(types(mine.outputs) == types(theirs.outputs))
        #expect(types(theirs.outputs) == ["cartStep.content: [String] optional", "paymentStep.content: Int optional"])
        #expect(types(theirs.step("Gift wrap")!.reads).isEmpty)
        #expect(theirs.step("receipt")?.implementation == "ReceiptPrinter" && mine.step("receipt")?.implementation == "ReceiptPrinter")
        #expect(mine.entries == theirs.entries && theirs.entries == ["cartStep"])
        #expect(mine.limitations.isEmpty && theirs.limitations.isEmpty)
        // No closure sets the gift message: the source knows, reflection cannot, and stays silent.
        #expect(findingKeys(FlowLens.analyze(FlowGraph(flows: source)).findings, flow: theirs.name)
                    == ["content-never-set note step=Gift message key=Gift message.content"])
        #expect(findingKeys(FlowLens.analyze(reflected).findings, flow: mine.name).isEmpty)
    }
}
