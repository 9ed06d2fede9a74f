import FlowModel
import Foundation
import Testing

@Suite("parallelMap and ProcessRunner")
struct ConcurrencyTests {
    @Test("parallelMap keeps the collection's order, for arrays, ranges and slices", arguments: [0, 1, 7, 1000])
    func parallelMapOrder(count: Int) {
        let words = (0..<count).map { "w\($0 * 37 % 101)" }
        #expect(words.parallelMap { $0.uppercased() } == words.map { $0.uppercased() })
        #expect((3..<(3 + count)).parallelMap { $0 * $0 } == (3..<(3 + count)).map { $0 * $0 })
        let slice = words.dropFirst(count / 2)
        #expect(slice.parallelMap { $0.count } == slice.map { $0.count })
    }

    @Test("parallelMap(heaviestFirst:) keeps the collection's order whatever the weights, ties included", arguments: [0, 1, 7, 1000])
    func heaviestFirstOrder(count: Int) {
        let words = (0..<count).map { "w\($0 * 37 % 101)" }
        #expect(words.parallelMap(heaviestFirst: { $0.count * ($0.hasSuffix("7") ? 100 : 1) }) { $0.uppercased() } == words.map { $0.uppercased() })
        let slice = words.dropFirst(count / 2)
        #expect(slice.parallelMap(heaviestFirst: { _ in 1 }) { $0.count } == slice.map { $0.count })
    }

    @Test("a child writing more than a pipe holds to both streams ends, and every byte is read",
          arguments: [("stderr first", "head -c 1500000 /dev/zero | tr '\\0' e >&2; head -c 1300000 /dev/zero | tr '\\0' o"),
                      ("stdout first", "head -c 1300000 /dev/zero | tr '\\0' o; head -c 1500000 /dev/zero | tr '\\0' e >&2")])
    func bothStreamsDrained(order: String, script: String) throws {
        let run = try ProcessRunner.run("/bin/sh", ["-c", script])
        #expect(run.status == 0, "\(order)")
        #expect(run.stdout.count == 1_300_000)
        #expect(run.stderr.count == 1_500_000)
        #expect(run.stdout.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(run.stderr.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test("input is written while the output is read, and discarded or file streams are not captured")
    func inputAndSinks() throws {
        let input = Data(String(repeating: "line of input\n", count: 100_000).utf8)
        let echoed = try ProcessRunner.run("/bin/cat", [], input: input)
        #expect(echoed.stdout == input)
        let discarded = try ProcessRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], stdout: .discard)
        #expect(discarded.status == 3 && !discarded.signalled)
        #expect(discarded.stdout.isEmpty && discarded.stderrText == "err\n")
        let full = try ProcessRunner.run("/bin/sh", ["-c", "echo out"], stdout: .file("/dev/full"))
        #expect(full.status != 0)
        let killed = try ProcessRunner.run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.signalled && killed.status == 9)
    }

    @Test("a drain keeps the end of a long text when bounded")
    func boundedDrain() throws {
        let pipe = Pipe()
        let drain = ProcessRunner.PipeDrain(keepingLast: 1000)
        drain.start(pipe.fileHandleForReading)
        let text = (0..<2000).map { "line \($0)\n" }.joined()
        try pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        let kept = String(decoding: drain.wait(), as: UTF8.self)
        #expect(kept.count <= 4000 && kept.count >= 1000)
        #expect(text.hasSuffix(kept))
    }
}
