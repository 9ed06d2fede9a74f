import Foundation
import FlowModel
@testable import FlowLoaders
import SwiftSyntax
import Testing

/// `ParsedSwiftFile.transientTree`: the readers' full walks run on a root of their own, so that what
/// they visit is freed after them, and the nodes they keep are taken again from `tree` by identifier.
@Suite struct TransientTreeTests {
    @Test("every node of the transient root is found in the kept tree by its identifier: same kind, same place")
    func identifiersCarryOverToTheKeptTree() throws {
        let texts = ["", "let a = 1\n", "#if DEBUG\nextension A { var b: [[Int: String?]] = [[:]] }\n#endif\nfunc f( {\n"] + (try swiftSampleTexts())
        #expect(texts.count > 8)
        for text in texts {
            let file = ParsedSwiftFile(SourceText(file: InputFile(path: "T.swift"), contents: text))
            // Over the same raw nodes, so identifiers (and `==`, which compares them) carry over.
            #expect(file.transientTree.id == file.tree.id)
            let transient = allNodes(of: file.transientTree)
            #expect(transient.count == allNodes(of: file.tree).count)
            for node in transient {
                let kept = try #require(file.tree.node(at: node.id))
                #expect(kept.kind == node.kind && kept.position == node.position && kept.endPosition == node.endPosition)
                #expect(kept.id == node.id)
            }
        }
    }
}
