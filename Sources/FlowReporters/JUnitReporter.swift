import FlowModel
import FlowPresentation

/// JUnit XML, for the CI test-report views (GitLab merge requests, Jenkins, Azure Pipelines,
/// CircleCI, Buildkite, and GitHub through test-report actions):
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <testsuites name="flowlens" tests="3" failures="2" errors="0">
///       <testsuite name="Flows/checkout.flow.yaml" tests="2" failures="2" errors="0" skipped="0">
///         <testcase name="missing-data-key at 33:11" classname="Flows/checkout.flow.yaml" file="Flows/checkout.flow.yaml" line="33">
///           <failure message="step 'Show summary' reads …" type="error">Flows/checkout.flow.yaml:33:11: error: … [missing-data-key]</failure>
///         </testcase>
///         …
///       </testsuite>
///       <testsuite name="Flows/refund.flow.yaml" tests="1" failures="0" errors="0" skipped="0">
///         <testcase name="no findings" classname="Flows/refund.flow.yaml" file="Flows/refund.flow.yaml"/>
///       </testsuite>
///     </testsuites>
///
/// One `<testsuite>` per file, not per rule: CI views list suites and then their cases, and a person
/// fixes findings file by file, so "this file, these problems" reads the way the work is done; it is
/// also how ESLint and golangci-lint write JUnit, so tools that turn JUnit into annotations (they
/// read `file` and `line` on a test case) work unchanged. A checked file without findings is a suite
/// with one passing case, `no findings`, so a clean run shows as passing tests instead of an empty
/// report (which some CI systems treat as a failure). Errors are `<failure>`s (type `error`): a
/// finding is a failed check, not a crash, which `<error>` would mean. Warnings are `<failure>`s
/// (type `warning`) only when they fail the run (`--strict`, `--max-warnings`); otherwise, like
/// notes, they are passing cases with the finding in `<system-out>`, so the test view agrees with
/// the exit status.
///
/// The failure text is the finding as `flowlens check` prints it, then its related locations and
/// path. No timestamps, durations or host names: the same report gives the same bytes.
public struct JUnitReporter: Reporter {
    /// Whether warnings are failed test cases (they fail the run); errors always are.
    public var warningsFail: Bool

    /// Creates the reporter; `warningsFail` as the run's exit policy says (false by default, as
    /// `flowlens check` exits 0 on warnings).
    public init(warningsFail: Bool = false) { self.warningsFail = warningsFail }

    public func report(_ report: Report) -> String {
        let groups = FileGroup.groups(report)
        let tests = groups.reduce(0) { $0 + max($1.findings.count, 1) }
        let failures = report.findings.filter(fails).count
        var out = XMLEscaping.declaration
        out += "<testsuites" + XMLEscaping.attribute("name", FlowLensTool.name) + XMLEscaping.attribute("tests", String(tests))
            + XMLEscaping.attribute("failures", String(failures)) + XMLEscaping.attribute("errors", "0") + ">\n"
        for group in groups { out += suite(group) }
        out += "</testsuites>\n"
        return out
    }

    /// True for the findings that are failed test cases: errors, and warnings when they fail the run.
    func fails(_ finding: Finding) -> Bool {
        finding.severity == .error || (finding.severity == .warning && warningsFail)
    }

    func suite(_ group: FileGroup) -> String {
        let name = group.displayName
        var out = "  <testsuite" + XMLEscaping.attribute("name", name)
            + XMLEscaping.attribute("tests", String(max(group.findings.count, 1)))
            + XMLEscaping.attribute("failures", String(group.findings.filter(fails).count))
            + XMLEscaping.attribute("errors", "0") + XMLEscaping.attribute("skipped", "0") + ">\n"
        let file = group.file.isEmpty ? "" : XMLEscaping.attribute("file", group.file)
        if group.findings.isEmpty {
            out += "    <testcase" + XMLEscaping.attribute("name", "no findings") + XMLEscaping.attribute("classname", name) + file + "/>\n"
        }
        for finding in group.findings {
            var place = ""
            var lineAttribute = ""
            if let location = finding.location, location.line > 0 {
                place = location.column > 0 ? " at \(location.line):\(location.column)" : " at \(location.line)"
                lineAttribute = XMLEscaping.attribute("line", String(location.line))
            }
            out += "    <testcase" + XMLEscaping.attribute("name", finding.rule + place) + XMLEscaping.attribute("classname", name)
                + file + lineAttribute + ">\n"
            let details = XMLEscaping.escapeText(Self.details(finding))
            if fails(finding) {
                out += "      <failure" + XMLEscaping.attribute("message", DisplayText.marked(finding.message))
                    + XMLEscaping.attribute("type", finding.severity.rawValue) + ">" + details + "</failure>\n"
            } else {
                out += "      <system-out>" + details + "</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n"
        return out
    }

    /// The finding's text line, then one line per related location and the path, if any; no final
    /// line break.
    static func details(_ finding: Finding) -> String {
        var lines = [String(TextReporter().line(finding).dropLast())]
        for related in finding.related { lines.append(DisplayText.marked("related: \(related.location): \(related.message)")) }
        if !finding.path.isEmpty { lines.append("path: \(finding.path.joined(separator: " → "))") }
        return lines.joined(separator: "\n")
    }
}
