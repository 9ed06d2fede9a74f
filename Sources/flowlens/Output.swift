import ArgumentParser
import FlowLens
import Foundation

/// Standard output and error for the commands.
///
/// Foundation's `FileHandle.write(_: Data)` traps on a failed write (`check > /dev/full` crashed), and
/// `print` drops the failure silently; a closed pipe kills the process with SIGPIPE. Here a failed
/// write to standard output is a `CommandFailure` (exit 2, one sentence with the cause), and
/// standard error is best effort: there is nowhere left to report its failure.
enum Output {
    /// A closed pipe is an error of the write (EPIPE), reported as such, not a signal that kills
    /// the process without a word.
    static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }

    /// Writes `text` to standard output, all of it.
    static func write(_ text: String) throws {
        if let code = writeAll(text, to: STDOUT_FILENO) {
            throw CommandFailure("cannot write to standard output: \(String(cString: strerror(code)).lowercased())")
        }
    }

    /// Writes `text` to standard error, ignoring failure.
    static func error(_ text: String) { _ = writeAll(text, to: STDERR_FILENO) }

    /// The bound on a report, baseline or source file the commands read whole besides the flows
    /// (which `limits.fileBytes` bounds): large enough for any real one, and never a device's stream.
    static let reportBytes = 1 << 30

    /// Fails with a plain sentence unless `path`, which a command will write (`what`: "the baseline"),
    /// is a regular file or nothing: checked before the run, so that nothing is done, nor changed.
    static func checkReplaceable(_ path: String, _ what: String) throws {
        do {
            try AtomicFile.replaceableMode(path)
        } catch {
            throw CommandFailure("cannot write \(what) '\(path)': \(error.cause)")
        }
    }

    /// Nil when every byte was written, else the `errno` of the failure.
    private static func writeAll(_ text: String, to fd: Int32) -> Int32? {
        Array(text.utf8).withUnsafeBytes { AtomicFile.writeAll($0, to: fd) }
    }
}

/// `--format text|json`, for the commands that print an explanation or a catalogue, not a report
/// (`explain`, `rules`): their own two formats.
struct TextOrJSONOutput: ParsableArguments {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @Option(help: ArgumentHelp("Output format: text, json.", valueName: "format"))
    var format: Format = .text
}
