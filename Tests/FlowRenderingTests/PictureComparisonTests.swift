import FlowLensTestSupport
import Foundation
import Testing

/// The comparison of committed pictures (Tests/Support/Pictures.swift): Graphviz's geometry aside,
/// the text and structure must be the same.
@Suite("Committed pictures: text and structure, not geometry")
struct PictureComparisonTests {
    static let svg = try! String(contentsOfFile: packageRoot + "/output/explain/Delivery-deliverySlot.svg", encoding: .utf8)

    /// `svg` as another Graphviz build or other fonts might draw it: every number moved, another version.
    static func elsewhere(_ svg: String) -> String {
        svg.replacingOccurrences(of: "graphviz version 2.43.0 (0)", with: "graphviz version 12.2.1 (20241206.2353)")
            .replacing(#/\s(x|y|points|viewBox|transform|width|height)="[^"]*"/#) { match in
                String(String(match.output.0).map { $0.isNumber ? Character(String(($0.wholeNumberValue! + 1) % 10)) : $0 })
            }
    }

    @Test("moved geometry and another Graphviz version are the same picture")
    func geometryAside() {
        let moved = Self.elsewhere(Self.svg)
        #expect(moved != Self.svg)
        #expect(Picture.mismatch(Data(Self.svg.utf8), Data(moved.utf8), name: "d.svg") == nil)
    }

    @Test("changed text, colour or structure is another picture; other files compare their bytes")
    func textAndStructure() throws {
        let moved = Self.elsewhere(Self.svg)
        for changed in [moved.replacingOccurrences(of: ">Delivery<", with: ">Deliveries<"),
                        moved.replacingOccurrences(of: "fill=\"#2b3340\"", with: "fill=\"#ff0000\""),
                        moved.replacingOccurrences(of: "<g id=\"flow&#45;data\" class=\"node\">", with: "<g id=\"flow&#45;data\" class=\"edge\">")] {
            #expect(changed != moved)
            let mismatch = try #require(Picture.mismatch(Data(Self.svg.utf8), Data(changed.utf8), name: "d.svg"))
            #expect(mismatch.contains("differs at line"))
        }
        #expect(Picture.mismatch(Data("a 1.5".utf8), Data("a 1.6".utf8), name: "x.txt") != nil)
        #expect(Picture.mismatch(nil, Data("a".utf8), name: "x.svg") != nil)
        #expect(Picture.mismatch(nil, nil, name: "x.svg") == nil)
    }
}
