import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// Safe where CI runs it (issue 49, and issue 50's overlapping paths): the CLI on a temporary tree
/// holding links out of it, FIFOs and device nodes made there (never the machine's own `/dev`), and
/// outputs that are not regular files.
@Suite("safe paths: links, FIFOs, devices, bounded reads and writes", .serialized)
struct SafePathsCLITests {
    static let flow = """
        version: 1
        flows:
          - name: Order
            steps:
              - {id: pay, next: dne}
              - {id: done, kind: end}
        """

    static let secret = "root:x:0:0:root:/root:/bin/bash\nSECRET-LINE:x:1:1::/:/bin/sh\n"

    /// A tree (`tree/`) with one flow file, beside a folder outside it (`outside/`).
    struct Tree {
        let base: String
        var tree: String { base + "/tree" }
        var outside: String { base + "/outside" }

        init() throws {
            base = try temporaryDirectory()
            try FileManager.default.createDirectory(atPath: base + "/tree", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
            try write("tree/ok.flow.yaml", SafePathsCLITests.flow)
            try write("outside/passwd", SafePathsCLITests.secret)
            try write("outside/stolen.flow.yaml", "version: 1\nflows:\n  - name: Stolen\n    steps:\n      - {id: done, kind: end}\n")
        }

        func write(_ relative: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: base + "/" + relative))
        }

        func link(_ relative: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: base + "/" + relative, withDestinationPath: target)
        }

        func fifo(_ relative: String) throws {
            #expect(mkfifo(base + "/" + relative, 0o644) == 0)
        }

        /// A character device node (root only): `false` when it cannot be made here.
        func device(_ relative: String, major: UInt32, minor: UInt32) -> Bool {
            guard getuid() == 0 else { return false }
            // glibc's `makedev` for small numbers (a macro Swift does not import).
            let device = dev_t((major & 0xFFF) << 8 | (minor & 0xFF))
            return mknod(base + "/" + relative, S_IFCHR | 0o644, device) == 0
        }

        func kind(_ relative: String) -> mode_t {
            var info = stat()
            return lstat(base + "/" + relative, &info) == 0 ? info.st_mode & S_IFMT : 0
        }

        func cleanUp() { try? FileManager.default.removeItem(atPath: base) }
    }

    @Test("a file link out of the tree is reported and not read: its content is in no output")
    func fileLinkOutOfTheTree() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.link("tree/pw.flow.yaml", to: "../outside/passwd")
        for arguments in [["check", "--format", "json", "."], ["check", "--format", "json", "pw.flow.yaml", "ok.flow.yaml"]] {
            let run = try flowlens(arguments, in: t.tree)
            #expect(run.status == 2)
            #expect(!run.stdout.contains("SECRET") && !run.stdout.contains("root:x"))
            #expect(run.stdout.contains("outside the"))
            #expect(run.stdout.contains("\"pw.flow.yaml\""))
            #expect(run.stdout.contains("unknown-step"))  // the other file is still analysed
        }
    }

    @Test("a folder link out of the tree is not walked, and a link to / does not walk the machine", .timeLimit(.minutes(2)))
    func folderLinkOutOfTheTree() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.link("tree/ext", to: "../outside")
        try t.link("tree/root", to: "/")
        let run = try flowlens(["check", "--format", "json", "."], in: t.tree)
        #expect(!run.stdout.contains("Stolen"))
        #expect(run.stdout.contains("unknown-step"))
        // A link into another folder given is followed (and its files read once).
        let both = try flowlens(["check", ".", "../outside"], in: t.tree)
        #expect(both.stdout.components(separatedBy: "Stolen").count - 1 <= 1)
        #expect(both.stderr.contains("2 flows (2 files)"))
    }

    @Test("FIFOs and devices named like flow files are reported without being opened; the run ends", .timeLimit(.minutes(2)))
    func specialFiles() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.fifo("tree/x.flow.yaml")
        try t.fifo("tree/y.swift")
        let device = t.device("tree/dev.flow.yaml", major: 1, minor: 3)
        let run = try flowlens(["check", "."], in: t.tree)
        #expect(run.status == 2)
        #expect(run.stdout.contains("x.flow.yaml: error: a FIFO (named pipe), not a regular file: not read [invalid-input]"))
        #expect(run.stdout.contains("y.swift: error: a FIFO (named pipe), not a regular file: not read [invalid-input]"))
        #expect(run.stdout.contains("unknown-step"))
        if device { #expect(run.stdout.contains("dev.flow.yaml: error: a character device, not a regular file: not read [invalid-input]")) }
        let named = try flowlens(["check", "x.flow.yaml", "ok.flow.yaml"], in: t.tree)
        #expect(named.stdout.contains("x.flow.yaml: error: a FIFO (named pipe), not a regular file: not read [invalid-input]"))
        // A FIFO given to trace, or as a configuration file, is not waited on either.
        let trace = try flowlens(["trace", "x.flow.yaml"], in: t.tree)
        #expect(trace.status == 2)
        try t.fifo("tree/.flowlens.yml")
        let configured = try flowlens(["check", "ok.flow.yaml"], in: t.tree)
        #expect(configured.stdout.contains(".flowlens.yml: error: cannot read the configuration file: a FIFO (named pipe), not a regular file: not read"))
    }

    @Test("standard input is bounded by limits.fileBytes, as files are")
    func standardInputIsBounded() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.write("tree/.flowlens.yml", "limits:\n  fileBytes: 1000\n")
        let big = SafePathsCLITests.flow + "\n#" + String(repeating: "x", count: 5_000) + "\n"
        let run = try run(flowlensBinary, ["check", "--stdin-path", "in.flow.yaml"], in: t.tree, standardInput: Data(big.utf8))
        #expect(run.status == 2)
        #expect(run.stderr.contains("larger than 1000 bytes"))
        let small = try flowlens(["check", "--stdin-path", "in.flow.yaml"], in: t.tree, standardInput: SafePathsCLITests.flow)
        #expect(small.stdout.contains("in.flow.yaml:5:25"))
    }

    @Test("overlapping paths read each file once: findings once, counts right, one picture a flow (issue 50)")
    func overlappingPaths() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        for arguments in [["ok.flow.yaml", "."], ["ok.flow.yaml", "./ok.flow.yaml"], [".", "."]] {
            let run = try flowlens(["check"] + arguments, in: t.tree)
            #expect(run.stdout.components(separatedBy: "[unknown-step]").count - 1 == 1)
            #expect(run.stderr.contains("in 1 flow (1 file)"))
        }
        let export = try flowlens(["export", "ok.flow.yaml", ".", "--format", "dot", "-o", "../out"], in: t.tree)
        #expect(export.status != 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: t.base + "/out").filter { $0.hasSuffix(".dot") }
        #expect(names == ["Order.dot"])
    }

    @Test("an output path that is a FIFO, device, link or folder is an error (exit 2), and nothing changes")
    func outputsOnlyOverRegularFiles() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.fifo("fifo")
        try t.link("link", to: "outside/passwd")
        try FileManager.default.createDirectory(atPath: t.base + "/folder", withIntermediateDirectories: true)
        var targets = ["fifo", "link", "folder"]
        if t.device("null", major: 1, minor: 3) { targets.append("null") }
        for target in targets {
            let before = t.kind(target)
            for option in ["--write-baseline", "--cache-path", "--touch"] {
                let run = try flowlens(["check", "ok.flow.yaml", option, "../" + target], in: t.tree)
                #expect(run.status == 2, "\(option) \(target)")
                #expect(run.stderr.contains("not a regular file: nothing was written"), "\(option) \(target)")
                #expect(t.kind(target) == before, "\(option) \(target)")
            }
        }
        #expect(try String(contentsOfFile: t.outside + "/passwd", encoding: .utf8) == SafePathsCLITests.secret)
        // An export's diagram over a FIFO: that file fails, named, and the run says so.
        try FileManager.default.createDirectory(atPath: t.base + "/out", withIntermediateDirectories: true)
        try t.fifo("out/Order.dot")
        let export = try flowlens(["export", "ok.flow.yaml", "--format", "dot", "-o", "../out"], in: t.tree)
        #expect(export.status == 2)
        #expect(export.stderr.contains("Order.dot"))
        #expect(t.kind("out/Order.dot") == S_IFIFO)
    }

    @Test("check --fix on a flow file that is a link writes through it: the target fixed, its mode kept, the link a link")
    func fixThroughALink() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try FileManager.default.createDirectory(atPath: t.tree + "/real", withIntermediateDirectories: true)
        try t.write("tree/real/order.flow.yaml", SafePathsCLITests.flow)
        chmod(t.tree + "/real/order.flow.yaml", 0o600)
        try FileManager.default.removeItem(atPath: t.tree + "/ok.flow.yaml")
        try t.link("tree/link.flow.yaml", to: "real/order.flow.yaml")
        let run = try flowlens(["check", "--fix", "link.flow.yaml"], in: t.tree)
        #expect(run.status == 0)
        #expect(t.kind("tree/link.flow.yaml") == S_IFLNK)
        let fixed = try String(contentsOfFile: t.tree + "/real/order.flow.yaml", encoding: .utf8)
        #expect(fixed.contains("next: done") && !fixed.contains("dne"))
        var info = stat()
        #expect(stat(t.tree + "/real/order.flow.yaml", &info) == 0 && info.st_mode & 0o7777 == 0o600)
    }

    @Test("a finding quotes a bounded excerpt of its input, and its message is bounded")
    func boundedExcerpts() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.write("tree/inside.flow.yaml", String(repeating: SafePathsCLITests.secret, count: 100))
        try t.write("tree/big.flow.yaml", "version: 1\nflows:\n  - name: Big\n    steps: " + String(repeating: "n", count: 100_000) + "\n")
        for format in ["text", "json", "sarif"] {
            let run = try flowlens(["check", "--format", format, "inside.flow.yaml", "big.flow.yaml"], in: t.tree)
            #expect(run.status == 2)
            #expect(run.stdout.components(separatedBy: "SECRET-LINE").count - 1 <= 1, "\(format)")
            #expect(!run.stdout.contains(String(repeating: "n", count: 200)), "\(format)")
        }
        // A finding's message is bounded whoever makes it.
        let long = Finding.invalidInput(String(repeating: "é", count: 1_000_000), at: SourceLocation(file: "x"))
        #expect(long.message.utf8.count <= Excerpt.messageBytes + 100)
    }

    @Test("errors are plain words naming the path, never Foundation's codes")
    func plainErrors() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.write("afile", "x")
        let export = try flowlens(["export", "ok.flow.yaml", "-o", "../afile/sub"], in: t.tree)
        #expect(export.status == 2)
        #expect(export.stderr == "flowlens: error: cannot export to '../afile/sub': '../afile' is a regular file, not a folder; give a folder --output can create or write into\n")
        try Data([0xFF, 0xFE, 0x00, 0x81, 0x9C]).write(to: URL(fileURLWithPath: t.base + "/garbage"))
        let baseline = try flowlens(["check", "ok.flow.yaml", "--baseline", "../garbage"], in: t.tree)
        #expect(baseline.status == 2)
        #expect(baseline.stderr == "flowlens: error: cannot read the baseline '../garbage': not UTF-8 text\n")
        // A run-record file too damaged to recognise is named.
        try Data([0x00, 0x01, 0x7B, 0x22]).write(to: URL(fileURLWithPath: t.base + "/runs.jsonl"))
        let trace = try flowlens(["trace", "../runs.jsonl", "ok.flow.yaml"], in: t.tree)
        #expect(trace.status == 2)
        #expect(trace.stderr.contains("'../runs.jsonl' is not in a format of run records FlowLens recognises"))
    }

    @Test("bidirectional controls are marked visibly in every text report, as the diagrams mark them")
    func bidiControlsMarked() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        try t.write("tree/ok.flow.yaml", SafePathsCLITests.flow.replacingOccurrences(of: "next: dne", with: "next: \"dn\u{202E}e\u{2066}x\""))
        for format in ["text", "github", "markdown", "junit", "checkstyle", "gitlab"] {
            let run = try flowlens(["check", "--format", format, "ok.flow.yaml"], in: t.tree)
            #expect(run.status == 1, "\(format)")
            #expect(!run.stdout.contains("\u{202E}") && !run.stdout.contains("\u{2066}"), "\(format)")
            #expect(run.stdout.contains("U+202E") && run.stdout.contains("U+2066"), "\(format): \(run.stdout)")
        }
    }

    @Test("--help and --version to a full device or a closed pipe exit 2 with a sentence")
    func helpToAFullDevice() throws {
        let t = try Tree()
        defer { t.cleanUp() }
        for arguments in [["--help"], ["--version"], ["check", "--help"]] {
            let closed = try runWithClosedStdout(flowlensBinary, arguments, in: t.tree)
            #expect(closed.status == 2, "\(arguments)")
            #expect(closed.stderr == "flowlens: error: cannot write to standard output: broken pipe\n")
        }
        guard t.device("full", major: 1, minor: 7) else { return }
        for arguments in [["--help"], ["--version"]] {
            let full = try run(flowlensBinary, arguments, in: t.tree, stdoutPath: t.base + "/full")
            #expect(full.status == 2, "\(arguments)")
            #expect(full.stderr == "flowlens: error: cannot write to standard output: no space left on device\n")
        }
    }
}
