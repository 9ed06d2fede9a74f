import Dispatch
import FlowModel
import SwiftSyntax

/// Reads every Swift-based library's flows from one set of Swift files, parsing each file once.
///
/// Swift sources are loaded together because their meaning spans files (an operation class defined
/// in one file is added to a flow in another). Each Swift dialect (`SwiftDialect`) reads the parsed
/// files; a new one is found through `Dialects.all`.
public struct SwiftSourcesLoader: BatchFlowLoader {
    /// Creates the loader with the built-in limits.
    public init() { limits = .default }

    /// The bounds a file must keep to be read.
    public var limits: Limits

    /// Told once for each file parsed, or passed over by the pre-filter (see `SourceLoader.progress`).
    public var progress: (@Sendable () -> Void)?

    /// Creates the loader.
    public init(limits: Limits, progress: (@Sendable () -> Void)? = nil) {
        self.limits = limits
        self.progress = progress
    }

    /// Parse every file, not only those that can define or use a flow (`SwiftRelevance`): for tests
    /// and the benchmark, which check that both ways give the same graph.
    var parsesEveryFile = !SwiftRelevance.isEnabled

    public func load(_ files: [SourceText]) -> FlowGraph {
        // Files that cannot define or use a flow are not parsed (`SwiftRelevance`).
        let relevant = parsesEveryFile ? nil : SwiftRelevance.select(files, limits: limits)
        if let progress, let relevant { for keep in relevant where !keep { progress() } }
        let parsed = SwiftSources.parse(relevant.map { keep in files.indices.filter { keep[$0] }.map { files[$0] } } ?? files,
                                        limits: limits, progress: progress)
        var graph = FlowGraph()
        for dialect in Dialects.swift where parsesEveryFile || Self.mayHoldFlows(of: dialect, in: files, relevant: relevant) {
            graph.merge(dialect.read(parsed))
        }
        // Files not read (nested too deep) first; then syntax errors and conflict markers of the files read.
        graph.loadFindings = parsed.compactMap(\.problem) + graph.loadFindings
        graph.loadFindings += SwiftSources.syntaxErrors(in: parsed, flows: graph.flows)
        return graph
    }

    /// Whether some file read holds one of the dialect's `relevantWords`: every file defining or
    /// using its flows does, so without one its reader would find nothing, and is not run (a
    /// Flow-iOS app never pays for the Syrup reader). Part of the pre-filter: off with it.
    static func mayHoldFlows(of dialect: any SwiftDialect.Type, in files: [SourceText], relevant: [Bool]?) -> Bool {
        let words = dialect.relevantWords.map { Array($0.utf8) }
        return files.indices.contains { index in
            guard relevant?[index] ?? true else { return false }
            return files[index].contents.utf8.withContiguousStorageIfAvailable { bytes in
                words.contains { ByteSearch.contains($0, in: bytes) }
            } ?? true
        }
    }
}

/// The parsed Swift files of a run: parsing them, and what is reported about them as a whole.
enum SwiftSources {

    /// Parses `files` on all cores, in the order given.
    static func parse(_ files: [SourceText], limits: Limits = .default, progress: (@Sendable () -> Void)? = nil) -> [ParsedSwiftFile] {
        files.parallelMap(heaviestFirst: { $0.contents.utf8.count }) { file in
            defer { progress?() }
            return ParsedSwiftFile(file, limits: limits)
        }
    }
}

extension SwiftSources {
    /// The starts of a merge-conflict marker's lines (git's, with `diff3`'s base).
    static let conflictMarkers = ["<<<<<<<", ">>>>>>>", "=======", "|||||||"]

    /// One `invalid-input` finding per file that does not parse (the first error swift-syntax's
    /// parser marks: a missing or an unexpected token) or holds merge-conflict markers, for each flow
    /// defined in it (carrying the flow's id, so that the flow is reported as not read, not as clean),
    /// or one for the file when it defines none (a note when it names no flow library: a flow linter
    /// has nothing to say about old or foreign Swift beyond what it cannot read of it). A broken file
    /// is never taken as if it were whole.
    static func syntaxErrors(in files: [ParsedSwiftFile], flows: [Flow]) -> [Finding] {
        var findings: [Finding] = []
        for file in files {
            guard let (message, location) = firstError(in: file) else { continue }
            let path = file.file.displayPath
            let inFile = flows.filter { flow in
                flow.location?.file == path || flow.steps.contains { $0.location?.file == path }
            }
            if inFile.isEmpty {
                var finding = Finding.invalidInput(message, at: location)
                if !namesAFlowLibrary(file) {
                    // Old Swift, or code for another compiler, that only declares what other files
                    // use: said, as a note, for what its flows' files may miss of it.
                    finding.severity = .note
                    let detail = message.replacingOccurrences(of: "; the file's flows are not checked until it parses", with: "")
                    finding.message = "\(detail), in a file that names no flow library: what it declares for the flows of other files is not read"
                }
                findings.append(finding)
            } else {
                for flow in inFile {
                    var finding = Finding.invalidInput(message, at: location)
                    finding.flow = flow.id
                    findings.append(finding)
                }
            }
        }
        return findings
    }

    /// Whether the file's text holds a word of a flow library's API (`SwiftRelevance.libraryWords`).
    static func namesAFlowLibrary(_ file: ParsedSwiftFile) -> Bool {
        file.text.utf8.withContiguousStorageIfAvailable { bytes in
            SwiftRelevance.libraryWords.contains { ByteSearch.contains($0, in: bytes) }
        } ?? true
    }

    /// The first merge-conflict marker or syntax error of a file, as a message and a place.
    static func firstError(in file: ParsedSwiftFile) -> (String, FlowModel.SourceLocation)? {
        // The lexer keeps a conflict marker as unexpected trivia and parses what follows it as code:
        // both sides of the conflict, or one, would be read as if they were the file.
        for token in file.mayHoldConflictMarker ? Array(file.tree.tokens(viewMode: .sourceAccurate)) : [] {
            var offset = token.position
            for piece in token.leadingTrivia {
                if case let .unexpectedText(text) = piece, conflictMarkers.contains(where: text.hasPrefix) {
                    let at = file.lines.location(of: offset.utf8Offset)
                    return ("merge-conflict marker: the file is not read until the conflict is resolved",
                            FlowModel.SourceLocation(file: file.file.displayPath, line: at.line, column: at.column))
                }
                offset += piece.sourceLength
            }
        }
        guard file.tree.hasError else { return nil }
        for token in file.tree.tokens(viewMode: .all) {
            if token.presence == .missing {
                return ("Swift syntax error: expected '\(token.text)' here; the file's flows are not checked until it parses",
                        file.location(token))
            }
            var ancestor = token.parent
            while let node = ancestor {
                if node.is(UnexpectedNodesSyntax.self) {
                    let code = node.trimmedText.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                    let shown = code.count > 40 ? String(code.prefix(37)) + "..." : code
                    return ("Swift syntax error: unexpected code '\(shown)'; the file's flows are not checked until it parses",
                            file.location(token))
                }
                ancestor = node.parent
            }
        }
        return ("Swift syntax error; the file's flows are not checked until it parses", file.location(file.tree))
    }
}
