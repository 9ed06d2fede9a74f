import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The width and height in pixels of a PNG, from its IHDR chunk (the first, after the 8-byte signature).
private func pixelSize(_ png: Data) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](png)
    try #require(bytes.count > 24 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && Array(bytes[12..<16]) == Array("IHDR".utf8))
    func number(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(at: 16), number(at: 20))
}

/// Two flows of different shapes and a state machine, so that sizes are checked on more than one picture.
private let returnsYAML = """
    version: 1
    flows:
      - name: Parcel return
        data: {orderID: String, reason: String}
        steps:
          - id: classify
            name: Classify the reason
            kind: branch
            reads: {reason: String}
            next:
              - {to: label, when: {key: reason, equals: damaged}}
              - {to: inspect}
          - {id: inspect, name: Inspect at the depot, writes: {verdict: Verdict}, next: label}
          - {id: label, name: Print the return label, reads: {orderID: String}, writes: {labelURL: URL}, next: done}
          - {id: done, name: Return booked, kind: end}
      - name: Refund
        steps:
          - {id: pay, name: Pay back the card, next: mail}
          - {id: mail, name: Mail the receipt, kind: end}
    """

private let lockerPUML = """
    @startuml
    title Parcel locker
    [*] --> Closed
    Closed : door locked
    Closed --> Open : code typed
    Open : door open, waiting for the parcel
    Open --> Closed : door shut
    Open --> [*] : parcel taken
    @enduml
    """

@Suite("PNG scale (export --scale)", .serialized)
struct PNGScaleTests {
    /// Writes the test flows into a new folder; returns it.
    private func inputs() throws -> String {
        let folder = try temporaryDirectory()
        try returnsYAML.write(toFile: folder + "/returns.flow.yaml", atomically: true, encoding: .utf8)
        try lockerPUML.write(toFile: folder + "/locker.puml", atomically: true, encoding: .utf8)
        return folder
    }

    @Test("a PNG's pixel size grows with the scale, for every flow; SVG and PDF are the same at any scale")
    func sizeGrowsWithScale() throws {
        let folder = try inputs()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = FlowLens.check([folder])
        #expect(report.graph.flows.count == 3)
        for flow in report.graph.flows {
            let dot = FlowLens.dot(for: flow, in: report)
            let natural = try pixelSize(Exporter.render(dot, format: .png))
            #expect(natural.width > 50 && natural.height > 50, "\(flow.name)")
            for scale in [0.5, 1.5, 2, 3] {
                let scaled = try pixelSize(Exporter.render(dot, format: .png, scale: scale))
                // Graphviz rounds the page to whole pixels, each side (and a half pixel of padding).
                #expect(abs(Double(scaled.width) - Double(natural.width) * scale) <= 2 + scale, "\(flow.name) × \(scale): \(scaled) from \(natural)")
                #expect(abs(Double(scaled.height) - Double(natural.height) * scale) <= 2 + scale, "\(flow.name) × \(scale): \(scaled) from \(natural)")
            }
            #expect(try Exporter.render(dot, format: .svg, scale: 2) == Exporter.render(dot, format: .svg))
            #expect(try Exporter.render(dot, format: .png, scale: 1) == Exporter.render(dot, format: .png))
        }
    }

    @Test("a scale that is not a number above 0 and at most the maximum is an error, not a picture", arguments: [0, -1, .nan, .infinity, 10.5, 1000])
    func invalidScaleThrows(_ scale: Double) {
        #expect(!Graphviz.isValidScale(scale))
        #expect(throws: GraphvizError.self) { try Graphviz.render(dot: "digraph { a -> b }", format: .png, scale: scale) }
    }

    @Test("export --format png --scale 2 writes every PNG twice as large in pixels as without --scale")
    func cliScale() throws {
        let folder = try inputs()
        let plain = try temporaryDirectory(), doubled = try temporaryDirectory()
        defer { for path in [folder, plain, doubled] { try? FileManager.default.removeItem(atPath: path) } }
        let first = try flowlens(["export", folder, "--output", plain, "--format", "png"])
        let second = try flowlens(["export", folder, "--output", doubled, "--format", "png", "--scale", "2"])
        #expect(first.status == second.status && first.stdout == second.stdout, "\(second.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: plain).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names == ["Parcel-locker.png", "Parcel-return.png", "Refund.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: doubled).filter { $0.hasSuffix(".png") }.sorted() == names)
        for name in names {
            let small = try pixelSize(try #require(FileManager.default.contents(atPath: plain + "/" + name)))
            let large = try pixelSize(try #require(FileManager.default.contents(atPath: doubled + "/" + name)))
            #expect(abs(large.width - 2 * small.width) <= 4 && abs(large.height - 2 * small.height) <= 4, "\(name): \(small) → \(large)")
        }
    }

    @Test("--scale is validated: a positive number up to 10, and only with --format png; nothing is written otherwise",
          arguments: [(["--format", "png", "--scale", "0"], "above 0"), (["--format", "png", "--scale=-2"], "above 0"),
                      (["--format", "png", "--scale", "nan"], "above 0"), (["--format", "png", "--scale", "inf"], "above 0"),
                      (["--format", "png", "--scale", "12"], "at most 10"), (["--format", "png", "--scale", "two"], "--scale"),
                      (["--scale", "2"], "--format png"), (["--format", "pdf", "--scale", "2"], "--format png")])
    func cliValidation(_ options: [String], _ message: String) throws {
        let folder = try inputs()
        let output = folder + "/out"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try flowlens(["export", folder, "--output", output] + options)
        #expect(run.status == 2, "\(options): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(options): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(options) wrote files")
    }

    @Test("export --help describes --scale")
    func help() throws {
        let run = try flowlens(["export", "--help"])
        let text = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--scale <scale> For --format png: how many times larger than its natural size"), "\(run.stdout)")
        #expect(text.contains("at most 10"))
    }
}
