import FlowModel

/// Reads FlowKit state machines and models from PlantUML files. (Being written.)
public struct PlantUMLLoader: FlowLoader {
    /// What `%getenv("NAME")` reads.
    public var environment: @Sendable (InputFile) -> [String: String]

    /// A loader whose `%getenv` reads `environment`.
    public init(environment: @escaping @Sendable (InputFile) -> [String: String] = { _ in [:] }) {
        self.environment = environment
    }

    public func load(_ file: InputFile, contents: String) -> FlowGraph { FlowGraph() }
}
