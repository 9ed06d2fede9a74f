/// How every output names what a step does with a data key: "needs" and "gives" read better than
/// "reads"/"writes" for people who don't code. In FlowModel because `FlowDiff` words its data changes
/// with it, as the diagrams' step rows (`StepRows`) do.
public enum DataVerb: String, Hashable, Sendable {
    /// A read the step cannot do without.
    case needs
    /// An optional read.
    case mayUse = "may use"
    /// A write.
    case gives

    /// The verb of a read: `mayUse` when it is optional, else `needs`.
    public static func read(optional: Bool) -> DataVerb { optional ? .mayUse : .needs }
}
