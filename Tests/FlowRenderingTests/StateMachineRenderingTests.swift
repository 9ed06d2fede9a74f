import FlowLoaders
import FlowLensTestSupport
import FlowModel
@testable import FlowRendering
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// A FlowKit login machine as the PlantUML loader produces it, built by hand:
///
///     [*] --> Prompt
///     Prompt --> Authenticate : Credentials
///     Prompt --> CreateAccount : signUp
///     state CreateAccount {
///       [*] --> EnterInfo
///       EnterInfo --> Submit : NewAccount
///       Submit --> [*] : Credentials
///     }
///     CreateAccount --> Authenticate : Credentials
///     Authenticate --> Prompt : String?
///     Authenticate --> [*] : OAuthToken
///
/// with a warning on the inner state EnterInfo and an error on the edge CreateAccount → Authenticate.
private func loginMachine() -> (flows: [Flow], findings: [Finding]) {
    let file = "Login.puml"
    let login = Flow(
        id: "Login", kind: .flowKit, location: SourceLocation(file: file, line: 1),
        steps: [
            Step(id: "Begin", kind: .start, contentType: "Void"),
            Step(id: "Prompt", kind: .state, contentType: "String?"),
            Step(id: "Authenticate", kind: .state, contentType: "Credentials", details: ["username: String", "password: String"]),
            Step(id: "CreateAccount", kind: .subflow, contentType: "Void", subflow: "CreateAccount"),
            Step(id: "End", kind: .end, contentType: "OAuthToken"),
        ],
        transitions: [
            Transition(from: "Begin", to: "Prompt"),
            Transition(from: "Prompt", to: "Authenticate", label: "Credentials", carriedType: "Credentials"),
            Transition(from: "Prompt", to: "CreateAccount", label: "signUp"),
            Transition(from: "CreateAccount", to: "Authenticate", label: "Credentials", carriedType: "Credentials"),
            Transition(from: "Authenticate", to: "Prompt", label: "String?", carriedType: "String?"),
            Transition(from: "Authenticate", to: "End", label: "OAuthToken", carriedType: "OAuthToken"),
        ],
        inputType: "Void", outputType: "OAuthToken")
    let createAccount = Flow(
        id: "CreateAccount", kind: .flowKit, location: SourceLocation(file: file, line: 5),
        steps: [
            Step(id: "Begin", kind: .start, contentType: "Void"),
            Step(id: "EnterInfo", kind: .state, contentType: "Void"),
            Step(id: "Submit", kind: .state, contentType: "NewAccount", details: ["email: String", "password: String"]),
            Step(id: "End", kind: .end, contentType: "Credentials"),
        ],
        transitions: [
            Transition(from: "Begin", to: "EnterInfo"),
            Transition(from: "EnterInfo", to: "Submit", label: "NewAccount", carriedType: "NewAccount"),
            Transition(from: "Submit", to: "End", label: "Credentials", carriedType: "Credentials"),
        ],
        inputType: "Void", outputType: "Credentials", parent: "Login")
    let findings = [
        Finding(rule: "stuck-step", severity: .warning, message: "EnterInfo has no handler.",
                location: SourceLocation(file: file, line: 7), flow: "CreateAccount", step: "EnterInfo"),
        Finding(rule: "type-mismatch", severity: .error, message: "CreateAccount ends with Credentials, Authenticate expects Token.",
                location: SourceLocation(file: file, line: 11), flow: "Login",
                edge: EdgeReference(from: "CreateAccount", to: "Authenticate")),
    ]
    return ([login, createAccount], findings)
}

/// The lines of `dot` between `subgraph cluster_<n> {` and its closing brace.
private func cluster(_ n: Int, in dot: String) -> [Substring] {
    let lines = dot.split(separator: "\n")
    guard let start = lines.firstIndex(where: { $0.hasSuffix("subgraph cluster_\(n) {") }) else { return [] }
    let indent = lines[start].prefix { $0 == " " }
    let end = lines[start...].firstIndex { $0 == indent + "}" } ?? lines.endIndex
    return Array(lines[start..<end])
}

/// `dot` with the content of every HTML-like label (`=<…>`) left out: what is outside is ours alone.
private func withoutLabels(_ dot: String) -> String {
    var out = "", depth = 0, previous: Character = " "
    for c in dot {
        if depth > 0 {
            if c == "<" { depth += 1 } else if c == ">" { depth -= 1 }
        } else if c == "<", previous == "=" {
            depth = 1
            out.append("<>")
        } else {
            out.append(c)
        }
        previous = c
    }
    return out
}

/// Outside labels there is no user text, no URL, href or tooltip, and ids are generated.
private func expectSafeIDs(_ dot: String, user: [String] = []) {
    let outside = withoutLabels(dot)
    for attribute in ["URL=", "href=", "tooltip="] { #expect(!outside.contains(attribute)) }
    for text in user { #expect(!outside.contains(text)) }
    for line in outside.split(separator: "\n") where line.contains("id=\"") {
        for part in line.split(separator: "id=\"").dropFirst() {
            let id = part.prefix { $0 != "\"" }
            #expect(id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }, "\(line)")
        }
    }
}

@Suite("State-machine diagrams")
struct StateMachineDOTTests {
    @Test("the FlowKit login machine and its composite match their golden DOT files")
    func golden() {
        let (flows, findings) = loginMachine()
        for (flow, name) in zip(flows, ["flowkit-login.dot", "flowkit-create-account.dot"]) {
            let dot = DOTBuilder().dot(for: flow, findings: findings, flows: flows)
            if let mismatch = goldenMismatch(dot, name: name) { Issue.record(Comment(rawValue: mismatch)) }
        }
    }

    @Test("the same machine gives the same bytes")
    func deterministic() {
        let (flows, findings) = loginMachine()
        let first = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        #expect(DOTBuilder().dot(for: flows[0], findings: findings.reversed(), flows: flows) == first)
    }

    @Test("Begin is a black dot, End a ringed one, with their types unless Void")
    func initialAndFinal() {
        let (flows, findings) = loginMachine()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        let begin = dot.split(separator: "\n").first { $0.hasPrefix("  s0 [") } ?? ""
        #expect(begin.contains("shape=circle") && begin.contains("fillcolor=\"#2B3340\""))
        #expect(!begin.contains("xlabel"))  // Void
        let end = dot.split(separator: "\n").first { $0.hasPrefix("  s4 [") } ?? ""
        #expect(end.contains("shape=doublecircle"))
        #expect(end.contains("xlabel=<") && end.contains(">OAuthToken<"))
        // A state: bold name, context type under it; Void is left out.
        #expect(dot.contains("<B>Prompt</B></TD></TR><TR><TD><FONT POINT-SIZE=\"9\"><FONT COLOR=\"#5F6B7A\">String?</FONT>"))
        #expect(dot.contains("username: String"))
        #expect(!dot.contains(">Void<"))
        #expect(dot.contains("compound=true"))
    }

    @Test("a composite is a cluster holding its machine, with its findings inside")
    func composite() {
        let (flows, findings) = loginMachine()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        let inside = cluster(0, in: dot).joined(separator: "\n")
        #expect(inside.contains("id=\"cluster-0\""))
        #expect(inside.contains("<B>CreateAccount</B>"))
        for name in ["EnterInfo", "Submit"] { #expect(inside.contains("<B>\(name)</B>")) }
        #expect(inside.contains("c0_s0 [id=\"cluster-0-step-0\", shape=circle"))
        #expect(inside.contains("c0_s3 [id=\"cluster-0-step-3\", shape=doublecircle"))
        #expect(inside.contains("▲ can get stuck"))
        #expect(!dot.contains("  s3 ["))  // the composite step is the cluster, not a node
        // Edges attach to the inner Begin and End, clipped at the cluster; their labels go beside the
        // end at the state (Graphviz places a plain label on the uncut line, inside the cluster).
        #expect(dot.contains("  s1 -> c0_s0 [taillabel=<signUp>, labeldistance=4, labelangle=-35, lhead=cluster_0];"))
        #expect(dot.contains("  c0_s3 -> s2 [color=\"#C62828\", penwidth=2, fontcolor=\"#C62828\", headlabel=<Credentials<BR/><FONT COLOR=\"#C62828\">✖ type does not match</FONT>>, labeldistance=4, labelangle=-35, ltail=cluster_0];"))
        // The inner edges are drawn too, and every edge comes after every node.
        #expect(dot.contains("  c0_s1 -> c0_s2 [label=<NewAccount>];"))
        let lines = dot.split(separator: "\n")
        let lastNode = lines.lastIndex { $0.contains("[id=\"") && !$0.contains("legend") } ?? 0
        let firstEdge = lines.firstIndex { $0.contains(" -> ") } ?? 0
        #expect(lastNode < firstEdge)
        // The title counts every finding drawn.
        #expect(dot.contains("FlowKit state machine · 1 error · 1 warning"))
        for entry in ["where it begins", "where it ends", "state with its own states inside", "▢ state"] {
            #expect(dot.contains(entry), "legend: \(entry)")
        }
    }

    @Test("the sub-machine's own diagram marks its findings the same way")
    func subMachineAlone() {
        let (flows, findings) = loginMachine()
        let own = DOTBuilder().dot(for: flows[1], findings: findings, flows: flows)
        let nested = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        let enterInfo = own.split(separator: "\n").first { $0.contains("<B>EnterInfo</B>") }!
        let nestedEnterInfo = nested.split(separator: "\n").first { $0.contains("<B>EnterInfo</B>") }!
        #expect(enterInfo.replacingOccurrences(of: "  s1 [id=\"step-1\"", with: "")
            == nestedEnterInfo.replacingOccurrences(of: "    c0_s1 [id=\"cluster-0-step-1\"", with: ""))
        #expect(!own.contains("type does not match"))  // the parent's finding
        #expect(own.contains("FlowKit state machine · 1 warning"))
    }

    @Test("without the sub-machines a composite is one box, as the old signature always drew it")
    func compositeWithoutFlows() {
        let (flows, findings) = loginMachine()
        let dot = DOTBuilder().dot(for: flows[0], findings: findings)
        #expect(!dot.contains("subgraph cluster"))
        #expect(!dot.contains("can get stuck"))
        let box = dot.split(separator: "\n").first { $0.hasPrefix("  s3 [") } ?? ""
        #expect(box.contains("peripheries=2") && box.contains("<B>CreateAccount</B>") && box.contains("its own diagram"))
        #expect(dot.contains("  s1 -> s3 [label=<signUp>];"))
    }

    @Test("composites nest, and a machine that contains itself is drawn once")
    func nesting() {
        let outer = Flow(id: "Outer", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start), Step(id: "A", kind: .subflow, contentType: "Ctx", subflow: "A"), Step(id: "End", kind: .end),
        ], transitions: [Transition(from: "Begin", to: "A"), Transition(from: "A", to: "End")])
        let a = Flow(id: "A", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start), Step(id: "B", kind: .subflow, subflow: "B"), Step(id: "End", kind: .end),
        ], transitions: [Transition(from: "Begin", to: "B"), Transition(from: "B", to: "End"), Transition(from: "B", to: "B", label: "again")], parent: "Outer")
        // B contains A again (malformed): drawn as a box, not followed.
        let b = Flow(id: "B", kind: .flowKit, steps: [
            Step(id: "Begin", kind: .start), Step(id: "Loop", kind: .subflow, subflow: "A"), Step(id: "End", kind: .end),
        ], transitions: [Transition(from: "Begin", to: "Loop"), Transition(from: "Loop", to: "End")], parent: "A")
        let flows = [outer, a, b]
        let dot = DOTBuilder().dot(for: outer, findings: [], flows: flows)
        let first = cluster(0, in: dot), second = cluster(1, in: dot)
        #expect(first.first == "  subgraph cluster_0 {")
        #expect(second.first == "    subgraph cluster_1 {")
        #expect(first.joined().contains("<B>A</B>") && first.joined().contains("Ctx"))
        #expect(second.joined().contains("c1_s1 [id=\"cluster-1-step-1\"") && second.joined().contains("its own diagram"))
        #expect(!dot.contains("cluster_2"))
        #expect(dot.contains("  s0 -> c0_s0 [lhead=cluster_0];"))
        #expect(dot.contains("  c0_s0 -> c1_s0 [lhead=cluster_1];"))
        #expect(dot.contains("  c1_s2 -> c0_s2 [ltail=cluster_1];"))
        // B's transition to itself runs from its End back to its Begin, inside it.
        #expect(dot.contains("  c1_s2 -> c1_s0 [label=<again>];"))
        expectSafeIDs(dot)
    }

    @Test("a transition to a missing state points at a ghost inside the machine's cluster")
    func missingInside() {
        var (flows, _) = loginMachine()
        flows[1].transitions.append(Transition(from: "Submit", to: "Nowhere"))
        let findings = [Finding(rule: "unknown-step", severity: .error, message: "No state Nowhere.", location: nil,
                                flow: "CreateAccount", edge: EdgeReference(from: "Submit", to: "Nowhere"))]
        let dot = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        let inside = cluster(0, in: dot).joined(separator: "\n")
        #expect(inside.contains("c0_m0 [id=\"cluster-0-missing-0\""))
        #expect(inside.contains("no such state"))
        #expect(dot.contains("  c0_s2 -> c0_m0 [color=\"#C62828\""))
    }

    @Test("hostile names and types appear only escaped, and never in ids")
    func hostile() throws {
        let evil = "<b>x</b> & \"q\" 'a' ] } -> [URL=\"javascript:alert(1)\"]\n<script>alert(1)</script>"
        let flows = hostileMachine(evil)
        let findings = [Finding(rule: "stuck-step", severity: .warning, message: evil, location: nil, flow: evil + "sub", step: evil, key: evil)]
        for flow in flows {
            let dot = DOTBuilder().dot(for: flow, findings: findings, flows: flows)
            #expect(!dot.contains("<script>"))
            #expect(!dot.contains("<b>x"))
            #expect(!dot.contains("\"q\""))
            #expect(!dot.contains("'a'"))
            #expect(!dot.contains("javascript:alert(1)\""))
            #expect(dot.contains("&lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot; &#39;a&#39; ] } -&gt; [URL=&quot;javascript:alert(1)&quot;]<BR/>&lt;script&gt;"))
            expectSafeIDs(dot, user: ["javascript", "script", "&quot;", "&lt;", "alert"])
        }
        let dot = DOTBuilder().dot(for: flows[0], findings: findings, flows: flows)
        #expect(dot.contains("subgraph cluster_0 {"))
        #expect(dot.contains("▲ can get stuck: &lt;b&gt;"))
    }
}

/// A machine whose every name, type, label and detail is `evil`, with a composite of the same kind.
private func hostileMachine(_ evil: String) -> [Flow] {
    let type = TypeName(stringLiteral: evil)
    let main = Flow(id: evil, name: evil, kind: .flowKit, steps: [
        Step(id: "Begin", kind: .start, contentType: type),
        Step(id: evil, kind: .state, contentType: type, details: [evil]),
        Step(id: evil + "c", name: evil, kind: .subflow, contentType: type, subflow: evil + "sub", details: [evil]),
        Step(id: "Fail", name: evil, kind: .fail, contentType: type),
        Step(id: "End", kind: .end, contentType: type),
    ], transitions: [
        Transition(from: "Begin", to: evil, label: evil),
        Transition(from: evil, to: evil + "c", label: evil, carriedType: type),
        Transition(from: evil + "c", to: "End", label: evil),
        Transition(from: evil + "c", to: "Fail", label: evil),
        Transition(from: evil, to: evil + "missing", label: evil),
    ])
    let sub = Flow(id: evil + "sub", name: evil, kind: .flowKit, steps: [
        Step(id: "Begin", kind: .start, contentType: type),
        Step(id: evil, kind: .state, contentType: type, details: [evil]),
        Step(id: "End", kind: .end, contentType: type),
    ], transitions: [
        Transition(from: "Begin", to: evil, label: evil),
        Transition(from: evil, to: "End", label: evil, carriedType: type),
    ], parent: evil)
    return [main, sub]
}

@Suite("State-machine diagrams through Graphviz", .serialized)
struct StateMachineGraphvizTests {
    @Test("the login machine renders to well-formed SVG with its cluster and states")
    func svg() throws {
        let (flows, findings) = loginMachine()
        for flow in flows {
            let data = try Graphviz.render(dot: DOTBuilder().dot(for: flow, findings: findings, flows: flows), format: .svg)
            let document = try XMLDocument(data: data)
            #expect(document.rootElement()?.name == "svg")
            let text = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
            for name in ["EnterInfo", "Submit", "Credentials", "can get stuck"] { #expect(text.contains { $0.contains(name) }, "\(name)") }
            if flow.id == "Login" {
                for name in ["Prompt", "Authenticate", "CreateAccount", "OAuthToken", "username: String", "signUp"] {
                    #expect(text.contains { $0.contains(name) }, "\(name)")
                }
                let clusterGroup = try document.nodes(forXPath: "//*[local-name()='g'][@id='cluster-0']")
                #expect(clusterGroup.count == 1)
            }
        }
    }

    @Test("hostile names render as text, never as markup")
    func hostileSVG() throws {
        let evil = "<b>x</b> & \"q\" 'a' ] }\n<script>alert(1)</script>"
        let flows = hostileMachine(evil)
        let data = try Graphviz.render(dot: DOTBuilder().dot(for: flows[0], findings: [], flows: flows), format: .svg)
        let document = try XMLDocument(data: data)
        #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
        #expect(try document.nodes(forXPath: "//*[local-name()='b']").isEmpty)
        let text = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue).joined(separator: " ")
        #expect(text.contains("<script>alert(1)</script>"))
        #expect(text.contains("<b>x</b> & \"q\" 'a' ] }"))
    }
}

@Suite("Other diagrams are unchanged")
struct NonFlowKitUnchangedTests {
    @Test("passing the graph's flows changes nothing for a flow that is not a FlowKit machine")
    func sameBytes() {
        let graph = load(showcaseYAML, file: "Fixtures/showcase.flow.yaml")
        for flow in graph.flows {
            #expect(DOTBuilder().dot(for: flow, findings: [], flows: graph.flows) == DOTBuilder().dot(for: flow, findings: []))
        }
    }
}
