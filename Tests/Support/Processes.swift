import Foundation

/// The result of running a program.
public struct Run: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs `executable` with `arguments` in `directory` (default: the package root) and collects its output.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs `executable` with `input` written to its standard input (then closed), and collects its output.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot, standardInput input: Data) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let inPipe = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = inPipe
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // The input is written from another thread, so a large input and a large output cannot block each other.
    let writer = inPipe.fileHandleForWriting
    let done = DispatchSemaphore(value: 0)
    // A program may exit without reading its input (a usage error): a closed pipe is then no failure.
    signal(SIGPIPE, SIG_IGN)
    DispatchQueue.global().async {
        try? writer.write(contentsOf: input)
        try? writer.close()
        done.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    done.wait()
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// Renders every `.mmd` and `.md` under `folder` with the real Mermaid (scripts/validate-mermaid.py,
/// headless Chromium) when the machine has it (scripts/bootstrap.sh --test installs it); nil when it does not.
public func validateWithMermaid(folder: String) throws -> Run? {
    let probe = "import importlib.util, shutil, sys; sys.exit(0 if importlib.util.find_spec('mmdc') and shutil.which('chromium') else 1)"
    guard try run("/usr/bin/env", ["python3", "-c", probe]).status == 0 else { return nil }
    return try run("/usr/bin/env", ["python3", packageRoot + "/scripts/validate-mermaid.py", folder])
}

/// Runs `executable` with its standard output sent to the file at `stdoutPath` (such as `/dev/full`),
/// and collects its standard error.
public func run(_ executable: String, _ arguments: [String], in directory: String = packageRoot, stdoutPath: String) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    guard let sink = FileHandle(forWritingAtPath: stdoutPath) else { throw CocoaError(.fileNoSuchFile) }
    defer { try? sink.close() }
    let err = Pipe()
    process.standardOutput = sink
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs `executable` with its standard output a pipe whose reading end is already closed: its first
/// write fails (EPIPE, or SIGPIPE if it does not ignore the signal).
public func runWithClosedStdout(_ executable: String, _ arguments: [String], in directory: String = packageRoot) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe(), err = Pipe()
    try out.fileHandleForReading.close()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
}
