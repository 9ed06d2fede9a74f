import FlowLensTestSupport
import FlowLoaders
import FlowModel
import FlowRules
import FlowSemantics
import Foundation
import Testing

/// The analyzer against the executable semantics (`FlowMachine`), on generated flows of FlowLens's
/// own format: every error `check` reports must happen in some run (a read that finds nothing, a
/// value of the wrong type, a step no run reaches, a branch with no way on), and every read that
/// finds nothing or finds the wrong type in some run must be reported. A disagreement fails with
/// the program shrunk to what still disagrees.
///
/// `swift test` runs a seeded batch; `scripts/differential.sh` runs a long campaign
/// (`FLOWLENS_DIFFERENTIAL_PROGRAMS`, `FLOWLENS_DIFFERENTIAL_SEED`).
@Suite("The analyzer agrees with the flow semantics on generated programs")
struct DeclarativeDifferentialTests {
    /// One claim that the analyzer and the runs do not share.
    struct Disagreement: Hashable, CustomStringConvertible {
        enum Side: String { case reportedNotWitnessed = "reported, but no run does it", witnessedNotReported = "some run does it, but nothing is reported" }
        var side: Side
        var what: String
        var description: String { "\(side.rawValue): \(what)" }
    }

    static func disagreements(_ program: DeclarativeProgramGenerator.Program) -> [Disagreement]? {
        let graph = load(program.yaml)
        guard graph.loadFindings.isEmpty, let flow = graph.flows.first else { return nil }
        // Each defect is judged in the runs where the others are mended: a read after a step that
        // always fails is still a defect to report.
        let witnesses = FlowExplorer(flow: flow, mendsFailedReads: true, stateLimit: 20_000, branchLimit: 6).explore()
        guard witnesses.complete else { return nil }
        let findings = Analyzer().analyze(graph)
        return compare(flow: flow, findings: findings, witnesses: witnesses)
    }

    /// What the runs did that a data finding claims, as `step.key`: reads that found nothing (a case
    /// on a key no run has set when it is tested included: it can never match), reads that found the
    /// wrong type, and steps left with no way on.
    static func witnessed(in flow: Flow, _ witnesses: FlowExplorer.Witnesses) -> (missing: Set<String>, wrongType: Set<String>, noWayOn: Set<String>) {
        let id = { (i: Int) in flow.steps[i].id }
        var missing: Set<String> = [], wrongType: Set<String> = [], noWayOn: Set<String> = []
        var testedUnset: Set<String> = [], testedSet: Set<String> = []
        for event in witnesses.events {
            switch event {
            case let .missingRead(step, key), let .elementMissingRead(step, key):
                missing.insert("\(id(step)).\(key)")
            case let .testedUnset(step, key):
                testedUnset.insert("\(id(step)).\(key)")
            case let .testedSet(step, key):
                testedSet.insert("\(id(step)).\(key)")
            case let .wrongType(step, key, _, _):
                wrongType.insert("\(id(step)).\(key)")
            case let .noWayOn(step):
                noWayOn.insert(id(step))
            default: break
            }
        }
        missing.formUnion(testedUnset.subtracting(testedSet))
        return (missing, wrongType, noWayOn)
    }

    static func compare(flow: Flow, findings: [Finding], witnesses: FlowExplorer.Witnesses) -> [Disagreement] {
        let id = { (i: Int) in flow.steps[i].id }
        let (missing, wrongType, noWayOn) = witnessed(in: flow, witnesses)
        let ran = Set(witnesses.ranSteps.map(id))
        var out: Set<Disagreement> = []
        var reportedMissing: Set<String> = [], reportedType: Set<String> = []
        for finding in findings where finding.severity == .error {
            let at = "\(finding.step ?? "?").\(finding.key ?? "?")"
            switch finding.rule {
            case "missing-data-key":
                reportedMissing.insert(at)
                if !missing.contains(at) { out.insert(.init(side: .reportedNotWitnessed, what: "missing-data-key \(at): \(finding.message)")) }
            case "type-mismatch":
                reportedType.insert(at)
                if !wrongType.contains(at) { out.insert(.init(side: .reportedNotWitnessed, what: "type-mismatch \(at): \(finding.message)")) }
            case "unreachable-step":
                if let step = finding.step, ran.contains(step) { out.insert(.init(side: .reportedNotWitnessed, what: "unreachable-step \(step)")) }
            case "dead-end":
                if let step = finding.step, !noWayOn.contains(step) { out.insert(.init(side: .reportedNotWitnessed, what: "dead-end \(step): \(finding.message)")) }
            default:
                out.insert(.init(side: .reportedNotWitnessed, what: "\(finding.rule) (an error no run is checked for): \(finding.message)"))
            }
        }
        for at in missing.subtracting(reportedMissing).sorted() {
            out.insert(.init(side: .witnessedNotReported, what: "a read of \(at) finds nothing"))
        }
        for at in wrongType.subtracting(reportedType).sorted() {
            out.insert(.init(side: .witnessedNotReported, what: "a read of \(at) finds the wrong type"))
        }
        return out.sorted { $0.description < $1.description }
    }

    /// The program with reads, writes and initial data dropped one at a time while `disagrees` holds.
    static func shrink(_ program: DeclarativeProgramGenerator.Program, while disagrees: (DeclarativeProgramGenerator.Program) -> Bool) -> DeclarativeProgramGenerator.Program {
        var best = program
        var changed = true
        var tries = 0
        while changed && tries < 400 {
            changed = false
            var candidates: [DeclarativeProgramGenerator.Program] = []
            for n in best.data.indices {
                var p = best
                p.data.remove(at: n)
                candidates.append(p)
            }
            for s in best.steps.indices {
                for r in best.steps[s].reads.indices {
                    var p = best
                    p.steps[s].reads.remove(at: r)
                    candidates.append(p)
                }
                for w in best.steps[s].writes.indices {
                    var p = best
                    p.steps[s].writes.remove(at: w)
                    candidates.append(p)
                }
            }
            for candidate in candidates {
                tries += 1
                guard tries < 400 else { break }
                guard disagrees(candidate) else { continue }
                best = candidate
                changed = true
                break
            }
        }
        return best
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    @Test("generated programs: the analyzer's errors happen, and what happens is reported")
    func generatedProgramsAgree() throws {
        let count = Int(Self.environment["FLOWLENS_DIFFERENTIAL_PROGRAMS"] ?? "") ?? 400
        let first = UInt64(Self.environment["FLOWLENS_DIFFERENTIAL_SEED"] ?? "") ?? 1
        var checked = 0, failures = 0
        for seed in first..<(first + UInt64(count)) {
            let program = DeclarativeProgramGenerator.program(seed: seed)
            guard let found = Self.disagreements(program) else {
                let graph = load(program.yaml)
                #expect(!graph.loadFindings.isEmpty == false, "seed \(seed): the generator wrote a program the loader rejects: \(graph.loadFindings.map(\.message))\n\(program.yaml)")
                continue
            }
            checked += 1
            guard !found.isEmpty else { continue }
            failures += 1
            if failures > 5 { continue }
            let small = Self.shrink(program) { Self.disagreements($0)?.isEmpty == false }
            let left = Self.disagreements(small) ?? []
            Issue.record("seed \(seed): \(left.map(\.description).joined(separator: "\n"))\n\(small.yaml)")
        }
        print("differential: \(checked) of \(count) generated programs explored to the end, \(failures) disagree")
        #expect(failures == 0, "\(failures) of \(checked) programs disagree")
        #expect(checked >= count * 9 / 10, "only \(checked) of \(count) programs were explored to the end")
    }
}
