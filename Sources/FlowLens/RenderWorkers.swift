import Foundation

/// One diagram to render: DOT text, a format and, for PNG, a scale.
public struct RenderJob: Sendable {
    /// The DOT text.
    public var dot: String
    /// The Graphviz format.
    public var format: GraphvizFormat
    /// A PNG's scale (see `Graphviz.render(dot:format:scale:)`).
    public var scale: Double

    /// Creates a job.
    public init(dot: String, format: GraphvizFormat, scale: Double = 1) {
        self.dot = dot
        self.format = format
        self.scale = scale
    }

    /// The picture drawn by Graphviz in this process.
    func drawnHere() -> Result<Data, any Error> {
        Result { try Graphviz.render(dot: dot, format: format, scale: scale) }
    }
}

/// How diagrams are rendered: in this process, one at a time (Graphviz is not thread-safe), or by
/// worker processes, each with its own Graphviz, that this program starts by running itself with
/// the hidden `render-worker` subcommand (`RenderWorker.serve`).
public enum DiagramRenderer: Sendable {
    /// Graphviz in this process, one diagram at a time.
    case inProcess
    /// `count` worker processes running `executable` with `arguments`.
    case workers(executable: String, arguments: [String], count: Int)
    /// `count` diagrams at once: one drawn by Graphviz in this process, the others by the worker
    /// processes of `pool` (`flowlens export --jobs`), which may have been started ahead
    /// (`RenderWorkerPool.start`). This process draws its first `pool.rendersPerWorker` diagrams
    /// itself, which costs no process start and no pipe, then hands its place to a worker process as
    /// well, so that its memory stays bounded however many diagrams there are (see `RenderWorkerPool`).
    case thisProcessAndWorkers(RenderWorkerPool, count: Int)

    /// Whether other processes draw, leaving this one free for other work meanwhile.
    public var drawsInOtherProcesses: Bool {
        if case .inProcess = self { return false }
        return true
    }

    /// Renders every job; the results are in the order of `jobs`, the same bytes whichever renderer.
    /// `done` is called (from any thread) after each job.
    public func render(_ jobs: [RenderJob], done: @Sendable () -> Void = {}) -> [Result<Data, any Error>] {
        let results = ResultSlots<Result<Data, any Error>>(count: jobs.count)
        render(count: jobs.count, job: { jobs[$0] }) { index, result in
            results[index] = result
            done()
        }
        return jobs.indices.map { results[$0]! }
    }

    /// Renders `count` jobs as a stream: job `i` is made by `job(i)` only when a renderer is free to
    /// take it, and its result goes to `finished(i, result)` as soon as it is rendered, so that the
    /// caller can write each file while the others are drawn and no more DOT texts or pictures are
    /// held than there are renderers. Both closures are called from any thread, in any order, once
    /// for each index; the bytes of each result are the same whichever renderer and order.
    public func render(count: Int, job: @Sendable (Int) -> RenderJob, finished: @Sendable (Int, Result<Data, any Error>) -> Void) {
        switch self {
        case .inProcess:
            for index in 0..<count {
                finished(index, job(index).drawnHere())
            }
        case let .workers(executable, arguments, workers):
            RenderWorkerPool(executable: executable, arguments: arguments)
                .render(count: count, workers: max(1, min(workers, count)), job: job, finished: finished)
        case let .thisProcessAndWorkers(pool, renderers):
            pool.render(count: count, workers: max(1, min(renderers, count)), drawnHere: pool.rendersPerWorker, job: job, finished: finished)
        }
    }
}

/// The failure of a worker process.
public struct RenderWorkerError: Error, CustomStringConvertible, Sendable {
    /// What happened.
    public let description: String
}

/// The wire format between `flowlens` and its render workers, over the worker's standard input
/// and output. A request: the format's name as one byte length and bytes, the scale's bits
/// (8 bytes), the DOT's length (8 bytes) and its UTF-8 bytes. A response: a status byte (0: the
/// rendered bytes follow; 1: an error message follows), a length (8 bytes) and the bytes.
/// Integers are little-endian.
enum RenderWire {
    static func request(_ job: RenderJob) -> [UInt8] {
        var bytes: [UInt8] = []
        let name = Array(job.format.rawValue.utf8)
        bytes.append(UInt8(name.count))
        bytes += name
        bytes += integer(job.scale.bitPattern)
        let dot = Array(job.dot.utf8)
        bytes += integer(UInt64(dot.count))
        bytes += dot
        return bytes
    }

    static func integer(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func integer(_ bytes: [UInt8]) -> UInt64 { bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) } }

    /// Reads exactly `count` bytes; nil at the end of input or on an error.
    static func read(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + got, count - got) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return buffer
    }

    /// Writes all of `bytes`; false when the other end is gone.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}

/// The worker's side: `flowlens render-worker` runs this until its input ends.
public enum RenderWorker {
    /// Renders each request read from standard input and writes the response to standard output.
    /// Returns at the end of input; a broken request ends the worker with status 2.
    public static func serve() -> Int32 {
        // Graphviz's one-time set-up, before the first request rather than on it: a worker started
        // ahead (`RenderWorkerPool.start`) does it while `flowlens` is still reading the flows.
        Graphviz.warmUp()
        while true {
            guard let length = RenderWire.read(0, 1) else { return 0 }  // no more requests
            guard let name = RenderWire.read(0, Int(length[0])), let format = GraphvizFormat(rawValue: String(decoding: name, as: UTF8.self)),
                  let scaleBits = RenderWire.read(0, 8), let size = RenderWire.read(0, 8),
                  let dot = RenderWire.read(0, Int(RenderWire.integer(size))) else { return 2 }
            let scale = Double(bitPattern: RenderWire.integer(scaleBits))
            let response: [UInt8]
            do {
                let data = try Graphviz.render(dot: String(decoding: dot, as: UTF8.self), format: format, scale: scale)
                response = [0] + RenderWire.integer(UInt64(data.count)) + [UInt8](data)
            } catch {
                let message = Array("\(error)".utf8)
                response = [1] + RenderWire.integer(UInt64(message.count)) + message
            }
            guard RenderWire.write(1, response) else { return 2 }
        }
    }
}

/// The parent's side: starts the workers, gives each the next job when it is free, and collects the
/// results in job order. Each worker's standard error is read on its own thread while it works, so a
/// worker that writes much there never blocks; a worker that exits mid-job fails that job with its
/// status and the end of what it wrote to standard error, and a fresh worker takes the next job.
///
/// A worker renders at most `rendersPerWorker` diagrams, then ends and a fresh one takes the next
/// job: Graphviz never frees part of what a layout allocates (about 40 KB a layout in `dot` itself),
/// and each render's fresh dot plugin leaves its static buffers behind when it is unloaded (about
/// 100 KB more), so one process's memory grows with every diagram it draws. Measured: an export of
/// 1,000 flows in one process peaks at 375 MB, 233 MB without rendering. Starting a worker costs
/// about 20 ms, a few percent of the diagrams it then draws.
///
/// Workers can be started ahead (`start`), while the flows are still being read and analysed on one
/// core: a worker's start and its Graphviz set-up (`Graphviz.warmUp`, about 20 ms together) then take
/// nothing from the time the diagrams are drawn. Those not needed are ended by `render` or when the
/// pool goes.
public final class RenderWorkerPool: @unchecked Sendable {
    let executable: String
    let arguments: [String]
    /// How many diagrams one worker process renders before it is replaced.
    public let rendersPerWorker: Int
    private let lock = NSLock()
    private var next = 0
    private var started = 0
    /// Workers started ahead, waiting for their first job.
    private var waiting: [Worker] = []

    /// How many worker processes were started (for tests).
    var workersStarted: Int {
        lock.lock()
        defer { lock.unlock() }
        return started
    }

    /// A pool of workers that run `executable` with `arguments` (`flowlens render-worker`).
    public init(executable: String, arguments: [String], rendersPerWorker: Int = 200) {
        self.executable = executable
        self.arguments = arguments
        self.rendersPerWorker = max(1, rendersPerWorker)
    }

    deinit {
        for worker in waiting { worker.finish() }
    }

    /// Starts `count` workers now, to wait for their first job. One that cannot start is left out:
    /// the job that would have gone to it starts a worker then, and reports why that failed.
    public func start(_ count: Int) {
        for _ in 0..<max(0, count) {
            guard let worker = try? Worker(executable: executable, arguments: arguments) else { return }
            lock.withLock {
                waiting.append(worker)
                started += 1
            }
        }
    }

    /// Renders `count` jobs with `workers` renderers at once. When `drawnHere` is above 0, the first
    /// renderer is Graphviz in this process for its first `drawnHere` jobs, then a worker process
    /// like the others: a process start, its first diagram's set-up (about 25 ms) and a pipe's round
    /// trip a diagram are saved on one renderer, and this process's memory grows by at most
    /// `drawnHere` diagrams' worth.
    func render(count: Int, workers: Int, drawnHere: Int = 0, job: @Sendable (Int) -> RenderJob, finished: @Sendable (Int, Result<Data, any Error>) -> Void) {
        // A worker that dies closes its pipe: writing to it must fail with EPIPE, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        lock.withLock { next = 0 }  // a pool renders one batch after another
        DispatchQueue.concurrentPerform(iterations: workers) { renderer in
            var worker: Worker?
            var rendered = 0
            var here = renderer == 0 ? drawnHere : 0
            while let index = take(count) {
                if here > 0 {
                    here -= 1
                    finished(index, job(index).drawnHere())
                    continue
                }
                if worker == nil, let ready = lock.withLock({ waiting.popLast() }) {
                    worker = ready
                    rendered = 0
                }
                if worker == nil {
                    do {
                        worker = try Worker(executable: executable, arguments: arguments)
                        lock.withLock { started += 1 }
                        rendered = 0
                    } catch {
                        finished(index, .failure(RenderWorkerError(description: "cannot start a render worker (\(executable)): \(error)")))
                        continue
                    }
                }
                let result = worker!.render(job(index))
                rendered += 1
                if case .failure = result, !worker!.isAlive {
                    worker!.finish()
                    worker = nil
                } else if rendered == rendersPerWorker {
                    worker!.finish()  // its memory goes with it (see the type's comment)
                    worker = nil
                }
                finished(index, result)
            }
            worker?.finish()
        }
        // Workers started ahead for more renderers than there were jobs.
        for worker in lock.withLock({ () -> [Worker] in defer { waiting = [] }; return waiting }) { worker.finish() }
    }

    private func take(_ count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    /// One worker process and its pipes.
    final class Worker: @unchecked Sendable {
        let process = Process()
        let input = Pipe(), output = Pipe(), errors = Pipe()
        /// The end of what the worker writes to standard error, read on a thread of its own so that a
        /// chatty worker never blocks on a full pipe.
        private let errorText = ProcessRunner.PipeDrain(keepingLast: 16 * 1024)
        private let exit: ProcessExit
        private(set) var isAlive = true

        init(executable: String, arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            exit = ProcessExit(process)
            try process.run()
            errorText.start(errors.fileHandleForReading)
        }

        func render(_ job: RenderJob) -> Result<Data, any Error> {
            let sent = RenderWire.write(input.fileHandleForWriting.fileDescriptor, RenderWire.request(job))
            let fd = output.fileHandleForReading.fileDescriptor
            if sent, let status = RenderWire.read(fd, 1), let length = RenderWire.read(fd, 8),
               let body = RenderWire.read(fd, Int(RenderWire.integer(length))) {
                if status[0] == 0 { return .success(Data(body)) }
                return .failure(RenderWorkerError(description: String(decoding: body, as: UTF8.self)))  // Graphviz's own message
            }
            isAlive = false
            return .failure(RenderWorkerError(description: "the render worker stopped: \(ended())"))
        }

        /// How the process ended, with the last line it wrote to standard error.
        private func ended() -> String {
            try? input.fileHandleForWriting.close()
            exit.wait()
            let text = String(decoding: errorText.wait(), as: UTF8.self)
            let last = text.split(whereSeparator: \.isNewline).last.map { ": \($0)" } ?? ""
            switch process.terminationReason {
            case .uncaughtSignal: return "killed by signal \(process.terminationStatus)\(last)"
            default: return "exited with status \(process.terminationStatus)\(last)"
            }
        }

        /// Closes the worker's input (it exits at the end of input) and waits for it.
        func finish() {
            guard isAlive else { return }
            try? input.fileHandleForWriting.close()
            exit.wait()
            _ = errorText.wait()
        }
    }
}
