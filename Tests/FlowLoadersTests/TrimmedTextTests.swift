import Foundation
import FlowModel
@testable import FlowLoaders
import SwiftSyntax
import Testing

/// `SyntaxProtocol.trimmedText`, the readers' text of a node, is swift-syntax's `trimmedDescription`
/// taken from the node's bytes instead of a trimmed copy of the node: the same text for every node.
@Suite struct TrimmedTextTests {
    /// Every node of a tree, missing tokens and unexpected code included.
    private final class AllNodes: SyntaxAnyVisitor {
        var nodes: [Syntax] = []
        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
            nodes.append(node)
            return .visitChildren
        }
    }

    @Test("trimmedText is trimmedDescription for every node: trivia at either end, comments, broken code, non-ASCII, line ends")
    func sameTextAsTrimmedDescription() throws {
        let texts = [
            "",
            "   \n// only a comment\n",
            "let a = 1\n",
            "  /* lead */ let a: [String: Int?] = [:] // trail\n",
            "func f( {\n",
            "let x = ) 1 +\n",
            "class A: B, C<D> where D: E { var b: Int { get } }\r\n/// doc\r\nenum É: String { case é = \"é\", ü }\r\n",
            "if a == \"😀\" { setData(name: \"k\", value: x ?? y) } else if b { }\n#if DEBUG\nstruct S {}\n#endif\n",
            "@objc(x) private static func g<T>(_ t: T) async throws -> T? where T: P { return /* c */ t }\n",
            "<<<<<<< HEAD\nlet a = 1\n=======\nlet a = 2\n>>>>>>> b\n",
        ] + (try swiftSampleTexts())
        var compared = 0
        for text in texts {
            let file = ParsedSwiftFile(SourceText(file: InputFile(path: "T.swift"), contents: text))
            let visitor = AllNodes(viewMode: .all)
            visitor.walk(file.tree)
            for node in visitor.nodes {
                #expect(node.trimmedText == node.trimmedDescription, "\(node.kind) at \(node.position.utf8Offset) of \(text.prefix(40))")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }
}
