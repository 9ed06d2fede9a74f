import FlowLensTestSupport
import Foundation
import Testing

/// `--cache-path` end to end: a cache never changes what `check` and `export` report.
@Suite("CLI: --cache-path and --touch")
struct CacheCLITests {
    @Test("uncached, cold-cache and warm-cache runs of 'check samples --format json' print the same bytes")
    func sameFindings() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let cache = tmp + "/cache.json"
        let uncached = try flowlens(["check", "samples", "--format", "json"])
        let cold = try flowlens(["check", "samples", "--format", "json", "--cache-path", cache])
        let warm = try flowlens(["check", "samples", "--format", "json", "--cache-path", cache])
        #expect(!uncached.stdout.isEmpty)
        #expect(cold.stdout == uncached.stdout)
        #expect(warm.stdout == uncached.stdout)
        #expect(cold.status == uncached.status && warm.status == uncached.status)
        let files = try #require(uncached.stdout.firstMatch(of: /"files" *: *\[([^\]]*)\]/)).1.split(separator: ",").count
        #expect(files > 50)
        #expect(cold.stderr.contains("cache: reused 0 of \(files) files"), "\(cold.stderr)")
        #expect(warm.stderr.contains("cache: reused \(files) of \(files) files"), "\(warm.stderr)")
        #expect(!uncached.stderr.contains("cache:"))
    }

    @Test("a corrupt cache file is ignored with a warning, gives the same findings, and is rewritten")
    func corruptCache() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let cache = tmp + "/cache.json"
        let uncached = try flowlens(["check", "samples/declarative", "--format", "json"])
        _ = try flowlens(["check", "samples/declarative", "--cache-path", cache])
        let valid = try Data(contentsOf: URL(fileURLWithPath: cache))
        try valid.prefix(valid.count / 2).write(to: URL(fileURLWithPath: cache))  // cut in the middle
        let corrupt = try flowlens(["check", "samples/declarative", "--format", "json", "--cache-path", cache])
        #expect(corrupt.stdout == uncached.stdout)
        #expect(corrupt.status == uncached.status)
        #expect(corrupt.stderr.contains("flowlens: warning: ignoring the cache '\(cache)'"), "\(corrupt.stderr)")
        #expect(corrupt.stderr.contains("cache: reused 0 of"))
        let again = try flowlens(["check", "samples/declarative", "--format", "json", "--cache-path", cache])
        #expect(again.stdout == uncached.stdout)
        #expect(!again.stderr.contains("warning"), "rewritten: \(again.stderr)")
        #expect(!again.stderr.contains("reused 0 of"), "\(again.stderr)")
    }

    @Test("export with a warm cache writes the same report.json as without one")
    func export() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let cache = tmp + "/cache.json"
        let plain = try flowlens(["export", "samples/flowkit", "--format", "dot", "--output", tmp + "/plain"])
        _ = try flowlens(["export", "samples/flowkit", "--format", "dot", "--output", tmp + "/cold", "--cache-path", cache])
        let warm = try flowlens(["export", "samples/flowkit", "--format", "dot", "--output", tmp + "/warm", "--cache-path", cache])
        #expect(warm.status == plain.status)
        #expect(warm.stdout == plain.stdout)
        #expect(warm.stderr.contains("cache: reused"), "\(warm.stderr)")
        #expect(!warm.stderr.contains("reused 0 of"), "\(warm.stderr)")
        for name in try FileManager.default.contentsOfDirectory(atPath: tmp + "/plain") {
            #expect(FileManager.default.contents(atPath: tmp + "/warm/" + name) == FileManager.default.contents(atPath: tmp + "/plain/" + name), "\(name)")
        }
    }

    @Test("a cache that cannot be written is a warning; the run's findings and status are unchanged")
    func unwritableCache() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: tmp + "/file"))
        let plain = try flowlens(["check", "samples/declarative/checkout.flow.yaml"])
        let run = try flowlens(["check", "samples/declarative/checkout.flow.yaml", "--cache-path", tmp + "/file/cache.json"])
        #expect(run.status == plain.status)
        #expect(run.stdout == plain.stdout)
        #expect(run.stderr.contains("flowlens: warning: cannot write the cache '\(tmp)/file/cache.json'"), "\(run.stderr)")
    }

    @Test("--touch writes its file only when the check passes")
    func touch() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let clean = try flowlens(["check", "samples/declarative/checkout.flow.yaml", "--touch", tmp + "/clean.stamp"])
        #expect(clean.status == 0)
        #expect(FileManager.default.fileExists(atPath: tmp + "/clean.stamp"))
        let broken = try flowlens(["check", "samples/declarative/broken/dead-end.flow.yaml", "--touch", tmp + "/broken.stamp"])
        #expect(broken.status == 1)
        #expect(!FileManager.default.fileExists(atPath: tmp + "/broken.stamp"))
    }

    @Test("a cache whose graphs name impossible places (a negative line, a column past its line) is not trusted (issue 49)")
    func implausibleCache() throws {
        let tmp = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let cache = tmp + "/cache.json"
        let uncached = try flowlens(["check", "samples/declarative", "--format", "json"])
        _ = try flowlens(["check", "samples/declarative", "--cache-path", cache])
        let valid = try String(contentsOfFile: cache, encoding: .utf8)
        for (pattern, replacement) in [(#""line":([0-9]+)"#, #""line":-$1"#), (#""column":([0-9]+)"#, #""column":9$1"#)] {
            let edited = valid.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            #expect(edited != valid)
            try Data(edited.utf8).write(to: URL(fileURLWithPath: cache))
            let run = try flowlens(["check", "samples/declarative", "--format", "json", "--cache-path", cache])
            #expect(run.stdout == uncached.stdout)
            #expect(run.stderr.contains("cache: reused 0 of"), "\(run.stderr)")
            // The entries were replaced: the next run reuses them.
            let again = try flowlens(["check", "samples/declarative", "--format", "json", "--cache-path", cache])
            #expect(again.stdout == uncached.stdout)
            #expect(!again.stderr.contains("cache: reused 0 of"), "\(again.stderr)")
        }
    }
}
