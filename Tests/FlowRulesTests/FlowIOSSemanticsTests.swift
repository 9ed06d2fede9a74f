import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowRules
import Testing

// Rule-level tests of Flow-iOS sources: which findings the run-time semantics of Flow-iOS
// (`withInsufficientInputData`, `withMismatchInputDataType`, silent case skips) lead to, where they are
// reported and what they say. Fixtures are in memory; lines and columns are 1-based in each fixture.

// MARK: - Helpers

/// The findings of `rule` (all rules when nil) for in-memory Swift files, in report order.
private func findings(_ rule: String?, _ files: [(name: String, text: String)]) -> [Finding] {
    let all = Analyzer().analyze(load(files))
    return rule.map { id in all.filter { $0.rule == id } } ?? all
}

private func loc(_ file: String, _ line: Int, _ column: Int) -> FlowModel.SourceLocation {
    FlowModel.SourceLocation(file: file, line: line, column: column)
}

/// `rule file:line:col [flow] message` for every finding, to compare whole reports.
private func lines(_ found: [Finding]) -> [String] {
    found.map { "\($0.rule) \($0.location?.description ?? "-") [\($0.flow ?? "-")] \($0.message)" }
}

// MARK: - Cases

@Suite("Flow-iOS semantics: cases")
struct FlowIOSCaseSemanticsTests {
    static let shareOps = (name: "ShareOps.swift", text: """
        import Flow_iOS

        class TrackOp: FlowOperation {}
        class LinkOp: FlowOperation {
            override func mainLogic() { setData(name: "shareURL", value: "https://x") }
        }
        class EmailOp: FlowOperation {}
        class ComposeOp: FlowOperation {
            override func mainLogic() {
                guard let url: String = getData(name: "shareURL") else { return }
                setData(name: "message", value: "See " + url)
            }
        }
        class InviteOp: FlowOperation {
            override func mainLogic() { setData(name: "shareURL", value: "https://i") }
        }
        """)

    static func share(_ second: String) -> (name: String, text: String) {
        (name: "Share.swift", text: """
            class Share {
                func run(target: String) {
                    Flow()
                        .setDataBucket(dataBucket: ["target": target])
                        .add(operation: TrackOp())
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .add(operation: \(second)(), flowCase: FlowCase(key: "target", value: "other"))
                        .combine()
                        .add(operation: ComposeOp())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["message"] as? String ?? "") })
                        .start()
                }
            }
            """)
    }

    @Test("after combine() a key is set only if every branch sets it: the finding names the path through the branch that does not")
    func combineNeedsEveryBranch() throws {
        let found = findings("missing-data-key", [Self.shareOps, Self.share("EmailOp")])
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.severity == .error)
        #expect(finding.location == loc("ShareOps.swift", 10, 33))
        #expect(finding.flow == "Share.run")
        #expect(finding.step == "ComposeOp")
        #expect(finding.key == "shareURL")
        #expect(finding.path == ["start", "TrackOp", "EmailOp", "combine", "ComposeOp"])
        #expect(finding.message == "step 'ComposeOp' reads 'shareURL', but it is not set on every path: it is missing on 'start' → 'TrackOp' —[target = other]→ 'EmailOp' → (where the branches meet) → 'ComposeOp' (flow 'Share.run', step at Share.swift:9:13)")
        #expect(finding.related == [RelatedLocation(message: "step 'ComposeOp' of flow 'Share.run'", location: loc("Share.swift", 9, 13))])

        // Both branches write it: nothing is missing after the join.
        #expect(findings("missing-data-key", [Self.shareOps, Self.share("InviteOp")]).isEmpty)
    }

    @Test("plain adds after a flowCase add continue that branch (they do not follow the root)")
    func plainAddsContinueTheBranch() throws {
        let found = findings("missing-data-key", [Self.shareOps, (name: "Share.swift", text: """
            class Share {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["target": "link"])
                        .add(operation: TrackOp())
                        .add(operation: EmailOp(), flowCase: FlowCase(key: "target", value: "email"))
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .add(operation: ComposeOp())
                        .start()
                }
            }
            """)])
        // ComposeOp runs after LinkOp only, which writes shareURL: no finding.
        #expect(found.isEmpty)

        let swapped = findings("missing-data-key", [Self.shareOps, (name: "Share.swift", text: """
            class Share {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["target": "email"])
                        .add(operation: TrackOp())
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .add(operation: EmailOp(), flowCase: FlowCase(key: "target", value: "email"))
                        .add(operation: ComposeOp())
                        .start()
                }
            }
            """)])
        #expect(lines(swapped) == [
            "missing-data-key ShareOps.swift:10:33 [Share.run] step 'ComposeOp' reads 'shareURL', but it is not set on every path: it is missing on 'start' → 'TrackOp' —[target = email]→ 'EmailOp' → 'ComposeOp' (flow 'Share.run', step at Share.swift:8:13)",
        ])
    }

    @Test("a root with exactly one case takes it without checking: its writes are always made, and unmatched-case is silent")
    func singleCaseIsAlwaysTaken() {
        let single = [Self.shareOps, (name: "Share.swift", text: """
            class Share {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["target": "email"])
                        .add(operation: TrackOp())
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .combine()
                        .add(operation: ComposeOp())
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, single)).filter { !$0.hasPrefix("unused-data-key") } == [])

        // The same value with two cases matches none of them: the flow ends early, reported as success.
        let two = findings("unmatched-case", [Self.shareOps, (name: "Share.swift", text: """
            class Share {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["target": "email"])
                        .add(operation: TrackOp())
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .add(operation: InviteOp(), flowCase: FlowCase(key: "target", value: "invite"))
                        .combine()
                        .add(operation: ComposeOp())
                        .start()
                }
            }
            """)])
        #expect(lines(two) == [
            "unmatched-case Share.swift:6:49 [Share.run] 'target' is \"email\" here, which no case matches: after 'TrackOp' the flow ends early, reported as success (cases: target = link, target = invite)",
        ])
        #expect(two.first?.severity == .warning)
        #expect(two.first?.related == [RelatedLocation(message: "'target' set here", location: loc("Share.swift", 4, 41))])
    }

    @Test("unmatched-case: a run-time value has no fallback; a visible value that a case matches is fine")
    func unmatchedCase() {
        let runtime = findings("unmatched-case", [Self.shareOps, Self.share("InviteOp")])
        #expect(lines(runtime) == [
            "unmatched-case Share.swift:6:49 [Share.run] the cases after 'TrackOp' (target = link, target = other) have no fallback: any other value ends the flow early, reported as success",
        ])
        let matched = findings("unmatched-case", [Self.shareOps, (name: "Share.swift", text: """
            class Share {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["target": "link"])
                        .add(operation: TrackOp())
                        .add(operation: LinkOp(), flowCase: FlowCase(key: "target", value: "link"))
                        .add(operation: InviteOp(), flowCase: FlowCase(key: "target", value: "invite"))
                        .start()
                }
            }
            """)])
        #expect(matched.isEmpty)
    }

    @Test("nested-case: a flowCase on another key inside a branch names both keys; a new case set after combine() is fine")
    func nestedCase() throws {
        let ops = (name: "BillingOps.swift", text: """
            class TrackOp: FlowOperation {}
            class FreeOp: FlowOperation {}
            class ProOp: FlowOperation {}
            class VatOp: FlowOperation {}
            class NoVatOp: FlowOperation {}
            """)
        let found = findings("nested-case", [ops, (name: "Billing.swift", text: """
            class Billing {
                func open(plan: String, region: String) {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": plan, "region": region])
                        .add(operation: TrackOp())
                        .add(operation: FreeOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: ProOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .add(operation: VatOp(), flowCase: FlowCase(key: "region", value: "eu"))
                        .combine()
                        .start()
                }
            }
            """)])
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.severity == .warning)
        #expect(finding.location == loc("Billing.swift", 8, 48))
        #expect(finding.flow == "Billing.open")
        #expect(finding.step == "TrackOp")
        #expect(finding.key == "region")
        #expect(finding.edge == EdgeReference(from: "TrackOp", to: "VatOp"))
        #expect(finding.message == "the case region = eu ('VatOp') is not nested in the branch before it: it is another branch of 'TrackOp', tested after the cases on 'plan'")

        let sequential = findings("nested-case", [ops, (name: "Billing.swift", text: """
            class Billing {
                func open(plan: String, region: String) {
                    Flow()
                        .setDataBucket(dataBucket: ["plan": plan, "region": region])
                        .add(operation: TrackOp())
                        .add(operation: FreeOp(), flowCase: FlowCase(key: "plan", value: "free"))
                        .add(operation: ProOp(), flowCase: FlowCase(key: "plan", value: "pro"))
                        .combine()
                        .add(operation: VatOp(), flowCase: FlowCase(key: "region", value: "eu"))
                        .add(operation: NoVatOp(), flowCase: FlowCase(key: "region", value: "us"))
                        .combine()
                        .start()
                }
            }
            """)])
        #expect(sequential.isEmpty)
    }
}

// MARK: - Groups

@Suite("Flow-iOS semantics: groups")
struct FlowIOSGroupSemanticsTests {
    static let imageOps = (name: "ImageOps.swift", text: """
        import Flow_iOS

        class UploadOp: FlowOperation, FlowOperationCreator {
            static func create() -> FlowOperation { return UploadOp() }
            override var primaryInputParamKey: String { return "image" }
            override var primaryOutputParamKey: String { return "url" }
            override func mainLogic() {
                guard let image: String = getData(name: primaryInputParamKey) else { return }
                setData(name: primaryOutputParamKey, value: "https://cdn/" + image)
            }
        }

        class WatermarkOp: FlowOperation, FlowOperationCreator {
            static func create() -> FlowOperation { return WatermarkOp() }
            override var primaryInputParamKey: String { return "image" }
            override var primaryOutputParamKey: String { return "stamped" }
            override func mainLogic() {
                guard let image: String = getData(name: primaryInputParamKey) else { return }
                guard let text: String = getData(name: "watermarkText") else { return }
                setData(name: primaryOutputParamKey, value: image + text)
            }
        }

        class SaveOp: FlowOperation {
            override func mainLogic() {
                guard let urls: [String] = getData(name: "urls") else { return }
                setData(name: "album", value: Album(urls: urls))
            }
        }

        class CountURLsOp: FlowOperation {
            override func mainLogic() {
                guard let urls: [Int] = getData(name: "urls") else { return }
                log(message: "count")
            }
        }
        """)

    /// A flow `Gallery.run` with `bucket` and the lines `adds` after it (each line one builder call).
    static func gallery(_ bucket: String?, _ adds: [String]) -> (name: String, text: String) {
        let calls = (bucket.map { [".setDataBucket(dataBucket: \($0))"] } ?? []) + adds + [".start()"]
        return (name: "Gallery.swift", text: """
            class Gallery {
                func run() {
                    Flow()
            \(calls.map { "            " + $0 }.joined(separator: "\n"))
                }
            }
            """)
    }

    static let upload = #".addGrouped(operationCreator: UploadOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "urls"))"#

    @Test("the group's input key must exist")
    func missingInput() {
        let found = findings("missing-data-key", [Self.imageOps, Self.gallery(nil, [Self.upload, ".add(operation: SaveOp())"])])
        #expect(lines(found) == [
            "missing-data-key Gallery.swift:4:105 [Gallery.run] step 'UploadOp' reads 'images', but no step sets it and the flow does not start with it",
        ])
        #expect(found.first?.step == "UploadOp")
        #expect(found.first?.key == "images")
    }

    @Test("the group's input must be an array: a String gives no element to run and fails the group")
    func inputNotAnArray() {
        let found = findings("type-mismatch", [Self.imageOps, Self.gallery(#"["images": "a.jpg"]"#, [Self.upload, ".add(operation: SaveOp())"])])
        // One defect, one finding: at the element read, not again at the group's read of its input.
        #expect(lines(found) == [
            "type-mismatch ImageOps.swift:8:35 [Gallery.run] each run of group 'UploadOp' reads 'image' as String, but in 'images' (set by the flow's initial data) it is String, not an array, so no element runs and the group fails (flow 'Gallery.run', step at Gallery.swift:5:13)",
        ])
    }

    @Test("each grouped run sees only {primaryInputParamKey: element}: any other read fails even when the flow has the key")
    func privateBucket() throws {
        let watermark = #".addGrouped(operationCreator: WatermarkOp.self, dispatcher: FlowArrayGroupDispatcher(inputKey: "images", outputKey: "stamped"))"#
        let found = findings("missing-data-key", [Self.imageOps, Self.gallery(#"["images": ["a.jpg"], "watermarkText": "©"]"#, [watermark])])
        #expect(lines(found) == [
            "missing-data-key ImageOps.swift:19:34 [Gallery.run] each run of group 'WatermarkOp' sees only 'image', so its read of 'watermarkText' always fails (the flow has it, but a group's runs do not) (flow 'Gallery.run', step at Gallery.swift:5:13)",
        ])
        let finding = try #require(found.first)
        #expect(finding.step == "WatermarkOp")
        #expect(finding.key == "watermarkText")
        #expect(finding.related == [RelatedLocation(message: "step 'WatermarkOp' of flow 'Gallery.run'", location: loc("Gallery.swift", 5, 13))])

        // Without the key in the flow, the message does not claim the flow has it.
        let without = findings("missing-data-key", [Self.imageOps, Self.gallery(#"["images": ["a.jpg"]]"#, [watermark])])
        #expect(without.map(\.message) == [
            "each run of group 'WatermarkOp' sees only 'image', so its read of 'watermarkText' always fails (flow 'Gallery.run', step at Gallery.swift:5:13)",
        ])
    }

    @Test("element types are checked one by one: [\"a\", \"b\", 1] read as String names element 3")
    func elementTypes() throws {
        let found = findings("type-mismatch", [Self.imageOps, Self.gallery(#"["images": ["a.jpg", "b.jpg", 3]]"#, [Self.upload, ".add(operation: SaveOp())"])])
        #expect(lines(found) == [
            "type-mismatch ImageOps.swift:8:35 [Gallery.run] each run of group 'UploadOp' reads 'image' as String, but in 'images' (set by the flow's initial data) element 3 is Int (flow 'Gallery.run', step at Gallery.swift:5:13)",
        ])
        let finding = try #require(found.first)
        #expect(finding.key == "images")
        #expect(finding.step == "UploadOp")
        #expect(finding.related == [
            RelatedLocation(message: "'images' written as [Any] here", location: loc("Gallery.swift", 4, 41)),
            RelatedLocation(message: "step 'UploadOp' of flow 'Gallery.run'", location: loc("Gallery.swift", 5, 13)),
        ])
    }

    @Test("the output key holds [OutputType]: it satisfies a later [T] read, and a later read of another element type is a mismatch")
    func outputKey() {
        let clean = [Self.imageOps, Self.gallery(#"["images": ["a.jpg", "b.jpg"]]"#, [
            Self.upload, ".add(operation: SaveOp())",
            #".setDidFinishBlock(block: { flow in print(flow.dataBucket["album"] as? Album as Any) })"#,
        ])]
        #expect(lines(findings(nil, clean)) == [])

        let wrong = findings("type-mismatch", [Self.imageOps, Self.gallery(#"["images": ["a.jpg", "b.jpg"]]"#, [Self.upload, ".add(operation: CountURLsOp())"])])
        #expect(lines(wrong) == [
            "type-mismatch ImageOps.swift:33:33 [Gallery.run] step 'CountURLsOp' reads 'urls' as [Int], but it is written as [String] by step 'UploadOp' (line 5) (flow 'Gallery.run', step at Gallery.swift:6:13)",
        ])
        #expect(wrong.first?.related == [
            RelatedLocation(message: "'urls' written as [String] here", location: loc("Gallery.swift", 5, 126)),
            RelatedLocation(message: "step 'CountURLsOp' of flow 'Gallery.run'", location: loc("Gallery.swift", 6, 13)),
        ])
    }

    @Test("a dispatcher held in a variable: its keys are unknown, so a later read of its output is not reported")
    func dispatcherInAVariable() {
        let found = findings("missing-data-key", [Self.imageOps, (name: "Gallery.swift", text: """
            class Gallery {
                func run() {
                    let dispatcher = FlowArrayGroupDispatcher(inputKey: "images", outputKey: "urls")
                    Flow()
                        .setDataBucket(dataBucket: ["images": ["a.jpg"]])
                        .addGrouped(operationCreator: UploadOp.self, dispatcher: dispatcher)
                        .add(operation: SaveOp())
                        .start()
                }
            }
            """)])
        #expect(lines(found) == [])
    
    }
}

// MARK: - Reads and writes

@Suite("Flow-iOS semantics: reads and writes")
struct FlowIOSAccessSemanticsTests {
    static let screen = (name: "VC.swift", text: """
        class Screen {
            func run() {
                Flow()
                    .add(operation: ProfileOp())
                    .start()
            }
        }
        """)

    @Test("let x: T? = getData(...) is a required read (Swift infers T); only isOptional: true is optional")
    func optionalReads() throws {
        let found = findings("missing-data-key", [(name: "Ops.swift", text: """
            class ProfileOp: FlowOperation {
                override func mainLogic() {
                    let nickname: String? = getData(name: "nickname")
                    let avatar: String? = getData(name: "avatar", isOptional: true)
                    log(message: "profile")
                }
            }
            """), Self.screen])
        #expect(lines(found) == [
            "missing-data-key Ops.swift:3:33 [Screen.run] step 'ProfileOp' reads 'nickname', but no step sets it and the flow does not start with it (flow 'Screen.run', step at VC.swift:4:13)",
        ])
    }

    @Test("the legacy getData(name:) as? T is a required, typed read")
    func legacyCast() {
        let ops = (name: "Ops.swift", text: """
            class ProfileOp: FlowOperation {
                override func mainLogic() {
                    guard let email = getData(name: "email") as? String else { return }
                    log(message: email)
                }
            }
            """)
        let screen = { (bucket: String) in (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: \(bucket))
                        .add(operation: ProfileOp())
                        .start()
                }
            }
            """) }
        #expect(lines(findings(nil, [ops, screen(#"["email": 42]"#)])) == [
            "type-mismatch Ops.swift:3:27 [Screen.run] step 'ProfileOp' reads 'email' as String, but it is written as Int by the flow's initial data (flow 'Screen.run', step at VC.swift:5:13)",
        ])
        #expect(lines(findings(nil, [ops, screen(#"["mail": "a@b.c"]"#)])) == [
            "missing-data-key Ops.swift:3:27 [Screen.run] step 'ProfileOp' reads 'email', but no step sets it and the flow does not start with it; did you mean 'mail'? (flow 'Screen.run', step at VC.swift:5:13)",
            "unused-data-key VC.swift:4:41 [Screen.run] the flow starts with 'mail', but no step reads it",
        ])
        #expect(lines(findings(nil, [ops, screen(#"["email": "a@b.c"]"#)])) == [])
    }

    @Test("keys given as constants of another file's enum, unqualified constants and enum raw values match the literal keys")
    func constantKeys() {
        let ops = [(name: "Keys.swift", text: """
            enum FlowKeys {
                static let email = "email"
            }
            enum Keys: String { case password, pin = "pin_code" }
            let tokenKey = "token"
            """), (name: "Ops.swift", text: """
            class LoginOp: FlowOperation {
                override func mainLogic() {
                    guard let email: String = getData(name: FlowKeys.email) else { return }
                    guard let password: String = getData(name: Keys.password.rawValue) else { return }
                    guard let pin: Int = getData(name: Keys.pin.rawValue) else { return }
                    setData(name: tokenKey, value: email + password)
                }
            }
            class UseTokenOp: FlowOperation {
                override func mainLogic() { guard let token: String = getData(name: "token") else { return } }
            }
            """)]
        let clean = ops + [(name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["email": "a@b.c", Keys.password.rawValue: "secret", "pin_code": 1234])
                        .add(operation: LoginOp())
                        .add(operation: UseTokenOp())
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, clean)) == [])

        let renamed = ops + [(name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: [FlowKeys.email: "a@b.c", "password": "secret", "pin": 1234])
                        .add(operation: LoginOp())
                        .add(operation: UseTokenOp())
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, renamed)) == [
            "missing-data-key Ops.swift:5:30 [Screen.run] step 'LoginOp' reads 'pin_code', but no step sets it and the flow does not start with it (flow 'Screen.run', step at VC.swift:5:13)",
            "unused-data-key VC.swift:4:88 [Screen.run] the flow starts with 'pin', but no step reads it",
        ])
    }

    @Test("a value of unknown type never produces a type-mismatch")
    func unknownValueType() {
        let found = findings(nil, [(name: "Ops.swift", text: """
            class TokenOp: FlowOperation {
                override func mainLogic() { setData(name: "token", value: api.fetchToken()) }
            }
            class ProfileOp: FlowOperation {
                override func mainLogic() { guard let token: Int = getData(name: "token") else { return } }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: TokenOp())
                        .add(operation: ProfileOp())
                        .start()
                }
            }
            """)])
        #expect(lines(found) == [])
    }

    @Test("a read in an intermediate base class in another file is the subclass's read, reported where the base class reads")
    func inheritedRead() throws {
        let files = [(name: "Base.swift", text: """
            import Flow_iOS

            class AuthenticatedOperation: FlowOperation {
                func requireToken() -> String? {
                    guard let token: String = getData(name: "accessToken") else { return nil }
                    return token
                }
            }
            """), (name: "Ops.swift", text: """
            class ProfileOp: AuthenticatedOperation {
                override func mainLogic() {
                    guard let token = requireToken() else { return }
                    setData(name: "profile", value: Profile(token: token))
                }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: ProfileOp())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["profile"] as? Profile as Any) })
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, files)) == [
            "missing-data-key Base.swift:5:35 [Screen.run] step 'ProfileOp' reads 'accessToken', but no step sets it and the flow does not start with it (flow 'Screen.run', step at VC.swift:4:13)",
        ])
    }

    @Test("a write with a key that is not a constant may set any key: later reads are not missing")
    func dynamicWriteKey() {
        let ops = (name: "Ops.swift", text: """
            class CopyOp: FlowOperation {
                override func mainLogic() {
                    let someVariable = makeKey()
                    setData(name: someVariable, value: "x")
                }
            }
            class ProfileOp: FlowOperation {
                override func mainLogic() { guard let name: String = getData(name: "name") else { return } }
            }
            """)
        let files = [ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: CopyOp())
                        .add(operation: ProfileOp())
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, files)) == [])
        // Before the dynamic write, the read is still missing.
        let before = [ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: ProfileOp())
                        .add(operation: CopyOp())
                        .start()
                }
            }
            """)]
        #expect(findings("missing-data-key", before).map(\.key) == ["name"])
    }

    @Test("a local variable used as a write key is dynamic even when some type has a constant of the same name")
    func localKeyShadowsConstant() {
        let found = findings("missing-data-key", [(name: "Keys.swift", text: """
            enum Plan {
                static let key = "plan"
            }
            """), (name: "Ops.swift", text: """
            class CopyOp: FlowOperation {
                override func mainLogic() {
                    for key in ["name", "email"] { setData(name: key, value: "x") }
                }
            }
            class ProfileOp: FlowOperation {
                override func mainLogic() { guard let name: String = getData(name: "name") else { return } }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: CopyOp())
                        .add(operation: ProfileOp())
                        .start()
                }
            }
            """)])
        #expect(lines(found) == [])
    
    }

    @Test("a local shadows a stored property of the same name: the value written has the local's type")
    func localShadowsProperty() {
        let found = findings("type-mismatch", [(name: "Ops.swift", text: """
            class TokenOp: FlowOperation {
                var token: Int = 0
                override func mainLogic() {
                    let token = "abc"
                    setData(name: "token", value: token)
                }
            }
            class UseTokenOp: FlowOperation {
                override func mainLogic() { guard let token: String = getData(name: "token") else { return } }
            }
            """), (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: TokenOp())
                        .add(operation: UseTokenOp())
                        .start()
                }
            }
            """)])
        #expect(lines(found) == [])
    
    }
}

// MARK: - Flows

@Suite("Flow-iOS semantics: flows")
struct FlowIOSFlowSemanticsTests {
    static let ops = (name: "Ops.swift", text: """
        import Foundation

        class RefreshOp: FlowOperation {
            override func mainLogic() {
                setData(name: "profile", value: Profile())
                setData(name: "refreshDate", value: Date())
            }
        }
        class LoginOp: FlowOperation {
            override func mainLogic() {
                guard let email: String = getData(name: "email") else { return }
                setData(name: "token", value: "t_" + email)
            }
        }
        """)

    @Test("did-finish reads count as reads, with any closure parameter name and inside a closure passed to a helper")
    func finishReadsAreReads() {
        let files = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func direct() {
                    Flow()
                        .add(operation: RefreshOp())
                        .setDidFinishBlock(block: { finished in
                            let profile = finished.dataBucket["profile"] as? Profile
                            let date = finished.dataBucket["refreshDate"] as? Date
                            print(profile as Any, date as Any)
                        })
                        .start()
                }
                func helper() {
                    Flow()
                        .add(operation: RefreshOp())
                        .setDidFinishBlock(block: commonDidFinishBlock(block: { flow in
                            if let profile = flow.dataBucket["profile"] as? Profile { print(profile) }
                            if let date = flow.dataBucket["refreshDate"] as? Date { print(date) }
                        }))
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, files)) == [])

        // Without a finish read, the writes are unused.
        let unread = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func silent() {
                    Flow()
                        .add(operation: RefreshOp())
                        .setDidFinishBlock(block: { flow in
                            print(flow.dataBucket["profile"] as? Profile as Any)
                        })
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, unread)) == [
            "unused-data-key Ops.swift:6:9 [Screen.silent] step 'RefreshOp' writes 'refreshDate', but no later step reads it (flow 'Screen.silent', step at VC.swift:4:13)",
        ])
    }

    @Test("did-finish reads are type-checked, and never missing")
    func finishReadsAreTypeChecked() {
        let files = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: RefreshOp())
                        .setDidFinishBlock(block: { flow in
                            let profile = flow.dataBucket["profile"] as? Profile
                            let date = flow.dataBucket["refreshDate"] as? String
                            let never = flow.dataBucket["neverSet"] as? String
                            print(profile as Any, date as Any, never as Any)
                        })
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, files)) == [
            "type-mismatch VC.swift:7:28 [Screen.run] step 'finish' reads 'refreshDate' as String, but it is written as Date by step 'RefreshOp' (line 6)",
        ])
    }

    @Test("setDataBucket: the last call wins")
    func lastBucketWins() {
        let lastHasIt = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["mail": "a@b.c"])
                        .setDataBucket(dataBucket: ["email": "a@b.c"])
                        .add(operation: LoginOp())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["token"] as? String as Any) })
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, lastHasIt)) == [])

        let firstHasIt = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .setDataBucket(dataBucket: ["email": "a@b.c"])
                        .setDataBucket(dataBucket: ["mail": "a@b.c"])
                        .add(operation: LoginOp())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["token"] as? String as Any) })
                        .start()
                }
            }
            """)]
        #expect(lines(findings(nil, firstHasIt)) == [
            "missing-data-key Ops.swift:11:35 [Screen.run] step 'LoginOp' reads 'email', but no step sets it and the flow does not start with it; did you mean 'mail'? (flow 'Screen.run', step at VC.swift:6:13)",
            "unused-data-key VC.swift:5:41 [Screen.run] the flow starts with 'mail', but no step reads it",
        ])
    }

    @Test("an unknown operation is a warning at its add, and no key it might set is reported missing")
    func unknownOperation() throws {
        let files = [Self.ops, (name: "VC.swift", text: """
            class Screen {
                func run() {
                    Flow()
                        .add(operation: LegacyLoginOp())
                        .add(operation: LoginOp())
                        .setDidFinishBlock(block: { flow in print(flow.dataBucket["token"] as? String as Any) })
                        .start()
                }
            }
            """)]
        let found = findings(nil, files)
        #expect(lines(found) == [
            "unknown-operation VC.swift:4:13 [Screen.run] 'LegacyLoginOp' is not defined in the sources read: what it reads and writes is unknown, so keys around it are not fully checked",
        ])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.step == "LegacyLoginOp")
    }
}

// MARK: - Where findings are reported

@Suite("Flow-iOS semantics: finding placement")
struct FlowIOSPlacementTests {
    static let loginOp = (name: "LoginOps.swift", text: """
        import Flow_iOS

        class LoginOp: FlowOperation {
            override func mainLogic() {
                guard let email: String = getData(name: "email") else { return }
                guard let password: String = getData(name: "password") else { return }
                setData(name: "token", value: email + ":" + password)
            }
        }
        """)

    @Test("a missing key read inside an operation file is reported at getData, naming the flow and the add line, with the add as related location")
    func placement() throws {
        let found = findings(nil, [Self.loginOp, (name: "Broken.swift", text: """
            class Broken {
                func renamedKey() {
                    Flow()
                        .setDataBucket(dataBucket: ["email_address": "a@b.c", "password": "x"])
                        .add(operation: LoginOp())
                        .setDidFinishBlock(block: { flow in
                            print(flow.dataBucket["email_address"] as? String as Any, flow.dataBucket["token"] as? String as Any)
                        })
                        .start()
                }
            }
            """)])
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.rule == "missing-data-key")
        #expect(finding.location == loc("LoginOps.swift", 5, 35))
        #expect(finding.flow == "Broken.renamedKey")
        #expect(finding.step == "LoginOp")
        #expect(finding.key == "email")
        // Nothing sets the key: it is missing on every path, and the finding names none (issue 20: a
        // path per such read made reports quadratic in a long flow's length).
        #expect(finding.path == [])
        #expect(finding.message == "step 'LoginOp' reads 'email', but no step sets it and the flow does not start with it (flow 'Broken.renamedKey', step at Broken.swift:5:13)")
        #expect(finding.related == [RelatedLocation(message: "step 'LoginOp' of flow 'Broken.renamedKey'", location: loc("Broken.swift", 5, 13))])
    }

    @Test("one operation shared by three flows, each missing the key: three findings, one per flow")
    func sharedOperation() {
        let found = findings("missing-data-key", [Self.loginOp, (name: "Screens.swift", text: """
            class Screens {
                func first() {
                    Flow().setDataBucket(dataBucket: ["email": "a"]).add(operation: LoginOp()).start()
                }
                func second() {
                    Flow()
                        .setDataBucket(dataBucket: ["email": "a"])
                        .add(operation: LoginOp())
                        .start()
                }
            }
            extension Screens {
                func third() {
                    let flow = Flow()
                    flow.add(operation: LoginOp())
                    flow.start()
                }
            }
            """)])
        #expect(lines(found) == [
            "missing-data-key LoginOps.swift:5:35 [Screens.third] step 'LoginOp' reads 'email', but no step sets it and the flow does not start with it (flow 'Screens.third', step at Screens.swift:15:13)",
            "missing-data-key LoginOps.swift:6:38 [Screens.first] step 'LoginOp' reads 'password', but no step sets it and the flow does not start with it (flow 'Screens.first', step at Screens.swift:3:57)",
            "missing-data-key LoginOps.swift:6:38 [Screens.second] step 'LoginOp' reads 'password', but no step sets it and the flow does not start with it (flow 'Screens.second', step at Screens.swift:8:13)",
            "missing-data-key LoginOps.swift:6:38 [Screens.third] step 'LoginOp' reads 'password', but no step sets it and the flow does not start with it (flow 'Screens.third', step at Screens.swift:15:13)",
        ])
        let password = found.filter { $0.key == "password" }
        #expect(Set(password.map(\.location)) == [loc("LoginOps.swift", 6, 38)])
        #expect(password.map(\.flow) == ["Screens.first", "Screens.second", "Screens.third"])
        #expect(password.map { $0.related.map(\.location) } == [
            [loc("Screens.swift", 3, 57)], [loc("Screens.swift", 8, 13)], [loc("Screens.swift", 15, 13)],
        ])
    }

    @Test("findings do not depend on the order the files are given in")
    func orderIndependentFindings() {
        let files = [Self.loginOp, (name: "A.swift", text: """
            class A {
                func run() { Flow().add(operation: LoginOp()).start() }
            }
            """), (name: "B.swift", text: """
            class B {
                func run() { Flow().setDataBucket(dataBucket: ["email": 1, "password": "p"]).add(operation: LoginOp()).start() }
            }
            """)]
        let reference = findings(nil, files)
        #expect(reference.count == 5)
        #expect(findings(nil, files.reversed()) == reference)
        #expect(findings(nil, [files[1], files[0], files[2]]) == reference)
    }
}

// MARK: - Maybe-writes, unknown types, what is a Flow-iOS flow, keys tested by cases

@Suite("Flow-iOS semantics: writes that may not happen")
struct FlowIOSMaybeWriteTests {
    /// A flow of three operations: `LoadOp` (whose body is `load`), then `RenderOp`, which reads `items`.
    private func run(_ load: String, read: String = "guard let items: [Article] = getData(name: \"items\") else { return }") -> [Finding] {
        findings(nil, [(name: "Feed.swift", text: """
            import Flow_iOS

            class LoadOp: FlowOperation {
                override func mainLogic() {
            \(load)
                }
            }
            class RenderOp: FlowOperation {
                override func mainLogic() {
                    \(read)
                    Renderer.shared.show(items)
                    finishSuccessfully()
                }
            }
            class FeedController {
                func refresh() {
                    Flow().add(operation: LoadOp()).add(operation: RenderOp()).start()
                }
            }
            """)])
    }

    @Test("a write inside an `if` without else, before finishSuccessfully: the later read is missing-data-key, naming the condition")
    func ifWithoutElse() {
        let found = run("""
                    let cached = ArticleCache.load()
                    if !cached.isEmpty {
                        setData(name: "items", value: cached)
                    }
                    finishSuccessfully()
            """)
        let missing = found.filter { $0.rule == "missing-data-key" }
        #expect(missing.count == 1, "\(lines(found))")
        #expect(missing.first?.message.contains("sets it only when !cached.isEmpty holds") == true, "\(lines(found))")
    }

    @Test("a write in a catch, in a switch case and in a forEach closure are maybe-writes too")
    func otherShapes() {
        let caught = run("""
                    do {
                        try Network.ping()
                    } catch {
                        setData(name: "items", value: ArticleCache.load())
                    }
                    finishSuccessfully()
            """)
        #expect(caught.filter { $0.rule == "missing-data-key" }.first?.message.contains("an error is thrown") == true, "\(lines(caught))")
        let switched = run("""
                    switch Settings.source {
                    case .cache: setData(name: "items", value: ArticleCache.load())
                    case .none: break
                    }
                    finishSuccessfully()
            """)
        #expect(switched.filter { $0.rule == "missing-data-key" }.first?.message.contains("Settings.source matches .cache") == true, "\(lines(switched))")
        let closure = run("""
                    ArticleCache.pages.forEach { page in
                        setData(name: "items", value: page.articles)
                    }
                    finishSuccessfully()
            """)
        #expect(closure.filter { $0.rule == "missing-data-key" }.first?.message.contains("the closure given to forEach runs") == true, "\(lines(closure))")
    }

    @Test("no finding when the other way fails the operation, when the write is in the callback that finishes, or when the read is optional")
    func definiteWrites() {
        let shapes = [
            """
                    let cached = ArticleCache.load()
                    if !cached.isEmpty {
                        setData(name: "items", value: cached)
                        finishSuccessfully()
                    } else {
                        finishWithError(error: FeedError.empty)
                    }
            """,
            """
                    startWithAsynchronous()
                    API.articles { result in
                        self.setData(name: "items", value: result)
                        self.finishSuccessfully()
                    }
            """,
            """
                    guard let cached = ArticleCache.loadIfFresh() else {
                        finishWithError(error: FeedError.stale)
                        return
                    }
                    setData(name: "items", value: cached)
                    finishSuccessfully()
            """,
            """
                    do {
                        setData(name: "items", value: try ArticleCache.decode())
                        finishSuccessfully()
                    } catch {
                        finishWithError(error: error)
                    }
            """,
        ]
        for body in shapes {
            let found = run(body)
            #expect(!found.contains { $0.rule == "missing-data-key" }, "\(body)\n\(lines(found))")
        }
        let optional = run("""
                    if ArticleCache.isWarm { setData(name: "items", value: ArticleCache.load()) }
                    finishSuccessfully()
            """, read: "let items: [Article]? = getData(name: \"items\", isOptional: true)")
        #expect(!optional.contains { $0.rule == "missing-data-key" }, "\(lines(optional))")
    }

    @Test("each way of failing or leaving in the other branch makes the write definite: throw, fatalError, preconditionFailure, cancel, finishWithError, return")
    func everyWayAroundThatCannotSucceed() {
        let ways = ["throw FeedError.empty", "fatalError(\"no articles\")", "preconditionFailure(\"no articles\")", "cancel()",
                    "finishWithError(error: FeedError.empty)", "Log.warn(\"empty\"); return"]
        for way in ways {
            let found = run("""
                        do {
                            if let cached = ArticleCache.load() {
                                setData(name: "items", value: cached)
                            } else {
                                \(way)
                            }
                            finishSuccessfully()
                        } catch {
                            finishWithError(error: error)
                        }
                """)
            #expect(!found.contains { $0.rule == "missing-data-key" }, "\(way)\n\(lines(found))")
        }
        // The same shape with an `else` that goes on to finish: the write may not happen.
        let goesOn = run("""
                    do {
                        if let cached = ArticleCache.load() {
                            setData(name: "items", value: cached)
                        } else {
                            Log.warn("empty")
                        }
                        finishSuccessfully()
                    } catch {
                        finishWithError(error: error)
                    }
            """)
        #expect(goesOn.filter { $0.rule == "missing-data-key" }.first?.message.contains("let cached = ArticleCache.load() holds") == true, "\(lines(goesOn))")
    }

    @Test("a value of a generic type whose arguments are inferred (`Array(results)`) is of unknown type: no type-mismatch")
    func unknownGenericType() {
        let found = run("""
                    setData(name: "items", value: Array(store.objects(Article.self)))
                    finishSuccessfully()
            """)
        #expect(!found.contains { $0.rule == "type-mismatch" }, "\(lines(found))")
        #expect(!found.contains { $0.rule == "missing-data-key" }, "\(lines(found))")
    }
}

@Suite("Flow-iOS semantics: what is a Flow-iOS flow, and keys tested by cases")
struct FlowIOSFlowIdentityTests {
    @Test("a `Flow()` of another library (a test asserting on Flow().title, a SwiftUI Flow layout) is not a flow")
    func otherLibrariesFlow() {
        let graph = load([(name: "LayoutTests.swift", text: """
            import XCTest
            import SwiftUIFlowLayout

            final class LayoutTests: XCTestCase {
                func testTitle() {
                    XCTAssertEqual(Flow().title, "Untitled")
                    let flow = Flow()
                    flow.spacing = 8
                    XCTAssertEqual(flow.items.count, 0)
                }
            }
            """)])
        #expect(graph.flows.filter { $0.kind == .flowIOS }.isEmpty, "\(graph.flows.map(\.id))")
    }

    @Test("an operation that writes the key its cases branch on uses it: no unused-data-key")
    func rootWritesCaseKey() {
        let found = findings(nil, [(name: "Onboarding.swift", text: """
            import Flow_iOS

            class DetectAccountOp: FlowOperation {
                override func mainLogic() {
                    setData(name: "accountKind", value: Keychain.hasToken ? "returning" : "new")
                    finishSuccessfully()
                }
            }
            class WelcomeBackOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class SignUpOp: FlowOperation { override func mainLogic() { finishSuccessfully() } }
            class Onboarding {
                func begin() {
                    Flow()
                        .add(operation: DetectAccountOp())
                        .add(operation: WelcomeBackOp(), flowCase: FlowCase(key: "accountKind", value: "returning"))
                        .add(operation: SignUpOp(), flowCase: FlowCase(key: "accountKind", value: "new"))
                        .start()
                }
            }
            """)])
        #expect(!found.contains { $0.rule == "unused-data-key" }, "\(lines(found))")
    }

    @Test("declarative: a step that writes a key and branches on it with `when` uses it")
    func declarativeWritesAndWhen() {
        let found = analyze("""
            version: 1
            flows:
              - name: Triage
                steps:
                  - id: classify
                    writes: {severity: String}
                    next:
                      - {to: page, when: {key: severity, equals: high}}
                      - {to: ticket, otherwise: true}
                  - {id: page, next: done}
                  - {id: ticket, next: done}
                  - {id: done, kind: end}
            """)
        #expect(!found.contains { $0.rule == "unused-data-key" }, "\(found.map(\.message))")
    }
}

@Suite("Flow-iOS semantics: case splits over a value known to be one of a few")
struct FlowIOSKnownValuesTests {
    private func split(_ write: String, extra: String = "", cases: [String] = ["monthly", "yearly"]) -> [Finding] {
        let adds = cases.map { ".add(operation: \($0.capitalized)Op(), flowCase: FlowCase(key: \"plan\", value: \"\($0)\"))" }
        return findings("unmatched-case", [(name: "Billing.swift", text: """
            import Flow_iOS

            enum BillingPlan: String { case monthly, yearly }
            \(extra)
            class ChoosePlanOp: FlowOperation {
                var selected: BillingPlan = .monthly
                override func mainLogic() {
                    \(write)
                    finishSuccessfully()
                }
            }
            class MonthlyOp: FlowOperation {}
            class YearlyOp: FlowOperation {}
            class WeeklyOp: FlowOperation {}
            class Checkout {
                func start() {
                    Flow()
                        .add(operation: ChoosePlanOp())
                        \(adds.joined(separator: "\n            "))
                        .start()
                }
            }
            """)])
    }

    @Test("a two-value String enum's rawValue, or a ternary of two strings, covered by the cases: no 'no fallback' warning")
    func covered() {
        #expect(split("setData(name: \"plan\", value: selected.rawValue)").isEmpty)
        #expect(split("setData(name: \"plan\", value: Account.isYearly ? \"yearly\" : \"monthly\")").isEmpty)
    }

    @Test("a value the cases do not cover is still reported, naming it; a value from run time still has no fallback")
    func notCovered() {
        let partial = split("setData(name: \"plan\", value: selected.rawValue)", cases: ["monthly"] + ["weekly"])
        #expect(partial.count == 1 && partial[0].message.contains("\"yearly\""), "\(partial.map(\.message))")
        let runtime = split("setData(name: \"plan\", value: Account.planName)")
        #expect(runtime.count == 1 && runtime[0].message.contains("no fallback"), "\(runtime.map(\.message))")
    }
}
