import Foundation
import FlowModel
import SwiftSyntax
@testable import FlowLoaders
import Testing

/// The display path every in-memory document is loaded under.
let testFile = "t.flow.yaml"

/// Loads `text` as the declarative file `t.flow.yaml` (or `file`), without touching the disk.
func load(_ text: String, file: String = testFile) -> FlowGraph {
    DeclarativeLoader().load(InputFile(path: file, displayPath: file, kind: .declarative), contents: text)
}

/// Loads in-memory files together, as `flowlens check` loads a folder: the file name picks the loader.
func load(_ files: [(name: String, text: String)]) -> FlowGraph {
    SourceLoader().load(files.map { SourceText(file: InputFile(path: $0.name), contents: $0.text) })
}

/// A position in the in-memory test file.
func at(_ line: Int, _ column: Int, file: String = testFile) -> FlowModel.SourceLocation {
    FlowModel.SourceLocation(file: file, line: line, column: column)
}

/// Where the `occurrence`-th `needle` starts in `text` (1-based line and UTF-8 column, as loaders
/// report them), in `file`; records an issue when the fixture has no such occurrence.
func location(of needle: String, in text: String, occurrence: Int = 1, file: String) -> FlowModel.SourceLocation {
    var found = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var rest = Substring(line)
        var offset = 0
        while let range = rest.range(of: needle) {
            found += 1
            let column = offset + rest.utf8.distance(from: rest.startIndex, to: range.lowerBound) + 1
            if found == occurrence { return FlowModel.SourceLocation(file: file, line: index + 1, column: column) }
            offset = column - 1 + needle.utf8.count
            rest = rest[range.upperBound...]
        }
    }
    Issue.record("'\(needle)' #\(occurrence) not in fixture")
    return FlowModel.SourceLocation(file: file)
}

/// Findings reduced to what a test compares: where, and the message.
struct Reported: Equatable, CustomStringConvertible {
    var location: FlowModel.SourceLocation?
    var message: String
    var description: String { "\(location.map(\.description) ?? "-") \(message)" }
}

extension FlowGraph {
    /// The load findings as (location, message). A finding that is not an `invalid-input` error (the only
    /// thing a loader reports) gets its rule and severity in front of the message, so it never compares equal.
    /// (The flow an `invalid-input` is attached to is checked by the tests that are about it.)
    var reported: [Reported] {
        loadFindings.map { finding in
            let plain = finding.rule == "invalid-input" && finding.severity == .error
            return Reported(location: finding.location,
                            message: plain ? finding.message : "[\(finding.rule) \(finding.severity) \(finding.flow ?? "-")] \(finding.message)")
        }
    }

    /// True when every load finding is an `invalid-input` error (the only thing a loader reports).
    var findingsAreInvalidInput: Bool {
        loadFindings.allSatisfy { $0.rule == "invalid-input" && $0.severity == .error }
    }
}

/// A flow's content without positions, for comparing two spellings of the same flow (YAML and JSON).
func withoutLocations(_ flow: Flow) -> Flow {
    func strip(_ a: DataAccess) -> DataAccess { var a = a; a.location = nil; return a }
    var flow = flow
    flow.location = nil
    flow.entryLocation = nil
    flow.initialData = flow.initialData.map(strip)
    flow.outputs = flow.outputs.map(strip)
    flow.steps = flow.steps.map { step in
        var step = step
        step.location = nil
        step.subflowLocation = nil
        step.reads = step.reads.map(strip)
        step.writes = step.writes.map(strip)
        if var group = step.group {
            group.inputLocation = nil
            group.outputLocation = nil
            group.elementReads = group.elementReads.map(strip)
            group.elementWrites = group.elementWrites.map(strip)
            step.group = group
        }
        return step
    }
    flow.transitions = flow.transitions.map { var t = $0; t.location = nil; return t }
    return flow
}

/// A fresh temporary folder (symbolic links resolved, so paths compare exactly), removed by `cleanUp`.
struct TempFolder {
    let path: String

    init() throws {
        let base = (NSTemporaryDirectory() as NSString).resolvingSymlinksInPath
        path = (base as NSString).appendingPathComponent("flowlens-loader-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The absolute path of `relative` inside the folder.
    func callAsFunction(_ relative: String) -> String { (path as NSString).appendingPathComponent(relative) }

    /// Writes `text` (or `data`) at `relative`, creating folders on the way.
    @discardableResult
    func write(_ relative: String, _ text: String = minimalFlow) throws -> String {
        try write(relative, data: Data(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, data: Data) throws -> String {
        let full = self(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    func mkdir(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: self(relative), withIntermediateDirectories: true)
    }

    /// A symbolic link at `relative` pointing to `destination` (taken as written: relative or absolute).
    func link(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: self(relative), withDestinationPath: destination)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// The smallest valid file: one flow with one step.
let minimalFlow = """
    version: 1
    flows:
      - name: Minimal
        steps:
          - id: only
    """

/// A valid file with one flow of id `id`.
func flowFile(id: String, name: String = "Flow", step: String = "s") -> String {
    """
    version: 1
    flows:
      - name: \(name)
        id: \(id)
        steps:
          - id: \(step)
    """
}

/// The text of every Swift file of the Flow-iOS, FlowState and Syrup samples: realistic trees for
/// tests that compare two ways of walking them.
func swiftSampleTexts() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var texts: [String] = []
    for sample in ["samples/flow-ios/PhotoShare", "samples/flowstate/ProfileApp", "samples/syrup"] {
        let folder = root.appendingPathComponent(sample).path
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".swift") {
            texts.append(try String(contentsOfFile: folder + "/" + name, encoding: .utf8))
        }
    }
    return texts
}

/// Every node of `tree` in walk order, those `viewMode` shows (`.all`: missing tokens and unexpected
/// code too).
func allNodes(of tree: some SyntaxProtocol, viewMode: SyntaxTreeViewMode = .sourceAccurate) -> [Syntax] {
    let visitor = AllNodes(viewMode: viewMode)
    visitor.walk(tree)
    return visitor.nodes
}

private final class AllNodes: SyntaxAnyVisitor {
    var nodes: [Syntax] = []
    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        nodes.append(node)
        return .visitChildren
    }
}
