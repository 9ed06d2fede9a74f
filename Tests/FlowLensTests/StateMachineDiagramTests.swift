import FlowLens
import Foundation
import Testing

@Suite("FlowKit diagrams through the facade")
struct StateMachineDiagramTests {
    /// A machine with one composite, as the PlantUML loader produces it, and a finding inside the composite.
    private func report() -> Report {
        let outer = Flow(id: "Login", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start, contentType: "Void"),
            Step(id: "CreateAccount", kind: .subflow, contentType: "Void", subflow: "CreateAccount"),
            Step(id: "End", kind: .end, contentType: "Credentials"),
        ], transitions: [
            Transition(from: "Begin", to: "CreateAccount"),
            Transition(from: "CreateAccount", to: "End", label: "Credentials", carriedType: "Credentials"),
        ])
        let inner = Flow(id: "CreateAccount", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start, contentType: "Void"),
            Step(id: "EnterInfo", kind: .state, contentType: "Form"),
            Step(id: "End", kind: .end, contentType: "Credentials"),
        ], transitions: [
            Transition(from: "Begin", to: "EnterInfo"),
            Transition(from: "EnterInfo", to: "End", label: "Credentials", carriedType: "Credentials"),
        ], parent: "Login")
        let finding = Finding(rule: "stuck-step", severity: .warning, message: "EnterInfo waits forever.",
                              location: SourceLocation(file: "Login.puml", line: 4), flow: "CreateAccount", step: "EnterInfo")
        return Report(graph: FlowGraph(flows: [outer, inner]), findings: [finding])
    }

    @Test("FlowLens.dot draws a composite with its sub-machine and the sub-machine's findings")
    func dot() {
        let report = report()
        let dot = FlowLens.dot(for: report.graph.flows[0], in: report)
        #expect(dot.contains("subgraph cluster_0 {"))
        #expect(dot.contains("<B>EnterInfo</B>"))
        #expect(dot.contains("▲ can get stuck"))
        #expect(dot.contains("FlowKit state machine · 1 warning"))
        // The sub-machine's own diagram is unchanged by being nested elsewhere.
        let own = FlowLens.dot(for: report.graph.flows[1], in: report)
        #expect(!own.contains("subgraph cluster_"))
        #expect(own.contains("▲ can get stuck"))
    }

    @Test("the exporter still writes one diagram per machine, composites included")
    func export() throws {
        let folder = NSTemporaryDirectory() + "flowlens-flowkit-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = try Exporter(format: .dot).export(report(), to: folder)
        #expect(written.map { ($0 as NSString).lastPathComponent } == ["Login.dot", "CreateAccount.dot", "report.json"])
        let login = try String(contentsOfFile: written[0], encoding: .utf8)
        #expect(login == FlowLens.dot(for: report().graph.flows[0], in: report()))
        #expect(login.contains("subgraph cluster_0 {"))
        let svg = try Exporter(format: .svg).export(report(), to: folder)
        #expect(try String(contentsOfFile: svg[0], encoding: .utf8).contains("<g id=\"cluster&#45;0\" class=\"cluster\""))
    }
}
