import FlowModel

/// Applies inline suppression comments to findings, and reports the comments that need attention.
///
/// `disable-next-line` covers the line after the comment; `disable` covers its own line to the
/// matching `enable` (or the end of the file), for the rules it names. A suppression without a
/// reason is `suppression-without-reason`; one that suppresses nothing, or names no rule, is
/// `unused-suppression` — so suppressions cannot outlive the problem they hid.
public enum SuppressionFilter {
    /// `findings` without the suppressed ones, plus the findings about the suppressions themselves.
    public static func apply(_ findings: [Finding], _ suppressions: [Suppression], knownRules: Set<String>) -> [Finding] {
        guard !suppressions.isEmpty else { return findings }
        // Each disabling comment as (file, covered lines, rules), with a use counter.
        struct Cover {
            let suppression: Suppression
            let lines: ClosedRange<Int>
            var used = 0
        }
        var covers: [Cover] = []
        let byFile = Dictionary(grouping: suppressions, by: \.location.file)
        for file in byFile.keys.sorted() {
            let comments = byFile[file]!.sorted { $0.location.line < $1.location.line }
            for (n, comment) in comments.enumerated() {
                switch comment.kind {
                case .disableNextLine:
                    covers.append(Cover(suppression: comment, lines: (comment.location.line + 1)...(comment.location.line + 1)))
                case .disable:
                    let end = comments[(n + 1)...].first { later in
                        later.kind == .enable && !Set(later.rules).isDisjoint(with: comment.rules)
                    }?.location.line ?? Int.max
                    covers.append(Cover(suppression: comment, lines: comment.location.line...max(comment.location.line, end)))
                case .enable:
                    break
                }
            }
        }
        var kept: [Finding] = []
        // By file, so that many files with suppressions cost linear time, not findings × comments.
        let coversByFile = Dictionary(grouping: covers.indices) { covers[$0].suppression.location.file }
        for finding in findings {
            guard let location = finding.location else { kept.append(finding); continue }
            if let index = coversByFile[location.file]?.first(where: {
                covers[$0].lines.contains(location.line) && covers[$0].suppression.rules.contains(finding.rule)
            }) {
                covers[index].used += 1
            } else {
                kept.append(finding)
            }
        }
        for cover in covers {
            let comment = cover.suppression
            let directive = "flowlens:\(comment.kind.rawValue) \(comment.rules.joined(separator: ", "))"
            if comment.reason == nil {
                kept.append(Finding(rule: SuppressionWithoutReasonRule.description.id, severity: SuppressionWithoutReasonRule.description.severity,
                                    message: "'\(directive)' gives no reason: add '-- why' so the next reader knows why the finding is hidden",
                                    location: comment.location))
            }
            let unknown = comment.rules.filter { !knownRules.contains($0) }
            if comment.rules.isEmpty || !unknown.isEmpty {
                let what = comment.rules.isEmpty ? "names no rule" : "names no rule called \(unknown.map { "'\($0)'" }.joined(separator: ", "))"
                // Each misspelt id with one closest rule id that the comment does not name already: renamed,
                // the comment suppresses what its author meant. All of them, or no fix.
                let meant = unknown.map { id in Spelling.unique(to: id, in: knownRules).flatMap { comment.rules.contains($0) ? nil : $0 } }
                var fix: Fix?
                if !unknown.isEmpty, Set(unknown).count == unknown.count, meant.allSatisfy({ $0 != nil }), Set(meant).count == meant.count {
                    let edits = zip(unknown, meant).map { FixEdit(at: comment.location, anchor: .suppression, original: $0, replacement: $1!) }
                    fix = Fix(description: zip(unknown, meant).map { "replace '\($0)' with '\($1!)'" }.joined(separator: ", "), edits: edits)
                }
                let hint = meant.compactMap { $0 }.count == unknown.count && !unknown.isEmpty
                    ? "; did you mean \(meant.map { "'\($0!)'" }.joined(separator: ", "))?" : ": 'flowlens rules' lists the rule ids"
                kept.append(Finding(rule: UnusedSuppressionRule.description.id, severity: UnusedSuppressionRule.description.severity,
                                    message: "'\(directive)' \(what)\(hint)", location: comment.location, fix: fix))
            } else if cover.used == 0 {
                kept.append(Finding(rule: UnusedSuppressionRule.description.id, severity: UnusedSuppressionRule.description.severity,
                                    message: "'\(directive)' suppresses nothing any more: remove it", location: comment.location))
            }
        }
        return kept
    }
}
