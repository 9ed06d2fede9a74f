import FlowModel
import Testing
@testable import FlowLoaders

/// What the declarative loader reports as `invalid-input`, where, and what it still loads.
@Suite("Declarative format: invalid input")
struct DeclarativeErrorTests {
    // MARK: Whole-file problems

    @Test("a YAML syntax error: one finding at the parser's position, no flows")
    func syntaxError() {
        let graph = load("""
            version: 1
            flows:
              - name: A
                steps: [{id: s}
              - name: B
                steps: [{id: t}]
            """)
        #expect(graph.findingsAreInvalidInput)
        #expect(graph.reported == [Reported(
            location: at(5, 3),
            message: "syntax error: while parsing a flow sequence at line 4, column 12: did not find expected ',' or ']'")])
        #expect(graph.flows.isEmpty)
    }

    @Test("a scanner error (unterminated quoted string)")
    func scannerError() {
        let graph = load("version: 1\nflows:\n  - name: \"A\n")
        #expect(graph.reported == [Reported(
            location: at(4, 1),
            message: "syntax error: while scanning a quoted scalar at line 3, column 11: found unexpected end of stream")])
        #expect(graph.flows.isEmpty)
    }

    @Test("a control character is a reader error at its line and column")
    func controlCharacter() {
        let graph = load("version: 1\nflows: a\u{07}\n")
        #expect(graph.reported == [Reported(location: at(2, 9), message: "cannot read text: control characters are not allowed")])
    }

    /// Yams gives a reader error's offset in Characters (a CRLF is one); the position must not drift after
    /// non-ASCII text or CRLF line ends.
    @Test("reader error position after non-ASCII text and CRLF line ends")
    func controlCharacterAfterNonASCII() {
        let accents = load("version: 1\n# éééé ✓\nflows: äöü\u{07}\n")
        let crlf = load("version: 1\r\nflows: a\r\nx: \u{07}\r\n")
        #expect(accents.reported == [Reported(location: at(3, 11), message: "cannot read text: control characters are not allowed")])
        #expect(crlf.reported == [Reported(location: at(3, 4), message: "cannot read text: control characters are not allowed")])
    }

    @Test("an empty file, a comment-only file and a blank file", arguments: ["", "# nothing here\n", "   \n\n"])
    func emptyFile(text: String) {
        let graph = load(text)
        #expect(graph.findingsAreInvalidInput)
        #expect(graph.reported == [Reported(location: at(1, 1), message: "empty file: expected 'version: 1' and 'flows:'")])
        #expect(graph.flows.isEmpty)
    }

    @Test("a document that is not a mapping")
    func rootNotMapping() {
        #expect(load("- version: 1\n").reported == [
            Reported(location: at(1, 1), message: "the document must be a mapping, found a list"),
        ])
        #expect(load("just text").reported == [
            Reported(location: at(1, 1), message: "the document must be a mapping, found 'just text'"),
        ])
    }

    @Test("missing version: reported at the document's first key")
    func missingVersion() {
        let graph = load("""
            # a comment first
            flows:
              - name: A
                steps: [{id: s}]
            """)
        #expect(graph.reported == [Reported(location: at(2, 1), message: "missing 'version: 1' at the top of the file")])
        #expect(graph.flows.isEmpty)
    }

    @Test("version 2 stops reading, even when the flows are valid")
    func unsupportedVersion() {
        let graph = load("""
            version: 2
            flows:
              - name: A
                steps: [{id: s}]
            """)
        #expect(graph.reported == [Reported(location: at(1, 10), message: "unsupported version 2: this FlowLens reads version 1")])
        #expect(graph.flows.isEmpty)
    }

    @Test("version must be an integer", arguments: [
        ("version: \"1\"", "'version' must be an integer, found '1'"),
        ("version: 1.0", "'version' must be an integer, found a number"),
        ("version: [1]", "'version' must be an integer, found a list"),
    ])
    func versionNotInteger(line: String, message: String) {
        let graph = load(line + "\nflows:\n  - name: A\n    steps: [{id: s}]\n")
        #expect(graph.reported == [Reported(location: at(1, 10), message: message)])
        #expect(graph.flows.isEmpty)
    }

    @Test("flows missing, not a list, or empty")
    func flowsShape() {
        #expect(load("version: 1\n").reported == [
            Reported(location: at(1, 1), message: "missing 'flows:' (a list of flows)"),
        ])
        #expect(load("version: 1\nflows: {name: A, steps: [{id: s}]}\n").reported == [
            Reported(location: at(2, 8), message: "'flows' must be a non-empty list"),
        ])
        #expect(load("version: 1\nflows: []\n").reported == [
            Reported(location: at(2, 8), message: "'flows' must be a non-empty list"),
        ])
    }

    // MARK: Unknown keys

    @Test("unknown keys at every level, with a did-you-mean hint when one is close; the rest still loads")
    func unknownKeys() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                step: x
                steps:
                  - id: a
                    nxt: b
                    colour: red
                    next:
                      - too: b
                      - to: b
                        when: {key: k, equal: v}
                  - id: b
                    group: {inputkey: xs, inputKey: xs, elementKey: x}
                    reads: [{key: x, optinal: true}]
                data:
                  n: {vlue: 1}
            """)
        #expect(graph.findingsAreInvalidInput)
        #expect(graph.reported == [
            Reported(location: at(4, 5), message: "unknown key 'step' in a flow; did you mean 'steps'?"),
            Reported(location: at(17, 11), message: "unknown key 'vlue' in data value 'n'; did you mean 'value'?"),
            Reported(location: at(7, 9), message: "unknown key 'nxt' in a step; did you mean 'next'?"),
            Reported(location: at(8, 9), message: "unknown key 'colour' in a step"),
            Reported(location: at(10, 13), message: "unknown key 'too' in a transition; did you mean 'to'?"),
            Reported(location: at(10, 13), message: "a transition needs 'to'"),
            Reported(location: at(12, 28), message: "unknown key 'equal' in 'when'; did you mean 'equals'?"),
            Reported(location: at(12, 19), message: "a structured 'when' needs both 'key' and 'equals'"),
            Reported(location: at(15, 26), message: "unknown key 'optinal' in an entry of 'reads'; did you mean 'optional'?"),
            Reported(location: at(14, 17), message: "unknown key 'inputkey' in 'group'; did you mean 'inputKey'?"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.id) == ["a", "b"])
        #expect(flow.transitions == [Transition(from: "a", to: "b", location: at(11, 17))])
        #expect(flow.initialData == [DataAccess(key: "n", location: at(17, 7))])
        #expect(flow.steps[1].group?.inputKey == "xs")
        #expect(flow.steps[1].group?.elementReads == [DataAccess(key: "x", location: at(15, 23))])
    }

    @Test("an unknown top-level key is reported and the flows are still read")
    func unknownTopLevelKey() {
        let graph = load("""
            version: 1
            flow: oops
            flows:
              - name: A
                steps: [{id: s}]
            """)
        #expect(graph.reported == [Reported(location: at(2, 1), message: "unknown key 'flow' in the document; did you mean 'flows'?")])
        #expect(graph.flows.map(\.id) == ["A"])
    }

    @Test("mapping keys must be strings")
    func nonStringKey() {
        let graph = load("""
            version: 1
            flows:
              - name: A
                ? [complex, key]
                : 1
                steps: [{id: s}]
            """)
        #expect(graph.reported == [Reported(location: at(4, 7), message: "a flow keys must be strings")])
        #expect(graph.flows.map(\.id) == ["A"])
    }

    // MARK: Flows

    @Test("a flow without a name is skipped; a flow without steps is kept, empty")
    func flowNameAndSteps() {
        let graph = load("""
            version: 1
            flows:
              - id: nameless
                steps: [{id: s}]
              - name: No steps
              - name: Empty steps
                steps: []
              - just a string
              - name: Fine
                steps: [{id: s}]
            """)
        #expect(graph.reported == [
            Reported(location: at(3, 5), message: "a flow needs a 'name'"),
            Reported(location: at(5, 5), message: "flow 'No steps' needs 'steps'"),
            Reported(location: at(7, 12), message: "'steps' must be a non-empty list"),
            Reported(location: at(8, 5), message: "a flow must be a mapping, found 'just a string'"),
        ])
        #expect(graph.flows.map(\.id) == ["No steps", "Empty steps", "Fine"])
        #expect(graph.flows.map(\.steps.count) == [0, 0, 1])
    }

    @Test("a flow name or id that is empty or null")
    func emptyNameOrID() {
        let graph = load("""
            version: 1
            flows:
              - name: ""
                steps: [{id: s}]
              - name: Kept
                id: ~
                steps: [{id: s}]
            """)
        #expect(graph.reported == [
            Reported(location: at(3, 11), message: "'name' must not be empty"),
            Reported(location: at(6, 9), message: "'id' must be a string, found null"),
        ])
        // An unusable id falls back to the name.
        #expect(graph.flows.map(\.id) == ["Kept"])
    }

    @Test("a duplicate flow id in one file: the later flow is dropped, naming the first one's line")
    func duplicateFlowID() {
        let graph = load("""
            version: 1
            flows:
              - name: A
                id: same
                steps: [{id: s}]
              - name: B
                id: same
                steps: [{id: s}]
              - name: C
                steps: [{id: s}]
              - name: C
                steps: [{id: t}]
              - name: D
                steps: [{id: u}]
            """)
        #expect(graph.reported == [
            Reported(location: at(6, 5), message: "a flow with id 'same' is already defined at line 3"),
            Reported(location: at(11, 5), message: "a flow with id 'C' is already defined at line 9"),
        ])
        #expect(graph.flows.map(\.id) == ["same", "C", "D"])
        #expect(graph.flows.map(\.name) == ["A", "C", "D"])
        #expect(graph.flows[1].steps.map(\.id) == ["s"])
    }

    @Test("data, outputs and accesses of the wrong shape")
    func wrongShapes() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data: [a, b]
                outputs: orderID
                steps:
                  - id: a
                    reads: String
                    writes: {total: [Double], count: Int}
                    next: {to: b}
                  - id: b
                    reads: [key, {type: Int}]
              - name: G
                data:
                  photos: [String]
                  count: Int
                outputs: [{key: a}, done]
                steps: [{id: s}]
            """)
        #expect(graph.findingsAreInvalidInput)
        #expect(graph.reported == [
            Reported(location: at(4, 11), message: "'data' must be a mapping of key: Type or key: {type, value}"),
            Reported(location: at(5, 14), message: "'outputs' must be a list of keys or a mapping of key: Type"),
            Reported(location: at(8, 16), message: "'reads' must be a mapping of key: Type or a list of {key, type, optional}, found 'String'"),
            Reported(location: at(9, 25), message: "the type of 'total' must be a string: quote array types, as in \"[Double]\" (unquoted, YAML reads [Double] as a list)"),
            Reported(location: at(10, 15), message: "'next' must be a step id or a list, found a mapping"),
            Reported(location: at(12, 17), message: "an entry of 'reads' must be a mapping, found 'key'"),
            Reported(location: at(12, 22), message: "an entry of 'reads' needs 'key'"),
            Reported(location: at(15, 15), message: "the type of 'photos' must be a string: quote array types, as in \"[String]\" (unquoted, YAML reads [String] as a list)"),
            Reported(location: at(17, 15), message: "an output key must be a string, found a mapping"),
        ])
        try #require(graph.flows.count == 2)
        let f = graph.flows[0], g = graph.flows[1]
        #expect(f.initialData == [] && f.outputs == [] && f.transitions == [])
        #expect(f.steps[0].reads == [])
        // A write whose type is not a scalar is dropped; the others stay.
        #expect(f.steps[0].writes == [DataAccess(key: "count", type: "Int", location: at(9, 35))])
        #expect(f.steps[1].reads == [])
        // A data key whose type is not a scalar is kept with an unknown type (unlike reads/writes).
        #expect(g.initialData == [DataAccess(key: "photos", location: at(15, 7)), DataAccess(key: "count", type: "Int", location: at(16, 7))])
        #expect(g.outputs == [DataAccess(key: "done", location: at(17, 25))])
    }

    @Test("an unquoted [T] or {K: V} type gets a hint to quote it; the access is dropped")
    func unquotedTypeHints() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data:
                  ids: {type: [Int]}
                steps:
                  - id: a
                    reads: {photos: [String], options: {String: Any}, pair: [a, b], ok: String}
                    writes:
                      - {key: w, type: [URL]}
            """)
        #expect(graph.reported == [
            Reported(location: at(5, 19), message: "'type' must be a string: quote array types, as in \"[Int]\" (unquoted, YAML reads [Int] as a list)"),
            Reported(location: at(8, 25), message: "the type of 'photos' must be a string: quote array types, as in \"[String]\" (unquoted, YAML reads [String] as a list)"),
            Reported(location: at(8, 44), message: "the type of 'options' must be a string: quote dictionary types, as in \"[String: Any]\""),
            Reported(location: at(8, 65), message: "the type of 'pair' must be a string, found a list"),
            Reported(location: at(10, 28), message: "'type' must be a string: quote array types, as in \"[URL]\" (unquoted, YAML reads [URL] as a list)"),
        ])
        let flow = try #require(graph.flows.first)
        // A bad `type` in a data value or access entry leaves the type unknown; a bad mapping entry drops the access.
        #expect(flow.initialData == [DataAccess(key: "ids", location: at(5, 7))])
        #expect(flow.steps[0].reads == [DataAccess(key: "ok", type: "String", location: at(8, 73))])
        #expect(flow.steps[0].writes == [DataAccess(key: "w", location: at(10, 19))])
    }

    // MARK: Steps

    @Test("a step without an id is skipped with its transitions; empty and null ids too")
    func stepWithoutID() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - name: Nameless
                    next: b
                  - id: ""
                    next: b
                  - id: ~
                  - id: b
                    next: c
                  - id: c
            """)
        #expect(graph.reported == [
            Reported(location: at(5, 9), message: "a step needs an 'id'"),
            Reported(location: at(7, 13), message: "a step 'id' must not be empty"),
            Reported(location: at(9, 13), message: "a step 'id' must be a string, found null"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.id) == ["b", "c"])
        #expect(flow.transitions.map { "\($0.from)->\($0.to)" } == ["b->c"])
    }

    @Test("an unknown step kind is reported and the step loads as an operation")
    func unknownStepKind() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    kind: loop
                    next: b
                  - id: b
                    kind: state
                  - id: c
                    kind: End
            """)
        let expected = "(expected start, end, fail, operation, branch, join, group, subflow)"
        #expect(graph.reported == [
            Reported(location: at(6, 15), message: "unknown step kind 'loop' \(expected)"),
            Reported(location: at(9, 15), message: "unknown step kind 'state' \(expected)"),
            Reported(location: at(11, 15), message: "unknown step kind 'End' \(expected)"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.kind) == [.operation, .operation, .operation])
        #expect(flow.transitions.map(\.to) == ["b"])
    }

    @Test("next on an end or fail step is reported at the `next` key and ignored")
    func nextOnExit() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    kind: end
                    next: b
                  - id: b
                    kind: fail
                    next: [a]
            """)
        #expect(graph.reported == [
            Reported(location: at(7, 9), message: "an end step leaves the flow and cannot have 'next'"),
            Reported(location: at(10, 9), message: "a fail step leaves the flow and cannot have 'next'"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.kind) == [.end, .fail])
        #expect(flow.transitions == [])
    }

    @Test("kind contradicting group:/flow:, and group/subflow kinds without their key")
    func kindConflicts() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    kind: operation
                    group: {inputKey: xs, elementKey: x}
                  - id: b
                    kind: branch
                    flow: other
                  - id: c
                    kind: group
                  - id: d
                    kind: subflow
            """)
        #expect(graph.reported == [
            Reported(location: at(7, 9), message: "a step with 'group' has kind group, not operation"),
            Reported(location: at(10, 9), message: "a step with 'flow' has kind subflow, not branch"),
            Reported(location: at(11, 9), message: "a group step needs 'group:' with at least inputKey and elementKey"),
            Reported(location: at(13, 9), message: "a subflow step needs 'flow: <flow name>'"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.kind) == [.group, .subflow, .group, .subflow])
        #expect(flow.steps[0].group?.inputKey == "xs")
        #expect(flow.steps[1].subflow == "other")
        #expect(flow.steps[2].group == nil && flow.steps[3].subflow == nil)
    }

    @Test("a step with both group: and flow: is an error at 'flow'")
    func groupAndFlow() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    group: {inputKey: xs, elementKey: x}
                    flow: other
            """)
        #expect(graph.reported == [Reported(
            location: at(7, 9),
            message: "a step has either 'group' (run once per element) or 'flow' (run another flow), not both")])
    }

    @Test("a number or boolean where a type belongs is an error that suggests {value: ...}")
    func valueWhereTypeBelongs() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data: {retries: 3}
                steps:
                  - {id: a, reads: {ok: true}, kind: end}
            """)
        #expect(graph.reported == [
            Reported(location: at(4, 21), message: "the type of 'retries' must be a type name such as String, found an integer; to give a value, write {value: 3}"),
            Reported(location: at(6, 29), message: "the type of 'ok' must be a type name such as String, found a boolean; to give a value, write {value: true}"),
        ])
    }

    @Test("an empty type next to a value is inferred from the value")
    func emptyTypeInferred() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data: {retries: {type: ~, value: 1}}
                steps: [{id: a, kind: end}]
            """)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.initialData.first?.type == "Int")
    }

    @Test("optional: true on a write, and non-boolean optional")
    func optionalOnWrite() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    reads:
                      - {key: r, type: String, optional: "yes"}
                    writes:
                      - {key: w, type: String, optional: true}
            """)
        #expect(graph.reported == [
            Reported(location: at(7, 46), message: "'optional' must be true or false, found 'yes'"),
            Reported(location: at(9, 46), message: "'optional' applies to reads only"),
        ])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.reads == [DataAccess(key: "r", type: "String", optional: false, location: at(7, 19))])
        #expect(step.writes == [DataAccess(key: "w", type: "String", optional: false, location: at(9, 19))])
    }

    // MARK: Transitions

    @Test("when with otherwise, two otherwise, and otherwise: false")
    func otherwiseRules() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next:
                      - to: b
                        when: ready
                        otherwise: true
                      - to: c
                        otherwise: true
                      - to: d
                        otherwise: true
                      - to: e
                        otherwise: false
            """)
        #expect(graph.reported == [
            Reported(location: at(9, 24), message: "a transition has either 'when' or 'otherwise', not both"),
            Reported(location: at(13, 24), message: "only one transition of a step can be 'otherwise'"),
            Reported(location: at(15, 24), message: "'otherwise' can only be true; leave it out instead"),
        ])
        let flow = try #require(graph.flows.first)
        // Every transition is kept; only the first valid `otherwise` is one.
        #expect(flow.transitions.map(\.to) == ["b", "c", "d", "e"])
        #expect(flow.transitions.map(\.condition) == [.expression("ready"), .otherwise, nil, nil])
    }

    @Test("bad transition fields: kind, to, when, equals, label, type")
    func badTransitionFields() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next:
                      - {to: b, kind: parallel}
                      - {to: ""}
                      - {to: c, when: {key: k}}
                      - {to: d, when: {key: k, equals: [x]}}
                      - {to: e, when: [x]}
                      - {to: f, label: [x], type: {a: b}}
            """)
        #expect(graph.reported == [
            Reported(location: at(7, 27), message: "unknown transition kind 'parallel' (expected normal or error)"),
            Reported(location: at(8, 18), message: "'to' must not be empty"),
            Reported(location: at(9, 27), message: "a structured 'when' needs both 'key' and 'equals'"),
            Reported(location: at(10, 44), message: "'equals' must be a string"),
            Reported(location: at(11, 27), message: "'when' must be a mapping, found a list"),
            Reported(location: at(12, 28), message: "'label' must be a string, found a list"),
            Reported(location: at(12, 39), message: "'type' must be a string: quote dictionary types, as in \"[a: b]\""),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.transitions.map(\.to) == ["b", "c", "d", "e", "f"])
        #expect(flow.transitions.allSatisfy { $0.condition == nil && $0.label == nil && $0.carriedType == nil })
        #expect(flow.transitions[0].kind == .normal)
    }

    @Test("a next entry that is null or empty")
    func badNextEntries() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next: [b, "", c]
                  - id: b
                    next: ~
            """)
        #expect(graph.reported == [
            Reported(location: at(6, 19), message: "a 'next' entry must not be empty"),
            Reported(location: at(8, 15), message: "'next' must be a string, found null"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.transitions.map(\.to) == ["b", "c"])
        #expect(flow.transitions.map(\.kind) == [.parallel, .parallel])
    }

    // MARK: Groups

    @Test("a group missing elementKey (or inputKey): reported at the group, the step is a group with no spec")
    func groupMissingKeys() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: each
                    group: {inputKey: items}
                    reads: {item: String}
                    next: other
                  - id: other
                    group:
                      elementKey: item
            """)
        let message = "'group' needs 'inputKey' (the array) and 'elementKey' (what each run reads)"
        #expect(graph.reported == [
            Reported(location: at(6, 16), message: message),
            Reported(location: at(11, 11), message: message),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.kind) == [.group, .group])
        #expect(flow.steps.map(\.group) == [nil, nil])
        #expect(flow.steps[0].reads == [] && flow.steps[0].writes == [])
        #expect(flow.transitions.map(\.to) == ["other"])
    }

    @Test("outputKey without elementOutputKey: reported at outputKey, the group is kept")
    func outputKeyWithoutElementOutputKey() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: each
                    group: {inputKey: items, elementKey: item, outputKey: results}
            """)
        #expect(graph.reported == [Reported(
            location: at(6, 63),
            message: "'outputKey' needs 'elementOutputKey': the key each run writes its result to")])
        let step = try #require(graph.flows.first?.steps.first)
        #expect(step.group?.outputKey == "results")
        #expect(step.group?.outputLocation == at(6, 63))
        #expect(step.writes == [DataAccess(key: "results", type: "[Any]", location: at(6, 63))])
    }

    @Test("maxConcurrent below 1 or not an integer; allowFailure not a boolean")
    func groupNumbers() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: zero
                    group: {inputKey: items, elementKey: item, maxConcurrent: 0}
                  - id: negative
                    group: {inputKey: items, elementKey: item, maxConcurrent: -2}
                  - id: text
                    group: {inputKey: items, elementKey: item, maxConcurrent: two, allowFailure: maybe}
                  - id: one
                    group: {inputKey: items, elementKey: item, maxConcurrent: 1, allowFailure: yes}
            """)
        #expect(graph.reported == [
            Reported(location: at(6, 67), message: "'maxConcurrent' must be at least 1"),
            Reported(location: at(8, 67), message: "'maxConcurrent' must be at least 1"),
            Reported(location: at(10, 67), message: "'maxConcurrent' must be an integer, found 'two'"),
            Reported(location: at(10, 86), message: "'allowFailure' must be true or false, found 'maybe'"),
        ])
        let flow = try #require(graph.flows.first)
        #expect(flow.steps.map(\.group?.maxConcurrent) == [nil, nil, nil, 1])
        #expect(flow.steps.map(\.group?.allowFailure) == [false, false, false, true])
    }

    // MARK: Duplicate keys

    /// Yams rejects the whole document and names the first occurrence of the key; the finding is at
    /// the second, the one to remove, and names the line of the first.
    @Test("a duplicate mapping key fails the whole file, at the duplicate")
    func duplicateMappingKey() {
        let graph = load("""
            version: 1
            flows:
              - name: F
                steps:
                  - id: a
                    next: b
                    next: c
            """)
        #expect(graph.findingsAreInvalidInput)
        #expect(graph.reported == [Reported(location: at(7, 9), message: "duplicate key 'next' in a mapping (first at line 6)")])
        #expect(graph.flows.isEmpty)
    }

    @Test("a duplicate key in JSON")
    func duplicateJSONKey() {
        let graph = load(#"{"version": 1, "version": 1, "flows": []}"#, file: "d.flow.json")
        #expect(graph.reported == [Reported(location: at(1, 16, file: "d.flow.json"), message: "duplicate key 'version' in a mapping (first at line 1)")])
    }
}
