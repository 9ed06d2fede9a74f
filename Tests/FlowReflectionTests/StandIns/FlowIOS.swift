import Foundation

// Minimal, Linux-buildable stand-ins for Flow-iOS (module `Flow_iOS`), written for these tests.
//
// They have the stored properties of the real classes (the shapes FlowLens's reflection reads, as
// listed in ../shared/flow-libraries.md §1) and builder methods that grow the operation tree as
// Flow-iOS's `addNodeToTree` and `combine()` do. They do not run anything: there is no operation
// queue, no `start()`, no data bucket handling beyond `setDataBucket`. `FlowOperation` does not
// subclass Foundation's `Operation` here: on Apple platforms `Operation` is an Objective-C class whose
// Mirror shows no stored properties, while on Linux it is a Swift class with stored properties of its
// own, so leaving it out keeps the Mirror view the same as on a device.

typealias FlowWillStartBlock = (Flow) -> Void
typealias FlowDidFinishBlock = (Flow) -> Void

/// A type that makes the operations of a group (`addGrouped`), one per element.
protocol FlowOperationCreator {
    static func create() -> FlowOperation
}

/// A unit of work. Subclasses override `mainLogic()` and, for groups, the primary keys.
class FlowOperation {
    let identifier = UUID().uuidString
    var groupTag: Any?
    var groupDataBucket: [String: Any]?
    weak var flowManager: Flow?
    var isAsynchronousOperation = false

    var primaryInputParamKey: String { "" }
    var primaryOutputParamKey: String { "" }

    func mainLogic() {}
}

/// A branch condition: taken when `dataBucket[key] as? String == value`.
final class FlowCase {
    var key: String!
    var value: String!

    init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// How a group runs: the array key it reads, the key it writes the collected outputs to.
class FlowGroupDispatcher {
    var maxConcurrentOperationCount = 3
    var allowFailure = false
    var inputKey: String!
    var outputKey: String!
    var operationsSize = 0
    var finishedFlags: [Bool] = []

    init(inputKey: String, outputKey: String, maxConcurrentOperationCount: Int = 3, allowFailure: Bool = false) {
        self.inputKey = inputKey
        self.outputKey = outputKey
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.allowFailure = allowFailure
    }
}

/// One operation per element of `inputKey`'s array; outputs collected in order into `outputKey`.
final class FlowArrayGroupDispatcher: FlowGroupDispatcher {
    var outputs: [Int: Any] = [:]
}

/// A node of the operation tree: the root and `combine()` joins are dummy nodes.
final class FlowOperationTreeNode {
    var childNodes: [FlowOperationTreeNode] = []
    var flowCase: FlowCase?
    var isDummyNode = false
    var singleOperation: FlowOperation?
    var isGroup = false
    var operationCreator: (any FlowOperationCreator.Type)!
    var dispatcher: FlowGroupDispatcher!
    var isFinished = false

    init() {
        isDummyNode = true
    }

    init(singleOperation: FlowOperation) {
        self.singleOperation = singleOperation
    }

    init(operationCreator: any FlowOperationCreator.Type, dispatcher: FlowGroupDispatcher) {
        self.operationCreator = operationCreator
        self.dispatcher = dispatcher
        isGroup = true
    }

    /// The leaves below this node, each once (iterative).
    func findAllLeaves() -> [FlowOperationTreeNode] {
        var leaves: [FlowOperationTreeNode] = []
        var seen = Set<ObjectIdentifier>()
        var stack = [self]
        while let node = stack.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            if node.childNodes.isEmpty { leaves.append(node) } else { stack += node.childNodes.reversed() }
        }
        return leaves
    }
}

/// The flow builder.
final class Flow {
    let identifier = UUID().uuidString
    var rootNode = FlowOperationTreeNode()
    var currentAddedNode: FlowOperationTreeNode!
    var currentCasesRootNode: FlowOperationTreeNode?
    var currentRunningNode: FlowOperationTreeNode?
    var dataBucket: [String: Any] = [:]
    var isSuccess = true
    var error: Error?
    var willStartBlock: FlowWillStartBlock?
    var didFinishBlock: FlowDidFinishBlock?
    var logs: [String] = []

    init() {
        currentAddedNode = rootNode
    }

    @discardableResult func setDataBucket(dataBucket: [String: Any]) -> Flow {
        self.dataBucket = dataBucket
        return self
    }

    @discardableResult func setWillStartBlock(block: @escaping FlowWillStartBlock) -> Flow {
        willStartBlock = block
        return self
    }

    @discardableResult func setDidFinishBlock(block: @escaping FlowDidFinishBlock) -> Flow {
        didFinishBlock = block
        return self
    }

    @discardableResult func add(operation: FlowOperation, flowCase: FlowCase? = nil) -> Flow {
        let node = FlowOperationTreeNode(singleOperation: operation)
        node.flowCase = flowCase
        addNodeToTree(node)
        return self
    }

    /// The older spelling of `add(operation:flowCase:)`, used by `AlbumViewController.exportAlbum`.
    @discardableResult func add(operation: FlowOperation, case flowCase: FlowCase) -> Flow {
        add(operation: operation, flowCase: flowCase)
    }

    @discardableResult func addGrouped(operationCreator: any FlowOperationCreator.Type, dispatcher: FlowGroupDispatcher) -> Flow {
        addNodeToTree(FlowOperationTreeNode(operationCreator: operationCreator, dispatcher: dispatcher))
        return self
    }

    /// Every leaf under the open cases root continues at one new dummy node; nothing without open cases.
    @discardableResult func combine() -> Flow {
        if let casesRoot = currentCasesRootNode {
            let join = FlowOperationTreeNode()
            for leaf in casesRoot.findAllLeaves() { leaf.childNodes = [join] }
            currentAddedNode = join
        }
        currentCasesRootNode = nil
        return self
    }

    /// A case node goes under the cases root (the current node, on the first case); any other node
    /// under the current node. The new node becomes current.
    private func addNodeToTree(_ node: FlowOperationTreeNode) {
        if node.flowCase != nil {
            if let casesRoot = currentCasesRootNode {
                casesRoot.childNodes.append(node)
            } else {
                currentCasesRootNode = currentAddedNode
                currentAddedNode.childNodes.append(node)
            }
        } else {
            currentAddedNode.childNodes.append(node)
        }
        currentAddedNode = node
    }

    /// Breaks the tree apart iteratively. Releasing a 10,000-node chain node by node would recurse
    /// once per node in `deinit`; the deep-graph tests call this so that only the walker is tested.
    func dismantle() {
        var stack = [rootNode]
        var seen = Set<ObjectIdentifier>()
        while let node = stack.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            stack += node.childNodes
            node.childNodes = []
        }
        currentAddedNode = nil
        currentCasesRootNode = nil
    }
}
