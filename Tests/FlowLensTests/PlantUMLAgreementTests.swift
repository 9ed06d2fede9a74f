import FlowLens
import FlowLoaders
import FlowModel
import FlowLensTestSupport
import Foundation
import Testing

/// FlowLens reads every sample of `samples/flowkit`, and every diagram of the PlantUML corpus
/// (`Tests/FlowLoadersTests/Fixtures/plantuml-corpus`: arrow directions and styles, colours after
/// targets, `\n` and Creole markup, multi-line descriptions, notes, composites, choices), as PlantUML
/// itself does: the same states in the same composites with the same display names, the same
/// descriptions, and the same transitions with the same labels (as shown: markup removed, `\n` a
/// line break). PlantUML's side comes from its own parser, through `scripts/plantuml-structure.py`
/// (Debian's `plantuml`, installed by bootstrap).
@Suite("PlantUML state diagrams: FlowLens reads what PlantUML parses")
struct PlantUMLAgreementTests {
    /// Every `.puml` of the samples and the corpus, with the environments its `%getenv` variables are read under.
    static let cases: [AgreementCase] = ["samples/flowkit", "Tests/FlowLoadersTests/Fixtures/plantuml-corpus"].flatMap { folder in
        let root = packageRoot + "/" + folder
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".puml") }.sorted()
        return files.flatMap { file in
            let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
            var environments: [[String: String]] = [[:]]
            if text.contains("FLOWKIT_PLATFORM") { environments += [["FLOWKIT_PLATFORM": "ios"], ["FLOWKIT_PLATFORM": "android"]] }
            return environments.map { AgreementCase(file: folder + "/" + file, environment: $0) }
        }
    }

    @Test("the samples include the machines the comparison is about")
    func samplesPresent() {
        let files = Set(Self.cases.map(\.file))
        for name in ["LoginFlow.puml", "AppShell.puml", "Checkout.puml"] {
            #expect(files.contains("samples/flowkit/" + name), "\(name)")
        }
    }

    /// What PlantUML parses from every case: one JVM per environment (`plantuml-structure.py --batch`)
    /// rather than one per file, read once for all the cases.
    static let structures: Result<[AgreementCase: PlantUMLStructure], PlantUMLUnavailable> = Result {
        try PlantUMLStructure.batch(cases)
    }.mapError { $0 as? PlantUMLUnavailable ?? PlantUMLUnavailable(message: "\($0)") }

    @Test(.needs(.plantUML), arguments: cases)
    func agrees(_ sample: AgreementCase) throws {
        let plantUML = try #require(try Self.structures.get()[sample], "no structure for \(sample.file)")
        let graph = SourceLoader(environment: sample.environment)
            .load(files: [InputFile(path: packageRoot + "/" + sample.file, displayPath: sample.file)])
        guard plantUML.accepted else {
            // What PlantUML rejects, FlowLens reports as invalid input, at a line PlantUML names.
            let lines = Set(graph.loadFindings.filter { $0.rule == "invalid-input" }.compactMap { $0.location?.line })
            #expect(!lines.isEmpty, "PlantUML rejects \(sample.file) (\(plantUML.errors)); FlowLens reports nothing")
            return
        }
        #expect(Set(graph.loadFindings.map(\.rule)).subtracting(["invalid-input"]).isEmpty)
        for diagram in plantUML.diagrams {
            let flows = graph.flows.filter { flow in
                guard let line = flow.location?.line else { return false }
                return (diagram.line...diagram.endLine).contains(line)
            }
            #expect(!flows.isEmpty, "no machine read from the block at line \(diagram.line)")
            #expect(Self.states(of: flows) == diagram.states, "states of the block at line \(diagram.line)")
            #expect(Self.names(of: flows) == diagram.names, "state names of the block at line \(diagram.line)")
            if flows.allSatisfy({ $0.kind != .flowKit }) {
                #expect(Self.descriptions(of: flows) == diagram.descriptions, "descriptions of the block at line \(diagram.line)")
            }
            #expect(Self.transitions(of: flows) == diagram.transitions, "transitions of the block at line \(diagram.line)")
        }
        let machines = graph.flows.filter { $0.parent == nil }.count
        #expect(machines == plantUML.diagrams.count)
    }

    /// `machine/State` for every state FlowLens read (the root machine is ``).
    static func states(of flows: [Flow]) -> [String] {
        flows.flatMap { flow in
            flow.steps.filter { $0.kind != .start && $0.kind != .end }.map { "\(machine(flow))/\(stateID($0.id))" }
        }.sorted()
    }

    /// `machine/State = shown name` for every state FlowLens read.
    static func names(of flows: [Flow]) -> [String] {
        flows.flatMap { flow in
            flow.steps.filter { $0.kind != .start && $0.kind != .end }.map { "\(machine(flow))/\(stateID($0.id)) = \($0.name)" }
        }.sorted()
    }

    /// `machine/State: line` for every description line of a state of a diagram not written for FlowKit.
    static func descriptions(of flows: [Flow]) -> [String] {
        flows.flatMap { flow in
            flow.steps.flatMap { step in
                step.details.flatMap { $0.split(separator: "\n") }.map { "\(machine(flow))/\(stateID(step.id)): \($0)" }
            }
        }.sorted()
    }

    /// `machine/From -> machine/To : label` for every transition FlowLens read.
    static func transitions(of flows: [Flow]) -> [String] {
        flows.flatMap { flow in
            flow.transitions.map { t in
                let target = t.crossesInto.flatMap { other in flows.first { $0.id == other }.map(machine) } ?? machine(flow)
                return "\(machine(flow))/\(stateID(t.from)) -> \(target)/\(stateID(t.to))" + (t.label.map { " : \($0)" } ?? "")
            }
        }.sorted()
    }

    static func machine(_ flow: Flow) -> String { flow.parent == nil ? "" : flow.id }
    static func stateID(_ id: String) -> String { id.hasSuffix("_state") ? String(id.dropLast(6)) : id }
}

struct AgreementCase: CustomTestStringConvertible, Hashable, Sendable {
    let file: String
    let environment: [String: String]
    var testDescription: String {
        file + (environment.isEmpty ? "" : " " + environment.map { "\($0)=\($1)" }.sorted().joined(separator: " "))
    }
}

/// What `scripts/plantuml-structure.py` prints, in the form the test compares.
struct PlantUMLStructure: Sendable {
    struct Diagram: Sendable {
        var line: Int
        var endLine: Int
        var states: [String]
        var names: [String]
        var descriptions: [String]
        var transitions: [String]
    }

    var accepted: Bool
    var errors: String
    var diagrams: [Diagram] = []

    /// Every case's structure, from one `plantuml-structure.py --batch` run (one JVM) per environment.
    static func batch(_ cases: [AgreementCase]) throws -> [AgreementCase: PlantUMLStructure] {
        var structures: [AgreementCase: PlantUMLStructure] = [:]
        for (environment, group) in Dictionary(grouping: cases, by: \.environment) {
            let defines = environment.sorted { $0.key < $1.key }.map { "--define=\($0.key)=\($0.value)" }
            let result = try run("/usr/bin/env", ["python3", "scripts/plantuml-structure.py", "--batch"] + defines + group.map(\.file))
            guard result.status == 0,
                  let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                  let results = json["results"] as? [[String: Any]], results.count == group.count else {
                throw PlantUMLUnavailable(message: "scripts/plantuml-structure.py could not run PlantUML: \(result.stderr)")
            }
            for (sample, one) in zip(group, results) {
                let status = one["status"] as? Int ?? 2
                let errorText = one["stderr"] as? String ?? ""
                guard status != 2 else {
                    throw PlantUMLUnavailable(message: "scripts/plantuml-structure.py could not run PlantUML on \(sample.file): \(errorText)")
                }
                structures[sample] = PlantUMLStructure(accepted: status == 0, errors: errorText, json: one["output"] as? [String: Any])
            }
        }
        return structures
    }

    /// The structure of one file's output (`json`), PlantUML accepted it or not.
    init(accepted: Bool, errors errorText: String, json: [String: Any]?) {
        self.accepted = accepted
        errors = errorText
        guard let json else { return }
        for diagram in json["diagrams"] as? [[String: Any]] ?? [] {
            // Concurrent regions are groups PlantUML makes inside a composite, not states: their states
            // belong to the composite.
            let all = diagram["states"] as? [[String: Any]] ?? []
            var regionParent: [String: Any?] = [:]
            for state in all where state["kind"] as? String == "region" { regionParent.updateValue(state["parent"], forKey: state["name"] as! String) }
            let states = all.filter { $0["kind"] as? String != "region" }
            func machine(_ parent: Any?) -> String {
                var parent = parent as? String
                while let p = parent, let outer = regionParent[p] { parent = outer as? String }
                return parent?.generatedTypeName ?? ""
            }
            var endpoint: [String: String] = [:]
            for state in states {
                endpoint[state["name"] as! String] = "\(machine(state["parent"]))/\((state["name"] as! String).generatedTypeName)"
            }
            for pseudo in diagram["pseudoStates"] as? [[String: Any]] ?? [] {
                // `X[H]` resumes composite X: FlowLens reads it as an edge to X.
                if (pseudo["kind"] as? String)?.hasPrefix("history") == true, let owner = pseudo["parent"] as? String,
                   let composite = endpoint[owner] {
                    endpoint[pseudo["id"] as! String] = composite
                    continue
                }
                let kind = pseudo["kind"] as? String == "start" ? "Begin" : "End"
                endpoint[pseudo["id"] as! String] = "\(machine(pseudo["parent"]))/\(kind)"
            }
            let transitions = (diagram["transitions"] as? [[String: Any]] ?? []).map { t -> String in
                let from = endpoint[t["from"] as! String] ?? "?\(t["from"]!)"
                let to = endpoint[t["to"] as! String] ?? "?\(t["to"]!)"
                // As a person reads it: markup removed, `\n` a line break (PlantUML parses `\n` already).
                let label = (t["label"] as? String).map(PlantUMLText.display).flatMap { $0.isEmpty ? nil : $0 }
                return "\(from) -> \(to)" + (label.map { " : \($0)" } ?? "")
            }
            let names = states.map { state in
                "\(endpoint[state["name"] as! String]!) = \(PlantUMLText.display(state["display"] as? String ?? state["name"] as! String))"
            }
            let descriptions = states.flatMap { state in
                (state["description"] as? [String] ?? []).map(PlantUMLText.display).flatMap { $0.split(separator: "\n") }
                    .map { "\(endpoint[state["name"] as! String]!): \($0)" }
            }
            diagrams.append(Diagram(line: diagram["line"] as! Int, endLine: diagram["endLine"] as! Int,
                                    states: states.map { endpoint[$0["name"] as! String]! }.sorted(),
                                    names: names.sorted(), descriptions: descriptions.sorted(),
                                    transitions: transitions.sorted()))
        }
    }
}

struct PlantUMLUnavailable: Error, CustomStringConvertible, Sendable {
    let message: String
    var description: String { message }
}

@Suite("flowlens --define")
struct DefineOptionTests {
    @Test("--define NAME=value is what %getenv reads: Checkout.puml draws Apple Pay on iOS, Google Pay otherwise")
    func define() throws {
        let ios = try flowlens(["check", "--format", "json", "--define", "FLOWKIT_PLATFORM=ios", "samples/flowkit/Checkout.puml"])
        let other = try flowlens(["check", "--format", "json", "--define", "FLOWKIT_PLATFORM=android", "samples/flowkit/Checkout.puml"])
        #expect(ios.status == 0 && other.status == 0)
        #expect(ios.stdout.contains("\"ApplePay\"") && !ios.stdout.contains("\"GooglePay\""))
        #expect(other.stdout.contains("\"GooglePay\"") && !other.stdout.contains("\"ApplePay\""))
    }

    @Test("--define without '=' is a usage error (exit 2) that shows the expected form")
    func malformed() throws {
        let run = try flowlens(["check", "--define", "FLOWKIT_PLATFORM", "samples/flowkit/Checkout.puml"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--define takes NAME=value"))
    }
}
