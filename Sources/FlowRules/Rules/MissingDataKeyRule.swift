import FlowModel

/// `missing-data-key`: a required read of a key that is not set on every path to it.
public struct MissingDataKeyRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.missingDataKey,
        tags: ["data-flow", "correctness"],
        severity: .error,
        summary: "A step reads a key that is not set on every path from the start to it.",
        rationale: """
            The step fails at run time on the path where the key is missing (the library fails the \
            step for insufficient input data, and the whole flow fails). A key written in one \
            branch only is missing on the others after they join; the message names such a path. \
            A grouped step sees only its element key. Optional reads (`Type?`, `optional: true`) are \
            never reported. A read of a key nothing sets, spelt like exactly one key set on every path \
            to it, gets that key as its "did you mean", which `check --fix` applies. A case on a key \
            (`when: {key: K, equals: V}`) reads it too: on a key no run has set by then, the case \
            never matches, and the finding is at the case.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Never set
                steps:
                  - id: greet
                    reads: {userName: String} # finding
                    next: done
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: One branch only
                data: {mode: String}
                steps:
                  - id: choose
                    reads: {mode: String}
                    next: [{to: guest, when: {key: mode, equals: guest}}, {to: account, otherwise: true}]
                  - {id: guest, writes: {displayName: String}, next: welcome}
                  - {id: account, next: welcome}
                  - id: welcome
                    reads: {displayName: String} # finding
                    next: done
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Group sees only its element
                data: {photos: "[Data]", albumID: String}
                steps:
                  - id: upload
                    group: {inputKey: photos, elementKey: photo, elementOutputKey: url, outputKey: urls}
                    reads:
                      photo: Data
                      albumID: String # finding
                    writes: {url: URL}
                    next: done
                  - {id: done, kind: end, reads: {urls: "[URL]"}}
            """,
            """
            version: 1
            flows:
              - name: Case on a key nothing sets
                steps:
                  - id: route
                    kind: branch
                    next:
                      - {to: express, when: {key: shipping, equals: express}} # finding
                      - {to: standard, otherwise: true}
                  - {id: express, next: done}
                  - {id: standard, next: done}
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Set on both branches
                data: {mode: String}
                steps:
                  - id: choose
                    reads: {mode: String}
                    next: [{to: guest, when: {key: mode, equals: guest}}, {to: account, otherwise: true}]
                  - {id: guest, writes: {displayName: String}, next: welcome}
                  - {id: account, writes: {displayName: String}, next: welcome}
                  - {id: welcome, reads: {displayName: String, nickname: String?}, next: done}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Optional read
                steps:
                  - id: greet
                    reads: [{key: coupon, type: String, optional: true}]
                    next: done
                  - {id: done, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        let flow = context.flow
        var findings: [Finding] = []
        // The reads whose message names a path: found after the walk, one key after the other, so that
        // what a key's paths need is made once and let go before the next key's.
        var pathReads: [(finding: Int, key: String, step: Int, subject: String, rest: String)] = []
        var spellingKeys: [String: Spelling.Candidates] = [:]
        let conditional = Set(analysis.definitions.filter { $0.access.condition != nil }.map(\.access.key))
        var reported = KeyMarks(analysis)  // this step's keys reported so far
        var laterSteps: [Int: StepSet] = [:]  // per step read at, the steps after it (see `writersOnlyAfter`)
        let mayWriteAnything = analysis.reachable.contains { analysis.step($0).mayWriteAnything }
        for i in analysis.reachable {
            let step = analysis.step(i)
            let declared = step.reads.count
            let keys = analysis.effectiveReadKeys[i]
            defer { reported.clear(keys) }
            for (n, read) in analysis.effectiveReads[i].enumerated() where !read.optional {
                guard !analysis.isDefinitelySet(keyNumber: keys[n], before: i), reported.mark(keys[n]) else { continue }
                let subject = n < declared
                    ? "step '\(step.name)' reads '\(read.key)'"
                    : "step '\(step.name)' runs flow '\(step.subflow ?? "")', which needs '\(read.key)'"
                let everWritten = flow.initialData.contains { $0.key == read.key }
                    || analysis.writers(of: read.key).contains { $0 != i }
                // A key nothing sets is missing on every path: naming one adds nothing, and a path
                // per read would make the report quadratic in a long flow's length.
                var message: String
                var fix: Fix?
                var setOnlyLater = false
                if !everWritten {
                    message = "\(subject), but no step sets it and the flow does not start with it"
                    if n < declared, let key = Self.spelling(of: read, at: i, in: analysis, session: context.session, keys: &spellingKeys) {
                        message += "; did you mean '\(key)'?"
                        fix = Fix.rename(read.key, to: key, at: read.location)
                    }
                } else if let later = Self.writersOnlyAfter(i, of: read.key, in: analysis, cache: &laterSteps) {
                    // Written, but only by steps after the read: "not set on every path" would send the
                    // reader looking for a branch that misses it.
                    let names = later.prefix(3).map { "'\(analysis.step($0).name)'" }.joined(separator: ", ") + (later.count > 3 ? " …" : "")
                    message = "\(subject), but it is set only after it, by \(names)"
                    setOnlyLater = true
                } else {
                    message = "\(subject), but it is not set on every path to it"  // until its path is found
                }
                // A write that may not happen explains the gap: say when it does. (Only a key with such
                // a write has one to name: the definitions reaching a read are not listed otherwise.)
                let maybe = !conditional.contains(read.key) ? [] : analysis.reachingDefinitions(of: read.key, at: i).compactMap { definition -> String? in
                    guard let condition = definition.access.condition else { return nil }
                    guard let writer = definition.step else { return "the flow starts with it only when \(condition)" }
                    return "step '\(analysis.step(writer).name)' sets it only when \(condition)"
                }
                let because = maybe.first.map { " (\($0))" } ?? ""
                let at = read.location ?? step.location
                let placement = context.placement(of: step, findingAt: at)
                var finding = context.finding(Self.description, message + because + placement.suffix, at: at,
                                              step: step.id, key: read.key, related: placement.related)
                finding.fix = fix
                if everWritten && !setOnlyLater { pathReads.append((findings.count, read.key, i, subject, because + placement.suffix)) }
                findings.append(finding)
            }
            // A case on a key is a read of it too: on a key no run has set by then, no run can take it.
            var tested: Set<String> = []
            for t in analysis.transitionsLeaving[i] {
                guard case let .equals(key, value)? = flow.transitions[t].condition, tested.insert(key).inserted, !mayWriteAnything,
                      analysis.reachingDefinitions(of: key, at: i).isEmpty,
                      !analysis.effectiveWrites[i].contains(where: { $0.key == key }) else { continue }
                if analysis.effectiveReads[i].contains(where: { $0.key == key && !$0.optional }) { continue }  // reported above
                let writers = analysis.writers(of: key)
                let why = writers.isEmpty
                    ? "no step sets it and the flow does not start with it"
                    : "no run has set it by then (only \(writers.prefix(3).map { "'\(analysis.step($0).name)'" }.joined(separator: ", "))\(writers.count > 3 ? " …" : "") \(writers.count == 1 ? "sets" : "set") it, on other ways)"
                let at = flow.transitions[t].location ?? step.location
                let placement = context.placement(of: step, findingAt: at)
                findings.append(context.finding(
                    Self.description,
                    "the way on from step '\(step.name)' tests '\(key)' (\(key) = \(value)), but \(why): the case never matches\(placement.suffix)",
                    at: at, step: step.id, key: key, related: placement.related))
            }
            if let group = step.group {
                for read in group.elementReads where !read.optional && read.key != group.elementKey {
                    let inFlow = analysis.isDefinitelySet(read.key, before: i) ? " (the flow has it, but a group's runs do not)" : ""
                    let at = read.location ?? step.location
                    let placement = context.placement(of: step, findingAt: at)
                    findings.append(context.finding(
                        Self.description,
                        "each run of group '\(step.name)' sees only '\(group.elementKey)', so its read of '\(read.key)' always fails\(inFlow)\(placement.suffix)",
                        at: at, step: step.id, key: read.key, related: placement.related))
                }
            }
        }
        // Each read's path, by key (in the order keys are first met), the key's reads in step order.
        var keyOrder: [String] = []
        var readsByKey: [String: [Int]] = [:]
        for (r, read) in pathReads.enumerated() {
            if readsByKey[read.key] == nil { keyOrder.append(read.key) }
            readsByKey[read.key, default: []].append(r)
        }
        var missingPaths = MissingPaths(analysis)
        for key in keyOrder {
            for r in readsByKey[key]! {
                let read = pathReads[r]
                guard let path = missingPaths.path(of: key, to: read.step) else { continue }
                findings[read.finding].message = "\(read.subject), but it is not set on every path: it is missing on \(analysis.describe(path))" + read.rest
                findings[read.finding].path = path.shownPositions.map { analysis.step(path.element($0).step).id }
            }
            missingPaths.forget(key)
        }
        return findings
    }

    /// The steps that set `key`, when every one of them comes only after step `i` (reachable from it)
    /// and no definition reaches `i` (the flow does not start with it): the read is before every
    /// write. Nil otherwise. `cache` keeps the steps after each step asked about.
    static func writersOnlyAfter(_ i: Int, of key: String, in analysis: FlowAnalysis, cache: inout [Int: StepSet]) -> [Int]? {
        guard !analysis.flow.initialData.contains(where: { $0.key == key }), analysis.reachingDefinitions(of: key, at: i).isEmpty else { return nil }
        let writers = analysis.writers(of: key).filter { $0 != i }
        guard !writers.isEmpty else { return nil }
        if cache[i] == nil {
            let successors = analysis.successors
            cache[i] = FlowAnalysis.closure(from: successors[i].map(\.to), capacity: analysis.flow.steps.count, next: { successors[$0].lazy.map(\.to) })
        }
        return writers.allSatisfy { cache[i]!.contains($0) } ? writers : nil
    }

    /// The key a read of a key nothing sets was meant to be: the one key closest in spelling among those
    /// set on every path to the step, with a type the read accepts. Renaming the read to it makes the
    /// read succeed at run time; with a tie, a key set on some paths only, or another type there is
    /// no certain answer, and nil.
    ///
    /// A read written once and run by several flows (an operation class) is renamed for all of
    /// them: every flow running it must then lack the key and have the same one set.
    static func spelling(of read: DataAccess, at index: Int, in analysis: FlowAnalysis, session: AnalysisSession,
                         keys: inout [String: Spelling.Candidates]) -> String? {
        guard let key = spelling(of: read, at: index, in: analysis, keys: &keys) else { return nil }
        guard let location = read.location else { return key }
        for (f, i) in session.stepsReading(at: location) where session.graph.flows[f].id != analysis.flow.id {
            let flow = session.graph.flows[f]
            if flow.steps[i].reads.contains(where: { $0.location == location && $0.key == read.key }) {
                let other = session.analysis(of: flow)
                let written = flow.initialData.contains { $0.key == read.key } || !other.writers(of: read.key).isEmpty
                guard !written, spelling(of: read, at: i, in: other, keys: &keys) == key else { return nil }
            }
        }
        return key
    }

    /// `keys`: each flow's keys as spelling candidates, by flow id, made once for all its reads.
    private static func spelling(of read: DataAccess, at index: Int, in analysis: FlowAnalysis,
                                 keys: inout [String: Spelling.Candidates]) -> String? {
        // The keys close in spelling first, then which of them are set: asking every key of a flow
        // whether it is set, for every read of a key nothing sets, was quadratic in a long flow.
        let flow = analysis.flow.id
        if keys[flow] == nil { keys[flow] = Spelling.Candidates(analysis.keys) }
        guard let close = keys[flow]!.matches(for: read.key) else { return nil }
        let set = close.filter { $0.name != read.key && analysis.isDefinitelySet($0.name, before: index) }
        guard let key = Spelling.suggestion(among: set).flatMap({ $0.isUnique ? $0.name : nil }) else { return nil }
        if let readType = read.type {
            let definitions = analysis.reachingDefinitions(of: key, at: index)
            guard definitions.allSatisfy({ $0.access.type?.isCompatible(withRead: readType) ?? true }) else { return nil }
        }
        return key
    }
}
