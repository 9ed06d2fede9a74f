import FlowModel
import Testing
@testable import FlowLoaders

/// Flow-level features of the declarative format: flows, ids, descriptions, data, outputs, start.
@Suite("Declarative format: flows")
struct DeclarativeFlowTests {
    @Test("several flows per file, the id defaulting to the name")
    func severalFlows() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Checkout
                id: checkout
                description: Pay for the cart.
                steps:
                  - id: pay
              - name: Sign up
                steps:
                  - id: register
            """)
        #expect(graph.reported == [])
        #expect(graph.files == [])  // the single-file loader leaves `files` to SourceLoader
        #expect(graph.flows.map(\.id) == ["checkout", "Sign up"])
        #expect(graph.flows.map(\.name) == ["Checkout", "Sign up"])
        #expect(graph.flows.map(\.kind) == [.declarative, .declarative])
        #expect(graph.flows.map(\.location) == [at(3, 5), at(8, 5)])
        #expect(graph.flows.map(\.summary) == ["Pay for the cart.", nil])
        #expect(graph.flows[0].steps == [Step(id: "pay", location: at(7, 9))])
        #expect(graph.flows[1].steps == [Step(id: "register", location: at(10, 9))])
        for flow in graph.flows {
            #expect(flow.transitions == [])
            #expect(flow.initialData == [])
            #expect(flow.outputs == [])
            #expect(flow.entries == [])
            #expect(flow.entryLocation == nil)
            #expect(flow.inputType == nil && flow.outputType == nil && flow.parent == nil)
        }
    }

    @Test("a flow id and name may be any scalar, read as text")
    func scalarNames() {
        let graph = load("""
            version: 1
            flows:
              - name: 2024
                id: true
                steps: [{id: 7}]
            """)
        #expect(graph.reported == [])
        #expect(graph.flows.map(\.id) == ["true"])
        #expect(graph.flows.map(\.name) == ["2024"])
        #expect(graph.flows.first?.steps.map(\.id) == ["7"])
    }

    @Test("data: key: Type, key: ~, and {type, value} with every inferred type")
    func dataForms() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data:
                  cartID: String
                  coupon: ~
                  note: ""
                  currency: {type: String, value: EUR}
                  ids: {type: "[Int]"}
                  dict: {type: "Dictionary<String, Int>"}
                  text: {value: "x"}
                  count: {value: 1}
                  ratio: {value: 1.5}
                  flag: {value: true}
                  photos: {value: [a.png, b.png]}
                  mixed: {value: [a, 1]}
                  options: {value: {retries: 3, verbose: no}}
                  empty: {value: []}
                  declaredOverValue: {type: Double, value: 1}
                  anyList: {type: "[Any]", value: [a, 1.5]}
                  nothing: {}
                steps:
                  - id: s
            """)
        #expect(graph.reported == [])
        let data = try #require(graph.flows.first).initialData
        let expected: [DataAccess] = [
            DataAccess(key: "cartID", type: "String", location: at(5, 7)),
            DataAccess(key: "coupon", location: at(6, 7)),
            DataAccess(key: "note", location: at(7, 7)),
            DataAccess(key: "currency", type: "String", location: at(8, 7), value: "\"EUR\"", stringValue: "EUR"),
            DataAccess(key: "ids", type: "[Int]", location: at(9, 7)),
            DataAccess(key: "dict", type: "[String:Int]", location: at(10, 7)),
            DataAccess(key: "text", type: "String", location: at(11, 7), value: "\"x\"", stringValue: "x"),
            DataAccess(key: "count", type: "Int", location: at(12, 7), value: "1"),
            DataAccess(key: "ratio", type: "Double", location: at(13, 7), value: "1.5"),
            DataAccess(key: "flag", type: "Bool", location: at(14, 7), value: "true"),
            DataAccess(key: "photos", type: "[String]", location: at(15, 7), elementTypes: ["String", "String"],
                       value: "[\"a.png\", \"b.png\"]"),
            DataAccess(key: "mixed", type: "[Any]", location: at(16, 7), elementTypes: ["String", "Int"],
                       value: "[\"a\", 1]"),
            DataAccess(key: "options", type: "[String: Any]", location: at(17, 7),
                       value: "{\"retries\": 3, \"verbose\": no}"),
            DataAccess(key: "empty", type: "[Any]", location: at(18, 7), elementTypes: [], value: "[]"),
            DataAccess(key: "declaredOverValue", type: "Double", location: at(19, 7), value: "1"),
            DataAccess(key: "anyList", type: "[Any]", location: at(20, 7), elementTypes: ["String", "Double"],
                       value: "[\"a\", 1.5]"),
            DataAccess(key: "nothing", location: at(21, 7)),
        ]
        #expect(data.map(\.key) == expected.map(\.key))
        for (actual, wanted) in zip(data, expected) {
            #expect(actual == wanted, "data '\(wanted.key)'")
        }
        #expect(data.allSatisfy { !$0.optional })
    }

    @Test("value inference: nested lists, unknown elements, quoted numbers, YAML 1.1 booleans")
    func valueInferenceEdges() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                data:
                  nested: {value: [[a], [b]]}
                  withNull: {value: [a, ~]}
                  quoted: {value: "1"}
                  none: {value: ~}
                  date: {value: 2024-01-31}
                  yes: {value: yes}
                  ints: {value: [1, 2, 3]}
                  long: {value: [aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd, eeeeeeeeee]}
                steps: [{id: s}]
            """)
        #expect(graph.reported == [])
        let data = try #require(graph.flows.first).initialData
        #expect(data.map(\.key) == ["nested", "withNull", "quoted", "none", "date", "yes", "ints", "long"])
        #expect(data.map(\.type) == ["[[String]]", "[Any]", "String", nil, nil, "Bool", "[Int]", "[String]"])
        #expect(data[0].elementTypes == ["[String]", "[String]"])
        #expect(data[1].elementTypes == ["String", nil])  // a null element has no type: the list is [Any]
        #expect(data[3].value == "~")
        #expect(data[4].value == "2024-01-31")  // a timestamp has no single Swift type
        #expect(data[6].elementTypes == ["Int", "Int", "Int"])
        // Values longer than 60 characters are cut to 57 and "...".
        let long = try #require(data[7].value)
        #expect(long.count == 60)
        #expect(long == "[\"aaaaaaaaaa\", \"bbbbbbbbbb\", \"cccccccccc\", \"dddddddddd\", ...")
    }

    @Test("outputs as a list of keys and as a mapping of key: Type (optional reads allowed)")
    func outputs() throws {
        let graph = load("""
            version: 1
            flows:
              - name: List
                outputs: [orderID, receipt]
                steps: [{id: s}]
              - name: Mapping
                outputs:
                  orderID: String
                  receipt: Data?
                  unknown: ~
                steps: [{id: s}]
            """)
        #expect(graph.reported == [])
        try #require(graph.flows.count == 2)
        #expect(graph.flows[0].outputs == [
            DataAccess(key: "orderID", location: at(4, 15)),
            DataAccess(key: "receipt", location: at(4, 24)),
        ])
        #expect(graph.flows[1].outputs == [
            DataAccess(key: "orderID", type: "String", location: at(8, 7)),
            DataAccess(key: "receipt", type: "Data?", optional: true, location: at(9, 7)),
            DataAccess(key: "unknown", location: at(10, 7)),
        ])
    }

    @Test("start: declared, else the step of kind start, else the first step")
    func start() throws {
        let graph = load("""
            version: 1
            flows:
              - name: Declared
                start: b
                steps:
                  - id: a
                  - id: b
              - name: Kind start
                steps:
                  - id: a
                  - id: b
                    kind: start
              - name: First
                steps:
                  - id: a
                  - id: b
            """)
        #expect(graph.reported == [])
        try #require(graph.flows.count == 3)
        #expect(graph.flows[0].entries == ["b"])
        #expect(graph.flows[0].entryLocation == at(4, 12))
        #expect(graph.flows[0].effectiveEntries == ["b"])
        #expect(graph.flows[1].entries == [])
        #expect(graph.flows[1].entryLocation == nil)
        #expect(graph.flows[1].effectiveEntries == ["b"])
        #expect(graph.flows[2].entries == [])
        #expect(graph.flows[2].effectiveEntries == ["a"])
    }

    @Test("a start naming no step is kept as written (the unknown-step rule reports it)")
    func startUnknownStep() throws {
        let graph = load("""
            version: 1
            flows:
              - name: F
                start: nowhere
                steps: [{id: a}]
            """)
        #expect(graph.reported == [])
        #expect(graph.flows.first?.entries == ["nowhere"])
        #expect(graph.flows.first?.entryLocation == at(4, 12))
    }
}
