import FlowLoaders
import FlowLensTestSupport
import FlowLoaders
import FlowModel
import FlowRules
import Foundation
import Testing

private let branches = """
    version: 1
    flows:
      - name: One branch only
        data: {mode: String}
        steps:
          - id: choose
            name: Choose mode
            kind: branch
            reads: {mode: String}
            next: [{to: guest, when: {key: mode, equals: guest}}, {to: account, otherwise: true}]
          - {id: guest, name: Guest name, writes: {displayName: String}, next: welcome}
          - {id: account, name: Account, next: welcome}
          - {id: welcome, name: Welcome, reads: {displayName: String}, next: done}
          - {id: done, kind: end}
    """

private let loop = """
    version: 1
    flows:
      - name: Retry
        steps:
          - {id: fetch, name: Fetch, next: [{to: check}]}
          - id: check
            name: Check
            next: [{to: fetch, when: "it failed"}, {to: show, otherwise: true}]
          - {id: show, name: Show, writes: {result: String}, next: done}
          - {id: done, kind: end, reads: {result: String}}
    """

/// Every flow of every sample folder (the loaders' own samples).
private func sampleFlows() -> FlowGraph {
    SourceLoader().load(paths: ["samples"], workingDirectory: packageRoot)
}

@Suite("Flow paths and data provenance")
struct FlowPathsTests {
    @Test("every path of a branching flow, with its sentence")
    func branching() throws {
        let flow = try #require(load(branches).flows.first)
        let paths = FlowPaths(flow: flow)
        #expect(paths.count == PathCount(value: 2, isExact: true))
        #expect(paths.paths.map { $0.steps.map { flow.steps[$0].id } } == [["choose", "guest", "welcome", "done"], ["choose", "account", "welcome", "done"]])
        #expect(paths.paths.allSatisfy { $0.ending == .exit })
        let first = paths.sentence(for: paths.paths[0])
        #expect(first.text == "Choose mode. If mode is guest: Guest name, then Welcome, then it ends.")
        #expect(first.parts.contains(.key("mode")) && first.parts.contains(.value("guest")) && first.parts.contains(.step("Guest name")))
        #expect(first.markdown == "Choose mode\\. If *mode* is *guest*: Guest name, then Welcome, then it ends\\.")
        #expect(paths.sentence(for: paths.paths[1]).text == "Choose mode. If mode is not guest: Account, then Welcome, then it ends.")
    }

    @Test("a loop is taken at most once per path, and the count is exact")
    func loops() throws {
        let flow = try #require(load(loop).flows.first)
        let paths = FlowPaths(flow: flow)
        #expect(paths.paths.map { $0.steps.map { flow.steps[$0].id } } == [
            ["fetch", "check", "fetch", "check", "show", "done"],
            ["fetch", "check", "show", "done"],
        ])
        #expect(paths.count == PathCount(value: 2, isExact: true))
        #expect(paths.sentence(for: paths.paths[0]).text == "Fetch, then Check. If it failed: Fetch, then Check. Otherwise: Show, then it ends.")
        #expect(paths.sentence(for: paths.paths[1]).text == "Fetch, then Check. Otherwise: Show, then it ends.")
    }

    @Test("paths are capped and counted without listing them all")
    func cap() {
        // 40 diamonds in a row: 2^40 paths.
        var steps: [Step] = [], transitions: [Transition] = []
        for i in 0..<40 {
            steps += [Step(id: "a\(i)"), Step(id: "b\(i)"), Step(id: "c\(i)")]
            transitions += [Transition(from: "a\(i)", to: "b\(i)"), Transition(from: "a\(i)", to: "c\(i)"),
                            Transition(from: "b\(i)", to: "a\(i + 1)"), Transition(from: "c\(i)", to: "a\(i + 1)")]
        }
        steps.append(Step(id: "a40", kind: .end))
        let flow = Flow(id: "wide", kind: .declarative, steps: steps, transitions: transitions)
        let paths = FlowPaths(flow: flow, limit: 5)
        #expect(paths.paths.count == 5)
        #expect(paths.count == PathCount(value: 1 << 40, isExact: true))
        // 70 diamonds (2^70 paths) overflow any integer: the count saturates at 10^18 and says
        // "more than", never an exact-looking Int.max.
        var more = flow
        for i in 40..<70 {
            more.steps.removeAll { $0.id == "a\(i)" }
            more.steps += [Step(id: "a\(i)"), Step(id: "b\(i)"), Step(id: "c\(i)")]
            more.transitions += [Transition(from: "a\(i)", to: "b\(i)"), Transition(from: "a\(i)", to: "c\(i)"),
                                 Transition(from: "b\(i)", to: "a\(i + 1)"), Transition(from: "c\(i)", to: "a\(i + 1)")]
        }
        more.steps.append(Step(id: "a70", kind: .end))
        let saturated = FlowPaths(flow: more, limit: 1).count
        #expect(saturated == PathCount(value: PathCount.saturation, isExact: false))
        #expect(saturated.isSaturated)
        #expect(saturated.description == "more than 10^18")
        // 59 diamonds (2^59 ≈ 5.8 × 10^17) are still counted exactly; 60 are over the cap.
        var edge = flow
        for i in 40..<60 {
            edge.steps.removeAll { $0.id == "a\(i)" }
            edge.steps += [Step(id: "a\(i)"), Step(id: "b\(i)"), Step(id: "c\(i)")]
            edge.transitions += [Transition(from: "a\(i)", to: "b\(i)"), Transition(from: "a\(i)", to: "c\(i)"),
                                 Transition(from: "b\(i)", to: "a\(i + 1)"), Transition(from: "c\(i)", to: "a\(i + 1)")]
        }
        var fiftyNine = edge
        fiftyNine.transitions.removeAll { $0.from == "a59" || $0.from == "b59" || $0.from == "c59" }
        fiftyNine.steps.removeAll { ["a59", "b59", "c59"].contains($0.id) }
        fiftyNine.steps.append(Step(id: "a59", kind: .end))
        #expect(FlowPaths(flow: fiftyNine, limit: 1).count == PathCount(value: 1 << 59, isExact: true))
        edge.steps.append(Step(id: "a60", kind: .end))
        #expect(FlowPaths(flow: edge, limit: 1).count.isSaturated)
        // With a loop in the way, counting stops at a budget and says "at least".
        more.transitions.append(Transition(from: "a69", to: "a0"))
        let bounded = FlowPaths(flow: more, limit: 3)
        #expect(bounded.paths.count == 3)
        #expect(!bounded.count.isExact && bounded.count.value >= 3)
        #expect(bounded.count.description.hasPrefix("at least "))
    }

    @Test("provenance: writes and reads along each path, and the path where the key is missing")
    func provenance() throws {
        let graph = load(branches)
        let flow = try #require(graph.flows.first)
        let provenance = DataProvenance(key: "displayName", flow: flow, graph: graph)
        #expect(provenance.accesses.map(\.kind) == [.write, .read])
        #expect(provenance.accesses.map(\.stepID) == ["guest", "welcome"])
        #expect(provenance.traces.map { $0.events.map(\.kind) } == [[.write, .read], [.read]])
        #expect(provenance.traces.map(\.firstMissing) == [nil, 0])
        let missing = try #require(provenance.missing)
        #expect(missing.pathNumber == 1)
        #expect(missing.steps.map { flow.steps[$0].id } == ["choose", "account", "welcome"])
        #expect(!provenance.isAlwaysSetBeforeRead)

        let mode = DataProvenance(key: "mode", flow: flow, graph: graph)
        #expect(mode.isAlwaysSetBeforeRead)
        #expect(mode.accesses.map(\.kind) == [.initial, .read, .condition])

        let table = DataKeySummary.table(for: AnalysisSession(graph: graph).analysis(of: flow))
        #expect(table.map(\.key) == ["mode", "displayName"])
        #expect(table.map(\.isMissingSomewhere) == [false, true])
        #expect(table[1].writers.map(\.stepID) == ["guest"] && table[1].readers.map(\.stepID) == ["welcome"])
        #expect(table[1].types == ["String"])
    }

    @Test("provenance agrees with missing-data-key on every key of every sample flow")
    func agreesWithRule() {
        let graph = sampleFlows()
        let findings = Analyzer().analyze(graph).filter { $0.rule == "missing-data-key" && !$0.message.contains("each run of group") }
        let session = AnalysisSession(graph: graph)
        var checked = 0
        for flow in graph.flows {
            let analysis = session.analysis(of: flow)
            let paths = FlowPaths(flow: flow)
            for key in analysis.keys {
                let provenance = DataProvenance(key: key, analysis: analysis, paths: paths)
                let reported = findings.contains { $0.flow == flow.id && $0.key == key }
                #expect(provenance.isAlwaysSetBeforeRead == !reported, "\(flow.id) \(key)")
                #expect((provenance.missing != nil) == reported, "\(flow.id) \(key)")
                // A read listed as missing on a path is never preceded by a write on it.
                for trace in provenance.traces {
                    if let at = trace.firstMissing {
                        #expect(!trace.events[..<at].contains { $0.kind == .write || $0.kind == .initial })
                    }
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test("every sample flow of every loader has readable sentences")
    func sentences() {
        let graph = sampleFlows()
        var kinds = Set<FlowKind>()
        for flow in graph.flows {
            let paths = FlowPaths(flow: flow)
            #expect(paths.count.value >= paths.paths.count)
            for path in paths.paths {
                let text = paths.sentence(for: path).text
                kinds.insert(flow.kind)
                #expect(text.hasSuffix(".") && !text.hasSuffix("..") && !text.contains(" ,") && !text.contains(", .") && !text.contains(":.")
                        && !text.contains("  "), "\(flow.id): \(text)")
                #expect(!text.contains("then then") && !text.contains(". ."), "\(flow.id): \(text)")
                if ProcessInfo.processInfo.environment["FLOWLENS_PRINT_SENTENCES"] == "1" { print("\(flow.kind.rawValue) \(flow.name): \(text)") }
            }
        }
        #expect(kinds.isSuperset(of: [.declarative, .flowIOS, .flowState, .syrup, .elevate, .flowKit]))
    }
}
