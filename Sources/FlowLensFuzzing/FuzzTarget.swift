import FlowLens
import Foundation

/// The fuzz targets of FlowLens: one per loader and one per writer (docs/reliability.md).
///
/// Each target is a function of the fuzz input's bytes that returns the invariants the input broke
/// (empty: none). The libFuzzer build (`scripts/fuzz.sh`, `-D FUZZING`) traps on the first broken
/// one, so libFuzzer keeps the input as a crash; the normal test suite replays the saved inputs
/// (`Tests/FlowLensFuzzingTests/Regressions/<target>/`) through the same functions in a debug
/// build, so a fixed bug stays fixed without a fuzzer on the machine. The bodies live in a library,
/// not in the fuzzer's executable, for that reason: one place, two callers.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The declarative loader on a `*.flow.yaml` file.
    case yaml
    /// The declarative loader on a `*.flow.json` file.
    case json
    /// The Swift loader, seeded with Flow-iOS flows and operations.
    case flowios
    /// The Swift loader, seeded with FlowState flows.
    case flowstate
    /// The Swift loader, seeded with Syrup flows.
    case syrup
    /// The Elevate (Ruby) loader.
    case elevate
    /// The FlowKit PlantUML loader, with its preprocessor.
    case plantuml
    /// A flow graph decoded from the bytes, drawn as DOT and parsed back by Graphviz (`agmemread`);
    /// also the export file names.
    case dot
    /// A flow graph decoded from the bytes, laid out by Graphviz as SVG (a sample of the inputs, see
    /// `FuzzTarget.svgSample`) and parsed as XML.
    case svg
    /// A flow graph decoded from the bytes, as Mermaid text and Markdown.
    case mermaid
    /// A flow graph decoded from the bytes, as the HTML review page.
    case review
    /// A flow graph decoded from the bytes, as SARIF, JSON, JUnit, Checkstyle, GitHub annotations
    /// and the other report formats.
    case reports

    /// The loader targets.
    public static let loaders: [FuzzTarget] = [.yaml, .json, .flowios, .flowstate, .syrup, .elevate, .plantuml]

    /// The file name an input of a loader target is read as (it chooses the loader), or nil for a
    /// writer target.
    public var fileName: String? {
        switch self {
        case .yaml: return "fuzz.flow.yaml"
        case .json: return "fuzz.flow.json"
        case .flowios, .flowstate, .syrup: return "Fuzz.swift"
        case .elevate: return "fuzz.rb"
        case .plantuml: return "fuzz.puml"
        case .dot, .svg, .mermaid, .review, .reports: return nil
        }
    }

    /// The invariants `data` breaks in this target (empty when it breaks none). Never crashes or
    /// hangs on any input: a crash or a hang is itself the bug the fuzzer reports.
    ///
    /// `renderEverySVG`: whether the `svg` target lays out every input (the regression replay) or
    /// only `svgSample` of them (the fuzzer, see `svgSample`).
    public func violations(_ data: Data, renderEverySVG: Bool = true) -> [String] {
        switch self {
        case .yaml, .json, .flowios, .flowstate, .syrup, .elevate, .plantuml:
            return LoaderChecks.violations(text: String(decoding: data, as: UTF8.self), fileName: fileName!)
        case .dot: return WriterChecks.dot(FuzzGraph.report(from: data))
        case .svg:
            guard renderEverySVG || FuzzTarget.isSVGSample(data) else { return WriterChecks.dot(FuzzGraph.report(from: data)) }
            return WriterChecks.svg(FuzzGraph.report(from: data))
        case .mermaid: return WriterChecks.mermaid(FuzzGraph.report(from: data))
        case .review: return WriterChecks.review(FuzzGraph.report(from: data))
        case .reports: return WriterChecks.reports(FuzzGraph.report(from: data))
        }
    }

    /// One input in `svgSample` is laid out by Graphviz in the fuzzer; the others only have their
    /// DOT parsed back. A layout loads a fresh copy of Graphviz's dot plugin (see `Graphviz`) and
    /// costs milliseconds, a hundred times the rest of the target: laying out every input would
    /// cap the target at a few hundred executions a second. The choice is a hash of the input, so a
    /// saved input is always laid out again when replayed.
    public static let svgSample = 16

    /// Whether `data` is one of the inputs the fuzzer lays out.
    static func isSVGSample(_ data: Data) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash % UInt64(svgSample) == 0
    }
}
