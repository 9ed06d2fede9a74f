import Foundation

/// The return flow the app runs, as a declarative FlowLens flow shipped with the app.
public enum Returns {
    /// The definition of the "Return an item" flow, as the app reads it at run time.
    public static func flowDefinition() throws -> String {
        guard let url = Bundle.module.url(forResource: "return-item.flow", withExtension: "yaml", subdirectory: "Flows") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
