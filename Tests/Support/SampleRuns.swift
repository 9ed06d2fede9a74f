import FlowModel
import Foundation

/// The recorded runs committed in `samples/runs/`: simulated runs of the samples' own flows
/// (`RunSimulator`), written in the three record formats (`RunWriters.swift`). The replay tests read
/// them with the real readers and compare what the replay finds with the generator's own truth;
/// a test regenerates them and compares bytes (rewritten with `FLOWLENS_UPDATE_GOLDEN=1`).
public enum SampleRuns {
    /// One file of records, and the runs it holds.
    public struct File: Sendable {
        /// The file's name in `samples/runs/`.
        public var name: String
        public var text: String
        /// The runs, in the order the records first show each (sub-flows' runs included).
        public var runs: [SimulatedRun]
        /// How the records name each run (Flow-iOS's summaries name none: the reader calls a run by
        /// its file and first line), by the generator's run id.
        public var recordedID: [String: String]
        /// The flows to trace it on (`flowlens trace FILE PATH...`), relative to the package root.
        public var paths = ["samples"]
    }

    /// The folder the files are committed in, relative to the package root.
    public static let folder = "samples/runs"

    /// The files, made from `flows` (the samples' flows as the loaders read them). Same flows, same bytes.
    public static func files(_ flows: [Flow]) -> [File] {
        func flow(_ id: String) -> Flow {
            guard let found = flows.first(where: { $0.id == id }) else { fatalError("sample flow \(id) not read") }
            return found
        }
        let typeName: @Sendable (Step) -> String = { $0.name }
        var files: [File] = []

        // Flow-iOS: the album screens' flows, as the app's log collects their summaries. (Not the
        // share flows: `shareAlbum` and `shareAlbumByLinkOrEmail` start with the same keys and the same
        // operations, so a summary of either that takes the "link" case fits both, and FlowLens rightly
        // leaves it unmatched.)
        var uploadData = RunData()
        uploadData.elements["images"] = ["IMG_0412.jpg", "IMG_0413.jpg", "IMG_0420.HEIC", "beach.png", "IMG_0431.jpg"]
        uploadData.renames["SaveAlbumOp"] = "SaveAlbumToCloudOp"
        uploadData.driftSteps = ["SaveAlbumOp"]
        var upload = RunSimulator(flow: flow("AlbumViewController.uploadAlbum"), data: uploadData, seed: 0x5A1B_0004, recordName: typeName)
        var watermarkData = RunData()
        watermarkData.elements["images"] = ["IMG_0412.jpg", "IMG_0413.jpg", "cover.png"]
        var watermark = RunSimulator(flow: flow("BrokenFlowsViewController.watermarkSelection"), data: watermarkData, seed: 0x5A1B_0005,
                                     recordName: typeName)
        var billingData = RunData()
        billingData.choices["plan"] = [("enterprise", 1)]
        var billing = RunSimulator(flow: flow("BrokenFlowsViewController.openBillingForEnterprise"), data: billingData, seed: 0x5A1B_0003,
                                   recordName: typeName)
        var albumRuns = upload.runs(130) { "upload-\($0)" } + watermark.runs(40) { "watermark-\($0)" } + billing.runs(30) { "billing-\($0)" }
        var mixer = SplitMix64(seed: 0x5A1B_00FF)
        for i in albumRuns.indices.reversed() where i > 0 { albumRuns.swapAt(i, mixer.below(i + 1)) }
        files.append(flowIOS("photoshare-albums.log", albumRuns, seed: 0x5A1B_0010))

        // The album screen's share flow, traced on that screen's flows (`flowlens trace
        // samples/runs/photoshare-sharing.log samples/flow-ios/PhotoShare/Controllers/AlbumViewController.swift
        // samples/flow-ios/PhotoShare/Operations`): its case split lets some runs through and stops others.
        var shareData = RunData()
        shareData.choices["shareTarget"] = [("link", 3), ("invite", 1)]
        shareData.unmatched["shareTarget"] = "airdrop"
        shareData.renames["CreatePublicLinkOp"] = "CreateShareLinkOp"
        shareData.driftSteps = ["CreatePublicLinkOp"]
        var share = RunSimulator(flow: flow("AlbumViewController.shareAlbum"), data: shareData, seed: 0x5A1B_0001, recordName: typeName)
        var sharing = flowIOS("photoshare-sharing.log", share.runs(96) { "share-\($0)" }, seed: 0x5A1B_0012)
        sharing.paths = ["samples/flow-ios/PhotoShare/Controllers/AlbumViewController.swift", "samples/flow-ios/PhotoShare/Operations"]
        files.append(sharing)

        // FlowLens's JSON lines: the shop's checkout (charging cards in a sub-flow) and onboarding.
        var checkoutData = RunData()
        checkoutData.choices["paymentMethod"] = [("card", 5), ("invoice", 2), ("pickup", 2)]
        checkoutData.renames["createInvoice"] = "createInvoiceV2"
        var checkoutMix = RunMix()
        checkoutMix.noCase = 0
        checkoutMix.emptyGroup = 0
        checkoutMix.elementFailure = 0
        var checkout = RunSimulator(flow: flow("checkout"), subflows: [flow("charge-card")], mix: checkoutMix, data: checkoutData, seed: 0xC0DE_0001)
        var onboarding = RunSimulator(flow: flow("onboarding"), mix: checkoutMix, seed: 0xC0DE_0002)
        var shopRuns = checkout.runs(180) { "co-\(String($0 * 7919 % 100_000, radix: 16))" } + onboarding.runs(80) { "ob-\(String($0 * 7919 % 100_000, radix: 16))" }
        mixer = SplitMix64(seed: 0xC0DE_00FF)
        for i in shopRuns.indices.reversed() where i > 0 { shopRuns.swapAt(i, mixer.below(i + 1)) }
        let lines = RunEventLinesWriter.write(shopRuns, seed: 0xC0DE_0010)
        files.append(File(name: "shop-events.jsonl", text: lines.text, runs: lines.order.map { id in shopRuns.flatMap { [$0] + $0.children }.first { $0.id == id }! },
                          recordedID: [:]))

        // FlowLens's JSON lines from the FlowState profile app: the onboarding coordinator, whose
        // permission prompts run at once (a `ConcurentFlowStep`). The app logs each step by its
        // `identifier`.
        var profileMix = checkoutMix
        profileMix.drift = 0
        profileMix.unpredicted = 0
        // A FlowState step completes with a result (or nil); it has no failure of its own.
        var coordinatorMix = profileMix
        coordinatorMix.error = 0
        var coordinator = RunSimulator(flow: flow("OnboardingCoordinator"), mix: coordinatorMix, seed: 0xF10_0001, recordName: typeName)
        let profileRuns = coordinator.runs(60) { "onb-\($0 + 1)" }
        let profile = RunEventLinesWriter.write(profileRuns, seed: 0xF10_0010, gap: 4000)
        files.append(File(name: "profileapp-events.jsonl", text: profile.text, runs: profile.order.map { id in profileRuns.first { $0.id == id }! },
                          recordedID: [:]))

        // FlowLens's JSON lines from the RubyMotion app's Elevate login task: `on_started`, the task in
        // the background, `on_completed` with its result or exception.
        var elevateData = RunData()
        elevateData.whenFailed = ["exception": true, "no exception": false]
        elevateData.errors = ["NSURLErrorDomain -1009: The Internet connection appears to be offline.", "HTTP 401: invalid credentials",
                              "HTTP 503: service unavailable"]
        var elevateMix = profileMix
        elevateMix.error = 0.2
        var loginTask = RunSimulator(flow: flow("LoginController.login_task"), mix: elevateMix, data: elevateData, seed: 0xE1E_0001)
        let taskRuns = loginTask.runs(60) { "login-task-\($0 + 1)" }
        let tasks = RunEventLinesWriter.write(taskRuns, seed: 0xE1E_0010, gap: 9000)
        files.append(File(name: "elevate-events.jsonl", text: tasks.text, runs: tasks.order.map { id in taskRuns.first { $0.id == id }! },
                          recordedID: [:]))

        // OpenTelemetry: the FlowKit login machine, one export request, and the Collector's file
        // exporter's one request a line.
        var loginData = RunData()
        // onAuthenticate returns .forgotPass only for an expired password.
        loginData.moveWeights["Authenticate → ForgotPass"] = 1
        loginData.moveWeights["Authenticate → Prompt"] = 3
        var login = RunSimulator(flow: flow("LoginFlow"), subflows: flows.filter { $0.parent == "LoginFlow" }, mix: checkoutMix, data: loginData,
                                 seed: 0x0A17_0001)
        let loginRuns = login.runs(50) { "login-\($0)" }
        for (name, runs, layout) in [("login-traces.otlp.json", Array(loginRuns.prefix(16)), OTLPWriter.Layout.oneRequest),
                                     ("login-traces-collector.otlp.jsonl", Array(loginRuns.dropFirst(16)), .requestPerLine(batch: 12))] {
            let spans = OTLPWriter.write(runs, seed: 0x0A17_0010 &+ UInt64(runs.count), layout: layout, service: "acme-banking-ios")
            files.append(File(name: name, text: spans.text, runs: spans.order.map { id in runs.flatMap { [$0] + $0.children }.first { $0.id == id }! },
                              recordedID: Dictionary(uniqueKeysWithValues: spans.traceIDs.map { ($0.key, $0.value) })))
        }
        // OpenTelemetry from a photo app's Syrup progression: each case a span, several initial cases,
        // a `throw` to the error exit, a terminal case that skips the thumbnail.
        var importMix = profileMix
        importMix.error = 0.4
        var importer = RunSimulator(flow: flow("ImageImportProgression"), mix: importMix, seed: 0x5C0_0001)
        let importRuns = importer.runs(40) { "import-\($0)" }
        let imports = OTLPWriter.write(importRuns, seed: 0x5C0_0010, layout: .requestPerLine(batch: 10), service: "snapshot-ios")
        files.append(File(name: "image-import-traces.otlp.jsonl", text: imports.text, runs: imports.order.map { id in importRuns.first { $0.id == id }! },
                          recordedID: imports.traceIDs))
        return files
    }

    static func flowIOS(_ name: String, _ runs: [SimulatedRun], seed: UInt64) -> File {
        let written = FlowIOSSummaryWriter.write(runs, seed: seed)
        var ids: [String: String] = [:]
        for (run, line) in zip(runs, written.headerLines) { ids[run.id] = "\(folder)/\(name):\(line)" }
        return File(name: name, text: written.text, runs: runs, recordedID: ids)
    }
}
