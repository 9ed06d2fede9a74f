import FlowModel
import Testing
@testable import FlowLoaders

/// Step-level features: kinds, names, accesses, transitions, groups, subflows.
@Suite("Declarative format: steps")
struct DeclarativeStepTests {
    @Test("every declarable kind, the default kind, name, description and implementation")
    func kinds() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Kinds
                steps:
                  - id: begin
                    kind: start
                    name: Begin here
                    description: Where it starts.
                    implementation: BeginStep
                    next: work
                  - id: work
                    next: decide
                  - id: decide
                    kind: branch
                    next: [left, right]
                  - id: left
                    kind: operation
                    next: meet
                  - id: right
                    next: meet
                  - id: meet
                    kind: join
                    next: each
                  - id: each
                    kind: group
                    group: {inputKey: items, elementKey: item}
                    next: call
                  - id: call
                    kind: subflow
                    flow: other
                    next: done
                  - id: done
                    kind: end
                  - id: failed
                    kind: fail
            """)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.id) == ["begin", "work", "decide", "left", "right", "meet", "each", "call", "done", "failed"])
        #expect(flow.steps.map(\.kind) == [.start, .operation, .branch, .operation, .operation, .join, .group, .subflow, .end, .fail])
        #expect(flow.steps[0] == Step(id: "begin", name: "Begin here", kind: .start, location: at(5, 9),
                                      implementation: "BeginStep", summary: "Where it starts."))
        // The name defaults to the id; nothing else is set on a bare step.
        #expect(flow.steps[1] == Step(id: "work", location: at(11, 9)))
        #expect(flow.steps.map(\.location?.line) == [5, 11, 13, 16, 19, 21, 24, 28, 32, 34])
        #expect(flow.steps.allSatisfy { $0.location?.column == 9 })
        #expect(flow.steps[7].subflow == "other")
        #expect(flow.steps[6].group?.inputKey == "items")
        #expect(flow.steps.filter(\.isExit).map(\.id) == ["done", "failed"])
        #expect(flow.steps.allSatisfy { !$0.terminal && $0.details.isEmpty && $0.parent == nil })
    }

    @Test("kind is inferred from group: and flow:")
    func inferredKinds() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Inferred
                steps:
                  - id: each
                    group: {inputKey: items, elementKey: item}
                    next: call
                  - id: call
                    flow: charge-card
                    next: done
                  - id: done
                    kind: end
            """)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.kind) == [.group, .subflow, .end])
        #expect(flow.steps[0].group != nil)
        #expect(flow.steps[0].subflow == nil)
        #expect(flow.steps[1].subflow == "charge-card")
        #expect(flow.steps[1].group == nil)
        #expect(flow.transitions.map { "\($0.from)->\($0.to)" } == ["each->call", "call->done"])
    }

    @Test("reads and writes as a mapping: `T?` makes a read optional, never a write")
    func accessesMapping() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: s
                    reads: {cartID: String, coupon: String?, blob: ~, forced: "Int!"}
                    writes: {total: Double, maybe: Int?}
            """)
        #expect(graph.reported == [])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.reads == [
            DataAccess(key: "cartID", type: "String", location: at(6, 17)),
            DataAccess(key: "coupon", type: "String?", optional: true, location: at(6, 33)),
            DataAccess(key: "blob", location: at(6, 50)),
            DataAccess(key: "forced", type: "Int!", optional: true, location: at(6, 59)),
        ])
        #expect(step.writes == [
            DataAccess(key: "total", type: "Double", location: at(7, 18)),
            DataAccess(key: "maybe", type: "Int?", optional: false, location: at(7, 33)),
        ])
    }

    @Test("reads and writes as a list of {key, type, optional}")
    func accessesList() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: s
                    reads:
                      - {key: a, type: String}
                      - {key: b, type: String?}
                      - {key: c, type: String?, optional: false}
                      - {key: d, optional: true}
                      - key: e
                        type: "Array<Swift.Int>"
                      - {key: f, type: ~}
                    writes:
                      - {key: w, type: "[Int]"}
                      - {key: v, type: Int?, optional: false}
            """)
        #expect(graph.reported == [])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.reads == [
            DataAccess(key: "a", type: "String", location: at(7, 19)),
            DataAccess(key: "b", type: "String?", optional: true, location: at(8, 19)),
            DataAccess(key: "c", type: "String?", optional: false, location: at(9, 19)),
            DataAccess(key: "d", optional: true, location: at(10, 19)),
            DataAccess(key: "e", type: "[Int]", location: at(11, 18)),
            DataAccess(key: "f", location: at(13, 19)),
        ])
        #expect(step.writes == [
            DataAccess(key: "w", type: "[Int]", location: at(15, 19)),
            DataAccess(key: "v", type: "Int?", optional: false, location: at(16, 19)),
        ])
    }

    @Test("next: a step id, a list of ids (fan-out), and transition objects with every key")
    func transitions() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next: b
                  - id: b
                    next: [c, d]
                  - id: c
                    next:
                      - d
                  - id: d
                    next:
                      - e
                      - f
                  - id: e
                    kind: branch
                    next:
                      - to: f
                        when: {key: method, equals: card}
                      - to: g
                        when: "customer is a business"
                        label: Business
                      - to: h
                        otherwise: true
                      - to: oops
                        kind: error
                        type: "[String]"
                        label: Failed
                      - to: g
                        kind: normal
                        type: ~
                  - id: f
                    kind: end
                  - id: g
                    kind: end
                  - id: h
                    kind: end
                  - id: oops
                    kind: fail
            """)
        #expect(graph.reported == [])
        let flow = try #require(graph.flows.first)
        let expected: [Transition] = [
            Transition(from: "a", to: "b", location: at(6, 15)),
            Transition(from: "b", to: "c", kind: .parallel, location: at(8, 16)),
            Transition(from: "b", to: "d", kind: .parallel, location: at(8, 19)),
            Transition(from: "c", to: "d", kind: .normal, location: at(11, 13)),  // a one-item list is no fan-out
            Transition(from: "d", to: "e", kind: .parallel, location: at(14, 13)),
            Transition(from: "d", to: "f", kind: .parallel, location: at(15, 13)),
            Transition(from: "e", to: "f", condition: .equals(key: "method", value: "card"), location: at(19, 17)),
            Transition(from: "e", to: "g", label: "Business", condition: .expression("customer is a business"),
                       location: at(21, 17)),
            Transition(from: "e", to: "h", condition: .otherwise, location: at(24, 17)),
            Transition(from: "e", to: "oops", label: "Failed", carriedType: "[String]", kind: .error,
                       location: at(26, 17)),
            Transition(from: "e", to: "g", kind: .normal, location: at(30, 17)),
        ]
        #expect(flow.transitions.count == expected.count)
        for (index, (actual, wanted)) in zip(flow.transitions, expected).enumerated() {
            #expect(actual == wanted, "transition \(index): \(wanted.from)->\(wanted.to)")
        }
        #expect(flow.transitions[6...9].map(\.displayLabel) == ["method = card", "Business", "otherwise", "Failed"])
        #expect(flow.transitions[10].displayLabel == nil)
    }

    @Test("a list mixing ids and transition objects is no fan-out")
    func mixedNextList() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next: [b, {to: c, when: later}]
                  - id: b
                  - id: c
            """)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.transitions == [
            Transition(from: "a", to: "b", kind: .normal, location: at(6, 16)),
            Transition(from: "a", to: "c", condition: .expression("later"), location: at(6, 24)),
        ])
    }

    @Test("structured when: a non-string scalar is compared as its text")
    func structuredWhenScalar() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next:
                      - {to: b, when: {key: retries, equals: 3}}
                      - {to: c, when: {key: enabled, equals: true}}
                  - id: b
                  - id: c
            """)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.transitions.map(\.condition) == [
            .equals(key: "retries", value: "3"), .equals(key: "enabled", value: "true"),
        ])
    }

    @Test("YAML anchors and aliases are expanded; merge keys (<<) are not supported")
    func anchorsAndAliases() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    reads: &common {cartID: String}
                    next: b
                  - id: b
                    reads: *common
                  - <<: {kind: end}
                    id: c
            """)
        #expect(graph.reported == [Reported(location: at(10, 9), message: "unknown key '<<' in a step")])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.reads.first?.key) == ["cartID", "cartID", nil])
        #expect(flow.steps[1].reads.first?.type == "String")
        #expect(flow.steps[2].kind == .operation)
    }

    @Test("group with every key: flow-level read of inputKey and write of outputKey are synthesized")
    func groupFull() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Upload
                steps:
                  - id: upload
                    kind: group
                    group:
                      inputKey: photos
                      elementKey: photo
                      elementOutputKey: url
                      outputKey: urls
                      maxConcurrent: 5
                      allowFailure: true
                      x-note: ignored
                    reads: {photo: PhotoData?, token: String}
                    writes: {url: URL, log: String}
                    next: done
                  - id: done
                    kind: end
            """)
        #expect(graph.reported == [])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.kind == .group)
        let group = try #require(step.group)
        #expect(group == GroupSpec(
            inputKey: "photos", inputLocation: at(8, 21), outputKey: "urls", outputLocation: at(11, 22),
            elementKey: "photo", elementOutputKey: "url",
            elementReads: [
                DataAccess(key: "photo", type: "PhotoData?", optional: true, location: at(15, 17)),
                DataAccess(key: "token", type: "String", location: at(15, 36)),
            ],
            elementWrites: [
                DataAccess(key: "url", type: "URL", location: at(16, 18)),
                DataAccess(key: "log", type: "String", location: at(16, 28)),
            ],
            maxConcurrent: 5, allowFailure: true))
        #expect(group.elementOutputType == "URL")
        // The step's own reads/writes are those of the flow: the array in, the collected array out.
        #expect(step.reads == [DataAccess(key: "photos", type: "[PhotoData]", location: at(8, 21))])
        #expect(step.writes == [DataAccess(key: "urls", type: "[URL]", location: at(11, 22))])
        #expect(graph.flows.first?.transitions == [Transition(from: "upload", to: "done", location: at(17, 15))])
    }

    @Test("minimal group: [Any] input, no output, defaults for maxConcurrent and allowFailure")
    func groupMinimal() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Each
                steps:
                  - id: each
                    group: {inputKey: items, elementKey: item, allowFailure: false}
                    reads: {other: String}
                    writes: {result: Int}
            """)
        #expect(graph.reported == [])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.kind == .group)
        #expect(step.group == GroupSpec(
            inputKey: "items", inputLocation: at(6, 27), elementKey: "item",
            elementReads: [DataAccess(key: "other", type: "String", location: at(7, 17))],
            elementWrites: [DataAccess(key: "result", type: "Int", location: at(8, 18))]))
        #expect(step.group?.maxConcurrent == nil)
        #expect(step.group?.allowFailure == false)
        #expect(step.group?.elementOutputType == nil)
        #expect(step.reads == [DataAccess(key: "items", type: "[Any]", location: at(6, 27))])
        #expect(step.writes == [])
    }

    @Test("group accesses in list form and a group whose element output type is unknown")
    func groupListAccesses() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Each
                steps:
                  - id: each
                    group: {inputKey: items, elementKey: item, elementOutputKey: out, outputKey: outs}
                    reads:
                      - {key: item, type: "[Int]"}
                    writes:
                      - {key: out}
            """)
        #expect(graph.reported == [])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.group?.elementReads == [DataAccess(key: "item", type: "[Int]", location: at(8, 19))])
        #expect(step.group?.elementWrites == [DataAccess(key: "out", location: at(10, 19))])
        #expect(step.reads == [DataAccess(key: "items", type: "[[Int]]", location: at(6, 27))])
        #expect(step.writes == [DataAccess(key: "outs", type: "[Any]", location: at(6, 86))])
    }
}
