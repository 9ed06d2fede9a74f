import FlowModel

/// What identifies a finding across edits, for baselines, SARIF fingerprints and `diff`: its rule and
/// the ids that do not change when code moves — flow, step, data key, the transition's ends — and,
/// for a finding about no flow (a file that cannot be read), its file. Never a line or column
/// number, and never the message (messages may quote locations).
public struct FindingIdentity: Sendable {
    /// The rule.
    public var rule: String
    /// The flow's id.
    public var flow: String?
    /// The step's id.
    public var step: String?
    /// The data key.
    public var key: String?
    /// The transition's ends.
    public var edge: EdgeReference?
    /// The file, for a finding about no flow only.
    public var file: String?

    /// The identity of `finding`.
    public init(_ finding: Finding) {
        rule = finding.rule
        flow = finding.flow
        step = finding.step
        key = finding.key
        edge = finding.edge
        file = finding.flow == nil ? finding.location?.file : nil
    }

    /// The step a transition leads to, for a finding about a transition: what tells apart two
    /// findings about one step's transitions (`unknown-step` on `to: handOvr` and on `to: shipp`).
    public var target: String? { edge?.to }

    /// What a baseline records and matches, and `diff` too: rule, flow, step, key, file, and the
    /// transition's target (a baseline file names no source of a transition: the step is its source).
    public var baselineFields: [String] { [rule, flow ?? "", step ?? "", key ?? "", file ?? "", target ?? ""] }

    /// What a SARIF fingerprint hashes: every id, the transition's ends included, joined by unit
    /// separators (which keep ("a", "bc") and ("ab", "c") apart; a nil id and "" are the same).
    public var fingerprintBase: String {
        var parts = [rule, flow ?? "", step ?? "", key ?? "", edge?.from ?? "", edge?.to ?? ""]
        if flow == nil { parts.append(file ?? "") }
        return parts.joined(separator: "\u{1F}")
    }
}
