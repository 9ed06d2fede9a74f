import Foundation

/// A progress line on standard error ("rendering 37/200 …"), for work a person waits for.
///
/// Shown only when standard error is a terminal and the work has already taken a second: never in
/// CI logs, pipes or files, and never as a flicker on a fast run. It is redrawn at most ten times a
/// second and erased when the work is done. Safe to advance from any thread.
public final class ProgressLine: @unchecked Sendable {
    private let label: String
    private var total: Int
    private let enabled: Bool
    private let started = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var done = 0
    private var lastDrawn: UInt64 = 0
    private var shown = false

    /// A line for `total` pieces of work described by `label` ("rendering"); `enabled` defaults to
    /// whether standard error is a terminal.
    public init(_ label: String, total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.total = total
        self.enabled = enabled
    }

    /// Sets how many pieces of work there are, once that is known (a `check` learns it after
    /// discovering its files).
    public func start(total: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.total = total
        done = 0
    }

    /// How much is done of how much, whether or not the line is drawn.
    public var counts: (done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (done, total)
    }

    /// Whether the line would ever be drawn (standard error is a terminal).
    public var isEnabled: Bool { enabled }

    /// One more piece done.
    public func advance() {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - started > 1_000_000_000, now - lastDrawn > 100_000_000 || done == total else { return }
        lastDrawn = now
        shown = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(label) \(done)/\(total) …".utf8))
    }

    /// Erases the line, if it was drawn.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
