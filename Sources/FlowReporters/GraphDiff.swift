import FlowModel

/// Two runs compared: the flows that were added, removed or changed (see `FlowDiff`), and the
/// findings that are new or fixed.
///
/// Findings are matched as a baseline matches them (`Baseline`): by rule, flow, step and key, never by
/// line, with counts (a third finding of a kind that had two is new). A finding about no flow (a file
/// that cannot be read) is matched by its file relative to the side's root (`oldRoot`, `newRoot`), so
/// two folders compare file by file.
public struct GraphDiff: Sendable {
    public let old: Report
    public let new: Report
    /// The flows with a difference or with new or fixed findings: the new run's, in order, then those
    /// only the old run had.
    public let flows: [FlowDiff]
    /// How many flows are in both runs with no difference and no new or fixed finding.
    public let unchangedFlows: Int
    /// Findings of the new run the old one did not have, in report order (new locations).
    public let newFindings: [Finding]
    /// Findings of the old run the new one no longer has, in report order (old locations).
    public let fixedFindings: [Finding]

    /// Compares `old` with `new`. `oldRoot` and `newRoot` are the paths the runs read (a folder or a
    /// file), as they appear at the start of the reported files.
    public init(old: Report, new: Report, oldRoot: String = "", newRoot: String = "") {
        self.old = old
        self.new = new
        newFindings = Self.unmatched(new.findings, against: old.findings, roots: (newRoot, oldRoot))
        fixedFindings = Self.unmatched(old.findings, against: new.findings, roots: (oldRoot, newRoot))
        let touched = Set((newFindings + fixedFindings).compactMap(\.flow))

        var oldFlows: [String: Flow] = [:]
        for flow in old.graph.flows where oldFlows[flow.id] == nil { oldFlows[flow.id] = flow }
        let newIDs = Set(new.graph.flows.map(\.id))
        var seen = Set<String>()
        var diffs: [FlowDiff] = []
        var unchanged = 0
        for flow in new.graph.flows where seen.insert(flow.id).inserted {
            let diff = FlowDiff(old: oldFlows[flow.id], new: flow)
            if diff.status == .unchanged && !touched.contains(flow.id) { unchanged += 1 } else { diffs.append(diff) }
        }
        for flow in old.graph.flows where !newIDs.contains(flow.id) && seen.insert(flow.id).inserted {
            diffs.append(FlowDiff(old: flow, new: nil))
        }
        flows = diffs
        unchangedFlows = unchanged
    }

    /// New findings about flow `id`.
    public func newFindings(inFlow id: String) -> [Finding] { newFindings.filter { $0.flow == id } }
    /// Fixed findings about flow `id`.
    public func fixedFindings(inFlow id: String) -> [Finding] { fixedFindings.filter { $0.flow == id } }

    /// `findings` that `others` do not account for: per identity, the first `count(others)` are matched.
    static func unmatched(_ findings: [Finding], against others: [Finding], roots: (String, String)) -> [Finding] {
        // A finding's file is compared below its side's root: the same file in two folders.
        func identity(_ finding: Finding, root: String) -> [String] {
            var identity = FindingIdentity(finding)
            identity.file = identity.file.map { relative($0, to: root) }
            return identity.baselineFields
        }
        var remaining: [[String]: Int] = [:]
        for finding in others { remaining[identity(finding, root: roots.1), default: 0] += 1 }
        return findings.sorted(by: Finding.reportOrder).filter { finding in
            let key = identity(finding, root: roots.0)
            guard let left = remaining[key], left > 0 else { return true }
            remaining[key] = left - 1
            return false
        }
    }

    /// `file` without the leading `root` folder (the root itself, when it is the file read, becomes empty).
    static func relative(_ file: String, to root: String) -> String {
        var root = root
        while root.hasSuffix("/") && root.count > 1 { root.removeLast() }
        if root.isEmpty || root == "." { return file }
        if file == root { return "" }
        if file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
        return file
    }
}
