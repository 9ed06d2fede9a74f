import FlowLoaders
import FlowModel
import FlowRules
import Foundation
import Testing

// A corpus of PlantUML state diagrams in the styles real projects write them (firmware, backend
// order and payment states, UI flows with and without FlowKit types, game states, protocol
// handshakes; arrows with directions, styles and colours, notes, composites, descriptions,
// skinparams, Creole markup), with the findings each one should get written down first in
// `Fixtures/plantuml-corpus/expected.txt`. FlowLens must report exactly those: no false alarm, no miss.

private let corpusRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()
    return url.appendingPathComponent("Fixtures/plantuml-corpus").path
}()

/// `file:line rule` for every line of `expected.txt` that is not a comment.
private func expectedFindings() throws -> Set<String> {
    let text = try String(contentsOfFile: corpusRoot + "/expected.txt", encoding: .utf8)
    return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") })
}

/// The whole corpus checked in one run, as `flowlens check` does it.
private func corpusRun() -> (graph: FlowGraph, findings: [Finding]) {
    let graph = SourceLoader().load(paths: ["."], workingDirectory: corpusRoot)
    return (graph, Analyzer().analyze(graph))
}

@Suite("PlantUML corpus: the findings written down before the run, and nothing else")
struct PlantUMLCorpusTests {
    @Test("the corpus holds at least 20 state diagrams in several styles")
    func size() throws {
        let files = (FileManager.default.enumerator(atPath: corpusRoot)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".puml") }
        #expect(files.count >= 20)
        for folder in ["firmware/", "backend/", "ui/", "game/", "protocol/", "broken/"] {
            #expect(files.contains { $0.hasPrefix(folder) }, "\(folder)")
        }
    }

    @Test("FlowLens's findings are exactly the expected ones (precision and recall 100%)")
    func findings() throws {
        let expected = try expectedFindings()
        let (_, findings) = corpusRun()
        let found = Set(findings.map { "\($0.location?.file ?? "-"):\($0.location?.line ?? 0) \($0.rule)" })
        let truePositives = found.intersection(expected).count
        let precision = found.isEmpty ? 1 : Double(truePositives) / Double(found.count)
        let recall = expected.isEmpty ? 1 : Double(truePositives) / Double(expected.count)
        print("plantuml-corpus: \(found.count) findings, \(expected.count) expected, \(truePositives) true; precision \(precision), recall \(recall)")
        #expect(found.subtracting(expected).sorted() == [], "false alarms")
        #expect(expected.subtracting(found).sorted() == [], "missed")
        #expect(findings.count == found.count, "one finding per defect: \(findings.map { "\($0.location?.description ?? "-") \($0.rule): \($0.message)" })")
    }

    @Test("every finding carries the id of its flow, and no finding or step shows raw markup or a literal \\n")
    func flowsAndText() throws {
        let (graph, findings) = corpusRun()
        let ids = Set(graph.flows.map(\.id))
        #expect(ids.count == graph.flows.count)
        for finding in findings {
            let flow = try #require(finding.flow, "\(finding.message)")
            #expect(ids.contains(flow))
            for raw in ["\\n", "**", "<b>", "<i>", "<u>", "<color", "//"] { #expect(!finding.message.contains(raw), "\(finding.message)") }
        }
        for flow in graph.flows {
            let texts = [flow.name] + flow.steps.map(\.name) + flow.steps.flatMap(\.details) + flow.transitions.compactMap(\.label)
            for text in texts {
                for raw in ["\\n", "**", "<b>", "</b>", "<i>", "<u>", "<color", "//"] { #expect(!text.contains(raw), "\(flow.id): \(text)") }
            }
        }
    }

    @Test("only diagrams written for FlowKit are FlowKit machines")
    func dialect() throws {
        let (graph, _) = corpusRun()
        func machine(_ file: String) throws -> Flow {
            try #require(graph.flows.first { $0.location?.file == file && $0.parent == nil }, "\(file)")
        }
        for file in ["ui/checkout_ui.puml", "ui/login_flowkit.puml", "ui/onboarding.puml", "ui/camera_flowkit.puml",
                     "ui/flowkit_events.puml", "ui/settings/a/AccountSettings.puml"] {
            #expect(try machine(file).kind == .flowKit, "\(file)")
        }
        for file in ["firmware/led_controller.puml", "firmware/motor_driver.puml", "backend/order_states.puml",
                     "game/player_states.puml", "protocol/tcp_handshake.puml", "ui/profile_wizard.puml", "protocol/ble_pairing.puml"] {
            let flow = try machine(file)
            #expect(flow.kind != .flowKit, "\(file)")
            #expect(flow.steps.allSatisfy { $0.contentType == nil }, "\(file): a plain diagram types nothing")
        }
    }

    @Test("two machines with one name in two folders are two flows, each with its own composite")
    func sameNameTwoFolders() throws {
        let (graph, _) = corpusRun()
        let roots = graph.flows.filter { $0.typeName == "AccountSettings" }
        #expect(roots.map(\.id) == ["AccountSettings", "AccountSettings@ui/settings/b/AccountSettings.puml"])
        #expect(roots.map(\.name) == ["Account Settings", "Account Settings"])
        for root in roots {
            let composite = try #require(root.steps.first { $0.kind == .subflow }?.subflow)
            let sub = try #require(graph.flows.first { $0.id == composite })
            #expect(sub.parent == root.id)
            #expect(sub.location?.file == root.location?.file)
        }
    }
}
