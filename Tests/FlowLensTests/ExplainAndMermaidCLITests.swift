import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

@Suite("CLI: explain and Mermaid export")
struct ExplainAndMermaidCLITests {
    @Test("explain shows the path on which a key is missing, exit 1")
    func missing() throws {
        let run = try flowlens(["explain", "Delivery", "--key", "deliverySlot", "samples/declarative/broken/missing-data-key.flow.yaml"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("MISSING: samples/declarative/broken/missing-data-key.flow.yaml:33:11: step 'Show summary' reads 'deliverySlot'"))
        if let mismatch = goldenMismatch(run.stdout, name: "explain-missing.txt") { Issue.record(Comment(rawValue: mismatch)) }
    }

    @Test("explain says when a key is always set before it is read, exit 0")
    func alwaysSet() throws {
        let run = try flowlens(["explain", "checkout", "--key", "lineItems", "samples/declarative/checkout.flow.yaml"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Always set before it is read"))
        if let mismatch = goldenMismatch(run.stdout, name: "explain-always-set.txt") { Issue.record(Comment(rawValue: mismatch)) }
    }

    @Test("explain --format json agrees with the text")
    func json() throws {
        let run = try flowlens(["explain", "delivery", "--key", "deliverySlot", "--format", "json", "samples/declarative/broken/missing-data-key.flow.yaml"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["key"] as? String == "deliverySlot")
        #expect(object["alwaysSetBeforeRead"] as? Bool == false)
        let missing = try #require(object["missing"] as? [String: Any])
        #expect(missing["path"] as? [String] == ["chooseDelivery", "choosePickupStore", "deliveryChosen", "showSummary"])
        #expect((object["paths"] as? [Any])?.count == 2)
    }

    @Test("explain works on a flow of every loader")
    func everyLoader() throws {
        for (flow, key, folder) in [("LoginViewController.loginFromForm", "authToken", "samples/flow-ios"),
                                    ("LoginFlow", "nonexistent", "samples/flowkit")] {
            let run = try flowlens(["explain", flow, "--key", key, folder])
            #expect(run.status != 0 || run.stdout.contains("Paths"), "\(flow): \(run.stderr)")
        }
    }

    @Test("unknown or ambiguous flows and keys are errors with close matches, exit 2")
    func errors() throws {
        let file = "samples/declarative/broken/missing-data-key.flow.yaml"
        let key = try flowlens(["explain", "Delivery", "--key", "delivrySlot", file])
        #expect(key.status == 2)
        #expect(key.stderr.contains("never reads or writes 'delivrySlot'; did you mean 'deliverySlot'?"))
        let flow = try flowlens(["explain", "Delivry", "--key", "deliverySlot", file])
        #expect(flow.status == 2)
        #expect(flow.stderr.contains("no flow is named 'Delivry'; did you mean 'Delivery'"))
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let twice = """
            version: 1
            flows:
              - {name: Same, id: first, steps: [{id: a, kind: end}]}
              - {name: Same, id: second, steps: [{id: a, kind: end}]}
            """
        try twice.write(toFile: folder + "/twice.flow.yaml", atomically: true, encoding: .utf8)
        let ambiguous = try flowlens(["explain", "Same", "--key", "x", folder])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("2 flows are named 'Same'; name one by its id: 'first', 'second'"))
        let help = try flowlens(["explain", "--help"])
        #expect(help.stdout.contains("EXAMPLES") && help.stdout.contains("--diagram"))
    }

    @Test("explain --diagram draws writers, readers and the missing path")
    func diagram() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try flowlens(["explain", "Delivery", "--key", "deliverySlot", "--diagram", folder + "/d.dot", "samples/declarative/broken/missing-data-key.flow.yaml"])
        #expect(run.status == 1)
        let dot = try String(contentsOfFile: folder + "/d.dot", encoding: .utf8)
        #expect(dot.contains("color=\"#2E7D32\", penwidth=3];"))  // bookCourier sets it
        #expect(dot.contains("color=\"#C62828\", penwidth=4];"))  // Show summary reads it where missing
        #expect(dot.contains("s0 -> s2 [label=<otherwise>, color=\"#C62828\", penwidth=3"))  // the path
        #expect(!dot.contains("s0 -> s1 [label=<deliveryMethod = courier>, color"))
        #expect(dot.contains("red: a path where ‘deliverySlot’ is missing"))
        let svg = try flowlens(["explain", "Delivery", "--key", "deliverySlot", "--diagram", folder + "/d.svg", "samples/declarative/broken/missing-data-key.flow.yaml"])
        #expect(svg.status == 1)
        #expect(try String(contentsOfFile: folder + "/d.svg", encoding: .utf8).contains("<svg"))
        let bad = try flowlens(["explain", "Delivery", "--key", "deliverySlot", "--diagram", folder + "/d.txt", "samples/declarative"])
        #expect(bad.status == 2)
    }

    @Test("export --format mermaid and md write one file per flow, renderable")
    func export() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for format in ["mermaid", "md"] {
            let run = try flowlens(["export", "samples", "--output", folder + "/" + format, "--format", format])
            #expect(run.status == 2)  // samples hold unreadable files on purpose
            let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + format).sorted()
            let ext = format == "mermaid" ? ".mmd" : ".md"
            #expect(files.filter { $0.hasSuffix(ext) }.count > 50)
            #expect(files.contains("Login-Flow" + ext) && files.contains("Delivery" + ext))  // a FlowKit machine is named by its title
        }
        let login = try String(contentsOfFile: folder + "/mermaid/Login-Flow.mmd", encoding: .utf8)
        #expect(login.hasPrefix("stateDiagram-v2\n"))
        let delivery = try String(contentsOfFile: folder + "/md/Delivery.md", encoding: .utf8)
        #expect(delivery.hasPrefix("# Delivery\n"))
        #expect(delivery.contains("```mermaid\nflowchart TD\n"))
        #expect(delivery.contains("- ✖ **error** `samples/declarative/broken/missing-data-key.flow.yaml:33:11`: "))
        if let result = try validateWithMermaid(folder: folder) { #expect(result.status == 0, "\(result.stdout)\(result.stderr)") }
    }
}

extension ExplainAndMermaidCLITests {
    @Test("output/explain/ is what scripts/setup.sh's explain command writes")
    func committedExplainDiagram() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["explain", "Delivery", "--key", "deliverySlot", "samples/declarative/broken/missing-data-key.flow.yaml",
                                "--diagram", directory + "/d.svg"])
        #expect(run.status == 1, "\(run.stderr)")
        let mismatch = Picture.mismatch(FileManager.default.contents(atPath: packageRoot + "/output/explain/Delivery-deliverySlot.svg"),
                                        FileManager.default.contents(atPath: directory + "/d.svg"), name: "Delivery-deliverySlot.svg")
        #expect(mismatch == nil, "output/explain/ is stale: run scripts/setup.sh and commit output/\n\(mismatch ?? "")")
    }
}
