import FlowModel
import Foundation

/// What recorded runs did on one flow, as every picture shows it (`flowlens export --trace`): the SVG
/// and DOT diagrams, the Mermaid diagrams and the review page's "What really happens" read the same
/// facts from here, so that no output counts, fades or words them differently.
///
/// Built from a replay (`FlowTrace`, in the FlowLens module) by index into the flow's `steps` and
/// `transitions`. A flow with no recorded run has an overlay with `runs == 0`: its pictures are drawn
/// as usual and say "no recorded runs".
public struct TraceOverlay: Hashable, Sendable {
    /// Runs replayed on the flow.
    public var runs: Int
    /// Per transition (index in `flow.transitions`): how many times a run took it.
    public var transitionCounts: [Int]
    /// Per step (index in `flow.steps`): how many times a run arrived at it.
    public var stepVisits: [Int]
    /// Steps no run reached, drawn faded. The steps that run no code of their own (the start, case
    /// splits, joins, exits) are in it only when no run went through them either.
    public var unreachedSteps: Set<Int>
    /// Transitions no run took, drawn faded.
    public var untakenTransitions: Set<Int>
    /// The steps that run code of their own and that no run reached, in step order: what the review
    /// page lists as never reached (as `flowlens trace` does).
    public var neverReached: [Int]
    /// How runs ended, most first.
    public var endings: [Ending]
    /// Where runs failed, most first.
    public var failures: [Failure]
    /// The paths most runs took, most first (at most `shownPaths`).
    public var paths: [Path]
    /// Runs on the paths not in `paths`, and how many such paths the replay kept.
    public var otherPathRuns: Int
    public var otherPaths: Int
    /// Of `otherPathRuns`, those whose path the replay did not keep (it keeps a bounded number of
    /// distinct paths a flow): their paths are more than `otherPaths` counts.
    public var unkeptPathRuns: Int
    /// Where runs left the graph, most first.
    public var deviations: [Deviation]
    /// Per step: how many runs entered the flow there (empty: not known).
    public var entered: [Int] = []
    /// Per step: how many runs ended there (empty: not known). What arrives at a step (its entries,
    /// the transitions and moves off the graph into it) is what leaves it plus these.
    public var ended: [Int] = []

    /// The most paths listed.
    public static let shownPaths = 5

    /// How some runs ended.
    public struct Ending: Hashable, Sendable {
        /// The record's word (`success`, `failure`, `no-case-matched` …; `RunEvent.Reason`).
        public var reason: String
        public var count: Int

        /// Creates an ending.
        public init(reason: String, count: Int) {
            self.reason = reason
            self.count = count
        }
    }

    /// The first run something happened in, and where its record says so.
    public struct Example: Hashable, Sendable {
        public var run: String
        public var location: SourceLocation

        /// Creates an example.
        public init(run: String, location: SourceLocation) {
            self.run = run
            self.location = location
        }
    }

    /// Runs failing at a step for a reason.
    public struct Failure: Hashable, Sendable {
        /// The step's index; nil when the failing step is not in the flow.
        public var step: Int?
        /// Why (`RunEvent.Reason`, or the record's own word).
        public var reason: String
        public var key: String?
        public var count: Int
        public var first: Example

        /// Creates a failure.
        public init(step: Int?, reason: String, key: String?, count: Int, first: Example) {
            self.step = step
            self.reason = reason
            self.key = key
            self.count = count
            self.first = first
        }
    }

    /// A path runs took: the steps they started, in order.
    public struct Path: Hashable, Sendable {
        public var steps: [Int]
        public var count: Int

        /// Creates a path.
        public init(steps: [Int], count: Int) {
            self.steps = steps
            self.count = count
        }
    }

    /// Runs leaving the graph.
    public struct Deviation: Hashable, Sendable {
        /// How they left it.
        public enum Kind: Hashable, Sendable {
            /// They started a step the flow does not have.
            case unknownStep(String)
            /// They moved from one step (nil: the start) to another with no transition between them.
            case noTransition(from: Int?, to: Int)
        }

        public var kind: Kind
        public var count: Int
        public var first: Example

        /// Creates a deviation.
        public init(kind: Kind, count: Int, first: Example) {
            self.kind = kind
            self.count = count
            self.first = first
        }
    }

    /// Creates an overlay; `unreachedSteps` and `untakenTransitions` are decided by the caller, which
    /// knows which steps a replay passes without a record.
    public init(runs: Int, transitionCounts: [Int], stepVisits: [Int], unreachedSteps: Set<Int>, untakenTransitions: Set<Int>,
                neverReached: [Int] = [], endings: [Ending] = [], failures: [Failure] = [], paths: [Path] = [], otherPathRuns: Int = 0, otherPaths: Int = 0,
                unkeptPathRuns: Int = 0, deviations: [Deviation] = [], entered: [Int] = [], ended: [Int] = []) {
        self.runs = runs
        self.transitionCounts = transitionCounts
        self.stepVisits = stepVisits
        self.unreachedSteps = unreachedSteps
        self.untakenTransitions = untakenTransitions
        self.neverReached = neverReached
        self.endings = endings
        self.failures = failures
        self.paths = paths
        self.otherPathRuns = otherPathRuns
        self.otherPaths = otherPaths
        self.unkeptPathRuns = unkeptPathRuns
        self.deviations = deviations
        self.entered = entered
        self.ended = ended
    }

    /// The overlay of a flow with `steps` steps and `transitions` transitions that no recorded run matched.
    public static func noRuns(steps: Int, transitions: Int) -> TraceOverlay {
        TraceOverlay(runs: 0, transitionCounts: Array(repeating: 0, count: transitions), stepVisits: Array(repeating: 0, count: steps),
                     unreachedSteps: [], untakenTransitions: [])
    }

    // MARK: - Drawing

    /// The count of transition `t` to write on its edge ("128 runs"); nil when none took it or there are
    /// no runs (an untaken edge is faded, not labelled "0 runs").
    public func edgeText(_ t: Int) -> String? {
        guard runs > 0, t < transitionCounts.count, transitionCounts[t] > 0 else { return nil }
        return Self.runs(transitionCounts[t])
    }

    /// The line width of transition `t` for a picture whose plain line is 1: it grows with the log of
    /// the count (1 run 1.2, 10 runs 2.4, 100 runs 3.6, 1,000 runs 4.8), at most `maximumWidth`, rounded
    /// to a tenth so that the same counts always give the same bytes. Nil when none took it.
    public func edgeWidth(_ t: Int) -> Double? {
        guard runs > 0, t < transitionCounts.count, transitionCounts[t] > 0 else { return nil }
        return Self.width(forCount: transitionCounts[t])
    }

    /// The widest line drawn.
    public static let maximumWidth = 6.0

    /// See `edgeWidth(_:)`.
    public static func width(forCount count: Int) -> Double {
        let raw = 1.2 + 1.2 * log10(Double(max(count, 1)))
        return (min(raw, maximumWidth) * 10).rounded() / 10
    }

    /// A width as DOT and CSS write it: `2.4`, `6`.
    public static func widthText(_ width: Double) -> String {
        let tenths = Int((width * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// The moves runs made that the graph has no way for, most first: from a step (nil: the flow's
    /// start) to another, with how many runs made each. Drawn as dashed edges, so that the runs into a
    /// step add up to the runs out of it and those that ended there.
    public var offGraphMoves: [(from: Int?, to: Int, count: Int)] {
        deviations.compactMap { deviation in
            guard case let .noTransition(from, to) = deviation.kind else { return nil }
            return (from, to, deviation.count)
        }
    }

    /// What an edge of moves off the graph says: "off the graph: 1 run".
    public static func offGraphText(_ count: Int) -> String { "off the graph: \(runs(count))" }

    /// How many runs ended at step `index`, when known.
    public func endings(at index: Int) -> Int { index < ended.count ? ended[index] : 0 }

    /// How many runs entered the flow at step `index`, when known.
    public func entries(at index: Int) -> Int { index < entered.count ? entered[index] : 0 }

    /// The row a step where runs ended gets (not an exit, where every run ends): "■ 3 runs ended here".
    public static func endedText(_ count: Int) -> String { "■ \(runs(count)) ended here" }

    /// The legend entry of moves off the graph.
    public static let legendOffGraph = "⇢ dashed: runs moved where the flow has no way"

    /// The colour of moves off the graph: a warning's (`run-off-graph` is a warning).
    public static let offGraphColour = SeverityStyle.of(.warning).colour

    /// The rule whose findings say what a traced picture shows by fading (`never-reached`, a note of
    /// `flowlens trace`): a step faded for it keeps its faded look.
    public static let fadingRule = "never-reached"

    /// `findings` but those a traced picture shows by fading (see `fadingRule`).
    public static func besidesFading(_ findings: [Finding]) -> [Finding] { findings.filter { $0.rule != fadingRule } }

    /// The failures at step `index`, most first.
    public func failures(at index: Int) -> [Failure] { failures.filter { $0.step == index } }

    /// One failure mark, as a diagram writes it at its step: "✖ 12 runs failed: cardToken missing
    /// (first: run r-41)".
    public static func failureMark(_ failure: Failure) -> String {
        "\(SeverityStyle.of(.error).glyph) \(runs(failure.count)) failed: \(why(failure)) (first: run \(failure.first.run))"
    }

    /// What a picture's title says of the runs: "1,000 recorded runs", or "no recorded runs".
    public var titleText: String { runs == 0 ? "no recorded runs" : "\(Self.number(runs)) recorded \(Plural.noun(runs, "run"))" }

    /// The legend entries of a traced diagram, as text: each names what it explains.
    public static let legendThickness = "━ thicker: taken by more runs"
    public static let legendFaded = "▢ faded: no recorded run went there"
    public static let legendFailure = "✖ red: runs failed there"

    /// Colours of a traced diagram's marks: faded lines and text, and a failure's red.
    public static let fadedLine = "#C9CFD7", fadedText = "#A3ABB5", fadedFill = "#FAFBFC"
    public static let failureColour = SeverityStyle.of(.error).colour

    // MARK: - Words

    /// `1,000`: a count with thousands separated, the same on every machine (no locale).
    public static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// "1 run", "1,000 runs".
    public static func runs(_ n: Int) -> String { "\(number(n)) \(Plural.noun(n, "run"))" }

    /// `count`'s share of `total` in plain words: "62%", "less than 1%", "all".
    public static func share(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0%" }
        if count == total { return "100%" }
        let percent = Int((Double(count) / Double(total) * 100).rounded())
        if percent == 0 { return "less than 1%" }
        // Not all runs: never round up to 100%.
        return "\(min(percent, 99))%"
    }

    /// Why runs failed, in plain words: "cardToken was missing", "amount had the wrong type", "an error".
    public static func why(_ failure: Failure) -> String {
        let key = failure.key.map { "‘\($0)’" }
        switch failure.reason {
        case RunEvent.Reason.missingKey: return key.map { "\($0) was missing" } ?? "a data key was missing"
        case RunEvent.Reason.typeMismatch: return key.map { "\($0) had the wrong type" } ?? "a value had the wrong type"
        case RunEvent.Reason.error: return "an error" + (key.map { " (\($0))" } ?? "")
        default: return failure.reason.replacingOccurrences(of: "-", with: " ") + (key.map { " (\($0))" } ?? "")
        }
    }

    /// How runs ended, in plain words: "finished", "failed", "stopped early: no case matched".
    public static func ending(_ reason: String) -> String {
        switch reason {
        case RunEvent.Reason.success: return "finished"
        case RunEvent.Reason.failure: return "failed"
        case RunEvent.Reason.noCaseMatched: return "stopped early because no case matched (reported as a success)"
        case RunEvent.Reason.emptyGroup: return "stopped early because a group had nothing to run"
        case RunEvent.Reason.groupFailure: return "stopped because an operation of a group failed"
        case "no end recorded": return "have no recorded end (still running, or the record was cut off)"
        default: return "ended with “\(reason)”"
        }
    }
}
