import FlowLens
@_spi(Fuzzing) import FlowLoaders
import Foundation

/// What a loader must do with any text: return (no crash, no hang), point every finding at the file
/// it read, within its lines, and give a graph every rule and the JSON report can take.
enum LoaderChecks {
    static func violations(text: String, fileName: String) -> [String] {
        let graph = SourceLoader(environment: [:]).load([SourceText(file: InputFile(path: fileName), contents: text)])
        let report = FlowLens.analyze(graph)
        var problems: [String] = []
        // Every line break swift-syntax, libyaml (NEL, LS, PS too), the Ruby lexer or PlantUML may
        // count, plus the line after the last one (an error at the end of the file).
        // (`Character.isNewline`'s scalars, told without making a Character of each.)
        let lines = text.unicodeScalars.reduce(2) { count, scalar in
            switch scalar {
            case "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}": return count + 1
            default: return count
            }
        }
        func check(_ location: SourceLocation?, _ what: String) {
            guard let location else { return }
            if location.file != fileName { problems.append("\(what) points at file '\(location.file)', not the input '\(fileName)'") }
            if location.line < 0 || location.line > lines || location.column < 0 {
                problems.append("\(what) points at line \(location.line) column \(location.column) of a \(lines - 2)-line file")
            }
        }
        for finding in report.findings {
            check(finding.location, "finding [\(finding.rule)] '\(finding.message.prefix(80))'")
            for related in finding.related { check(related.location, "a related location of [\(finding.rule)]") }
        }
        for flow in graph.flows {
            check(flow.location, "flow '\(flow.id.prefix(80))'")
            for step in flow.steps { check(step.location, "step '\(step.id.prefix(80))'") }
        }
        let ids = Set(graph.flows.map(\.id))
        for finding in report.findings {
            if let flow = finding.flow, !ids.contains(flow) { problems.append("finding [\(finding.rule)] names flow '\(flow.prefix(80))', which was not loaded") }
        }
        // The declarative loader composes most documents from libyaml's events: node for node what
        // Yams composes.
        if fileName.hasSuffix(".yaml") || fileName.hasSuffix(".json"), case let .differs(how) = YAMLComposition.compare(text) {
            problems.append("composed from libyaml's events, the document differs from Yams's: \(how.prefix(300))")
        }
        let json = JSONReporter().report(report)
        if (try? JSONSerialization.jsonObject(with: Data(json.utf8))) == nil { problems.append("the JSON report does not parse") }
        return problems
    }
}
