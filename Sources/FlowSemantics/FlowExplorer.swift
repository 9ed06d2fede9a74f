import FlowModel

/// Every run of a flow, explored: `FlowMachine`'s states from each start over every choice and
/// every order of its branches, each state once, and what happened anywhere in them.
public struct FlowExplorer: Sendable {
    /// What some run of the flow did.
    public struct Witnesses: Sendable {
        /// Every event some run had.
        public var events: Set<FlowMachine.Event> = []
        /// The number of distinct states visited.
        public var states = 0
        /// False when the state or branch limit was met before every state was seen: then an event
        /// missing from `events` may still happen.
        public var complete = true

        /// Steps some run ran.
        public var ranSteps: Set<Int> {
            Set(events.compactMap { if case let .ran(step) = $0 { return step } else { return nil } })
        }
    }

    public let machine: FlowMachine
    /// At most this many states are visited.
    public let stateLimit: Int
    /// A state with more branches than this is not followed (a fan-out in a loop whose branches
    /// do not all meet again can grow a run's branches without end).
    public let branchLimit: Int

    public init(flow: Flow, mendsFailedReads: Bool = false, stateLimit: Int = 200_000, branchLimit: Int = 8) {
        machine = FlowMachine(flow: flow, mendsFailedReads: mendsFailedReads)
        self.stateLimit = stateLimit
        self.branchLimit = branchLimit
    }

    /// Explores every run.
    public func explore() -> Witnesses {
        var witnesses = Witnesses()
        var seen: Set<FlowMachine.State> = []
        var stack = machine.initialStates()
        while let state = stack.popLast() {
            guard seen.insert(state).inserted else { continue }
            if seen.count > stateLimit {
                witnesses.complete = false
                break
            }
            if state.tokens.count > branchLimit {
                witnesses.complete = false
                continue
            }
            for move in machine.successors(of: state) {
                witnesses.events.formUnion(move.events)
                if !seen.contains(move.state) { stack.append(move.state) }
            }
        }
        witnesses.states = seen.count
        return witnesses
    }
}
