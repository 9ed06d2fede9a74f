import FlowModel
import FlowRules

/// `ui-access-in-task`: an Elevate background block that touches the UI or its view controller.
///
/// Reads only `Step.calls` of the background step (`.operation`) of Elevate flows: the loader records
/// each call with its receiver as written, and leaves out the calls inside a block dispatched to the
/// main queue. A call touches the UI when it is made
/// - on a UIKit class (`UIAlertView.alloc`, `UIApplication.sharedApplication`), except the value
///   classes that are safe off the main thread (`UIImage`, `UIColor`, `UIFont`, `UIBezierPath` …);
/// - on a progress/alert library that draws (`SVProgressHUD`, `MBProgressHUD` …);
/// - on a controller member that is UI (`view`, `navigationController`, `tableView`, outlets named
///   like `passwordField`, `statusLabel`, `saveButton` …), bare or through `self.`;
/// - as a controller method that presents or dismisses (`presentViewController`, `performSegueWithIdentifier` …).
public struct UIAccessInTaskRule: Rule {
    public static let description = RuleDescription(
        id: RuleID.uiAccessInTask,
        tags: ["threading", "correctness"],
        severity: .warning,
        summary: "An Elevate background block touches the UI or its view controller.",
        rationale: """
            Elevate runs a task's `task`/`background` block on a background thread, in a sandbox that \
            is not the view controller. Its README: "Within tasks, do not access the UI or containing \
            view controller! It is extremely dangerous to do so. You must pass data into the `async` \
            method to use it safely." UIKit is not thread-safe, so such a call crashes or corrupts the \
            UI at random; a controller method called there does not even exist in the sandbox. Return \
            the value and update the UI in `on_finish`/`on_completed` (or `on_update`), or dispatch \
            the call with `Dispatch::Queue.main.async`.
            """,
        triggeringExamples: [
            """
            class LoginController < UIViewController
              include Elevate

              def login
                @login_task = async username: username.text do
                  task do
                    credentials = API.login(@username)
                    SVProgressHUD.showSuccessWithStatus("Welcome!") # finding
                    credentials
                  end

                  on_completed do |result, exception|
                    self.credentials = result
                  end
                end
              end
            end
            """,
            """
            class ArtworkController < UIViewController
              include Elevate

              task :fetch_artwork do
                background do
                  image = API.artwork(task_args[:artwork_id])
                  self.navigationController.popViewControllerAnimated(true) if image.nil? # finding
                  image
                end

                on_finish do |image, exception|
                  self.image = image
                end
              end

              def viewDidLoad
                super
                launch(:fetch_artwork, artwork_id: 42)
              end
            end
            """,
            """
            class ReportController < UIViewController
              include Elevate

              task :send_report do
                background do
                  API.send_report(task_args[:report])
                rescue API::Error => error
                  UIAlertView.alloc.initWithTitle("Failed", message: error.message, # finding
                                                  delegate: nil, cancelButtonTitle: "OK", otherButtonTitles: nil).show
                end
              end

              def send_report
                launch(:send_report, report: report)
              end
            end
            """,
        ],
        nonTriggeringExamples: [
            """
            class ArtworkController < UIViewController
              include Elevate

              task :fetch_artwork do
                background do
                  data = API.artwork_data(task_args[:artwork_id])
                  UIImage.imageWithData(data)
                end

                on_start do
                  SVProgressHUD.showWithStatus("Loading…")
                end

                on_finish do |image, exception|
                  SVProgressHUD.dismiss
                  view.addSubview(UIImageView.alloc.initWithImage(image)) if image
                end
              end

              def viewDidLoad
                super
                launch(:fetch_artwork, artwork_id: 42)
              end
            end
            """,
            """
            class SyncController < UIViewController
              include Elevate

              task :sync do
                background do
                  count = Store.sync(task_args[:since])
                  Dispatch::Queue.main.async do
                    SVProgressHUD.showSuccessWithStatus("#{count} new")
                  end
                  count
                end
              end

              def refresh
                launch(:sync, since: last_sync)
              end
            end
            """,
        ],
        exampleFileName: "example.rb")

    /// UIKit classes that are safe to use off the main thread (values, not views).
    static let threadSafeUIKit: Set<String> = [
        "UIImage", "UIColor", "UIFont", "UIBezierPath", "UIEdgeInsets", "UIOffset", "UIImageJPEGRepresentation",
        "UIImagePNGRepresentation", "UIGraphicsImageRenderer",
    ]
    /// Libraries that draw on screen.
    static let uiLibraries: Set<String> = [
        "SVProgressHUD", "MBProgressHUD", "JGProgressHUD", "KVNProgress", "TSMessage", "CRToast", "MotionToast",
    ]
    /// View-controller members that are UI.
    static let controllerMembers: Set<String> = [
        "view", "navigationController", "navigationItem", "tabBarController", "tabBarItem", "splitViewController",
        "presentingViewController", "presentedViewController", "parentViewController", "tableView",
        "collectionView", "refreshControl", "searchDisplayController", "searchController", "toolbarItems",
        "title", "editButtonItem", "window",
    ]
    /// View-controller methods that present, dismiss or lay out.
    static let controllerMethods: Set<String> = [
        "presentViewController", "presentModalViewController", "dismissViewControllerAnimated",
        "dismissModalViewControllerAnimated", "performSegueWithIdentifier", "showViewController",
        "setNeedsStatusBarAppearanceUpdate", "setEditing", "setTitle",
    ]
    /// Suffixes of outlet-like member names (`passwordField`, `statusLabel`, `spinner`).
    static let outletSuffixes = ["View", "Label", "Button", "Field", "Bar", "Cell", "Switch", "Slider", "Indicator",
                                 "Spinner", "Control", "HUD", "Picker", "Stepper"]

    public init() {}

    /// A member name that is the UI: a known controller member or an outlet-like name.
    static func isUIMember(_ rawName: String) -> Bool {
        let name = rawName.hasSuffix("=") ? String(rawName.dropLast()) : rawName
        if controllerMembers.contains(name) || controllerMethods.contains(name) { return true }
        guard let first = name.first, first.isLowercase else { return false }
        if name == "spinner" { return true }
        return outletSuffixes.contains { name.hasSuffix($0) && name.count > $0.count }
    }

    /// A class receiver that draws: a UIKit class (but not a value class) or a HUD library.
    static func isUIClass(_ name: String) -> Bool {
        if uiLibraries.contains(name) { return true }
        guard name.hasPrefix("UI"), name.count > 2, name.dropFirst(2).first?.isUppercase == true else { return false }
        return !threadSafeUIKit.contains(name)
    }

    /// Why `call` touches the UI, or nil.
    static func uiAccess(_ call: CallSite) -> String? {
        guard call.receiver != nil else {
            if isUIMember(call.name) { return "calls '\(call.name)' of the view controller" }
            return nil
        }
        let parts = call.receiverPath
        guard let root = parts.first else { return nil }
        if root == "self" {
            let member = parts.count > 1 ? parts[1] : call.name
            if isUIMember(member) { return "uses 'self.\(member.hasSuffix("=") ? String(member.dropLast()) : member)' of the view controller" }
            return nil
        }
        if isUIClass(root) { return "calls '\(call.name)' on \(root)" }
        if root.first?.isLowercase == true, isUIMember(root) { return "calls '\(call.name)' on '\(root)' of the view controller" }
        return nil
    }

    public func check(_ context: RuleContext) -> [Finding] {
        guard context.flow.kind == .elevate else { return [] }
        var findings: [Finding] = []
        for i in context.analysis.uniqueSteps {
            let step = context.analysis.step(i)
            guard step.kind == .operation else { continue }
            var lines = Set<Int>()
            var chain: String?  // the expression last reported, so that its chained calls are not reported again
            for call in step.calls {
                if let receiver = call.receiver, let reported = chain, receiver == reported || receiver.hasPrefix(reported + ".") || receiver.hasPrefix(reported + "(") {
                    chain = receiver + "." + call.name
                    continue
                }
                guard let why = Self.uiAccess(call) else { continue }
                chain = (call.receiver.map { $0 + "." } ?? "") + call.name
                // One finding a line: `self.navigationController.push(…)` is two calls, one mistake.
                if let line = call.location?.line, !lines.insert(line).inserted { continue }
                findings.append(context.finding(
                    Self.description,
                    "the background block '\(step.name)' \(why): it runs off the main thread, in a sandbox that is not the controller; do it in a callback (on_finish, on_update) instead",
                    at: call.location ?? step.location, step: step.id))
            }
        }
        return findings
    }
}
