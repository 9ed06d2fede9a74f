import FlowModel

/// `type-mismatch`: a read whose type differs from a type written to the key on a path reaching it.
public struct TypeMismatchRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.typeMismatch,
        tags: ["data-flow", "correctness"],
        severity: .error,
        summary: "A value has another type than what takes it: a step reads a key as one type while a path reaching it writes another, or (a state machine) a transition or handler hands a state another type than the state takes.",
        rationale: """
            The cast fails at run time on that path (the library fails the step \
            for an input of the wrong type). Two branches that write one key with different types are \
            reported where the key is read. A group's elements are checked one by one against what \
            each run reads. `Any` matches every type, `T` matches `T?`, and an unknown type never \
            produces a finding.
            """,
        triggeringExamples: [
            """
            version: 1
            flows:
              - name: Wrong type
                steps:
                  - {id: ask, writes: {age: String}, next: check}
                  - id: check
                    reads: {age: Int} # finding
                    next: done
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Branches disagree
                steps:
                  - id: choose
                    next: [{to: a, when: card}, {to: b, otherwise: true}]
                  - {id: a, writes: {total: Decimal}, next: show}
                  - {id: b, writes: {total: String}, next: show}
                  - id: show
                    reads: {total: ~} # finding
                    next: done
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Mixed array
                data: {names: {value: [a, b, 1]}}
                steps:
                  - id: greet
                    group: {inputKey: names, elementKey: name}
                    reads: {name: String} # finding
                    next: done
                  - {id: done, kind: end}
            """,
        ],
        nonTriggeringExamples: [
            """
            version: 1
            flows:
              - name: Compatible
                data: {tags: {value: [a, b]}}
                steps:
                  - {id: ask, writes: {age: Int, raw: String}, next: check}
                  - {id: check, reads: {age: Int?, raw: Any, tags: "[String]"}, next: done}
                  - {id: done, kind: end}
            """,
            """
            version: 1
            flows:
              - name: Unknown types
                steps:
                  - {id: ask, writes: {age: ~}, next: check}
                  - {id: check, reads: {age: Int}, next: done}
                  - {id: done, kind: end}
            """,
        ])

    public init() {}

    public func check(_ context: RuleContext) -> [Finding] {
        let analysis = context.analysis
        var findings: [Finding] = []
        // Per key, the types its definitions write. When that is one type and the read accepts it,
        // no definition reaching the read can be wrong and none is listed: a key written on one
        // branch of each of thousands of diamonds in a row is reached by all of them at every read.
        // (By key number, and only whether there are several: a set of types per key name cost a
        // long flow an allocation and a hash per key.)
        var written = [WrittenTypes?](repeating: nil, count: analysis.keys.count)
        for definition in analysis.definitions {
            guard let type = definition.access.type else { continue }
            switch written[definition.key] {
            case nil: written[definition.key] = .one(type)
            case .one(let known)? where known != type: written[definition.key] = .several
            default: break
            }
        }
        var checked = KeyMarks(analysis)  // the keys of this step's reads so far
        for i in analysis.reachable {
            let step = analysis.step(i)
            let keys = analysis.effectiveReadKeys[i]
            defer { checked.clear(keys) }
            for (j, read) in analysis.effectiveReads[i].enumerated() where checked.mark(keys[j]) {
                switch written[keys[j]] {
                case nil: continue
                case .one(let type)?: if read.type.map({ type.isCompatible(withRead: $0) }) ?? true { continue }
                case .several?: break
                }
                let definitions = analysis.reachingDefinitions(ofKeyNumber: keys[j], at: i).sorted(by: Self.order)
                if let finding = check(read, at: step, against: definitions, context) { findings.append(finding) }
            }
            if let group = step.group, let elementRead = group.elementReads.first(where: { $0.key == group.elementKey }),
               let readType = elementRead.type {
                let definitions = analysis.reachingDefinitions(of: group.inputKey, at: i).sorted(by: Self.order)
                findings += checkElements(of: group, read: elementRead, readType: readType, at: step,
                                          against: definitions, context)
            }
        }
        return findings + transitionTypes(context)
    }

    /// A transition that says what it carries (a declared `type:`) must carry what its target takes. Edges
    /// from the start and into an end type the flow's input and output instead, and are not checked.
    /// The types the definitions of a key write (none: no entry).
    private enum WrittenTypes {
        case one(TypeName)
        case several
    }

    private func transitionTypes(_ context: RuleContext) -> [Finding] {
        let flow = context.flow
        return flow.transitions.compactMap { transition in
            guard let carried = transition.carriedType, transition.crossesInto == nil,
                  let source = context.analysis.step(id: transition.from), source.kind != .start,
                  let target = context.analysis.step(id: transition.to), !target.isExit, let expected = target.contentType,
                  !carried.isCompatible(withRead: expected) else { return nil }
            return context.finding(
                Self.description,
                "the transition '\(source.name)' → '\(target.name)' carries \(carried), but state '\(target.name)' takes \(expected)",
                at: transition.location, step: transition.from, edge: EdgeReference(from: transition.from, to: transition.to),
                related: RelatedLocation.list(target.location, "'\(target.name)' takes \(expected)"))
        }
    }

    private func check(_ read: DataAccess, at step: Step, against definitions: [FlowAnalysis.Definition],
                       _ context: RuleContext) -> Finding? {
        let typed = definitions.filter { $0.access.type != nil }
        guard !typed.isEmpty else { return nil }
        let location = read.location ?? step.location
        if let readType = read.type {
            // A group's input is checked element by element (and "not an array") by `checkElements`
            // whenever the grouped operation's element read is typed: one defect, one finding.
            if let group = step.group, group.inputKey == read.key,
               group.elementReads.contains(where: { $0.key == group.elementKey && $0.type != nil }) {
                return nil
            }
            let wrong = typed.filter { !$0.access.type!.isCompatible(withRead: readType) }
            guard !wrong.isEmpty else { return nil }
            let sources = wrong.map { "as \($0.access.type!) by \(describe($0, context))" }.joined(separator: " and ")
            let placement = context.placement(of: step, findingAt: location)
            return context.finding(
                Self.description, "step '\(step.name)' reads '\(read.key)' as \(readType), but it is written \(sources)\(placement.suffix)",
                at: location, step: step.id, key: read.key, related: related(wrong, context) + placement.related)
        }
        // An untyped read still fails on one path when the paths reaching it disagree.
        var groups: [[FlowAnalysis.Definition]] = []
        for definition in typed {
            if let g = groups.firstIndex(where: { compatible($0[0].access.type!, definition.access.type!) }) {
                groups[g].append(definition)
            } else {
                groups.append([definition])
            }
        }
        guard groups.count > 1 else { return nil }
        let sources = groups.map { "as \($0[0].access.type!) by \(describe($0[0], context))" }.joined(separator: " and ")
        let placement = context.placement(of: step, findingAt: location)
        return context.finding(
            Self.description, "step '\(step.name)' reads '\(read.key)', which paths reaching it write with different types: \(sources)\(placement.suffix)",
            at: location, step: step.id, key: read.key, related: related(groups.map { $0[0] }, context) + placement.related)
    }

    private func checkElements(of group: GroupSpec, read: DataAccess, readType: TypeName, at step: Step,
                               against definitions: [FlowAnalysis.Definition], _ context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        for definition in definitions {
            var problems: [String] = []
            if let elements = definition.access.elementTypes {
                for (n, type) in elements.enumerated() {
                    guard let type, !type.isCompatible(withRead: readType) else { continue }
                    problems.append("element \(n + 1) is \(type)")
                }
            } else if let type = definition.access.type, !type.isAny {
                if let element = type.arrayElement {
                    if !element.isCompatible(withRead: readType) { problems.append("its elements are \(element)") }
                } else {
                    problems.append("it is \(type), not an array, so no element runs and the group fails")
                }
            }
            guard !problems.isEmpty else { continue }
            let at = read.location ?? step.location
            let placement = context.placement(of: step, findingAt: at)
            findings.append(context.finding(
                Self.description,
                "each run of group '\(step.name)' reads '\(read.key)' as \(readType), but in '\(group.inputKey)' (set by \(describe(definition, context))) \(problems.joined(separator: ", "))\(placement.suffix)",
                at: at, step: step.id, key: group.inputKey, related: related([definition], context) + placement.related))
        }
        return findings
    }

    private func compatible(_ a: TypeName, _ b: TypeName) -> Bool {
        a.isCompatible(withRead: b) && b.isCompatible(withRead: a)
    }

    private func describe(_ definition: FlowAnalysis.Definition, _ context: RuleContext) -> String {
        guard let i = definition.step else { return "the flow's initial data" }
        let line = definition.access.location.map { " (line \($0.line))" } ?? ""
        return "step '\(context.analysis.step(i).name)'\(line)"
    }

    private func related(_ definitions: [FlowAnalysis.Definition], _ context: RuleContext) -> [RelatedLocation] {
        definitions.compactMap { d in
            d.access.location.map { RelatedLocation(message: "'\(d.access.key)' written as \(d.access.type?.description ?? "?") here", location: $0) }
        }
    }

    static func order(_ a: FlowAnalysis.Definition, _ b: FlowAnalysis.Definition) -> Bool {
        (a.step ?? -1, a.access.location ?? SourceLocation(file: ""), a.access.type?.spelling ?? "")
            < (b.step ?? -1, b.access.location ?? SourceLocation(file: ""), b.access.type?.spelling ?? "")
    }
}
