/// One thing a flow run did, as the run's own records say (a library's own run log, FlowLens's JSON-lines
/// events, an OpenTelemetry span): a step started, finished or failed, a key was written, or the run
/// stopped or ended. The readers of run records produce these; replaying them on the flow graph (which path runs
/// really take, where they fail) reads them.
public struct RunEvent: Hashable, Sendable, Codable {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The step began.
        case start
        /// The step ended successfully.
        case finish
        /// The step ended with a failure (`reason`, and the `key` it was about).
        case fail
        /// The run wrote `key` (a value added or replaced in the flow's data; with no step, a key the
        /// run started with).
        case write
        /// The run stopped before the end of its flow without a step failing (`reason`: no case
        /// matched, a group with nothing to run, a group stopped by a failure).
        case stop
        /// The run ended (`reason`: how, `RunEvent.Reason`).
        case end
    }

    /// Why a step failed or how a run ended: the words run records use, one set for every format.
    public enum Reason {
        /// A step read a key that was not there.
        public static let missingKey = "missing-key"
        /// A step read a key whose value had another type.
        public static let typeMismatch = "type-mismatch"
        /// A step failed with an error of its own.
        public static let error = "error"
        /// The run ended successfully.
        public static let success = "success"
        /// The run ended with a failure.
        public static let failure = "failure"
        /// The run ended early, reporting success, because no case of a case split matched.
        public static let noCaseMatched = "no-case-matched"
        /// A group had no element to run an operation for (its input key missing, empty or not a list).
        public static let emptyGroup = "empty-group"
        /// An operation of a group that allows no failure failed, and the run stopped.
        public static let groupFailure = "group-failure"
    }

    /// The flow, as the record names it (its id or name); nil when the record does not say (a
    /// library's log may name only the steps: the run is matched to a flow by them).
    public var flow: String?
    /// Which run: records of several runs may interleave.
    public var run: String
    /// The step, as the record names it (an operation's name or type, a state, a span's name); nil for
    /// an event of the whole run (`end`, a write before any step).
    public var step: String?
    /// When one step runs several times at once (a group's operations), which of them.
    public var instance: String?
    public var kind: Kind
    /// For `fail` and `end`: why (`Reason`, or the record's own word).
    public var reason: String?
    /// The data key a failure or write is about.
    public var key: String?
    /// More words from the record: an error's description, the types of a mismatch.
    public var detail: String?
    /// The time as the record writes it (a locale's time of day, an ISO 8601 date, nanoseconds).
    public var time: String?
    /// Where the record says it.
    public var location: SourceLocation

    public init(flow: String? = nil, run: String, step: String?, instance: String? = nil, kind: Kind, reason: String? = nil,
                key: String? = nil, detail: String? = nil, time: String? = nil, location: SourceLocation) {
        self.flow = flow
        self.run = run
        self.step = step
        self.instance = instance
        self.kind = kind
        self.reason = reason
        self.key = key
        self.detail = detail
        self.time = time
        self.location = location
    }
}

/// What a file of run records holds: the events in the order written, and an `invalid-input` finding
/// for each line or record that could not be read (it is skipped; the rest is kept).
public struct RunRecords: Sendable {
    public var events: [RunEvent] = []
    public var findings: [Finding] = []
    /// The kinds of flow these records can come from (a library's own log format names its library);
    /// empty: any.
    public var flowKinds: [FlowKind] = []

    public init(events: [RunEvent] = [], findings: [Finding] = [], flowKinds: [FlowKind] = []) {
        self.events = events
        self.findings = findings
        self.flowKinds = flowKinds
    }

    /// The runs, each with its events in order, in the order each run first appears.
    public var runs: [(run: String, events: [RunEvent])] {
        var order: [String] = []
        var byRun: [String: [RunEvent]] = [:]
        for event in events {
            if byRun[event.run] == nil { order.append(event.run) }
            byRun[event.run, default: []].append(event)
        }
        return order.map { ($0, byRun[$0]!) }
    }
}
