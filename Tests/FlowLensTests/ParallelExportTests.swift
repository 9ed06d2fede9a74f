@testable import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// `flowlens export --jobs N`: diagrams rendered by worker processes, byte for byte what one
/// process renders; workers that die or talk much on standard error.
@Suite("Parallel export")
struct ParallelExportTests {
    /// Every file under `folder`, by name, with its bytes.
    private func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    @Test("--jobs 3 writes the same bytes as --jobs 1, as SVG and as the review page; no progress line in a pipe",
          arguments: ["svg", "html"])
    func sameBytes(format: String) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let serial = try flowlens(["export", "samples", "--output", folder + "/serial", "--format", format, "--jobs", "1"])
        let parallel = try flowlens(["export", "samples", "--output", folder + "/parallel", "--format", format, "--jobs", "3"])
        #expect(serial.status == parallel.status)
        #expect(serial.stdout == parallel.stdout)
        #expect(serial.stderr.replacingOccurrences(of: folder + "/serial", with: "OUT") == parallel.stderr.replacingOccurrences(of: folder + "/parallel", with: "OUT"))
        #expect(!parallel.stderr.contains("rendering") && !parallel.stderr.contains("\r"))
        let a = try contents(folder + "/serial"), b = try contents(folder + "/parallel")
        #expect(a.count > (format == "svg" ? 20 : 1))
        #expect(a.keys.sorted() == b.keys.sorted())
        for (name, bytes) in a {
            #expect(b[name] == bytes, "\(name) differs")
        }
    }

    @Test("--jobs 0 is a usage error")
    func zeroJobs() throws {
        let result = try flowlens(["export", "samples", "--output", NSTemporaryDirectory() + "never", "--jobs", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--jobs takes a number of worker processes, 1 or more (got 0)"))
    }

    private let jobs = (0..<5).map { n in
        RenderJob(dot: "digraph G { a\(n) -> b\(n) [label=\"step \(n)\"] }", format: .svg)
    }

    @Test("a worker that dies fails its job with its status and last words, and the run ends")
    func dyingWorker() {
        let renderer = DiagramRenderer.workers(executable: "/bin/sh",
                                               arguments: ["-c", "head -c 1 >/dev/null; echo 'layout crashed' >&2; exit 3"], count: 2)
        let results = renderer.render(jobs)
        #expect(results.count == jobs.count)
        for result in results {
            guard case let .failure(error) = result else {
                Issue.record("a dead worker rendered a diagram")
                continue
            }
            #expect("\(error)" == "the render worker stopped: exited with status 3: layout crashed")
        }
    }

    @Test("a worker that writes megabytes to standard error before answering does not block")
    func chattyWorker() throws {
        let chatty = DiagramRenderer.workers(executable: "/bin/sh",
                                             arguments: ["-c", "yes 'a line on standard error' | head -c 3000000 >&2; exec \"$0\" render-worker", flowlensBinary],
                                             count: 2)
        let quiet = DiagramRenderer.inProcess
        let a = chatty.render(jobs).map { try? $0.get() }
        let b = quiet.render(jobs).map { try? $0.get() }
        #expect(a.allSatisfy { $0 != nil })
        #expect(a == b)
    }

    @Test("a worker is replaced after it has rendered its share, and the pictures are the same",
          arguments: [1, 2, 3, 5])
    func recycledWorkers(rendersPerWorker: Int) {
        let pool = RenderWorkerPool(executable: "/bin/sh",
                                    arguments: ["-c", "exec \"$0\" render-worker", flowlensBinary],
                                    rendersPerWorker: rendersPerWorker)
        let results = ResultSlots<Result<Data, any Error>>(count: jobs.count)
        pool.render(count: jobs.count, workers: 1, job: { jobs[$0] }, finished: { results[$0] = $1 })
        let drawn = jobs.indices.map { try? results[$0]!.get() }
        #expect(drawn == DiagramRenderer.inProcess.render(jobs).map { try? $0.get() })
        #expect(drawn.allSatisfy { $0 != nil })
        // One worker at a time: a fresh one for every `rendersPerWorker` jobs, none kept past its share.
        #expect(pool.workersStarted == (jobs.count + rendersPerWorker - 1) / rendersPerWorker)
    }

    @Test("this process draws its share first, then hands its place to a worker process")
    func drawnHereFirst() {
        // One renderer, so the order is fixed: two diagrams here, then a worker (which dies) for the rest.
        let pool = RenderWorkerPool(executable: "/bin/sh",
                                    arguments: ["-c", "head -c 1 >/dev/null; echo 'layout crashed' >&2; exit 3"])
        let results = ResultSlots<Result<Data, any Error>>(count: jobs.count)
        pool.render(count: jobs.count, workers: 1, drawnHere: 2, job: { jobs[$0] }, finished: { results[$0] = $1 })
        let here = DiagramRenderer.inProcess.render(Array(jobs.prefix(2))).map { try? $0.get() }
        #expect(here.allSatisfy { $0 != nil })
        #expect((0..<2).map { try? results[$0]!.get() } == here)
        for index in 2..<jobs.count {
            guard case let .failure(error) = results[index]! else {
                Issue.record("job \(index) was not given to the worker")
                continue
            }
            #expect("\(error)" == "the render worker stopped: exited with status 3: layout crashed")
        }
        #expect(pool.workersStarted == jobs.count - 2)  // each dead worker's replacement died on its first job too
    }

    @Test("this process and workers together draw what one process draws, each job once",
          arguments: [1, 2, 3, 8])
    func thisProcessAndWorkers(renderers: Int) {
        let many = (0..<12).map { n in RenderJob(dot: "digraph G { x\(n) -> y\(n) [label=\"edge \(n)\"]; y\(n) -> z }", format: .svg) }
        let pool = RenderWorkerPool(executable: "/bin/sh", arguments: ["-c", "exec \"$0\" render-worker", flowlensBinary])
        let mixed = DiagramRenderer.thisProcessAndWorkers(pool, count: renderers)
        let drawn = mixed.render(many).map { try? $0.get() }
        #expect(drawn.allSatisfy { $0 != nil })
        #expect(drawn == DiagramRenderer.inProcess.render(many).map { try? $0.get() })
        #expect(mixed.drawsInOtherProcesses && !DiagramRenderer.inProcess.drawsInOtherProcesses)
        // The same pool draws a second batch from its first job.
        #expect(mixed.render(Array(many.prefix(7))).map { try? $0.get() } == Array(drawn.prefix(7)))
    }

    @Test("workers started ahead take the first jobs; those not needed are ended, none left running",
          arguments: [(ahead: 1, renderers: 2), (ahead: 3, renderers: 2), (ahead: 2, renderers: 3)])
    func startedAhead(ahead: Int, renderers: Int) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each worker notes its process id when it starts and again when it ends.
        let script = "echo $$ >> \"$1/started\"; \"$0\" render-worker; echo $$ >> \"$1/ended\""
        let pool = RenderWorkerPool(executable: "/bin/sh", arguments: ["-c", script, flowlensBinary, folder])
        pool.start(ahead)
        #expect(pool.workersStarted == ahead)
        let drawn = DiagramRenderer.thisProcessAndWorkers(pool, count: renderers).render(jobs).map { try? $0.get() }
        #expect(drawn == DiagramRenderer.inProcess.render(jobs).map { try? $0.get() })
        // No more workers than were asked for at once: the ones started ahead were used first.
        #expect(pool.workersStarted == max(ahead, renderers - 1))
        func lines(_ name: String) -> [String] {
            ((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).sorted()
        }
        #expect(lines("started").count == pool.workersStarted)
        #expect(lines("ended") == lines("started"))
    }

    @Test("the progress line is drawn only when enabled, after a second, and erased at the end")
    func progressLine() {
        let off = ProgressLine("rendering", total: 3, enabled: false)
        #expect(!off.isEnabled)
        off.advance()
        off.finish()
        #expect(ProgressLine("rendering", total: 3).isEnabled == (isatty(STDERR_FILENO) == 1))
    }
}
