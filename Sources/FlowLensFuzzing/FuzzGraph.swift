import FlowLens
import Foundation

/// Decodes fuzz bytes into a report (flows, their findings, load findings) for the writer targets.
///
/// The writers are fuzzed from a decoded graph rather than through a loader, so that every text a
/// writer is given can hold what no loader's syntax lets through easily and the fuzzer still
/// reaches in a few bytes: any Unicode scalar (controls, noncharacters U+FFFE/U+FFFF/U+FDD0,
/// bidirectional overrides, astral planes) in names, ids, keys, types, labels, conditions,
/// details, messages and file paths; a name of over 100,000 characters; dangling transitions,
/// sub-flow links and findings on any step. Missing bytes read as 0, so every input is a graph.
enum FuzzGraph {
    /// The text that makes up a huge string; a diagram showing `capProbe` did not cap a label.
    static let longUnit = "long "
    /// 40 units (200 characters) in a row: more than `DisplayText.maximumLength`.
    static let capProbe = String(repeating: longUnit, count: 40)

    static func report(from data: Data) -> Report {
        var bytes = Bytes(Array(data))
        var flows: [Flow] = []
        let flowCount = 1 + Int(bytes.next() % 3)
        let kinds = Dialects.kinds
        for f in 0..<flowCount {
            let kind = kinds[Int(bytes.next()) % kinds.count]
            let flowID = "\(f)" + bytes.string()
            var steps: [Step] = []
            for s in 0..<Int(bytes.next() % 8) {
                let stepKinds = StepKind.allCases
                var step = Step(id: "s\(s)" + bytes.string(), name: bytes.optionalString(), kind: stepKinds[Int(bytes.next()) % stepKinds.count],
                                location: bytes.location(), reads: bytes.accesses(), writes: bytes.accesses(),
                                implementation: bytes.optionalString(), summary: bytes.optionalString(),
                                details: (0..<Int(bytes.next() % 3)).map { _ in bytes.string() })
                if bytes.next() % 4 == 0 { step.subflow = bytes.next() % 2 == 0 ? "\(Int(bytes.next()) % 3)" : bytes.string() }
                if bytes.next() % 6 == 0 { step.group = GroupSpec(inputKey: bytes.string(), elementKey: bytes.string()) }
                steps.append(step)
            }
            var transitions: [Transition] = []
            func endpoint() -> String {
                steps.isEmpty || bytes.next() % 8 == 0 ? bytes.string() : steps[Int(bytes.next()) % steps.count].id
            }
            for _ in 0..<Int(bytes.next() % 10) {
                let condition: Condition?
                switch bytes.next() % 4 {
                case 0: condition = nil
                case 1: condition = .otherwise
                case 2: condition = .equals(key: bytes.string(), value: bytes.string())
                default: condition = .expression(bytes.string())
                }
                transitions.append(Transition(from: endpoint(), to: endpoint(), label: bytes.optionalString(), condition: condition,
                                              carriedType: TypeName(bytes.string()), location: bytes.location()))
            }
            flows.append(Flow(id: flowID, name: bytes.optionalString(), kind: kind, location: bytes.location(), steps: steps,
                              transitions: transitions, entries: steps.isEmpty || bytes.next() % 4 != 0 ? [] : [steps[0].id],
                              initialData: bytes.accesses(), outputs: bytes.accesses(), summary: bytes.optionalString()))
        }
        var loadFindings: [Finding] = []
        for _ in 0..<Int(bytes.next() % 3) {
            var finding = Finding.invalidInput(bytes.string(), at: bytes.location() ?? SourceLocation(file: bytes.string()))
            if bytes.next() % 2 == 0 { finding.flow = flows[Int(bytes.next()) % flows.count].id }
            loadFindings.append(finding)
        }
        let graph = FlowGraph(flows: flows, files: (0..<Int(bytes.next() % 3)).map { _ in bytes.string() }, loadFindings: loadFindings)
        var findings = Analyzer().analyze(graph)
        let ruleIDs = RuleRegistry.descriptions.map(\.id)
        for _ in 0..<Int(bytes.next() % 4) {
            let flow = flows[Int(bytes.next()) % flows.count]
            let severities: [Severity] = [.error, .warning, .note]
            findings.append(Finding(rule: ruleIDs[Int(bytes.next()) % ruleIDs.count], severity: severities[Int(bytes.next()) % 3],
                                    message: bytes.string(), location: bytes.location(), flow: flow.id,
                                    step: flow.steps.isEmpty ? nil : flow.steps[Int(bytes.next()) % flow.steps.count].id,
                                    key: bytes.optionalString(),
                                    related: bytes.next() % 3 == 0 ? [RelatedLocation(message: bytes.string(), location: SourceLocation(file: bytes.string(), line: 1))] : []))
        }
        findings.sort(by: Finding.reportOrder)
        return Report(graph: graph, findings: findings)
    }

    /// The fuzz bytes, read front to back; 0 once they run out.
    struct Bytes {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> UInt8 {
            guard index < bytes.count else { return 0 }
            defer { index += 1 }
            return bytes[index]
        }

        /// A length byte, then that many characters: a byte below 0x80 is that ASCII character
        /// (controls included); a higher byte and the next two are a scalar anywhere in Unicode's 17
        /// planes (an invalid one, a surrogate, is U+FFFD). Length 255 is a huge string: a short
        /// string, then `longUnit` repeated to over 100,000 characters. One a graph: every writer
        /// goes through each text's characters, so each huge string costs milliseconds, and a
        /// graph of dozens of them (which mutations make often) would slow the fuzzer twentyfold
        /// without testing anything one does not.
        var hugeLeft = 1

        mutating func string(allowingHuge: Bool = true) -> String {
            let length = next()
            if length == 255, allowingHuge, hugeLeft > 0 {
                hugeLeft -= 1
                return string(allowingHuge: false) + String(repeating: FuzzGraph.longUnit, count: 20_001)
            }
            var out = String.UnicodeScalarView()
            for _ in 0..<Int(length % 32) {
                let first = next()
                if first < 0x80 {
                    out.append(Unicode.Scalar(first))
                } else {
                    let value = UInt32(first & 0x1F) << 16 | UInt32(next()) << 8 | UInt32(next())
                    out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                }
            }
            return String(out)
        }

        mutating func optionalString() -> String? { next() % 3 == 0 ? nil : string() }

        mutating func location() -> SourceLocation? {
            next() % 4 == 0 ? nil : SourceLocation(file: string(), line: Int(next()), column: Int(next()))
        }

        mutating func accesses() -> [DataAccess] {
            (0..<Int(next() % 4)).map { _ in
                DataAccess(key: string(), type: next() % 2 == 0 ? nil : TypeName(string()), optional: next() % 2 == 0, location: location())
            }
        }
    }
}
