/// The exit statuses of `flowlens`, as docs/usage.md documents them.
public enum ExitStatus: Int32, Sendable {
    /// No finding fails the run.
    case clean = 0
    /// Error findings (or warnings that fail the run: see `ExitPolicy`).
    case findings = 1
    /// Invalid input (a file could not be read), a usage error, or output that could not be written.
    case invalidInputOrUsage = 2
}

/// Which findings fail a run: errors always; warnings with `strict` (any) or `maxWarnings` (more
/// than that many). The one decision `check`, `export`, `merge`, `diff` (over the new findings) and
/// `FlowLensTesting` share.
public struct ExitPolicy: Equatable, Sendable {
    /// Warnings fail the run.
    public var strict: Bool
    /// More warnings than this fail the run.
    public var maxWarnings: Int?

    /// A policy; the default fails on errors only.
    public init(strict: Bool = false, maxWarnings: Int? = nil) {
        self.strict = strict
        self.maxWarnings = maxWarnings
    }

    /// The policy of a run: the options given (`--strict`, `--max-warnings`; nil: not given) over
    /// `configuration`'s `output` settings.
    public init(strict: Bool?, maxWarnings: Int?, configuration: Configuration) {
        self.init(strict: strict ?? configuration.strict ?? false, maxWarnings: maxWarnings ?? configuration.maxWarnings)
    }

    /// Whether the warnings among `findings` alone fail the run: what reports that mark failures
    /// (JUnit) follow, so that they agree with the exit status.
    public func warningsFail(_ findings: [Finding]) -> Bool {
        let warnings = findings.count { $0.severity == .warning }
        return (strict && warnings > 0) || maxWarnings.map { warnings > $0 } == true
    }

    /// The findings that fail the run: the errors, and the warnings when they fail it.
    public func failures(in findings: [Finding]) -> [Finding] {
        let warningsFail = warningsFail(findings)
        return findings.filter { $0.severity == .error || (warningsFail && $0.severity == .warning) }
    }

    /// Whether `findings` fail the run.
    public func fails(_ findings: [Finding]) -> Bool { !failures(in: findings).isEmpty }

    /// The exit status of a run that reported `report`: invalid input first, then failing findings.
    public func status(of report: Report) -> ExitStatus {
        if report.hasInvalidInput { return .invalidInputOrUsage }
        return fails(report.findings) ? .findings : .clean
    }
}
