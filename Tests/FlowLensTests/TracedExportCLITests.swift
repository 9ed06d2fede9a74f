import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Issue 50, defect 4: a traced diagram (`flowlens export --trace`) must not contradict the trace. A
/// flow whose runs raise trace warnings is not "no problems found", and the counts balance: the runs
/// into each step are the runs out of it plus those that ended there, moves off the graph included.
@Suite("export --trace: the title counts what the runs say, the counts balance", .serialized)
struct TracedExportCLITests {
    /// A checkout with no static finding.
    static let flow = """
        version: 1
        flows:
          - name: Checkout
            id: checkout
            data: {method: String}
            steps:
              - id: review
                next:
                  - {to: card, when: {key: method, equals: card}}
                  - {to: invoice, otherwise: true}
              - {id: card, next: ship}
              - {id: invoice, next: ship}
              - {id: ship, next: done}
              - {id: done, kind: end}
        """

    /// 5 runs pay by card and ship; 2 pay by invoice and ship; 3 go from the review straight to
    /// shipping (no transition joins them); 1 starts at shipping (no way leads there from the start);
    /// 2 fail at the card payment for a missing key and end there.
    static var runs: String {
        var lines: [String] = []
        var run = 0
        func record(_ steps: [String], end: String) {
            run += 1
            for step in steps { lines.append(#"{"flow": "checkout", "run": "r-\#(run)", "step": "\#(step)", "event": "start"}"#) }
            if end == "failure" {
                lines.append(#"{"flow": "checkout", "run": "r-\#(run)", "step": "\#(steps.last!)", "event": "fail", "reason": "missing-key", "key": "cardToken"}"#)
            }
            lines.append(#"{"flow": "checkout", "run": "r-\#(run)", "event": "end", "reason": "\#(end)"}"#)
        }
        for _ in 0..<5 { record(["review", "card", "ship"], end: "success") }
        for _ in 0..<2 { record(["review", "invoice", "ship"], end: "success") }
        for _ in 0..<3 { record(["review", "ship"], end: "success") }
        record(["ship"], end: "success")
        for _ in 0..<2 { record(["review", "card"], end: "failure") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The counts written on a DOT edge's or node's attributes: "5 runs", "off the graph: 3 runs".
    static func counts(_ text: String, _ pattern: String) -> Int {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reduce(0) { sum, match in
            sum + Int((text as NSString).substring(with: match.range(at: 1)).replacingOccurrences(of: ",", with: ""))!
        }
    }

    @Test("a traced export of a flow with runs off the graph: not 'no problems found', and every step's runs in = out + ended there")
    func titleAndBalance() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.flow.write(toFile: root + "/checkout.flow.yaml", atomically: true, encoding: .utf8)
        try Self.runs.write(toFile: root + "/runs.jsonl", atomically: true, encoding: .utf8)
        // Without the runs the flow has no problem.
        let plain = try flowlens(["export", "checkout.flow.yaml", "--output", "plain", "--format", "dot"], in: root)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try String(contentsOfFile: root + "/plain/Checkout.dot", encoding: .utf8).contains("no problems found"))

        let result = try flowlens(["export", "checkout.flow.yaml", "--output", "out", "--format", "dot", "--trace", "runs.jsonl"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        // The run-off-graph and failure-not-predicted warnings are printed and summed as export's own.
        #expect(result.stdout.contains("[run-off-graph]"), "\(result.stdout)")
        #expect(result.stdout.contains("[failure-not-predicted]"), "\(result.stdout)")
        #expect(!result.stderr.contains("no problems"), "\(result.stderr)")
        let dot = try String(contentsOfFile: root + "/out/Checkout.dot", encoding: .utf8)
        let title = try #require(dot.split(separator: "\n").first { $0.contains("graph [") }.map(String.init))
        #expect(!title.contains("no problems"), "\(title)")
        #expect(title.contains("warning"), "\(title)")
        #expect(title.contains("13 recorded runs"), "\(title)")

        // Each step's node (`sN`) by its name, and every edge with what it carries.
        let lines = dot.split(separator: "\n").map(String.init)
        var names: [String: String] = [:]
        var labels: [String: String] = [:]
        for line in lines {
            guard let match = line.range(of: #"^  (s[0-9]+) \[id="step-"#, options: .regularExpression) else { continue }
            let node = String(line[match].dropFirst(2).prefix { $0 != " " })
            let name = try #require(line.range(of: #"<B>[^<]*</B>"#, options: .regularExpression).map { String(line[$0].dropFirst(3).dropLast(4)) })
            names[node] = name
            labels[node] = line
        }
        #expect(Set(names.values) == ["review", "card", "invoice", "ship", "done"])
        var into: [String: Int] = [:], outOf: [String: Int] = [:]
        for line in lines {
            guard let arrow = line.range(of: #"^  ([a-z0-9]+) -> ([a-z0-9]+)"#, options: .regularExpression) else { continue }
            let ends = line[arrow].trimmingCharacters(in: .whitespaces).components(separatedBy: " -> ")
            let count = Self.counts(String(line[arrow.upperBound...]), #"([0-9][0-9,]*) runs?\b"#)
            outOf[ends[0], default: 0] += count
            into[ends[1], default: 0] += count
        }
        // The moves off the graph are drawn with their counts.
        #expect(dot.contains("off the graph: 3 runs"), "\(dot)")
        #expect(dot.contains("off the graph: 1 run"), "\(dot)")
        for (node, name) in names {
            let ended = name == "done" ? into[node, default: 0] : Self.counts(labels[node]!, #"([0-9][0-9,]*) runs? ended here"#)
            #expect(into[node, default: 0] == outOf[node, default: 0] + ended,
                    "\(name): \(into[node, default: 0]) runs in, \(outOf[node, default: 0]) out, \(ended) ended there\n\(dot)")
        }
        // The numbers themselves: 12 runs start at the review, 1 off the graph at shipping; 11 reach
        // shipping and end at the end; 2 end at the card payment.
        let node = { (name: String) in names.first { $0.value == name }!.key }
        #expect(into[node("review")] == 12)
        #expect(into[node("ship")] == 11)
        #expect(into[node("done")] == 11)
        #expect(Self.counts(labels[node("card")]!, #"([0-9]+) runs? ended here"#) == 2)
    }
}
