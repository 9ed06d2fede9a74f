import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowPresentation
@testable import FlowRendering
import FlowRules
import Foundation
import Testing

private let before = """
    version: 1
    flows:
      - name: Order
        data: {cartID: String, mode: String}
        steps:
          - {id: validate, name: Validate, reads: {cartID: String}, writes: {total: Decimal}, next: choose}
          - id: choose
            kind: branch
            next:
              - {to: card, when: {key: mode, equals: card}}
              - {to: pickup, otherwise: true, label: Pay at pickup}
          - {id: card, name: Charge card, reads: {total: Decimal}, writes: {reference: String}, next: done}
          - {id: pickup, name: Reserve pickup, writes: {reference: String}, next: done}
          - {id: done, kind: end}
    """

/// Adds `voucher` between validate and choose, removes `pickup` (its case now goes to card),
/// changes card's reads (total's type; a new key nobody sets: a new finding).
private let after = """
    version: 1
    flows:
      - name: Order
        data: {cartID: String, mode: String}
        steps:
          - {id: validate, name: Validate, reads: {cartID: String}, writes: {total: Decimal}, next: voucher}
          - {id: voucher, name: Apply voucher, reads: {total: Decimal}, writes: {total: Decimal}, next: choose}
          - id: choose
            kind: branch
            next:
              - {to: card, when: {key: mode, equals: card}}
              - {to: card, otherwise: true, label: Pay by card anyway}
          - {id: card, name: Charge card, reads: {total: Int, token: String}, writes: {reference: String}, next: done}
          - {id: done, kind: end}
    """

private func orderDiff() -> (diff: FlowDiff, findings: [Finding]) {
    let old = load(before, file: "old/order.flow.yaml"), new = load(after, file: "new/order.flow.yaml")
    return (FlowDiff(old: old.flows[0], new: new.flows[0]), Analyzer().analyze(new))
}

@Suite("flow diff")
struct FlowDiffTests {
    @Test("steps by id, transitions by ends and label, reads and writes by key")
    func compare() {
        let (diff, _) = orderDiff()
        #expect(diff.status == .changed)
        #expect(diff.steps(.added).map(\.id) == ["voucher"])
        #expect(diff.steps(.removed).map(\.id) == ["pickup"])
        #expect(diff.steps(.changed).map(\.id) == ["card"])
        #expect(diff.steps(.changed)[0].changes == ["+ needs token (String)", "needs total: Decimal → Int"])
        let added = diff.edges(.added).map { "\($0.transition.from)>\($0.transition.to)" }
        let removed = diff.edges(.removed).map { "\($0.transition.from)>\($0.transition.to)" }
        #expect(added == ["validate>voucher", "voucher>choose", "choose>card"])
        #expect(removed == ["validate>choose", "choose>pickup", "pickup>done"])
        // The union: the new steps, then the removed ones.
        #expect(diff.union.steps.map(\.id) == ["validate", "voucher", "choose", "card", "done", "pickup"])
        #expect(diff.union.transitions.count == diff.edges.count)
    }

    @Test("moving a definition (other lines) is not a change")
    func locationsIgnored() {
        let old = load(before, file: "a.flow.yaml"), moved = load("\n\n# moved\n" + before, file: "b.flow.yaml")
        let diff = FlowDiff(old: old.flows[0], new: moved.flows[0])
        #expect(diff.status == .unchanged)
        #expect(diff.steps.allSatisfy { $0.status == .unchanged } && diff.edges.allSatisfy { $0.status == .unchanged })
    }

    @Test("a new or a removed flow: every step added or removed")
    func wholeFlows() {
        let flow = load(before).flows[0]
        #expect(FlowDiff(old: nil, new: flow).steps.allSatisfy { $0.status == .added })
        let gone = FlowDiff(old: flow, new: nil)
        #expect(gone.status == .removed && gone.steps.allSatisfy { $0.status == .removed } && gone.edges.allSatisfy { $0.status == .removed })
    }

    @Test("the diff diagram of an operation flow matches its golden DOT file")
    func golden() {
        let (diff, findings) = orderDiff()
        let dot = DOTBuilder().dot(for: diff, findings: findings, newFindings: 1, fixedFindings: 0)
        if let mismatch = goldenMismatch(dot, name: "diff-order.dot") { Issue.record(Comment(rawValue: mismatch)) }
    }

    @Test("added green, removed red and dashed, changed blue with the change listed, and a legend")
    func marks() {
        let (diff, findings) = orderDiff()
        let dot = DOTBuilder().dot(for: diff, findings: findings)
        let lines = dot.split(separator: "\n")
        let voucher = lines.first { $0.contains("Apply voucher") }!
        #expect(voucher.contains("color=\"\(DiagramMarks.added)\""))
        let pickup = lines.first { $0.contains("Reserve pickup") }!
        #expect(pickup.contains("color=\"\(DiagramMarks.removed)\"") && pickup.contains("dashed"))
        let card = lines.first { $0.contains("<B>Charge card</B>") }!
        #expect(card.contains("color=\"\(DiagramMarks.changed)\""))
        #expect(card.contains("needs total: Decimal → Int") && card.contains("+ needs token (String)"))
        #expect(card.contains("never set: token"))  // the new version's finding, drawn as usual
        #expect(lines.contains { $0.contains("Pay at pickup") && $0.contains("style=dashed") && $0.contains(DiagramMarks.removed) })
        #expect(lines.contains { $0.contains("Pay by card anyway") && $0.contains(DiagramMarks.added) })
        for legend in ["green: added", "red, dashed: removed", "blue: changed"] { #expect(dot.contains(legend)) }
        // Renders.
        #expect((try? Graphviz.render(dot: dot, format: .svg)) != nil)
    }

    @Test("plain diagrams are unchanged by the diff support: no marks, no diff legend")
    func plainUnchanged() {
        let (diff, findings) = orderDiff()
        let dot = DOTBuilder().dot(for: diff.new!, findings: findings)
        #expect(!dot.contains("added") && !dot.contains(DiagramMarks.changed))
    }

    @Test("a FlowKit machine's diff: states and transitions marked in the state-machine style")
    func flowKit() {
        let old = Flow(id: "M", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start), Step(id: "A", kind: .state, contentType: "Int"), Step(id: "B", kind: .state),
            Step(id: "End", kind: .end),
        ], transitions: [Transition(from: "Begin", to: "A"), Transition(from: "A", to: "B", label: "go"), Transition(from: "B", to: "End")])
        var new = old
        new.steps[1].contentType = "String"
        new.steps.remove(at: 2)
        new.steps.insert(Step(id: "C", kind: .state), at: 2)
        new.transitions = [Transition(from: "Begin", to: "A"), Transition(from: "A", to: "C", label: "go"), Transition(from: "C", to: "End")]
        let dot = DOTBuilder().dot(for: FlowDiff(old: old, new: new), findings: [])
        if let mismatch = goldenMismatch(dot, name: "diff-flowkit.dot") { Issue.record(Comment(rawValue: mismatch)) }
        #expect(dot.contains("type: Int → String"))
        #expect((try? Graphviz.render(dot: dot, format: .svg)) != nil)
    }
}

/// The texts, node ids and edges of an SVG: what a reader can see.
private func visible(_ data: Data) -> (texts: [String], ids: [String], edges: [String]) {
    let svg = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "&#45;", with: "-")
    func all(_ pattern: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { String(svg[Range($0.range(at: 1), in: svg)!]) }.sorted()
    }
    return (all("<text[^>]*>([^<]*)</text>"), all("<g id=\"(step-[0-9]+)\" class=\"node\""), all("<g id=\"[^\"]*\" class=\"edge\">\\s*<title>([^<]*)</title>"))
}

@Suite("large flows")
struct LargeFlowTests {
    @Test("above the threshold the large layout is used; small diagrams keep the standard one")
    func threshold() {
        let small = LargeFlow.make(steps: 90), large = LargeFlow.make(steps: 200)
        #expect(small.steps.count <= DOTBuilder.largeFlowSteps && large.steps.count > DOTBuilder.largeFlowSteps)
        #expect(!DOTBuilder().dot(for: small, findings: []).contains("concentrate"))
        let dot = DOTBuilder().dot(for: large, findings: [])
        #expect(dot.contains("concentrate=true") && dot.contains("xlabel=<") && !dot.contains(" -> s1 [label="))
        #expect(dot == DOTBuilder(layout: .large).dot(for: large, findings: []))
    }

    @Test("the large layout shows the same information: every step, edge, label and finding mark")
    func sameInformation() throws {
        let flow = LargeFlow.make(steps: 200)
        let findings = Analyzer().analyze(FlowGraph(flows: [flow]))
        #expect(Set(findings.map(\.rule)) == ["missing-data-key", "unused-data-key"])
        let standard = try Graphviz.render(dot: DOTBuilder(layout: .standard).dot(for: flow, findings: findings), format: .svg)
        let large = try Graphviz.render(dot: DOTBuilder(layout: .large).dot(for: flow, findings: findings), format: .svg)
        let a = visible(standard), b = visible(large)
        #expect(a.texts == b.texts)
        #expect(a.ids == b.ids && b.ids.count == flow.steps.count)
        #expect(a.edges == b.edges && b.edges.count >= flow.transitions.count)
        for label in ["mode = express", "anything else", "carrier rejected"] { #expect(b.texts.contains(label)) }
        for finding in findings { #expect(b.texts.contains(FindingPhrase.text(finding)), "\(finding.message)") }
    }

    @Test("with parallel edges and a two-step loop, the large layout still shows every label, one edge per pair of steps")
    func sameInformationWithParallelEdges() throws {
        var flow = LargeFlow.make(steps: 150)
        // Two ways from one step to the next with different conditions, and a step that goes back.
        let route = flow.steps.firstIndex { $0.kind == .branch }!
        let (from, to) = (flow.steps[route - 1].id, flow.steps[route].id)
        flow.transitions += [Transition(from: from, to: to, condition: .equals(key: "mode", value: "rush")),
                             Transition(from: from, to: to, label: "retry after timeout"),
                             Transition(from: to, to: from, label: "ask again")]
        let findings = Analyzer().analyze(FlowGraph(flows: [flow]))
        let standard = try Graphviz.render(dot: DOTBuilder(layout: .standard).dot(for: flow, findings: findings), format: .svg)
        let large = try Graphviz.render(dot: DOTBuilder(layout: .large).dot(for: flow, findings: findings), format: .svg)
        let a = visible(standard), b = visible(large)
        #expect(a.ids == b.ids)
        // Every transition is an edge in the standard layout; the large one draws one edge per pair of
        // nodes (concentrate would merge them anyway), carrying all their labels.
        // Graphviz's edge titles: `s3-&gt;s4`.
        func transitions(_ edges: [String]) -> [String] { edges.filter { !$0.hasPrefix("start-&gt;") && !$0.hasPrefix("data-&gt;") } }
        #expect(transitions(a.edges).count == flow.transitions.count)
        let pairs = Set(transitions(a.edges).map { Set($0.components(separatedBy: "-&gt;")) })
        #expect(transitions(b.edges).count == pairs.count && pairs.count == flow.transitions.count - 3)
        let forward = flow.steps[route].name, back = flow.steps[route - 1].name
        for label in a.texts where !b.texts.contains(label) {
            #expect(["to \(forward): \(label)", "to \(back): \(label)"].contains { b.texts.contains($0) }, "\(label)")
        }
        for label in ["mode = rush", "retry after timeout"] { #expect(b.texts.contains("to \(forward): \(label)")) }
        #expect(b.texts.contains("to \(back): ask again"))
        #expect(a.texts.count == b.texts.count)
    }
}
