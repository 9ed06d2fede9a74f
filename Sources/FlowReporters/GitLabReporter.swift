import FlowModel
import FlowPresentation

/// GitLab Code Quality: the Code Climate JSON array GitLab reads from a `codequality` report
/// artifact and shows in merge requests (the widget and the diff):
///
///     [
///       {
///         "description": "step 'Create invoice' reads 'vatNumber', but … [missing-data-key]",
///         "check_name": "missing-data-key",
///         "fingerprint": "3f0c9e6a1b2d4c5e:1",
///         "severity": "major",
///         "location": {"path": "Flows/checkout.flow.yaml", "lines": {"begin": 33}}
///       }
///     ]
///
/// Every field GitLab requires, nothing it does not read. Severities: error → `major`, warning →
/// `minor`, note → `info` (GitLab's scale is info, minor, major, critical, blocker; `critical` and
/// `blocker` are left for what stops a program, which a finding in a flow is not yet). The
/// fingerprint is SARIF's (`SARIFReporter.fingerprint`): built from rule, flow, step and key, never
/// a line, so GitLab sees a finding as the same one when code moves above it, and as fixed when it
/// goes. A finding without a line is placed on line 1: GitLab needs a line to show it.
public struct GitLabReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ report: Report) -> String {
        let issues = zip(report.findings, SARIFReporter.fingerprints(report.findings)).map(issue)
        return JSONValue.array(issues).serialized()
    }

    /// GitLab's severity for a finding's.
    public static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "major"
        case .warning: return "minor"
        case .note: return "info"
        }
    }

    func issue(_ finding: Finding, fingerprint: String) -> JSONValue {
        let line = max(finding.location?.line ?? 1, 1)
        return .object([
            ("description", .string("\(DisplayText.marked(finding.message)) [\(finding.rule)]")),
            ("check_name", .string(finding.rule)),
            ("fingerprint", .string(fingerprint)),
            ("severity", .string(Self.severity(finding.severity))),
            ("location", .object([
                ("path", .string(finding.location?.file ?? "")),
                ("lines", .object([("begin", .int(line))])),
            ])),
        ])
    }
}
