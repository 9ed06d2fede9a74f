/// FlowLens's name and version as reports state them.
public enum FlowLensTool {
    /// The tool name.
    public static let name = "flowlens"
    /// The version, following semantic versioning.
    public static let version = "0.1.0"
}
