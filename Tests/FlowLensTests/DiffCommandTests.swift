import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Copies `sample` (a file or folder under samples/) to `old/` and `new/` in a temporary folder, applies
/// `edits` (file under the sample folder → [(text, replacement)]) to the new copy, and runs
/// `flowlens diff old/<name> new/<name> extra…` there.
private func diffSample(_ sample: String, edits: [String: [(String, String)]], extra: [String] = []) throws -> (Run, String) {
    let root = try temporaryDirectory()
    let fm = FileManager.default
    let name = (sample as NSString).lastPathComponent
    for side in ["old", "new"] {
        try fm.createDirectory(atPath: root + "/" + side, withIntermediateDirectories: true)
        try fm.copyItem(atPath: packageRoot + "/samples/" + sample, toPath: root + "/\(side)/\(name)")
    }
    for (file, replacements) in edits {
        let path = root + "/new/\(name)" + (file.isEmpty ? "" : "/" + file)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for (from, to) in replacements {
            #expect(text.contains(from), "\(file): \(from)")
            text = text.replacingOccurrences(of: from, with: to)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
    return (try flowlens(["diff", "old/\(name)", "new/\(name)"] + extra, in: root), root)
}

/// Runs git in `directory`, failing the test when git fails.
private func git(_ arguments: [String], in directory: String) throws {
    let result = try run("/usr/bin/env", ["git", "-c", "user.name=FlowLens Tests", "-c", "user.email=tests@flowlens.invalid",
                                          "-c", "commit.gpgsign=false"] + arguments, in: directory)
    #expect(result.status == 0, "git \(arguments): \(result.stdout)\(result.stderr)")
}

/// The declarative checkout sample changed three ways: a step added, one removed, a read changed.
private let checkoutEdits: [String: [(String, String)]] = ["": [
    ("        writes: {orderTotal: Decimal, lineItems: \"[CartItem]\"}\n        next: choosePayment\n",
     "        writes: {orderTotal: Decimal, lineItems: \"[CartItem]\"}\n        next: applyVoucher\n\n"
        + "      - {id: applyVoucher, name: Apply voucher, reads: {orderTotal: Decimal}, writes: {orderTotal: Decimal}, next: choosePayment}\n"),
    ("          - to: reservePayAtPickup\n", "          - to: createInvoice\n"),
    ("      - id: reservePayAtPickup\n        name: Reserve pay at pickup\n        description: Notes that the customer pays when they collect the order.\n"
        + "        reads: {orderTotal: Decimal}\n        writes: {paymentReference: String}\n        next: paymentTaken\n", ""),
    ("reads: {cartID: String, lineItems: \"[CartItem]\", paymentReference: String}",
     "reads: {cartID: String, lineItems: \"[CartItem]\", paymentReference: Int, deliverySlot: String}"),
]]

@Suite("flowlens diff", .serialized)
struct DiffCommandTests {
    @Test("declarative: added, removed and changed steps, transitions, data, and the new finding at its line")
    func declarative() throws {
        let (run, root) = try diffSample("declarative/checkout.flow.yaml", edits: checkoutEdits)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.status == 1, "\(run.stderr)")  // a new error
        let out = run.stdout
        #expect(out.contains("~ flow Checkout (changed: +1 step, −1 step, 1 step changed, +3 transitions, −3 transitions, 2 reads/writes changed)"))
        #expect(out.contains("    + step applyVoucher 'Apply voucher' at new/checkout.flow.yaml:24:9"))
        #expect(out.contains("    - step reservePayAtPickup 'Reserve pay at pickup'\n"))
        #expect(out.contains("    ~ step confirmOrder 'Confirm order': + needs deliverySlot (String); needs paymentReference: String → Int at new/"))
        #expect(out.contains("    + transition validateCart → applyVoucher\n"))
        #expect(out.contains("    - transition choosePayment → reservePayAtPickup [Pay at pickup]\n"))
        #expect(out.contains("    + transition choosePayment → createInvoice [Pay at pickup]\n"))
        let newFindings = out.split(separator: "\n").filter { $0.hasPrefix("    new: ") }
        #expect(newFindings.count == 2)
        #expect(newFindings.contains { $0.hasPrefix("    new: new/checkout.flow.yaml:") && $0.hasSuffix("[missing-data-key]") && $0.contains("deliverySlot") })
        #expect(newFindings.contains { $0.hasSuffix("[type-mismatch]") })
        #expect(out.hasSuffix("1 flow changed, 0 added, 0 removed, 1 unchanged; 2 new findings (2 errors), 0 fixed\n"))
    }

    @Test("JSON and Markdown carry the same diff; the same bytes every run")
    func formats() throws {
        let (json, root) = try diffSample("declarative/checkout.flow.yaml", edits: checkoutEdits, extra: ["--format", "json"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(json.status == 1)
        let again = try flowlens(["diff", "old/checkout.flow.yaml", "new/checkout.flow.yaml", "--format", "json"], in: root)
        #expect(again.stdout == json.stdout)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let flows = try #require(parsed["flows"] as? [[String: Any]])
        #expect(flows.map { $0["id"] as? String } == ["checkout"])
        let steps = try #require(flows[0]["steps"] as? [[String: Any]])
        #expect(Set(steps.map { "\($0["status"]!) \($0["id"]!)" }) == ["added applyVoucher", "removed reservePayAtPickup", "changed confirmOrder"])
        let summary = try #require(parsed["summary"] as? [String: Int])
        #expect(summary["newErrors"] == 2 && summary["fixedFindings"] == 0 && summary["flowsChanged"] == 1)

        let markdown = try flowlens(["diff", "old/checkout.flow.yaml", "new/checkout.flow.yaml", "--format", "markdown"], in: root)
        #expect(markdown.stdout.hasPrefix("<!-- flowlens-diff -->\n### ❌ FlowLens diff: "))
        #expect(markdown.stdout.contains("| Checkout | changed |"))
        #expect(markdown.stdout.contains("\n- added: step Apply voucher\n"))  // never "- + …", which Markdown reads as a nested list
        #expect(markdown.stdout.contains("\n- removed: transition choosePayment → reservePayAtPickup \\[Pay at pickup\\]\n"))
        #expect(markdown.stdout.contains("| error | `missing-data-key` | `new/checkout.flow.yaml:"))
    }

    @Test("--output writes one diagram per changed flow, with the changes marked")
    func diagrams() throws {
        let (run, root) = try diffSample("declarative/checkout.flow.yaml", edits: checkoutEdits, extra: ["--output", "out", "--diagram-format", "dot"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out") == ["Checkout.dot"])
        let dot = try String(contentsOfFile: root + "/out/Checkout.dot", encoding: .utf8)
        #expect(dot.contains("<B>Apply voucher</B>") && dot.contains("<B>Reserve pay at pickup</B>"))
        #expect(dot.contains("green: added") && dot.contains("red, dashed: removed") && dot.contains("+ needs deliverySlot (String)"))
        let svg = try flowlens(["diff", "old/checkout.flow.yaml", "new/checkout.flow.yaml", "-o", "svg"], in: root)
        #expect(svg.status == 1)
        #expect(try String(contentsOfFile: root + "/svg/Checkout.svg", encoding: .utf8).contains("<svg"))
    }

    @Test("Flow-iOS: a removed operation, the warning it brings; the planted findings in both versions are neither new nor fixed")
    func flowIOS() throws {
        let (run, root) = try diffSample("flow-ios/PhotoShare", edits: ["Controllers/LoginViewController.swift": [
            ("            .add(operation: LoginOp())\n            .add(operation: LoadProfileOp())\n", "            .add(operation: LoginOp())\n"),
        ]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("~ flow LoginViewController.loginWithDemoAccount (changed: −1 step, +1 transition, −2 transitions"))
        #expect(run.stdout.contains("    - step LoadProfileOp"))
        // Nothing reads the login's token any more: a new warning (exit 0 without --strict).
        #expect(run.stdout.contains("    new: new/PhotoShare/Operations/LoginOperations.swift:28:22: warning: step 'LoginOp' writes 'accessToken'"))
        #expect(run.stdout.hasSuffix("1 new finding (1 warning), 0 fixed\n"))
        #expect(try flowlens(["diff", "old/PhotoShare", "new/PhotoShare", "--strict"], in: root).status == 1)
    }

    @Test("FlowState: a step's result type changed")
    func flowState() throws {
        let (run, root) = try diffSample("flowstate/ProfileApp", edits: ["Coordinators/OnboardingCoordinator.swift": [
            ("FlowStep(Any.self, Any.self, identifier: \"All set\"", "FlowStep(Any.self, String.self, identifier: \"All set\""),
        ]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("~ flow OnboardingCoordinator (changed: 1 step changed)"))
        #expect(run.stdout.contains("    ~ step doneStep 'All set': result: Any → String at new/ProfileApp/Coordinators/OnboardingCoordinator.swift:"))
    }

    @Test("Syrup: an added case")
    func syrup() throws {
        let (run, root) = try diffSample("syrup", edits: ["HTTPRequestProgression.swift": [
            ("    case success(Result)\n", "    case success(Result)\n    case cancelled\n"),
            ("        case .success:\n            return nil", "        case .success, .cancelled:\n            return nil"),
        ]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.stdout.contains("~ flow HTTPRequestProgression (changed: +1 step"), "\(run.stdout)")
        #expect(run.stdout.contains("    + step cancelled"))
        #expect(run.status == 0 || run.stdout.contains("    new: "))
    }

    @Test("Elevate: a removed callback")
    func elevate() throws {
        let (run, root) = try diffSample("elevate/app", edits: ["controllers/login_controller.rb": [
            ("""
                  on_started do
                    # This block runs on the UI thread after the operation has been queued.
                    SVProgressHUD.showWithStatus("Logging In...")
                  end

            """, ""),
        ]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("~ flow LoginController.login_task (changed: −1 step, −1 transition)"), "\(run.stdout)")
        #expect(run.stdout.contains("    ~ start: on_started → task\n    - step on_started\n    - transition on_started → task\n"))
    }

    @Test("FlowKit: an added state and a removed transition")
    func flowKit() throws {
        let (run, root) = try diffSample("flowkit", edits: ["Checkout.puml": [
            ("Shipping --> PaymentMethod\nShipping --> Cart\n", "Shipping --> GiftWrap\nGiftWrap: Order\nGiftWrap --> PaymentMethod\n"),
        ]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(run.stdout.contains("+ step GiftWrap"), "\(run.stdout)")
        #expect(run.stdout.contains("    - transition Shipping → Cart\n"))
        #expect(run.stdout.contains("    - transition Shipping → PaymentMethod\n"))
        #expect(run.stdout.contains("    + transition GiftWrap → PaymentMethod\n"))
        #expect(run.status == 0, "\(run.stdout)")
    }

    @Test("git revisions: REV:PATH against REV:PATH or the working tree, with the user's relative paths; temporary folders removed")
    func gitRevisions() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/Flows", withIntermediateDirectories: true)
        try fm.copyItem(atPath: packageRoot + "/samples/declarative/checkout.flow.yaml", toPath: root + "/Flows/checkout.flow.yaml")
        try git(["init", "-q", "-b", "main"], in: root)
        try git(["add", "."], in: root)
        try git(["commit", "-q", "-m", "before"], in: root)
        var text = try String(contentsOfFile: root + "/Flows/checkout.flow.yaml", encoding: .utf8)
        for (from, to) in checkoutEdits[""]! { text = text.replacingOccurrences(of: from, with: to) }
        try text.write(toFile: root + "/Flows/checkout.flow.yaml", atomically: true, encoding: .utf8)

        // Each diff gets a temporary folder of its own, in which it checks revisions out: here under
        // a TMPDIR of this test's own, which nothing else writes to, so it must be empty afterwards.
        let ownTemporary = root + "-tmp"
        try fm.createDirectory(atPath: ownTemporary, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: ownTemporary) }
        let temporary = { try fm.contentsOfDirectory(atPath: ownTemporary) }
        func flowlens(_ arguments: [String], in directory: String) throws -> Run {
            try run(flowlensBinary, arguments, in: directory, adding: ["TMPDIR": ownTemporary])
        }
        let working = try flowlens(["diff", "main:Flows", "Flows"], in: root)
        #expect(working.status == 1, "\(working.stderr)")
        #expect(working.stdout.contains("    + step applyVoucher 'Apply voucher' at Flows/checkout.flow.yaml:24:9"))
        #expect(working.stdout.contains("    new: Flows/checkout.flow.yaml:"))

        try git(["commit", "-q", "-am", "after"], in: root)
        let revisions = try flowlens(["diff", "HEAD~1:Flows", "HEAD:Flows"], in: root)
        #expect(revisions.status == 1)
        #expect(revisions.stdout.replacingOccurrences(of: "HEAD~1:Flows → HEAD:Flows", with: "")
                == working.stdout.replacingOccurrences(of: "main:Flows → Flows", with: ""))
        // From a subfolder, paths stay relative to it, as on the command line.
        let sub = try flowlens(["diff", "HEAD~1:checkout.flow.yaml", "checkout.flow.yaml"], in: root + "/Flows")
        #expect(sub.stdout.contains("    new: checkout.flow.yaml:"), "\(sub.stdout)\(sub.stderr)")
        #expect(try temporary() == [])

        let badRevision = try flowlens(["diff", "no-such-branch:Flows", "Flows"], in: root)
        #expect(badRevision.status == 2)
        #expect(badRevision.stderr.contains("git does not know the revision 'no-such-branch'"))
        let missingPath = try flowlens(["diff", "HEAD:Nothing", "Flows"], in: root)
        #expect(missingPath.status == 2 && missingPath.stderr.contains("'Nothing' does not exist at revision 'HEAD'"))

        let plain = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: plain) }
        let notRepository = try flowlens(["diff", "main:Flows", "Flows"], in: plain)
        #expect(notRepository.status == 2)
        #expect(notRepository.stderr.contains("is not in a git repository"))
    }

    @Test("output/diff is what scripts/setup.sh's diff of examples/diff writes (run scripts/setup.sh when this fails)")
    func outputIsFresh() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try flowlens(["diff", "examples/diff/before", "examples/diff/after", "--output", directory])
        #expect(run.status == 1)
        #expect(try String(contentsOfFile: packageRoot + "/output/diff/summary.txt", encoding: .utf8) == run.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["Checkout.svg"])
        let mismatch = Picture.mismatch(FileManager.default.contents(atPath: packageRoot + "/output/diff/Checkout.svg"),
                                        FileManager.default.contents(atPath: directory + "/Checkout.svg"), name: "Checkout.svg")
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("usage: a missing path or argument, or a diagram format that is not one diagram a flow, exits 2; --help documents the syntax, exit status and examples")
    func usage() throws {
        let missing = try flowlens(["diff", "samples/declarative/checkout.flow.yaml", "no/such.flow.yaml"])
        #expect(missing.status == 2 && missing.stderr.contains("'no/such.flow.yaml': no such file or folder"))
        #expect(try flowlens(["diff", "samples"]).status == 2)
        for format in ["html", "mermaid", "md"] {
            let run = try flowlens(["diff", "samples/declarative", "samples/declarative", "--output", NSTemporaryDirectory(), "--diagram-format", format])
            #expect(run.status == 2 && run.stderr.contains("--diagram-format is one of svg, dot, png, pdf (got '\(format)')"), "\(run.stderr)")
        }
        let help = try flowlens(["diff", "--help"])
        for word in ["REV:PATH", "--format", "--output", "--diagram-format", "EXIT STATUS", "EXAMPLES"] { #expect(help.stdout.contains(word), "\(word)") }
        // The values listed are exactly those accepted.
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(values: svg, dot, png, pdf; default: svg)"), "\(help.stdout)")
        #expect(!flat.contains("html, mermaid"))
        let same = try flowlens(["diff", "samples/declarative", "samples/declarative"])
        #expect(same.status == 0)
        #expect(same.stdout.contains("no differences in flows or findings"))
    }
}
