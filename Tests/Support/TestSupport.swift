import FlowLoaders
import FlowModel
import FlowRules
import Foundation

/// Loads a document from memory, reported as `file`; the file name chooses the loader.
public func load(_ text: String, file: String = "example.flow.yaml") -> FlowGraph {
    SourceLoader().load([SourceText(file: InputFile(path: file), contents: text)])
}

/// Loads several in-memory files together (Swift operations and the flows using them).
public func load(_ files: [(name: String, text: String)]) -> FlowGraph {
    SourceLoader().load(files.map { SourceText(file: InputFile(path: $0.name), contents: $0.text) })
}

/// All findings for a document, in report order.
public func analyze(_ text: String, file: String = "example.flow.yaml") -> [Finding] { Analyzer().analyze(load(text, file: file)) }

/// The findings of one rule for a document.
public func findings(_ rule: String, in yaml: String) -> [Finding] { analyze(yaml).filter { $0.rule == rule } }

/// The package's root folder (where Package.swift is), found from this source file.
public let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

/// Compares `actual` with the golden file `name` in the `Golden` folder beside `testFile`.
///
/// With `FLOWLENS_UPDATE_GOLDEN=1` in the environment the golden file is rewritten instead, and the
/// comparison still fails once, so an update is never silent.
public func goldenMismatch(_ actual: String, name: String, testFile: String = #filePath) -> String? {
    let folder = (testFile as NSString).deletingLastPathComponent + "/Golden"
    let path = folder + "/" + name
    if ProcessInfo.processInfo.environment["FLOWLENS_UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? actual.write(toFile: path, atomically: true, encoding: .utf8)
        return "golden file \(name) was rewritten; run the tests again without FLOWLENS_UPDATE_GOLDEN"
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
        return "golden file \(path) is missing; run with FLOWLENS_UPDATE_GOLDEN=1 to create it"
    }
    guard expected != actual else { return nil }
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    let want = line < a.count ? String(a[line]) : "<end of file>"
    let got = line < b.count ? String(b[line]) : "<end of file>"
    return "\(name) differs at line \(line + 1):\n  expected: \(want)\n  actual:   \(got)"
}

/// A flow file that uses every part of the format and triggers every rule but invalid-input:
/// the fixture of the reporter and DOT golden tests.
public let showcaseYAML = """
    version: 1
    flows:
      - name: Order <Showcase> & "friends"
        description: Every kind of step, with one defect of each kind.
        data:
          cartID: String
          photos: {value: [a.png, b.png, 3]}
          locale: String
        outputs: [orderID]
        steps:
          - id: validate
            name: Validate cart
            implementation: ValidateCartOperation
            reads: {cartID: String, coupon: String?}
            writes: {total: Decimal}
            next: choose
          - id: choose
            name: Choose payment
            kind: branch
            next:
              - {to: card, when: {key: method, equals: card}}
              - {to: invoice, when: "customer is a business"}
              - {to: pickup, otherwise: true}
          - {id: card, name: Pay by card, flow: Charge card, next: join}
          - {id: invoice, name: Create invoice, reads: {vatNumber: String}, writes: {receipt: String}, next: join}
          - {id: pickup, name: "<script>alert(1)</script>", writes: {receipt: Int}, next: [{to: join}, {to: refund, kind: error}]}
          - {id: join, kind: join, next: thumbnails}
          - id: thumbnails
            name: Make thumbnails
            group: {inputKey: photos, elementKey: photo, elementOutputKey: thumb, outputKey: thumbs, maxConcurrent: 2}
            reads: {photo: String}
            writes: {thumb: Data}
            next: confirm
          - id: confirm
            name: Confirm order
            reads: {receipt: String, thumbs: "[Data]"}
            writes: {orderID: String}
            next: done
          - {id: done, name: Order placed, kind: end}
          - {id: refund, name: Refund, next: [refnd, notify]}
          - {id: notify, name: Notify support}
          - {id: audit, name: Audit log, next: done}
          - {id: audit, name: Audit again, next: done}
      - name: Charge card
        data: {total: Decimal}
        steps:
          - {id: charge, reads: {total: Decimal}, writes: {receipt: String}, next: ok}
          - {id: ok, kind: end}
    """

/// A FlowKit machine `Camera` whose composite state `Capture` is a machine of its own (one state,
/// `Focus`): for tests of what counts for a machine's status (findings inside its sub-machines).
public func cameraWithCaptureMachine() -> (outer: Flow, inner: Flow) {
    let outer = Flow(id: "Camera", kind: .flowKit,
                     steps: [Step(id: "Begin", kind: .start), Step(id: "Capture", kind: .subflow, subflow: "Capture"), Step(id: "End", kind: .end)],
                     transitions: [Transition(from: "Begin", to: "Capture"), Transition(from: "Capture", to: "End")])
    let inner = Flow(id: "Capture", kind: .flowKit,
                     steps: [Step(id: "Begin", kind: .start), Step(id: "Focus", kind: .state), Step(id: "End", kind: .end)],
                     transitions: [Transition(from: "Begin", to: "Focus"), Transition(from: "Focus", to: "End")], parent: "Camera")
    return (outer, inner)
}
