import FlowLensTestSupport
import FlowLoaders
import FlowModel
import Foundation
import Testing

/// The run generator the replay tests compare with (`Tests/Support/RunGenerator.swift`): its runs
/// must obey the libraries' run-time semantics (`flow-libraries.md`), or the comparison proves nothing.
@Suite("Run generator")
struct RunGeneratorTests {
    /// Operations for the Flow-iOS flows below.
    static let operations = """
        import Flow_iOS
        class FetchQuoteOp: FlowOperation {
            override func mainLogic() {
                guard let sku: String = getData(name: "sku") else { return }
                setData(name: "quote", value: sku + "-q")
                finishSuccessfully()
            }
        }
        class ExpressShipOp: FlowOperation {
            override func mainLogic() {
                guard let quote: String = getData(name: "quote") else { return }
                setData(name: "label", value: quote)
                finishSuccessfully()
            }
        }
        class StandardShipOp: FlowOperation {
            override func mainLogic() { finishSuccessfully() }
        }
        class ResizeOp: FlowOperation {
            override var primaryInputParamKey: String { return "photo" }
            override var primaryOutputParamKey: String { return "resized" }
            override func mainLogic() {
                guard let photo: String = getData(name: primaryInputParamKey) else { return }
                setData(name: primaryOutputParamKey, value: photo)
                finishSuccessfully()
            }
        }
        """

    static func flow(_ body: String) -> Flow {
        let graph = load([("Ops.swift", operations), ("Screen.swift", """
            import Flow_iOS
            class Screen {
                func run() {
            \(body)
                }
            }
            """)])
        return graph.flows.first { $0.id == "Screen.run" }!
    }

    @Test("a case split: the run's value decides, first match wins; no match stops after the root, reported as success")
    func cases() {
        let flow = Self.flow("""
                    Flow()
                        .setDataBucket(dataBucket: ["sku": "A-1", "speed": "express"])
                        .add(operation: FetchQuoteOp())
                        .add(operation: ExpressShipOp(), flowCase: FlowCase(key: "speed", value: "express"))
                        .add(operation: StandardShipOp(), flowCase: FlowCase(key: "speed", value: "standard"))
                        .start()
            """)
        var data = RunData()
        data.choices["speed"] = [("express", 1), ("standard", 1)]
        data.unmatched["speed"] = "drone"
        var mix = RunMix()
        mix.noCase = 0.3
        mix.error = 0
        mix.unpredicted = 0
        mix.drift = 0
        var simulator = RunSimulator(flow: flow, mix: mix, data: data, seed: 7, recordName: { $0.name })
        let runs = simulator.runs(200) { "r\($0)" }
        for run in runs {
            let speed = run.initialData.first { $0.key == "speed" }!.value
            let steps = run.events.filter { $0.kind == .start }.compactMap(\.step)
            switch speed {
            case "express": #expect(steps == ["FetchQuoteOp", "ExpressShipOp"])
            case "standard": #expect(steps == ["FetchQuoteOp", "StandardShipOp"])
            default:
                #expect(steps == ["FetchQuoteOp"])
                #expect(run.ending == "no-case-matched")
                #expect(run.stop?.step == "FetchQuoteOp")
                #expect(run.events.last?.reason == "success")
            }
        }
        #expect(Set(runs.map(\.ending)) == ["success", "no-case-matched"])
    }

    @Test("a root with one branch takes it whatever the value (Flow-iOS's quirk)")
    func oneBranch() {
        let flow = Self.flow("""
                    Flow()
                        .setDataBucket(dataBucket: ["sku": "A-1", "speed": "express"])
                        .add(operation: FetchQuoteOp())
                        .add(operation: ExpressShipOp(), flowCase: FlowCase(key: "speed", value: "express"))
                        .start()
            """)
        var data = RunData()
        data.choices["speed"] = [("express", 1)]
        data.unmatched["speed"] = "drone"
        var mix = RunMix()
        mix.noCase = 0.5
        mix.error = 0
        mix.unpredicted = 0
        mix.drift = 0
        var simulator = RunSimulator(flow: flow, mix: mix, data: data, seed: 11, recordName: { $0.name })
        let runs = simulator.runs(60) { "r\($0)" }
        #expect(runs.contains { $0.initialData.contains { $0 == ("speed", "drone") } })
        #expect(runs.allSatisfy { $0.ending == "success" && $0.path == ["FetchQuoteOp", "ExpressShipOp"] })
    }

    @Test("a group: one operation per element, never more at once than allowed, each with its own instance; an empty list stops the run")
    func group() {
        let flow = Self.flow("""
                    Flow()
                        .setDataBucket(dataBucket: ["photos": ["a.png", "b.png"]])
                        .addGrouped(operationCreator: ResizeOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "photos", outputKey: "thumbs", maxConcurrentOperationCount: 2))
                        .start()
            """)
        var data = RunData()
        data.elements["photos"] = ["p1.jpg", "p2.jpg", "p3.jpg"]
        var mix = RunMix()
        mix.error = 0
        mix.unpredicted = 0
        mix.drift = 0
        var simulator = RunSimulator(flow: flow, mix: mix, data: data, seed: 3, recordName: { $0.name })
        let runs = simulator.runs(150) { "r\($0)" }
        for run in runs {
            let elements = run.initialData.first { $0.key == "photos" }!.value.split(separator: ",").count
            let starts = run.events.filter { $0.kind == .start }
            var running = 0, most = 0
            for event in run.events where event.step == "ResizeOp" {
                if event.kind == .start { running += 1 } else if event.kind == .finish || event.kind == .fail { running -= 1 }
                most = max(most, running)
            }
            #expect(most <= 2)
            if run.ending == "empty-group" {
                #expect(starts.isEmpty)
                #expect(run.events.contains { $0.kind == .stop && $0.key == "photos" })
            } else {
                #expect(Set(starts.compactMap(\.instance)).count == starts.count)
                if run.ending == "success" { #expect(starts.count == elements) }
            }
            #expect(run.visits.filter { $0 == "ResizeOp" }.count == 1)
        }
        #expect(Set(runs.map(\.ending)).isSuperset(of: ["success", "empty-group", "group-failure"]))
    }

    @Test("drift is only where the records show it: a renamed or skipped step no other way explains")
    func drift() {
        let flow = Self.flow("""
                    Flow()
                        .setDataBucket(dataBucket: ["sku": "A-1"])
                        .add(operation: FetchQuoteOp())
                        .add(operation: ExpressShipOp())
                        .add(operation: StandardShipOp())
                        .start()
            """)
        var mix = RunMix()
        mix.drift = 1
        mix.error = 0
        mix.unpredicted = 0
        var simulator = RunSimulator(flow: flow, mix: mix, seed: 5, recordName: { $0.name })
        let runs = simulator.runs(80) { "r\($0)" }
        for run in runs {
            let started = run.events.filter { $0.kind == .start }.compactMap(\.step)
            let unknown = started.filter { flow.step($0) == nil }
            #expect(run.drift.filter { if case .unknownStep = $0 { true } else { false } }.count == unknown.count)
            for case let .noTransition(from, to) in run.drift {
                // A skipped or renamed step between them: the records go from one to the other directly.
                #expect(from != nil || to != "FetchQuoteOp")
                #expect(!flow.transitions.contains { $0.from == (from ?? "start") && $0.to == to })
            }
        }
        #expect(runs.contains { $0.scenario == "drift-rename" })
        #expect(runs.contains { $0.scenario == "drift-skip" })
    }
}
