import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Issue 50, defect 6: the FlowKit login sample's diagram, as `flowlens export` draws it.
@Suite("a state diagram says each result type once and keeps a clipped edge's label by it", .serialized)
struct DiagramCosmeticsCLITests {
    @Test("the login sample: 'OAuthToken' and 'Credentials' once each; 'not implemented' beside its edge's end, not on the uncut line")
    func loginSample() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for file in ["LoginFlow.puml", "LoginFlowController.swift"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/samples/flowkit/" + file, toPath: root + "/" + file)
        }
        let result = try flowlens(["export", "LoginFlow.puml", "LoginFlowController.swift", "--output", "out", "--format", "dot"], in: root)
        #expect(result.status == 1, "\(result.stderr)")
        let dot = try String(contentsOfFile: root + "/out/Login-Flow.dot", encoding: .utf8)
        #expect(dot.components(separatedBy: ">OAuthToken<").count - 1 == 1, "\(dot)")
        // Inside the composite: the final state's result, not again on the edge into it.
        let inner = try #require(dot.split(separator: "\n").first { $0.hasPrefix("  c0_s2 -> c0_s3") })
        #expect(!inner.contains("Credentials"), "\(inner)")
        // The edge out of the composite that the code does not implement: cut at the cluster, its
        // words go beside the end at the state.
        let clipped = try #require(dot.split(separator: "\n").first { $0.contains("not implemented in code") && $0.contains("cluster_0") })
        #expect(!clipped.contains(" label=<") && (clipped.contains("taillabel=<") || clipped.contains("headlabel=<")), "\(clipped)")
    }
}
