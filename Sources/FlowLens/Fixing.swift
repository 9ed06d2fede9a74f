import Foundation

/// Turns the fixes findings carry into changes of files (`flowlens check --fix`): located exactly,
/// free of conflicts, shown as a unified diff, and written atomically.
public enum FixPlanner {
    /// `findings` with each fix located in its file's text (`text` gives a reported file's text);
    /// a fix whose names are not exactly where their loaders recorded them is dropped, so every fix a
    /// report carries replaces exactly the misspelt text.
    public static func locateFixes(in findings: [Finding], text: (String) -> String?) -> [Finding] {
        var findings = findings
        var proposed: [String: [(index: Int, fix: Fix)]] = [:]
        for (n, finding) in findings.enumerated() {
            guard let fix = finding.fix else { continue }
            findings[n].fix = nil
            let files = Set(fix.edits.map(\.at.file))
            if files.count == 1, let file = files.first { proposed[file, default: []].append((n, fix)) }
        }
        // Each file is read, and a Swift file parsed, once for all its fixes.
        for file in proposed.keys.sorted() {
            guard let content = text(file) else { continue }
            let fixes = proposed[file]!
            for (item, located) in zip(fixes, FixLocator.locateAll(fixes.map(\.fix), in: content, path: file)) {
                findings[item.index].fix = located
            }
        }
        return findings
    }

    /// One file's change.
    public struct FileChange: Sendable, Equatable {
        /// The file as reported.
        public var file: String
        /// Its text when the fixes were planned.
        public var before: String
        /// Its text with the fixes applied.
        public var after: String
        /// The findings fixed, in report order.
        public var fixed: [Finding]
    }

    /// What `--fix` does: the changes, and why other fixes are left out.
    public struct Plan: Sendable, Equatable {
        /// One change a file, by file.
        public var changes: [FileChange] = []
        /// One sentence for each fix not applied (overlapping another, a file changed or unreadable).
        public var skipped: [String] = []
    }

    /// The plan for the located fixes of `findings`; `read` gives a reported file's text now.
    /// Two fixes whose ranges overlap are both left out (which one is meant is not certain); the
    /// same edit proposed by two findings is made once.
    public static func plan(_ findings: [Finding], read: (String) -> String?) -> Plan {
        var plan = Plan()
        let fixable = findings.filter { $0.fix?.isLocated == true }.sorted(by: Finding.reportOrder)
        let byFile = Dictionary(grouping: fixable) { $0.fix!.edits[0].at.file }
        for file in byFile.keys.sorted() {
            let candidates = byFile[file]!
            var conflicting = Set<Int>()
            let edits = candidates.enumerated().flatMap { n, finding in finding.fix!.edits.map { (n, $0) } }
            for (i, a) in edits.enumerated() {
                for b in edits[(i + 1)...] where a.0 != b.0 && a.1.range!.overlaps(b.1.range!) {
                    guard a.1.range! != b.1.range! || a.1.replacement != b.1.replacement else { continue }
                    conflicting.insert(a.0)
                    conflicting.insert(b.0)
                }
            }
            for n in conflicting.sorted() {
                let finding = candidates[n]
                plan.skipped.append("\(place(finding)): not fixed: its fix overlaps another fix there (\(finding.fix!.description)); fix it by hand")
            }
            let chosen = candidates.indices.filter { !conflicting.contains($0) }.map { candidates[$0] }
            guard !chosen.isEmpty else { continue }
            var unique: [FixEdit] = []
            for edit in chosen.flatMap({ $0.fix!.edits }) where !unique.contains(where: { $0.range == edit.range && $0.replacement == edit.replacement }) {
                unique.append(edit)
            }
            guard let before = read(file) else {
                plan.skipped.append("\(file): not fixed: the file cannot be read any more")
                continue
            }
            guard let after = FixLocator.apply(unique, to: before, path: file) else {
                plan.skipped.append("\(file): not fixed: the file changed since it was checked; run the check again")
                continue
            }
            plan.changes.append(FileChange(file: file, before: before, after: after, fixed: chosen))
        }
        return plan
    }

    static func place(_ finding: Finding) -> String { finding.location?.description ?? finding.fix!.edits[0].at.file }

    /// The plan as a unified diff (`--- a/FILE`, `+++ b/FILE`, hunks with 3 lines of context), as
    /// `git apply` and `patch -p1` read it.
    public static func unifiedDiff(_ plan: Plan) -> String {
        plan.changes.map(unifiedDiff).joined()
    }

    /// One file's change as a unified diff. Fixes replace names within lines, never line breaks, so
    /// the two texts have the same lines and a hunk is the changed lines with their context.
    public static func unifiedDiff(_ change: FileChange) -> String {
        let old = change.before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = change.after.split(separator: "\n", omittingEmptySubsequences: false)
        guard old.count == new.count else { return "" }
        let changed = old.indices.filter { old[$0] != new[$0] }
        guard !changed.isEmpty else { return "" }
        let prefix = change.file.hasPrefix("/") ? "" : "a/", newPrefix = change.file.hasPrefix("/") ? "" : "b/"
        var out = "--- \(prefix)\(change.file)\n+++ \(newPrefix)\(change.file)\n"
        // A file ending in a line break splits into a last empty "line" that is no line of the file.
        let lineCount = change.before.hasSuffix("\n") ? old.count - 1 : old.count
        var hunks: [ClosedRange<Int>] = []
        for line in changed {
            let range = max(0, line - 3)...min(lineCount - 1, line + 3)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        for hunk in hunks {
            out += "@@ -\(hunk.lowerBound + 1),\(hunk.count) +\(hunk.lowerBound + 1),\(hunk.count) @@\n"
            for line in hunk {
                if old[line] == new[line] {
                    out += " \(old[line])\n"
                } else {
                    out += "-\(old[line])\n+\(new[line])\n"
                }
                if line == old.count - 1 { out += "\\ No newline at end of file\n" }
            }
        }
        return out
    }

    /// Writes the plan's changes, each file atomically and only if its text is still what was
    /// planned from (a file changed meanwhile is left alone and named in `skipped`). `path` turns
    /// a reported file into the path to write.
    public static func write(_ plan: Plan, path: (String) -> String = { $0 }) -> (written: [FileChange], skipped: [String], failures: [WriteFailure]) {
        var written: [FileChange] = [], skipped: [String] = [], failures: [WriteFailure] = []
        for change in plan.changes {
            // A flow file that is a symbolic link (discovery read it: it leads inside the tree) is
            // fixed through the link: its target is rewritten, keeping its permissions, and the link stays.
            let target = path(change.file)
            guard case let .success(now) = InputReading.text(atPath: target, maximumBytes: .max - 1), now == change.before else {
                skipped.append("\(change.file): not fixed: the file changed since it was read")
                continue
            }
            do {
                try AtomicFile.write(Data(change.after.utf8), to: target, throughLink: true)
                written.append(change)
            } catch {
                failures.append(error)
            }
        }
        return (written, skipped, failures)
    }
}
