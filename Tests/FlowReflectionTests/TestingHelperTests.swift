import FlowLensTestSupport
import FlowLensTesting
import FlowModel
import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// An inbox flow: signs in, then fetches the inbox with the token. `broken` leaves out the sign-in.
func inboxFlow(broken: Bool) -> Flow {
    let flow = Flow()
    flow.add(operation: broken ? NoDataOp() as FlowOperation : SignInOp())
    flow.add(operation: FetchInboxOp())
    return flow
}

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "flowlens-reflection-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("FlowLensTesting and the README's snippet")
struct TestingHelperTests {
    @Test("expectNoFlowDefects records one issue whose message lists the findings")
    func recordsReadableIssue() throws {
        let graph = try FlowReflector().graph(of: inboxFlow(broken: true), name: "Inbox")
        let expected = """
            1 flow defect in Inbox:
              error: step 'FetchInboxOp' reads 'token', but no step sets it and the flow does not start with it (flow 'Inbox', step 'FetchInboxOp') [missing-data-key]
            """
        // An issue with any other message is not the known one: it fails the test, showing its text.
        withKnownIssue("FetchInboxOp reads a token nobody sets") {
            expectNoFlowDefects(graph)
        } matching: { issue in
            issue.comments.map(\.rawValue) == [expected]
        }
    }

    @Test("expectNoFlowDefects passes on a clean flow and returns the report")
    func passesOnCleanFlow() throws {
        let report = expectNoFlowDefects(try FlowReflector().graph(of: inboxFlow(broken: false), name: "Inbox"))
        #expect(report.findings.isEmpty)
        #expect(report.graph.flows.map(\.name) == ["Inbox"])
    }

    @Test("warnings fail only when strict")
    func strict() throws {
        // A key written for nobody: a warning.
        let graph = try FlowReflector().graph(of: Flow().add(operation: SignInOp()), name: "Sign in")
        expectNoFlowDefects(graph)
        withKnownIssue {
            expectNoFlowDefects(graph, strict: true)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("warning: step 'SignInOp' writes 'token', but no later step reads it")
        }
    }

    @Test("the planted defects of PhotoShare, as a test run would print them")
    func photoShareMessage() throws {
        var graph = FlowGraph()
        for (name, flow) in photoShareFlows() where name.hasPrefix("BrokenFlowsViewController.login") {
            graph.merge(try FlowReflector().graph(of: flow, name: name))
        }
        let report = FlowLens.analyze(graph)
        #expect(FlowLensTesting.message(for: FlowLensTesting.failures(in: report, strict: false), in: report) == """
            2 flow defects in BrokenFlowsViewController.loginWithRenamedEmailKey, BrokenFlowsViewController.loginWithNumericPassword:
              error: step 'LoginOp' reads 'email', but no step sets it and the flow does not start with it (flow 'BrokenFlowsViewController.loginWithRenamedEmailKey', step 'LoginOp') [missing-data-key]
              error: step 'LoginOp' reads 'password' as String, but it is written as Int by the flow's initial data (flow 'BrokenFlowsViewController.loginWithNumericPassword', step 'LoginOp') [type-mismatch]
            """)
    }

    @Test("the README's snippet: reflect, analyse, expect no errors, export the same SVG as the CLI's exporter")
    func readmeSnippet() throws {
        let x = LoginViewController().loginWithDemoAccount()
        let tmpDir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: tmpDir) }

        let graph = try FlowReflector().graph(of: x)
        let report = FlowLens.analyze(graph)
        #expect(report.errors.isEmpty, "\(report)")
        try FlowLens.export(graph, to: tmpDir)

        // What `flowlens export` writes for a graph: Exporter over the analysed report.
        let viaExporter = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: viaExporter) }
        _ = try Exporter(format: .svg).export(FlowLens.analyze(graph), to: viaExporter)
        let names = try FileManager.default.contentsOfDirectory(atPath: tmpDir).sorted()
        #expect(names == ["Flow.svg", "report.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: viaExporter).sorted() == names)
        for name in names {
            #expect(FileManager.default.contents(atPath: tmpDir + "/" + name) == FileManager.default.contents(atPath: viaExporter + "/" + name), "\(name)")
        }
        let svg = try String(contentsOfFile: tmpDir + "/Flow.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("LoadProfileOp") && svg.contains("iOS flow · no problems found"))
    }

    @Test("FlowLens.export writes the bytes the flowlens binary writes, for the same graph")
    func exportIsTheCLIs() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flowlens").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the flowlens binary is built beside the tests (swift build)")
        let viaLibrary = try temporaryFolder(), viaCLI = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: viaLibrary); try? FileManager.default.removeItem(atPath: viaCLI) }

        try FlowLens.export(FlowLens.load(["samples/flow-ios"], workingDirectory: packageRoot), to: viaLibrary)
        _ = try run(binary, ["export", "samples/flow-ios", "--output", viaCLI])

        let names = try FileManager.default.contentsOfDirectory(atPath: viaLibrary).sorted()
        #expect(names.count == 15)
        #expect(try FileManager.default.contentsOfDirectory(atPath: viaCLI).sorted() == names)
        for name in names {
            #expect(FileManager.default.contents(atPath: viaLibrary + "/" + name) == FileManager.default.contents(atPath: viaCLI + "/" + name), "\(name)")
        }
    }
}

#if canImport(XCTest)
/// `XCTAssertNoFlowDefects` in an XCTest case (its failing side needs XCTExpectFailure, which Linux's
/// XCTest does not have; the message is the one the Swift Testing helper records, tested above).
final class XCTAssertNoFlowDefectsTests: XCTestCase {
    func testCleanFlowPasses() throws {
        let report = XCTAssertNoFlowDefects(try FlowReflector().graph(of: inboxFlow(broken: false), name: "Inbox"))
        XCTAssertEqual(report.findings.count, 0)
    }

    func testReportHasTheFindingsOfABrokenFlow() throws {
        let report = FlowLens.analyze(try FlowReflector().graph(of: inboxFlow(broken: true), name: "Inbox"))
        XCTAssertEqual(FlowLensTesting.failures(in: report, strict: false).map(\.rule), ["missing-data-key"])
    }
}
#endif
