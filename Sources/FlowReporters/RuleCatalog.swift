import FlowModel
import FlowRules

/// The rule catalogue as `flowlens rules` prints it.
public enum RuleCatalog {
    /// One rule a line: id, severity, summary.
    public static func table(_ rules: [RuleDescription]) -> String {
        let width = rules.map(\.id.count).max() ?? 0
        return rules.map { rule in
            rule.id.padding(toLength: width + 2) + rule.severity.rawValue.padding(toLength: 9) + rule.summary + "\n"
        }.joined()
    }

    /// The catalogue as the README's Markdown table: id, severity, summary, in catalogue order.
    public static func markdown(_ rules: [RuleDescription]) -> String {
        "| rule | severity | finds |\n|---|---|---|\n"
            + rules.map { "| `\($0.id)` | \($0.severity.rawValue) | \($0.summary.replacingOccurrences(of: "|", with: "\\|")) |\n" }.joined()
    }

    /// One rule in full: summary, rationale, and its examples.
    public static func explain(_ rule: RuleDescription) -> String {
        var text = "\(rule.id) (\(rule.severity.rawValue))\n\n\(rule.summary)\n\n\(rule.rationale)\n"
        for (title, examples) in [("Triggers on", rule.triggeringExamples), ("Does not trigger on", rule.nonTriggeringExamples)] {
            for example in examples {
                text += "\n\(title):\n" + example.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
            }
        }
        return text
    }

    /// The catalogue as JSON.
    public static func json(_ rules: [RuleDescription]) -> String {
        JSONValue.array(rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("severity", .string(rule.severity.rawValue)),
                ("summary", .string(rule.summary)),
                ("rationale", .string(rule.rationale)),
                ("triggeringExamples", .array(rule.triggeringExamples.map(JSONValue.string))),
                ("nonTriggeringExamples", .array(rule.nonTriggeringExamples.map(JSONValue.string))),
            ])
        }).serialized()
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
