import Foundation
import Flow_iOS

/// Sends one analytics event. Never fails the flow: the screen name is optional.
class TrackEventOp: FlowOperation {
    let event: String

    init(event: String) {
        self.event = event
    }

    override func mainLogic() {
        var properties: [String: String] = ["event": event]
        if let screen: String = getData(name: FlowKeys.screenName, isOptional: true) {
            properties["screen"] = screen
        }
        log(message: "track \(properties)")
        finishSuccessfully()
    }
}

/// Writes a message to the flow's log; handy as a marker step.
class SimplePrintOp: FlowOperation {
    var message: String!

    init(message: String) {
        self.message = message
    }

    override func mainLogic() {
        log(message: message)
        finishSuccessfully()
    }
}
