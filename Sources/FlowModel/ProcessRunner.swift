import Dispatch
import Foundation

/// What a program run by `ProcessRunner` wrote and how it ended.
public struct ProcessRun: Sendable {
    /// The exit status (the signal's number when `signalled`).
    public var status: Int32
    /// Whether the program was killed by a signal.
    public var signalled: Bool
    /// Its standard output (empty when it was not captured).
    public var stdout: Data
    /// Its standard error (empty when it was not captured).
    public var stderr: Data

    /// The standard output as text (invalid UTF-8 repaired).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// The standard error as text (invalid UTF-8 repaired).
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Waits for a child process to end, and returns as soon as it has. Foundation's
/// `Process.waitUntilExit` on Linux runs its run loop in steps of 50 ms until the child is gone, so
/// each wait took at least 50 ms however soon the child ended (measured: 51–52 ms for `/bin/true`,
/// 1 ms this way); a process's `terminationHandler` is called when the child ends.
public final class ProcessExit: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Watches `process`. Make it before `process.run()`: it sets the process's termination handler.
    public init(_ process: Process) {
        process.terminationHandler = { [ended] _ in ended.signal() }
    }

    /// Returns once the process has ended (at once if it already has), its status and reason set.
    /// Only after the process has started; any number of times.
    public func wait() {
        ended.wait()
        ended.signal()
    }
}

/// Runs a child program to its end. Both output pipes are drained at the same time, on two threads:
/// read one after the other, a child that fills the second pipe (64 KiB on Linux) while the parent
/// waits on the first blocks forever, and so does the parent.
public enum ProcessRunner {
    /// Where one of the child's output streams goes.
    public enum Sink: Sendable {
        /// Into `ProcessRun.stdout` / `stderr`.
        case capture
        /// Nowhere (`/dev/null`).
        case discard
        /// Into the file at this path (such as `/dev/full`), opened for writing.
        case file(String)
        /// Into a pipe whose reading end is already closed: the child's first write fails.
        case closedPipe
    }

    /// Runs `executable` with `arguments` in `directory` (nil: this process's), with `environment`
    /// (nil: this process's), `input` written to its standard input from another thread and then
    /// closed (nil: the child inherits none), and waits for it to end.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String]? = nil, input: Data? = nil,
                           stdout: Sink = .capture, stderr: Sink = .capture) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let inPipe = input.map { _ in Pipe() }
        if let inPipe { process.standardInput = inPipe }
        var opened: [FileHandle] = []
        defer { for handle in opened { try? handle.close() } }
        // The object the child's stream is set to, and the pipe this process reads (captured only).
        func attach(_ sink: Sink) throws -> (target: Any, pipe: Pipe?) {
            switch sink {
            case .capture:
                let pipe = Pipe()
                return (pipe, pipe)
            case .discard:
                return (FileHandle.nullDevice, nil)
            case let .file(path):
                guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
                opened.append(handle)
                return (handle, nil)
            case .closedPipe:
                let pipe = Pipe()
                try pipe.fileHandleForReading.close()
                return (pipe, nil)
            }
        }
        let (outTarget, outPipe) = try attach(stdout)
        let (errTarget, errPipe) = try attach(stderr)
        process.standardOutput = outTarget
        process.standardError = errTarget
        let exit = ProcessExit(process)
        try process.run()
        if let inPipe, let input {
            // A program may exit without reading its input (a usage error): a closed pipe is then no failure.
            signal(SIGPIPE, SIG_IGN)
            let writer = inPipe.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        let capturedErrors = PipeDrain()
        if let errPipe { capturedErrors.start(errPipe.fileHandleForReading) }
        let out = outPipe.map { $0.fileHandleForReading.readDataToEndOfFile() } ?? Data()
        let err = capturedErrors.wait()
        exit.wait()
        return ProcessRun(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, stdout: out, stderr: err)
    }

    /// Reads `handle` to its end on a thread of its own, keeping at most the last `keepingLast` bytes
    /// (nil: all): for a long-running child whose standard error must never fill its pipe.
    public final class PipeDrain: @unchecked Sendable {
        private let lock = NSLock()
        private var text = Data()
        private let drained = DispatchSemaphore(value: 0)
        private let limit: Int?

        /// A drain keeping at most the last `keepingLast` bytes (roughly: it trims when the text
        /// grows past four times that), or everything (nil).
        public init(keepingLast limit: Int? = nil) { self.limit = limit }

        /// Starts reading `handle` on a new thread.
        public func start(_ handle: FileHandle) {
            lock.lock()
            hasStarted = true
            lock.unlock()
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.lock()
                    text.append(chunk)
                    if let limit, text.count > 4 * limit { text = text.suffix(limit) }
                    lock.unlock()
                }
                drained.signal()
            }
        }

        /// What was read, once the writer has closed its end (immediately when never started).
        public func wait() -> Data {
            lock.lock()
            let started = hasStarted
            lock.unlock()
            if started { drained.wait() }
            lock.lock()
            defer { lock.unlock() }
            return text
        }

        private var hasStarted = false
    }
}
