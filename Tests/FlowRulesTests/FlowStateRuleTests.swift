import FlowLensTestSupport
import FlowModel
import FlowRules
import Testing

// Rule-level tests of FlowState flows read from Swift sources: the generic rules (unreachable-step,
// unknown-step, type-mismatch, and those that must stay silent) and content-never-set, with the
// lines they report. The reader's IR is tested in Tests/FlowLoadersTests/FlowStateTests.swift.

/// Findings of in-memory Swift source as `rule line:col`.
private func found(_ text: String) -> [String] {
    analyze(text, file: "C.swift").map { "\($0.rule) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
}

@Suite("FlowState flows under the rules")
struct FlowStateRuleTests {
    @Test("the README's coordinator: only the note that the network step's String content is never set")
    func readmeExample() {
        let findings = analyze("""
            class ExampleFlowCoordinator: NavigationFlowCoordinator {
                init() {
                    let navigationController = UINavigationController()
                    let displayStep = FlowStep(String.self, DisplayStringAction.self, identifier: "Display", { (step) in
                        let vc = DisplayStringViewController()
                        navigationController.setViewControllers([vc], animated: false)
                        return vc.results
                    })
                    let fakeNetworkStep = FlowStep(String.self, String.self, identifier: "Fake Network", { (step) in
                        let stepResults = FlowStepIntent(String.self, String.self)
                        return stepResults
                    }) { [unowned displayStep] (step, results) in
                        displayStep.content = results
                    }
                    let editTextStep = FlowStep(String.self, String.self, identifier: "Edit String", { (step) in
                        let vc = StringEntryViewController()
                        return vc.results
                    }) { [unowned displayStep] (step, results) in
                        displayStep.content = results
                    }
                    displayStep.setCompletion { (step, action) in
                        guard let action = action else { return }
                        switch action {
                        case .editString:
                            editTextStep.content = step.content
                            step.nextStep = editTextStep
                        case .downloadString:
                            step.nextStep = fakeNetworkStep
                        }
                    }
                    super.init(navigationController: navigationController, identifier: "String Flow", firstStep: displayStep)
                }
            }
            """, file: "C.swift")
        #expect(findings.map { "\($0.rule) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == ["content-never-set 9:31"])
        #expect(findings.first?.severity == .note)
        #expect(findings.first?.step == "fakeNetworkStep")
        #expect(findings.first?.message == "step 'Fake Network' takes content of type String, but nothing sets its content, so it always starts with nil; set 'fakeNetworkStep.content' before it starts, or make its Content Any")
    }

    @Test("unreachable-step: a step nothing links from the start, at its FlowStep")
    func unreachable() {
        #expect(found("""
            class C {
                func run() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let orphan = FlowStep(Any.self, Any.self, identifier: "Orphan", { _ in nil })
                    a.start()
                }
            }
            """) == ["unreachable-step 4:22"])
    }

    @Test("unknown-step: nextStep set to a name that is no step, at the assignment, with a suggestion")
    func unknown() {
        let findings = analyze("""
            class C {
                func run() {
                    let review = FlowStep(Any.self, Any.self, identifier: "Review", { _ in nil })
                    let pay = FlowStep(Any.self, Any.self, identifier: "Pay", { _ in nil }) { step, _ in
                        step.nextStep = reveiw
                    }
                    pay.start()
                }
            }
            """, file: "C.swift")
        // `review` is not linked either: the typo leaves it unreachable, and with it the flow's end
        // (located at the flow, `run`), since only `review` leads there.
        #expect(findings.map { "\($0.rule) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == [
            "unreachable-step 2:10", "unreachable-step 3:22", "unknown-step 5:13",
        ])
        #expect(findings[0].message == "step 'end' is unreachable: it is only reached from 'Review', which is itself unreachable")
        #expect(findings[2].message == "step 'Pay' goes to 'reveiw', which is not a step of 'C.run'; did you mean 'review'?")
        #expect(findings[2].edge == EdgeReference(from: "pay", to: "reveiw"))
    }

    @Test("unknown-step: a firstStep that is no step, at the argument")
    func unknownStart() {
        #expect(found("""
            class C {
                func run() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    _ = NavigationFlowCoordinator(firstStep: b)
                }
            }
            """) == ["unknown-step 4:50"])
    }

    @Test("type-mismatch: the writer's Result against the target's Content, at the target's content type; initial content too; a matching or optional Content is fine")
    func typeMismatch() {
        let findings = analyze("""
            class C {
                func run() {
                    let confirm = FlowStep(String.self, Bool.self, identifier: "Confirm", { _ in ConfirmView().results })
                    let pick = FlowStep(Any.self, Language.self, identifier: "Pick", { _ in PickView().results }) { step, language in
                        confirm.content = language
                        step.nextStep = confirm
                    }
                    pick.start()
                }
                func initial() {
                    let count = FlowStep(String.self, Any.self, identifier: "Count", { _ in CountView().results })
                    count.content = 42
                    count.start()
                }
                func fine() {
                    let show = FlowStep(String?.self, Any.self, identifier: "Show", { _ in ShowView().results })
                    let ask = FlowStep(Any.self, String.self, identifier: "Ask", { _ in AskView().results }) { step, name in
                        if let name = name {
                            show.content = name
                        }
                        step.nextStep = show
                    }
                    ask.start()
                }
            }
            """, file: "C.swift")
        #expect(findings.map { "\($0.rule) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == [
            "type-mismatch 3:32", "type-mismatch 11:30",
        ])
        #expect(findings[0].message == "step 'Confirm' reads 'confirm.content' as String, but it is written as Language by step 'Pick' (line 5)")
        #expect(findings[0].related.first?.location == SourceLocation(file: "C.swift", line: 5, column: 13))
        #expect(findings[1].message == "step 'Count' reads 'count.content' as String, but it is written as Int by the flow's initial data")
    }

    @Test("content-never-set fires for a reachable step with a real Content; not for Any, Void or optional Content, content set before the start or by another step, or an unreachable step")
    func contentNeverSet() {
        #expect(found("""
            class C {
                func never() {
                    let crop = FlowStep(UIImage.self, UIImage.self, identifier: "Crop", { _ in CropView().results })
                    let pick = FlowStep(Any.self, UIImage.self, identifier: "Pick", { _ in PickView().results }) { step, photo in
                        step.nextStep = crop
                    }
                    pick.start()
                }
                func tolerant() {
                    let a = FlowStep(Void.self, Any.self, identifier: "A", { _ in nil })
                    let b = FlowStep(String?.self, Any.self, identifier: "B", { _ in nil })
                    let c = FlowStep(Any.self, Any.self, identifier: "C", { _ in nil })
                    a.nextStep = b
                    b.nextStep = c
                    a.start()
                }
                func set(name: String) {
                    let greet = FlowStep(String.self, Any.self, identifier: "Greet", { _ in GreetView().results })
                    greet.content = name
                    greet.start()
                }
            }
            """) == ["content-never-set 3:20"])
        #expect(found("""
            class C {
                func run() {
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let orphan = FlowStep(String.self, Any.self, identifier: "Orphan", { _ in nil })
                    a.start()
                }
            }
            """) == ["unreachable-step 4:22"])
    }

    @Test("a live content update of a step already shown (a back-write) is not unused-data-key; steps whose nextStep is never set are not dead ends; a group's steps all reach its join")
    func silentRules() {
        #expect(found("""
            class C {
                func run() {
                    let display = FlowStep(String.self, String.self, identifier: "Display", { _ in DisplayView().results })
                    let refresh = FlowStep(Any.self, String.self, identifier: "Refresh", { _ in nil }) { step, text in
                        display.content = text
                    }
                    let a = FlowStep(Any.self, Any.self, identifier: "A", { _ in nil })
                    let b = FlowStep(Any.self, Any.self, identifier: "B", { _ in nil })
                    let both = ConcurentFlowStep(identifier: "Both", steps: [a, b])
                    display.setCompletion { step, _ in
                        step.nextStep = refresh
                    }
                    refresh.nextStep = both
                    display.start()
                }
            }
            """).isEmpty)
    }

    @Test("stuck-step: a completion that always sets the step's nextStep to itself")
    func stuck() {
        #expect(found("""
            class C {
                func run() {
                    let poll = FlowStep(Any.self, Bool.self, identifier: "Poll", { _ in nil }) { step, _ in
                        step.nextStep = step
                    }
                    poll.start()
                }
            }
            """) == ["stuck-step 3:20"])
    }
}

@Suite("FlowState: an intent that returns nil")
struct FlowStateNilIntentTests {
    @Test("a completion that guards on the result before setting nextStep ends the flow: every step behind it is unreachable")
    func guardEndsFlow() {
        let text = """
            final class BookingCoordinator: NavigationFlowCoordinator {
                init(nav: UINavigationController) {
                    let pickDates = FlowStep(Hotel.self, DateRange.self, identifier: "Pick dates", { step in
                        Analytics.track("dates")
                        return nil
                    })
                    let pickRoom = FlowStep(DateRange.self, Room.self, identifier: "Pick room", { step in
                        let vc = RoomListViewController()
                        return vc.results
                    })
                    let pay = FlowStep(Room.self, Receipt.self, identifier: "Pay", { _ in PaymentViewController().results })
                    pickDates.setCompletion { step, range in
                        guard let range = range else { return }
                        pickRoom.content = range
                        step.nextStep = pickRoom
                    }
                    pickRoom.setCompletion { step, room in
                        pay.content = room
                        step.nextStep = pay
                    }
                    super.init(navigationController: nav, identifier: "Booking", firstStep: pickDates)
                }
            }
            """
        let findings = found(text)
        #expect(findings.contains { $0.hasPrefix("unreachable-step 7:") }, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("unreachable-step 11:") }, "\(findings)")
        let flow = load(text, file: "C.swift").flows[0]
        #expect(flow.transitions.contains { $0.from == "pickDates" && $0.to == "end" && $0.condition?.text == "the intent returns nil" })
        #expect(!flow.transitions.contains { $0.from == "pickDates" && $0.to == "pickRoom" })
    }

    @Test("if let / switch on the result / `result != nil` all need a value; a nil path that sets nextStep still leads on")
    func otherShapes() {
        func coordinator(_ completion: String) -> String {
            """
            class Wizard {
                let intro = FlowStep(Any.self, Choice.self, identifier: "Intro", { _ in nil })
                let details = FlowStep(Any.self, Any.self, identifier: "Details", { _ in DetailsView().results })
                let skipped = FlowStep(Any.self, Any.self, identifier: "Skipped", { _ in SkipView().results })
                func wire() {
                    intro.setCompletion { step, choice in
            \(completion)
                    }
                    details.nextStep = nil
                    skipped.nextStep = nil
                }
                func go() { intro.start() }
            }
            """
        }
        let ifLet = found(coordinator("""
                        if let choice { step.nextStep = choice == .full ? self.details : self.skipped }
            """))
        #expect(ifLet.filter { $0.hasPrefix("unreachable-step") }.count == 2, "\(ifLet)")
        let switched = found(coordinator("""
                        switch choice {
                        case .full?: step.nextStep = self.details
                        case .short?: step.nextStep = self.skipped
                        case nil: break
                        }
            """))
        #expect(switched.filter { $0.hasPrefix("unreachable-step") }.count == 2, "\(switched)")
        let compared = found(coordinator("""
                        if choice != nil { step.nextStep = self.details } else { step.nextStep = self.skipped }
            """))
        // The nil path leads to Skipped: only Details is unreachable.
        #expect(compared.filter { $0.hasPrefix("unreachable-step") }.map { $0.prefix(19) } == ["unreachable-step 3:"], "\(compared)")
        let defaulted = found(coordinator("""
                        switch choice {
                        case .full?: step.nextStep = self.details
                        default: step.nextStep = self.skipped
                        }
            """))
        #expect(defaulted.filter { $0.hasPrefix("unreachable-step") }.map { $0.prefix(19) } == ["unreachable-step 3:"], "\(defaulted)")
    }

    @Test("an intent that returns a handler, or nil only on some paths, keeps every transition")
    func notAlwaysNil() {
        let text = """
            class Checkout {
                let cart = FlowStep(Any.self, Order.self, identifier: "Cart", { _ in
                    if Session.isGuest { return nil }
                    return CartViewController().results
                })
                let pay = FlowStep(Order.self, Any.self, identifier: "Pay", { _ in PayView().results })
                func wire() {
                    cart.setCompletion { step, order in
                        guard let order else { return }
                        self.pay.content = order
                        step.nextStep = self.pay
                    }
                    pay.nextStep = nil
                }
                func go() { cart.start() }
            }
            """
        #expect(!found(text).contains { $0.hasPrefix("unreachable-step") }, "\(found(text))")
    }
}
