import FlowModel
import FlowReporters
import Testing

@Suite("Text reporter: one finding, one line")
struct TextReporterLineTests {
    @Test("a message quoting a name shown on two lines (PlantUML's `Out of\\norder`) stays on one line")
    func lineBreakInName() {
        let finding = Finding(rule: "dead-end", severity: .error, message: "step 'Out of\norder' is a dead end",
                              location: SourceLocation(file: "atm.puml", line: 6, column: 13), flow: "Atm")
        #expect(TextReporter().line(finding) == "atm.puml:6:13: error: step 'Out of order' is a dead end [dead-end]\n")
    }
}
