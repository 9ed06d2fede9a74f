import Foundation

/// One side of `flowlens diff`: a file or folder on disk, or one at a git revision (`REV:PATH`).
public struct DiffSide: Sendable, CustomStringConvertible {
    /// The git revision (any commit-ish: `main`, `HEAD~1`, a tag, a hash); nil for the files on disk.
    public var revision: String?
    /// The file or folder, relative to the current folder (as every path flowlens takes).
    public var path: String

    /// Creates a side.
    public init(revision: String? = nil, path: String) {
        self.revision = revision
        self.path = path
    }

    /// Reads an argument: a path that exists on disk is a path; otherwise `REV:PATH` is a path at a
    /// git revision (`REV:` alone is the current folder at that revision); anything else is a path.
    public init(parsing argument: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        let absolute = argument.hasPrefix("/") ? argument : (workingDirectory as NSString).appendingPathComponent(argument)
        if !FileManager.default.fileExists(atPath: absolute), let colon = argument.firstIndex(of: ":"), colon != argument.startIndex {
            let path = String(argument[argument.index(after: colon)...])
            self.init(revision: String(argument[..<colon]), path: path.isEmpty ? "." : path)
        } else {
            self.init(path: argument)
        }
    }

    public var description: String { revision.map { "\($0):\(path)" } ?? path }
}

/// Something `flowlens diff` cannot compare: a path that does not exist, not a git repository, a
/// revision git does not know. Exit status 2.
public struct DiffError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension FlowLens {
    /// Loads and checks both sides (as `check` does, each under its own configuration) and compares them.
    ///
    /// A side at a git revision is written into a temporary folder with `git archive` (the path, and
    /// every `.flowlens.yml` in the folders above it), at the same place relative to the repository's
    /// root, and checked from there, so its findings name the same relative paths as the files on
    /// disk. The temporary folder is removed before this returns.
    public static func diff(old: DiffSide, new: DiffSide, configurationFile: String? = nil, defines: [String: String] = [:],
                            workingDirectory: String = FileManager.default.currentDirectoryPath) throws -> GraphDiff {
        let oldReport = try check(old, configurationFile: configurationFile, defines: defines, workingDirectory: workingDirectory)
        let newReport = try check(new, configurationFile: configurationFile, defines: defines, workingDirectory: workingDirectory)
        return GraphDiff(old: oldReport, new: newReport,
                         oldRoot: InputDiscovery.displayPath(old.path, workingDirectory), newRoot: InputDiscovery.displayPath(new.path, workingDirectory))
    }

    /// Writes one diagram per flow of `diff` (the union of both versions, changes marked) into
    /// `directory`; returns the paths written. `format` is `.svg` or `.dot` (or `.png`, `.pdf`).
    @discardableResult
    public static func writeDiagrams(of diff: GraphDiff, to directory: String, format: ExportFormat = .svg) throws -> [String] {
        try AtomicFile.createFolder(directory)
        AtomicFile.removeStaleTemporaries(in: directory)
        var written: [String] = []
        let names = Exporter.fileNames(for: diff.flows.map(\.union))
        for (flow, name) in zip(diff.flows, names) {
            let report = flow.new == nil ? diff.old : diff.new
            let dot = DOTBuilder().dot(for: flow, findings: report.findings, flows: report.graph.flows,
                                       newFindings: diff.newFindings(inFlow: flow.id).count, fixedFindings: diff.fixedFindings(inFlow: flow.id).count)
            let data = try Exporter.render(dot, format: format)
            let path = (directory as NSString).appendingPathComponent("\(name).\(format.rawValue)")
            try AtomicFile.write(data, to: path)
            written.append(path)
        }
        return written
    }

    static func check(_ side: DiffSide, configurationFile: String?, defines: [String: String], workingDirectory: String) throws -> Report {
        guard let revision = side.revision else {
            let absolute = side.path.hasPrefix("/") ? side.path : (workingDirectory as NSString).appendingPathComponent(side.path)
            guard FileManager.default.fileExists(atPath: absolute) else { throw DiffError(description: "'\(side.path)': no such file or folder") }
            return check([side.path], configurationFile: configurationFile, defines: defines, workingDirectory: workingDirectory)
        }
        let checkout = try GitCheckout(revision: revision, path: side.path, workingDirectory: workingDirectory)
        defer { checkout.remove() }
        return check([checkout.path], configurationFile: configurationFile, defines: defines, workingDirectory: checkout.workingDirectory)
    }
}

/// A path at a git revision, written into a temporary folder that mirrors the repository.
struct GitCheckout {
    /// The temporary folder (the repository's root at the revision).
    let root: String
    /// The current folder's counterpart inside `root`.
    let workingDirectory: String
    /// The path to check, relative to `workingDirectory` (as the user gave it, when relative).
    let path: String

    init(revision: String, path: String, workingDirectory: String) throws {
        let cwd = URL(fileURLWithPath: workingDirectory).resolvingSymlinksInPath().path
        let top: String
        switch Self.git(["rev-parse", "--show-toplevel"], in: cwd) {
        case let .success(output): top = URL(fileURLWithPath: output.trimmingCharacters(in: .whitespacesAndNewlines)).resolvingSymlinksInPath().path
        case .failure: throw DiffError(description: "'\(revision):\(path)' names a git revision, but '\(workingDirectory)' is not in a git repository")
        }
        guard case .success = Self.git(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"], in: cwd) else {
            throw DiffError(description: "git does not know the revision '\(revision)' (in '\(revision):\(path)')")
        }
        // The path relative to the repository's root, which is how git names it.
        let absolute = URL(fileURLWithPath: path.hasPrefix("/") ? path : (cwd as NSString).appendingPathComponent(path)).standardized.path
        guard absolute == top || absolute.hasPrefix(top + "/") else {
            throw DiffError(description: "'\(path)' is outside the git repository at '\(top)'")
        }
        let inRepository = absolute == top ? "" : String(absolute.dropFirst(top.count + 1))
        let cwdInRepository = cwd == top ? "" : String(cwd.dropFirst(top.count + 1))
        guard case .success = Self.git(["cat-file", "-e", "\(revision):\(inRepository)"], in: top) else {
            throw DiffError(description: "'\(path)' does not exist at revision '\(revision)'")
        }

        let root = NSTemporaryDirectory() + "flowlens-diff-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        self.root = root
        do {
            // The path, and the configuration files that would govern it, from the revision.
            var specs = [inRepository.isEmpty ? "." : inRepository]
            var folder = inRepository.isEmpty ? "" : (inRepository as NSString).deletingLastPathComponent
            while true {
                let config = folder.isEmpty ? ".flowlens.yml" : folder + "/.flowlens.yml"
                if case .success = Self.git(["cat-file", "-e", "\(revision):\(config)"], in: top) { specs.append(config) }
                if folder.isEmpty { break }
                folder = (folder as NSString).deletingLastPathComponent
            }
            let archive = root + "/.flowlens-archive.tar"
            if case let .failure(message) = Self.git(["archive", "--format=tar", "-o", archive, "--end-of-options", revision] + specs, in: top) {
                throw DiffError(description: "git archive failed for '\(revision):\(path)': \(message)")
            }
            if case let .failure(message) = Self.run("/usr/bin/env", ["tar", "-xf", archive, "-C", root], in: root) {
                throw DiffError(description: "cannot unpack '\(revision):\(path)': \(message)")
            }
            try? FileManager.default.removeItem(atPath: archive)
            self.workingDirectory = cwdInRepository.isEmpty ? root : root + "/" + cwdInRepository
            try FileManager.default.createDirectory(atPath: self.workingDirectory, withIntermediateDirectories: true)
            self.path = path.hasPrefix("/") ? root + (inRepository.isEmpty ? "" : "/" + inRepository) : path
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    enum Outcome { case success(String), failure(String) }

    static func git(_ arguments: [String], in directory: String) -> Outcome {
        run("/usr/bin/env", ["git"] + arguments, in: directory)
    }

    /// Runs a program; its standard output on success, its standard error (or why it could not start) otherwise.
    static func run(_ program: String, _ arguments: [String], in directory: String) -> Outcome {
        let result: ProcessRun
        do { result = try ProcessRunner.run(program, arguments, in: directory) } catch {
            return .failure("cannot run \(arguments.first ?? program): \(error.localizedDescription)")
        }
        guard result.status == 0, !result.signalled else { return .failure(result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return .success(result.stdoutText)
    }
}
