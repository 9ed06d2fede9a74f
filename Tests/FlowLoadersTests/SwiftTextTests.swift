import Foundation
import FlowModel
@testable import FlowLoaders
import SwiftParser
import SwiftSyntax
import Testing

/// What the Swift readers take from swift-syntax's tree more cheaply than its own API gives it, and
/// must give the same: a node's trimmed text (`SyntaxProtocol.trimmedText`, swift-syntax's
/// `trimmedDescription` without a trimmed copy of the node) and a position's line and column
/// (`SwiftLines`, `SourceLocationConverter`'s without a walk of every token).
@Suite struct SwiftTextTests {
    /// Swift texts with every kind of trivia, broken code, non-ASCII characters and line end.
    private func texts() throws -> [String] {
        [
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
            "let s = \"\"\"\r\n  two\rlines\n  \"\"\"\r\r\n\n#sourceLocation(file: \"g.swift\", line: 100)\nlet t = 1\n#sourceLocation()\nlet u = 2",
            "\r\n\r\n  x\r",
        ] + (try swiftSampleTexts())
    }

    @Test("trimmedText is trimmedDescription for every node: trivia at either end, comments, broken code, non-ASCII, line ends")
    func sameTextAsTrimmedDescription() throws {
        var compared = 0
        for text in try texts() {
            let file = ParsedSwiftFile(SourceText(file: InputFile(path: "T.swift"), contents: text))
            for node in allNodes(of: file.tree, viewMode: .all) {
                #expect(node.trimmedText == node.trimmedDescription, "\(node.kind) at \(node.position.utf8Offset) of \(text.prefix(40))")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }

    @Test("SwiftLines gives SourceLocationConverter's line and column for every token: LF, CR, CRLF, multi-line strings, #sourceLocation")
    func sameLinesAsSourceLocationConverter() throws {
        var compared = 0
        for text in try texts() {
            let tree = Parser.parse(source: text)
            let converter = SourceLocationConverter(fileName: "T.swift", tree: tree)
            let lines = SwiftLines(text)
            for token in tree.tokens(viewMode: .all) {
                for position in [token.position, token.positionAfterSkippingLeadingTrivia, token.endPositionBeforeTrailingTrivia, token.endPosition] {
                    let expected = converter.location(for: position)
                    let (line, column) = lines.location(of: position.utf8Offset)
                    #expect(line == expected.line && column == expected.column,
                            "offset \(position.utf8Offset) of \(text.prefix(40).debugDescription): \(line):\(column), not \(expected.line):\(expected.column)")
                    compared += 1
                }
            }
        }
        #expect(compared > 10_000)
    }
}
