import FlowModel

/// Which flow a recorded run is a run of. A run that names its flow is matched by the flow's id,
/// else by its name (a name the configuration maps, `trace: {flows: …}`, by the flow it maps to); one that does not (a Flow-iOS summary names only operations) is matched to the
/// flow, of the kinds its records can come from, that has the most of the steps it started; among
/// flows that tie, the one it replays on with the fewest moves off the graph, then the one whose
/// initial data has the keys it started with. A run that started no step is matched to the one flow
/// whose initial data has exactly the keys it started with. Anything else is left unmatched, with the reason.
public struct RunMatcher: Sendable {
    let flows: [Flow]
    /// The flow names runs use otherwise than FlowLens does → the flow's id or name (`.flowlens.yml`
    /// `trace: {flows: …}`).
    let names: [String: String]

    public init(flows: [Flow], names: [String: String] = [:]) {
        self.flows = flows
        self.names = names
    }

    /// The index in `flows` of the flow `events` (one run's) ran, or why there is none.
    public func match(_ events: [RunEvent], kinds: [FlowKind] = []) -> Result<Int, Unmatched> {
        let candidates = flows.indices.filter { kinds.isEmpty || kinds.contains(flows[$0].kind) }
        if let recorded = events.lazy.compactMap(\.flow).first {
            let named = names[recorded] ?? recorded
            let mapped = named == recorded ? "" : " (for '\(recorded)', as the configuration's trace.flows says)"
            if let byID = candidates.first(where: { flows[$0].id == named }) { return .success(byID) }
            let byName = candidates.filter { flows[$0].name == named }
            if byName.count == 1 { return .success(byName[0]) }
            if byName.count > 1 {
                return .failure(Unmatched(reason: "it names flow '\(named)'\(mapped), and \(byName.count) flows have that name (name it by id: "
                                          + byName.map { flows[$0].id }.joined(separator: ", ") + ")"))
            }
            return .failure(Unmatched(reason: "it names flow '\(named)'\(mapped), which no flow read has as its id or name"))
        }
        var started: [String] = []
        for event in events where event.kind == .start {
            if let step = event.step, !started.contains(step) { started.append(step) }
        }
        let startKeys = Set(events.prefix { $0.kind != .start }.filter { $0.kind == .write && $0.step == nil }.compactMap(\.key))
        guard !started.isEmpty else {
            // A run that stopped before its first step (a group with nothing to run) is known by the
            // keys it started with, when one flow starts with exactly those.
            let byKeys = startKeys.isEmpty ? [] : candidates.filter { Set(flows[$0].initialData.map(\.key)) == startKeys }
            if byKeys.count == 1 { return .success(byKeys[0]) }
            return .failure(Unmatched(reason: startKeys.isEmpty ? "it names no flow and starts no step"
                                      : "it names no flow and starts no step, and \(byKeys.count) flows start with the keys it started with ("
                                        + startKeys.sorted().prefix(5).joined(separator: ", ") + ")"))
        }
        var best: [Int] = []
        var bestScore = 0
        for index in candidates {
            let names = Set(flows[index].steps.map(\.id) + flows[index].steps.map(\.name))
            let score = started.filter { names.contains($0) }.count
            if score > bestScore { (best, bestScore) = ([index], score) } else if score == bestScore, score > 0 { best.append(index) }
        }
        // Flows often share operations: among those that fit equally, the run's own records decide.
        // Prefer the flow it replays on with the fewest moves off the graph, then the one whose
        // initial data has the keys the run started with (a Flow-iOS summary lists them).
        if best.count > 1 {
            func rank(_ index: Int) -> (Int, Int) {
                var replayer = Replayer(flow: flows[index])
                replayer.replay(events)
                let keys = Set(flows[index].initialData.map(\.key))
                // A run that recorded no keys at its start says nothing about them.
                return (replayer.trace.deviations.values.reduce(0) { $0 + $1.count }, startKeys.isEmpty ? 0 : keys.symmetricDifference(startKeys).count)
            }
            let ranks = best.map { ($0, rank($0)) }
            let top = ranks.map(\.1).min { $0 < $1 }!
            best = ranks.filter { $0.1 == top }.map(\.0)
        }
        if best.count == 1 { return .success(best[0]) }
        let steps = started.prefix(5).joined(separator: ", ") + (started.count > 5 ? ", …" : "")
        if best.isEmpty { return .failure(Unmatched(reason: "none of the steps it started (\(steps)) is a step of a flow read")) }
        return .failure(Unmatched(reason: "the steps it started (\(steps)) fit \(best.count) flows equally: "
                                  + best.prefix(5).map { flows[$0].id }.joined(separator: ", ")))
    }

    /// Why a run was not matched to a flow.
    public struct Unmatched: Error, Hashable, Sendable {
        public let reason: String
    }
}
