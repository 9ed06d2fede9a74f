import Foundation

// Minimal, Linux-buildable stand-ins for FlowState, written for these tests.
//
// They have the stored properties of the real classes (../shared/flow-libraries.md §2): a step's
// `identifier`, `content`, `nextStep`, its intent and completion closures; a `ConcurentFlowStep`'s
// `steps`; a `NavigationFlowCoordinator`'s `firstStep`. Steps start and complete synchronously when
// asked, which is all a test needs; there are no view controllers (the coordinator has no
// navigation controller on Linux).

/// Anything that can be a step of a flow.
protocol Startable: AnyObject {
    func start()
    var nextStep: Startable? { get set }
    var identifier: String { get }
}

extension Startable {
    /// Starts the next step, if any: what a step does once it completes.
    func finishStep() {
        nextStep?.start()
    }
}

/// What a step's intent returns; whoever holds it completes the step with a result.
final class FlowStepHandler<Content, Result> {
    var content: Content?
    fileprivate var completion: ((Result?) -> Void)?

    init(_ contentType: Content.Type, _ resultType: Result.Type) {}

    func complete(_ result: Result?) {
        completion?(result)
    }
}

/// One step: `Content` is its input, `Result` what it produces.
class FlowStep<Content, Result>: Startable {
    typealias IntentClosure = (FlowStep<Content, Result>) -> FlowStepHandler<Content, Result>?
    typealias CompletionClosure = (FlowStep<Content, Result>, Result?) -> Void

    var content: Content?
    var nextStep: Startable?
    var identifier: String
    private let intent: IntentClosure
    private var completion: CompletionClosure?
    private weak var stepResult: FlowStepHandler<Content, Result>?

    init(_ contentType: Content.Type, _ resultType: Result.Type, identifier: String, _ intent: @escaping IntentClosure) {
        self.identifier = identifier
        self.intent = intent
    }

    init(_ contentType: Content.Type, _ resultType: Result.Type, identifier: String, _ intent: @escaping IntentClosure,
         _ completion: @escaping CompletionClosure) {
        self.identifier = identifier
        self.intent = intent
        self.completion = completion
    }

    func setCompletion(_ completion: @escaping CompletionClosure) {
        self.completion = completion
    }

    func start() {
        guard let handler = intent(self) else { return complete(nil) }
        stepResult = handler
        handler.content = content
        handler.completion = { [unowned self] result in self.complete(result) }
    }

    private func complete(_ result: Result?) {
        completion?(self, result)
        finishStep()
    }
}

/// Several child steps; the real one runs them at once and completes when all have (here: started in
/// order, then the next step starts).
final class ConcurentFlowStep: Startable {
    var nextStep: Startable?
    let identifier: String
    private let steps: [Startable]
    private var completeSteps = 0

    init(identifier: String, steps: [Startable]) {
        self.identifier = identifier
        self.steps = steps
    }

    func start() {
        completeSteps = 0
        for step in steps { step.start() }
        finishStep()
    }
}

/// Hosts a flow: starting it starts `firstStep`. Apps subclass it.
class NavigationFlowCoordinator: Startable {
    var nextStep: Startable?
    let identifier: String
    private var firstStep: Startable

    init(identifier: String = "", firstStep: Startable) {
        self.identifier = identifier
        self.firstStep = firstStep
    }

    func start() {
        firstStep.start()
    }
}

/// Breaks a `nextStep` chain apart iteratively: releasing a 10,000-step chain would otherwise recurse
/// once per step in `deinit`. The deep-graph tests call this so that only the walker is tested.
func dismantleChain(from first: Startable) {
    var current: Startable? = first
    var seen = Set<ObjectIdentifier>()
    while let step = current, seen.insert(ObjectIdentifier(step)).inserted {
        current = step.nextStep
        step.nextStep = nil
    }
}
