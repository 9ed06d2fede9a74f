import FlowModel
import FlowRules
@testable import FlowLoaders
import Testing

/// The findings of in-memory files, each fix located in its file's text as `check` does.
private func checked(_ files: [(name: String, text: String)]) -> [Finding] {
    let texts = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.text) })
    return Analyzer().analyze(load(files)).map { finding in
        var finding = finding
        finding.fix = finding.fix.flatMap { fix in texts[fix.edits[0].at.file].flatMap { FixLocator.locate(fix, in: $0, path: fix.edits[0].at.file) } }
        return finding
    }
}

private func checked(_ text: String, file: String = "returns.flow.yaml") -> [Finding] { checked([(file, text)]) }

/// The text with every located fix of `findings` applied.
private func fixed(_ text: String, _ findings: [Finding], file: String = "returns.flow.yaml") -> String? {
    FixLocator.apply(findings.compactMap(\.fix).flatMap(\.edits), to: text, path: file)
}

/// The exact text a range covers.
private func covered(_ range: TextRange?, in text: String) -> String? {
    guard let range else { return nil }
    let bytes = Array(text.utf8)
    return String(decoding: bytes[range.offset..<range.offset + range.length], as: UTF8.self)
}

@Suite("Fixes: where they are offered, and their exact ranges")
struct FixRangeTests {
    let parcelReturn = """
        version: 1
        flows:
          - name: Parcel return
            id: parcel-return
            data: {returnID: String}
            start: lookUpReturn
            steps:
              - id: lookUpReturn
                reads: {returnID: String}
                writes: {label: String, carrier: String}
                next: printLabel
              - id: printLabel
                reads:
                  labl: String
                next: handOvr
              - {id: handOver, reads: {carrier: String}, next: 'closed'}
              - {id: closed, kind: end}
        """

    @Test("a misspelt start, transition target and needs key each get one exact fix")
    func blockStyle() throws {
        let misspeltStart = parcelReturn.replacingOccurrences(of: "start: lookUpReturn", with: "start: lookUpRetrun")
        let start = try #require(checked(misspeltStart).first { $0.rule == "unknown-step" && $0.message.contains("starts at") }?.fix?.edits.first)
        #expect(start.replacement == "lookUpReturn")
        #expect(start.range == TextRange(line: 6, column: 12, length: 12, offset: start.range!.offset))
        #expect(covered(start.range, in: misspeltStart) == "lookUpRetrun")

        let findings = checked(parcelReturn)
        let target = try #require(findings.first { $0.rule == "unknown-step" && $0.message.contains("goes to") }?.fix?.edits.first)
        #expect(target.replacement == "handOver")
        #expect(target.range?.line == 15 && target.range?.column == 15 && target.range?.length == 7)
        let read = try #require(findings.first { $0.rule == "missing-data-key" })
        #expect(read.message.hasSuffix("did you mean 'label'?"))
        #expect(covered(read.fix?.edits.first?.range, in: parcelReturn) == "labl")

        let after = try #require(fixed(parcelReturn, findings))
        #expect(after == parcelReturn.replacingOccurrences(of: "handOvr", with: "handOver").replacingOccurrences(of: "labl:", with: "label:"))
        #expect(checked(after).filter { $0.severity == .error }.isEmpty)
    }

    @Test("flow style, quotes, and characters before the name that take several bytes")
    func flowStyleAndQuotes() throws {
        let text = """
            version: 1
            flows:
              - name: Prüfung
                steps:
                  - {id: prüfen, name: "Prüfen ✓ äöü", next: "versnd"}
                  - {id: versand, name: 'Versand', next: [fertigg]}
                  - {id: fertig, kind: end}
            """
        let findings = checked(text, file: "pruefung.flow.yml")
        let edits = findings.compactMap(\.fix).flatMap(\.edits)
        #expect(edits.count == 2)
        #expect(edits.map { covered($0.range, in: text) } == ["versnd", "fertigg"])
        // The column counts bytes: "Prüfen ✓ äöü" takes more bytes than characters.
        let quoted = try #require(edits.first { $0.original == "versnd" }?.range)
        #expect(quoted.column == Array(text.split(separator: "\n")[4].utf8).firstIndex(of: UInt8(ascii: "v"))! + 1)
        let after = try #require(fixed(text, findings, file: "pruefung.flow.yml"))
        #expect(after.contains("next: \"versand\"}") && after.contains("next: [fertig]}"))
        #expect(checked(after, file: "pruefung.flow.yml").filter { $0.severity == .error }.isEmpty)
    }

    @Test("JSON: the string's text, inside its quotes")
    func json() throws {
        let text = """
            {"version": 1, "flows": [{"name": "Refund", "steps": [
              {"id": "approve", "next": "payout"},
              {"id": "payout", "reads": {"amount": "Decimal"}, "next": "Done"},
              {"id": "done", "kind": "end"}], "data": {"amout": "Decimal"}}]}
            """
        let findings = checked(text, file: "refund.flow.json")
        let target = try #require(findings.first { $0.rule == "unknown-step" }?.fix?.edits.first)
        #expect(covered(target.range, in: text) == "Done" && target.replacement == "done")
        let line = Array(text.split(separator: "\n")[2].utf8)
        #expect(target.range?.line == 3 && target.range?.column == line.indices.first { Array(line[$0...].prefix(4)) == Array("Done".utf8) }! + 1)
        let read = try #require(findings.first { $0.rule == "missing-data-key" }?.fix?.edits.first)
        #expect(read.replacement == "amout")  // the key really set upstream is the misspelt one: the read follows it
        let after = try #require(fixed(text, findings, file: "refund.flow.json"))
        #expect(checked(after, file: "refund.flow.json").filter { $0.severity == .error }.isEmpty)
    }

    @Test("no fix when the answer is not certain")
    func noFix() {
        // Two ids equally close; a fix that would make a step go to itself; a key set on one branch
        // only; a key of another type; a name written with an escape (the text is not the name).
        let text = """
            version: 1
            flows:
              - name: Unsure
                data: {mode: String, count: Int}
                steps:
                  - id: choose
                    next:
                      - {to: stepA, when: {key: mode, equals: a}}
                      - {to: stepB, otherwise: true}
                  - {id: stepA, writes: {token: String}, next: stepC}
                  - {id: stepB, next: stepBB}
                  - id: stepBB
                    reads: {tokne: String, cont: String}
                    next: "\\u0073tepZZ"
                  - {id: stepZ, kind: end}
            """
        let findings = checked(text)
        #expect(findings.contains { $0.rule == "unknown-step" && $0.message.contains("stepC") })
        #expect(findings.contains { $0.rule == "missing-data-key" && $0.key == "tokne" })
        #expect(findings.contains { $0.rule == "missing-data-key" && $0.key == "cont" })
        #expect(findings.contains { $0.rule == "unknown-step" && $0.message.contains("'stepZZ'") && $0.message.contains("did you mean 'stepZ'") })
        #expect(findings.allSatisfy { $0.fix == nil }, "\(findings.filter { $0.fix != nil })")
    }

    @Test("a sub-flow reference is renamed to the one flow id or name closest to it")
    func subflowReference() throws {
        let text = """
            version: 1
            flows:
              - name: Checkout
                steps:
                  - {id: pay, flow: charge-crad, next: done}
                  - id: refund
                    flow: "Refund Payment"
                    next: done
                  - {id: done, kind: end}
              - name: Charge card
                id: charge-card
                steps: [{id: charge, kind: end}]
              - name: Refund payment
                steps: [{id: refund, kind: end}]
            """
        let findings = checked(text).filter { $0.rule == "unknown-step" }
        let pay = try #require(findings.first { $0.step == "pay" })
        #expect(pay.message.hasSuffix("did you mean 'charge-card'?"))
        #expect(covered(pay.fix?.edits.first?.range, in: text) == "charge-crad" && pay.fix?.edits.first?.replacement == "charge-card")
        let refund = try #require(findings.first { $0.step == "refund" })
        #expect(covered(refund.fix?.edits.first?.range, in: text) == "Refund Payment" && refund.fix?.edits.first?.replacement == "Refund payment")
        let after = try #require(fixed(text, findings))
        #expect(checked(after).filter { $0.rule == "unknown-step" }.isEmpty)
    }

    @Test("FlowKit: a handler's misspelt case is renamed, every return of it, to the one case its state's transitions generate")
    func flowKitReturnedCase() throws {
        let diagram = """
            @startuml
            title Ticket Kiosk
            [*] --> Idle
            Idle --> Choosing
            Choosing: String
            Choosing --> Paying
            Choosing --> Idle
            Paying: Int
            Paying --> Printing
            Paying --> Idle
            Printing: Int
            Printing --> [*]
            @enduml
            """
        let controller = """
            import FlowKit
            import PromiseKit

            class TicketKioskController: TicketKioskStateMachine {
                typealias State = TicketKioskState

                func onBegin(state: State, context: Void) -> Promise<State.Begin> {
                    return Promise.value(.idle)
                }

                func onIdle(state: State, context: Void) -> Promise<State.Idle> {
                    return Promise.value(.choosing("adult"))
                }

                func onChoosing(state: State, context: String) -> Promise<State.Choosing> {
                    if context.isEmpty { return Promise.value(.idl) }
                    return Promise.value(.payin(12))
                        .recover { _ in Promise.value(State.Choosing.idl) }
                }

                func onPaying(state: State, context: Int) -> Promise<State.Paying> {
                    return Promise.value(context > 0 ? .printing(context) : .iddle)
                }

                func onPrinting(state: State, context: Int) -> Promise<State.Printing> {
                    return Promise.value(.end)
                }
            }
            """
        let files = [("TicketKiosk.puml", diagram), ("TicketKioskController.swift", controller)]
        let findings = checked(files).filter { $0.rule == "unknown-step" }
        let idl = try #require(findings.first { $0.message.contains("'idl'") })
        #expect(idl.message.hasSuffix("which is not a state of Ticket Kiosk; did you mean 'idle'?"))
        #expect(idl.fix?.edits.count == 2)
        #expect(idl.fix?.edits.allSatisfy { covered($0.range, in: controller) == "idl" && $0.replacement == "idle" } == true)
        let payin = try #require(findings.first { $0.message.contains("'payin'") })
        #expect(payin.fix?.edits.first?.replacement == "paying")
        // From Paying, whose cases are printing and idle.
        let iddle = try #require(findings.first { $0.message.contains("'iddle'") })
        #expect(iddle.fix?.edits.first?.replacement == "idle")
        let after = try #require(FixLocator.apply(findings.compactMap(\.fix).flatMap(\.edits), to: controller, path: "TicketKioskController.swift"))
        #expect(after == controller.replacingOccurrences(of: ".idl)", with: ".idle)").replacingOccurrences(of: ".payin(", with: ".paying(")
            .replacingOccurrences(of: ".iddle", with: ".idle"))
        #expect(checked([("TicketKiosk.puml", diagram), ("TicketKioskController.swift", after)]).filter { $0.rule == "unknown-step" }.isEmpty)
    }

    @Test("a transition is never fixed into a loop on its own step")
    func noSelfLoop() {
        let text = """
            version: 1
            flows:
              - name: Reprint
                steps:
                  - {id: printLabel, next: [{to: reprintLabel, kind: error}, {to: ship}]}
                  - {id: ship, kind: end}
            """
        let finding = checked(text).first { $0.rule == "unknown-step" }
        #expect(finding?.message.contains("did you mean 'printLabel'") == true)
        #expect(finding?.fix == nil)
    }

    @Test("a misspelt key of the format is renamed, unless the mapping has the key already")
    func formatKeys() throws {
        let text = """
            version: 1
            flows:
              - name: Keys
                steps:
                  - id: a
                    nexts: b
                  - id: b
                    kind: end
                    nexr: a
                    next: a
            """
        let findings = checked(text)
        let renamed = findings.filter { $0.fix != nil }
        #expect(renamed.count == 1)
        #expect(renamed.first?.fix?.edits.first?.original == "nexts" && renamed.first?.fix?.edits.first?.replacement == "next")
        #expect(findings.contains { $0.message.contains("unknown key 'nexr'") && $0.fix == nil })
    }

    /// A suppression comment naming a misspelt rule id, in one input language.
    struct MisspeltSuppression: Sendable, CustomTestStringConvertible {
        var file: String
        var text: String
        var misspelt: String
        var meant: String
        var testDescription: String { file }
    }

    static let misspeltSuppressions = [
        MisspeltSuppression(file: "returns.flow.yaml", text: """
            version: 1
            flows:
              - name: Quiet
                steps:
                  # flowlens:disable-next-line unused-dta-key, dead-end -- the export reads it
                  - {id: a, writes: {audit: String}, next: b}
                  - {id: b, kind: end}
            """, misspelt: "unused-dta-key", meant: "unused-data-key"),
        MisspeltSuppression(file: "Kiosk.puml", text: """
            @startuml
            title Kiosk
            [*] --> Idle
            Idle --> Paying
            ' flowlens:disable-next-line unreachable-stp -- shown on the service screen only
            Service --> Idle
            Paying --> [*]
            @enduml
            """, misspelt: "unreachable-stp", meant: "unreachable-step"),
        MisspeltSuppression(file: "Receipt.swift", text: """
            import Flow_iOS

            final class ReceiptOp: FlowOperation {
                override func mainLogic() {
                    // flowlens:disable-next-line missing-data-kye -- the push handler sets it
                    guard let receipt: String = getData(name: "receiptID") else { return }
                    setData(name: "printed", value: receipt)
                    finishSuccessfully()
                }
            }

            func printReceipt() {
                Flow().add(operation: ReceiptOp()).start()
            }
            """, misspelt: "missing-data-kye", meant: "missing-data-key"),
    ]

    @Test("a misspelt rule id in a suppression comment is renamed to the rule meant, and the suppression then works",
          arguments: misspeltSuppressions)
    func suppressions(_ example: MisspeltSuppression) throws {
        let finding = try #require(checked(example.text, file: example.file).first { $0.rule == "unused-suppression" })
        #expect(finding.message.contains("did you mean '\(example.meant)'?"))
        let edit = try #require(finding.fix?.edits.first)
        #expect(covered(edit.range, in: example.text) == example.misspelt && edit.replacement == example.meant)
        let after = try #require(fixed(example.text, [finding], file: example.file))
        #expect(after == example.text.replacingOccurrences(of: example.misspelt + " ", with: example.meant + " ")
            .replacingOccurrences(of: example.misspelt + ",", with: example.meant + ","))
        // The corrected suppression is used: it is no longer reported, and neither is what it silences.
        let recheck = checked(after, file: example.file)
        #expect(!recheck.contains { $0.rule == "unused-suppression" && $0.message.contains(example.meant) })
        #expect(!recheck.contains { $0.rule == example.meant })
    }

    @Test("Swift: a Flow-iOS read's string literal, found from the call, rewritten in the tree")
    func flowIOSRead() throws {
        let operations = """
            import Flow_iOS

            final class LoadBasketOp: FlowOperation {
                override func mainLogic() {
                    setData(name: "basketID", value: "b-1")
                    finishSuccessfully()
                }
            }

            final class PriceBasketOp: FlowOperation {
                override func mainLogic() {
                    guard let id: String = self.getData(name: "baskedID") else { return }
                    let currency: String? = getData(name: "currency", isOptional: true)
                    setData(name: "price", value: "\\(id) \\(currency ?? "EUR")")
                    finishSuccessfully()
                }
            }
            """
        let controller = """
            import Flow_iOS

            func priceBasket() {
                Flow()
                    .add(operation: LoadBasketOp())
                    .add(operation: PriceBasketOp())
                    .start()
            }
            """
        let files = [("Operations.swift", operations), ("Controller.swift", controller)]
        let finding = try #require(checked(files).first { $0.rule == "missing-data-key" })
        let edit = try #require(finding.fix?.edits.first)
        #expect(edit.original == "baskedID" && edit.replacement == "basketID")
        #expect(covered(edit.range, in: operations) == "baskedID")
        #expect(edit.range?.line == 12)
        let after = try #require(fixed(operations, [finding], file: "Operations.swift"))
        #expect(after == operations.replacingOccurrences(of: "\"baskedID\"", with: "\"basketID\""))
        #expect(checked([("Operations.swift", after), ("Controller.swift", controller)]).filter { $0.rule == "missing-data-key" }.isEmpty)
    }

    @Test("Swift: an operation run by two flows is renamed only when the rename is right for both")
    func sharedOperation() throws {
        let operations = """
            import Flow_iOS

            final class ShipOp: FlowOperation {
                override func mainLogic() {
                    guard let address: String = getData(name: "adress") else { return }
                    setData(name: "shipped", value: address)
                    finishSuccessfully()
                }
            }
            """
        let both = """
            import Flow_iOS

            func shipHome() {
                Flow().setDataBucket(dataBucket: ["address": "Main St 1"]).add(operation: ShipOp()).start()
            }

            func shipOffice() {
                Flow().setDataBucket(dataBucket: ["address": "Dock 4"]).add(operation: ShipOp()).start()
            }
            """
        let agreeing = checked([("Ship.swift", operations), ("Flows.swift", both)]).filter { $0.rule == "missing-data-key" }
        #expect(agreeing.count == 2 && agreeing.allSatisfy { $0.fix?.edits.first?.replacement == "address" })
        let oneSetsIt = both.replacingOccurrences(of: "[\"address\": \"Dock 4\"]", with: "[\"adress\": \"Dock 4\"]")
        let disagreeing = checked([("Ship.swift", operations), ("Flows.swift", oneSetsIt)]).filter { $0.rule == "missing-data-key" }
        #expect(disagreeing.count == 1 && disagreeing.allSatisfy { $0.fix == nil })
    }

    @Test("apply refuses text that changed and overlapping edits")
    func applyRefuses() throws {
        let text = "next: finsh\n"
        var edit = FixEdit(at: SourceLocation(file: "a.flow.yaml", line: 1, column: 7), original: "finsh", replacement: "finish")
        edit.range = TextRange(line: 1, column: 7, length: 5, offset: 6)
        #expect(FixLocator.apply([edit], to: text, path: "a.flow.yaml") == "next: finish\n")
        #expect(FixLocator.apply([edit], to: "next: fetch\n", path: "a.flow.yaml") == nil)
        var other = edit
        other.range = TextRange(line: 1, column: 9, length: 2, offset: 8)
        other.original = "ns"
        #expect(FixLocator.apply([edit, other], to: text, path: "a.flow.yaml") == nil)
    }
}
