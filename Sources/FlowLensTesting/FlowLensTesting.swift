@_exported import FlowLens
import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Test helpers that fail a test when a flow has defects, with the findings printed as text.
///
/// ```swift
/// import FlowLensTesting
///
/// @Test func checkoutFlowIsSound() throws {
///     let graph = try FlowReflector().graph(of: makeCheckoutFlow())
///     expectNoFlowDefects(graph)                       // Swift Testing
/// }
///
/// func testCheckoutFlow() throws {
///     XCTAssertNoFlowDefects(try FlowReflector().graph(of: makeCheckoutFlow()))   // XCTest
/// }
/// ```
public enum FlowLensTesting {
    /// The findings that fail a test: errors, and warnings too when `strict` (`ExitPolicy`, as
    /// `flowlens check --strict` decides).
    public static func failures(in report: Report, strict: Bool) -> [Finding] {
        ExitPolicy(strict: strict).failures(in: report.findings)
    }

    /// The message a failing test prints: a summary line, then each failing finding as `flowlens check`
    /// prints it, with its flow and step (reflected flows have no file and line). No final newline.
    public static func message(for failures: [Finding], in report: Report) -> String {
        let count = failures.count
        var lines = ["\(Plural.count(count, "flow defect")) in \(report.graph.flows.map(\.name).joined(separator: ", ")):"]
        for finding in failures {
            let place = finding.location.map { "\($0): " } ?? ""
            let step = finding.step.map { " (flow '\(finding.flow ?? "?")', step '\($0)')" } ?? finding.flow.map { " (flow '\($0)')" } ?? ""
            lines.append("  \(place)\(finding.severity.rawValue): \(finding.message)\(step) [\(finding.rule)]")
        }
        return lines.joined(separator: "\n")
    }
}

/// Records a Swift Testing issue for every error (and, when `strict`, warning) FlowLens finds in `graph`
/// (`FlowLens.analyze`: as `flowlens check` would, under the `.flowlens.yml` of the working directory).
/// Returns the report, for further expectations.
@discardableResult
public func expectNoFlowDefects(_ graph: FlowGraph, strict: Bool = false,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Report {
    let report = FlowLens.analyze(graph)
    let failures = FlowLensTesting.failures(in: report, strict: strict)
    if !failures.isEmpty {
        Issue.record(Comment(rawValue: FlowLensTesting.message(for: failures, in: report)), sourceLocation: sourceLocation)
    }
    return report
}

#if canImport(XCTest)
/// Fails an XCTest test for every error (and, when `strict`, warning) FlowLens finds in `graph`.
@discardableResult
public func XCTAssertNoFlowDefects(_ graph: FlowGraph, strict: Bool = false,
                                   file: StaticString = #filePath, line: UInt = #line) -> Report {
    let report = FlowLens.analyze(graph)
    let failures = FlowLensTesting.failures(in: report, strict: strict)
    if !failures.isEmpty {
        XCTFail(FlowLensTesting.message(for: failures, in: report), file: file, line: line)
    }
    return report
}
#endif
