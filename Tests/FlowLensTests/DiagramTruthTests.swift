@testable import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// What every sample's SVG shows, read back from the rendered text: the picture must say what the
/// report says.
@Suite("every sample's diagram says what the report says")
struct DiagramTruthTests {
    /// The lines of text an SVG shows, entities decoded.
    static func texts(_ svg: Data) -> [String] {
        let text = String(decoding: svg, as: UTF8.self)
        return text.matches(of: /<text[^>]*>([^<]*)<\/text>/).map { match in
            String(match.output.1)
                .replacingOccurrences(of: "&#45;", with: "-").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test("the parts of a split Mermaid diagram never share a file name with another flow's diagram")
    func mermaidPartNames() throws {
        var big = LargeFlow.make(steps: 1000)
        big.name = "Big"
        let impostor = Flow(id: "impostor", name: "Big.part2", kind: .declarative, steps: [Step(id: "only", name: "I am the impostor")])
        let report = FlowLens.analyze(FlowGraph(flows: [big, impostor]))
        let folder = NSTemporaryDirectory() + "flowlens-parts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = try Exporter(format: .mermaid).export(report, to: folder)
        #expect(Set(written).count == written.count)
        let parts = MermaidExport.diagrams(for: big, in: report)
        #expect(parts.count > 1)
        let second = try String(contentsOfFile: folder + "/Big.part2.mmd", encoding: .utf8)
        #expect(second == parts[1].text)
        // A flow's own file name never ends in `.partN`: `Exporter.fileNames` makes the dot a dash.
        let own = try String(contentsOfFile: folder + "/Big-part2.mmd", encoding: .utf8)
        #expect(own.contains("I am the impostor"))
    }

    @Test("names, labels, finding marks, status and legend of every sample flow are in its rendered SVG")
    func everySample() throws {
        let report = FlowLens.check(["samples"], workingDirectory: packageRoot)
        #expect(report.graph.flows.count > 40)
        for flow in report.graph.flows {
            let diagram = DOTBuilder().diagram(for: flow, findings: report.findings, flows: report.graph.flows)
            let shown = Self.texts(try Graphviz.render(dot: diagram.dot, format: .svg))
            let status = FlowStatus(of: flow, findings: report.findings, flows: report.graph.flows)
            // The title's status, and no other.
            #expect(shown.contains("\(flow.kind.noun) · \(status.text)"), "\(flow.name): \(status.text)")
            if status.worst != nil { #expect(!shown.contains { $0.contains("no problems found") }, "\(flow.name)") }
            // Every step with a name box shows its name; every labelled transition its label.
            for step in flow.steps where step.kind != .join && (!flow.kind.isStateMachine || (step.kind != .start && step.kind != .end)) {
                for line in step.name.split(separator: "\n") {
                    let visible = DisplayText.visible(String(line))
                    #expect(shown.contains { $0.contains(visible) }, "\(flow.name): step \(visible)")
                }
            }
            for transition in flow.transitions {
                guard let label = transition.displayLabel else { continue }
                for line in label.split(separator: "\n") {
                    #expect(shown.contains { $0.contains(DisplayText.visible(String(line))) }, "\(flow.name): \(line)")
                }
            }
            // Every finding drawn says what it is, with its severity's glyph; the legend lists exactly
            // the severities drawn.
            for finding in diagram.marks.keys {
                let phrase = FindingPhrase.text(finding, stateMachine: flow.kind.isStateMachine)
                #expect(shown.contains(DisplayText.visible(phrase)), "\(flow.name): \(phrase)")
            }
            let drawn = Set(diagram.marks.keys.map(\.severity))
            for severity in Severity.allCases where severity != .error {
                #expect(shown.contains(SeverityStyle.legendText(severity)) == drawn.contains(severity), "\(flow.name): legend \(severity)")
            }
            if drawn.contains(.error) { #expect(shown.contains(SeverityStyle.legendText(.error)), "\(flow.name)") }
            // A mark is only drawn for a severity that is there (a "no such step" node is an error mark).
            if !drawn.contains(.warning) { #expect(!shown.contains { $0.hasPrefix("▲ ") }, "\(flow.name)") }
            if !drawn.contains(.error) && !shown.contains(where: { $0.hasPrefix("no such st") }) {
                #expect(!shown.contains { $0.hasPrefix("✖ ") }, "\(flow.name)")
            }
        }
    }
}
