import FlowLoaders
import FlowLensTestSupport
import FlowModel
@testable import FlowRendering
import FlowRules
import Testing

/// A machine nested hundreds of levels deep is drawn without recursing that deep (issue 16: the DOT
/// and Mermaid writers overflowed the stack on a thousand nested composite states).
@Suite struct NestingRenderingTests {
    /// `depth` composite states, each holding the next, as PlantUML.
    private func nested(_ depth: Int) -> String {
        var lines = ["@startuml", "[*] --> Level0"]
        for level in 0..<depth { lines += ["state Level\(level) {", "  [*] --> Level\(level + 1)"] }
        lines.append("state Level\(depth)")
        lines += Array(repeating: "}", count: depth)
        lines += ["Level0 --> [*]", "@enduml"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func deeplyNestedMachinesAreDrawnToABoundedDepth() throws {
        let graph = load(nested(400), file: "Nested.puml")
        let flows = graph.flows
        let top = try #require(flows.first { $0.name == "Nested" } ?? flows.first)
        let findings = Analyzer().analyze(graph)
        let dot = DOTBuilder().dot(for: top, findings: findings, flows: flows)
        #expect(dot.components(separatedBy: "subgraph cluster_").count - 1 == DOTBuilder.maximumNestedMachines)
        let mermaid = MermaidBuilder().diagrams(for: top, findings: findings, flows: flows).map(\.text).joined()
        #expect(mermaid.contains("has its own states, drawn in its own diagram"))
        #expect(mermaid.components(separatedBy: "\" as ").count > 1)
    }

    @Test func shallowMachinesAreStillDrawnInside() {
        let graph = load(nested(3), file: "Shallow.puml")
        let flows = graph.flows
        guard let top = flows.first else { Issue.record("no flow"); return }
        let dot = DOTBuilder().dot(for: top, findings: [], flows: flows)
        #expect(dot.components(separatedBy: "subgraph cluster_").count - 1 == 3)
    }
}
