/// English counts, for every sentence FlowLens writes ("1 flow", "3 flows"). In FlowModel, the lowest
/// module that writes one (`FlowDiff`'s change counts), so that no module spells the rule again.
public enum Plural {
    /// `noun` for `n` things: "step" for 1, "steps" otherwise (0 included). Every noun FlowLens counts
    /// takes a plain s.
    public static func noun(_ n: Int, _ noun: String) -> String { n == 1 ? noun : noun + "s" }

    /// "1 step", "0 steps", "2 steps".
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(Self.noun(n, noun))" }
}
