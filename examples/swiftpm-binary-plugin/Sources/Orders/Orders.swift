import Foundation

/// The order flows the app runs, shipped with the app as declarative FlowLens flows.
public enum Orders {
    /// The text of the "Cancel an order" flow, as the app reads it at run time.
    public static func cancelFlowDefinition() throws -> String {
        guard let url = Bundle.module.url(forResource: "cancel-order.flow", withExtension: "yaml", subdirectory: "Flows") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
