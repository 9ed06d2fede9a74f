import FlowModel
import Foundation

/// The result of running a program.
public struct Run: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    init(_ run: ProcessRun) {
        status = run.status
        stdout = run.stdoutText
        stderr = run.stderrText
    }
}

/// Runs `executable` with `arguments` in `directory` (default: the package root) and collects its output.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot) throws -> Run {
    Run(try ProcessRunner.run(executable, arguments, in: directory))
}

/// Runs `executable` in `directory` with `environment` over this process's own, and collects its output.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot, adding environment: [String: String]) throws -> Run {
    Run(try ProcessRunner.run(executable, arguments, in: directory,
                              environment: ProcessInfo.processInfo.environment.merging(environment) { _, added in added }))
}

/// Runs `executable` with `input` written to its standard input (then closed), and collects its output.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot, standardInput input: Data) throws -> Run {
    Run(try ProcessRunner.run(executable, arguments, in: directory, input: input))
}

/// Renders every `.mmd` and `.md` under `folder` with the real Mermaid (scripts/validate-mermaid.py,
/// headless Chromium) when the machine has it (scripts/bootstrap.sh --test installs it); nil when it
/// does not, or with `FLOWLENS_SKIP_TOOLS=1`. With `FLOWLENS_REQUIRE_TOOLS=1` it always runs, so
/// that a missing Mermaid fails the test.
public func validateWithMermaid(folder: String) throws -> Run? {
    guard ExternalTool.mermaid.shouldRun else { return nil }
    return try run("/usr/bin/env", ["python3", packageRoot + "/scripts/validate-mermaid.py", folder])
}

/// Runs `executable` with its standard output sent to the file at `stdoutPath` (such as `/dev/full`),
/// and collects its standard error.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot, stdoutPath: String) throws -> Run {
    Run(try ProcessRunner.run(executable, arguments, in: directory, stdout: .file(stdoutPath)))
}

/// Runs `executable` with its standard output a pipe whose reading end is already closed: its first
/// write fails (EPIPE, or SIGPIPE if it does not ignore the signal).
public func runWithClosedStdout(_ executable: String, _ arguments: [String], in directory: String = packageRoot) throws -> Run {
    Run(try ProcessRunner.run(executable, arguments, in: directory, stdout: .closedPipe))
}
