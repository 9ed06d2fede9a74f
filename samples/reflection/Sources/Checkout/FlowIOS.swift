import Foundation

// Stand-ins for Flow-iOS (module `Flow_iOS`), which needs UIKit and does not build on Linux. In an
// iOS app, delete this file and `import Flow_iOS`: the classes below have the stored properties of the
// real ones (what FlowLens's reflection reads) and build the operation tree as Flow-iOS does, but
// they do not run anything.

public typealias FlowWillStartBlock = (Flow) -> Void
public typealias FlowDidFinishBlock = (Flow) -> Void

/// A unit of work; subclasses override `mainLogic()`.
open class FlowOperation {
    public let identifier = UUID().uuidString
    var groupTag: Any?
    var groupDataBucket: [String: Any]?
    weak var flowManager: Flow?

    public init() {}

    open var primaryInputParamKey: String { "" }
    open var primaryOutputParamKey: String { "" }

    open func mainLogic() {}
}

/// A branch: taken when `dataBucket[key] as? String == value`.
public final class FlowCase {
    var key: String!
    var value: String!

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// Makes the operations of a group, one per element.
public protocol FlowOperationCreator {
    static func create() -> FlowOperation
}

/// How a group runs.
public class FlowGroupDispatcher {
    var maxConcurrentOperationCount = 3
    var allowFailure = false
    var inputKey: String!
    var outputKey: String!

    public init(inputKey: String, outputKey: String, maxConcurrentOperationCount: Int = 3, allowFailure: Bool = false) {
        self.inputKey = inputKey
        self.outputKey = outputKey
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.allowFailure = allowFailure
    }
}

/// One operation per element of the array at `inputKey`.
public final class FlowArrayGroupDispatcher: FlowGroupDispatcher {}

/// A node of the operation tree (the root and `combine()` joins are dummy nodes).
final class FlowOperationTreeNode {
    var childNodes: [FlowOperationTreeNode] = []
    var flowCase: FlowCase?
    var isDummyNode = false
    var singleOperation: FlowOperation?
    var isGroup = false
    var operationCreator: (any FlowOperationCreator.Type)!
    var dispatcher: FlowGroupDispatcher!

    init() { isDummyNode = true }
    init(singleOperation: FlowOperation) { self.singleOperation = singleOperation }
    init(operationCreator: any FlowOperationCreator.Type, dispatcher: FlowGroupDispatcher) {
        self.operationCreator = operationCreator
        self.dispatcher = dispatcher
        isGroup = true
    }

    func findAllLeaves() -> [FlowOperationTreeNode] {
        var leaves: [FlowOperationTreeNode] = []
        var stack = [self]
        while let node = stack.popLast() {
            if node.childNodes.isEmpty { leaves.append(node) } else { stack += node.childNodes.reversed() }
        }
        return leaves
    }
}

/// The flow builder.
public final class Flow {
    var rootNode = FlowOperationTreeNode()
    var currentAddedNode: FlowOperationTreeNode!
    var currentCasesRootNode: FlowOperationTreeNode?
    public var dataBucket: [String: Any] = [:]
    public var isSuccess = true
    var willStartBlock: FlowWillStartBlock?
    var didFinishBlock: FlowDidFinishBlock?

    public init() {
        currentAddedNode = rootNode
    }

    @discardableResult public func setDataBucket(dataBucket: [String: Any]) -> Flow {
        self.dataBucket = dataBucket
        return self
    }

    @discardableResult public func setWillStartBlock(block: @escaping FlowWillStartBlock) -> Flow {
        willStartBlock = block
        return self
    }

    @discardableResult public func setDidFinishBlock(block: @escaping FlowDidFinishBlock) -> Flow {
        didFinishBlock = block
        return self
    }

    @discardableResult public func add(operation: FlowOperation, flowCase: FlowCase? = nil) -> Flow {
        let node = FlowOperationTreeNode(singleOperation: operation)
        node.flowCase = flowCase
        addNodeToTree(node)
        return self
    }

    @discardableResult public func addGrouped(operationCreator: any FlowOperationCreator.Type, dispatcher: FlowGroupDispatcher) -> Flow {
        addNodeToTree(FlowOperationTreeNode(operationCreator: operationCreator, dispatcher: dispatcher))
        return self
    }

    /// Every branch of the open cases continues at one join; nothing without open cases.
    @discardableResult public func combine() -> Flow {
        if let casesRoot = currentCasesRootNode {
            let join = FlowOperationTreeNode()
            for leaf in casesRoot.findAllLeaves() { leaf.childNodes = [join] }
            currentAddedNode = join
        }
        currentCasesRootNode = nil
        return self
    }

    /// A case goes under the cases root (the current node, at the first case), anything else under
    /// the current node; the new node becomes current.
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
}
