import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

@Suite("Every .flowlens.yml value FlowLens does not know is warned about", .serialized)
struct ConfigurationValueCLITests {
    @Test("output: {format: sarf, color: sometimes} is warned about at its line, with a did-you-mean; the defaults apply")
    func misspeltOutputValues() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: packageRoot + "/samples/declarative/checkout.flow.yaml", toPath: root + "/checkout.flow.yaml")
        try "version: 1\noutput:\n  format: sarf\n  color: sometimes\n".write(toFile: root + "/.flowlens.yml", atomically: true, encoding: .utf8)
        let run = try flowlens(["check", "."], in: root)
        #expect(run.stdout.contains(".flowlens.yml:3:11: warning: unknown value 'sarf' for 'format'"), "\(run.stdout)")
        #expect(run.stdout.contains("did you mean 'sarif'?"), "\(run.stdout)")
        #expect(run.stdout.contains(".flowlens.yml:4:10: warning: unknown value 'sometimes' for 'color'"), "\(run.stdout)")
        #expect(run.stdout.contains("[invalid-configuration]"))
        #expect(!run.stdout.hasPrefix("{"), "the default text format applies")
    }

    @Test("the values the reader accepts are exactly the CLI's formats and colour modes")
    func valuesMatchTheCLI() {
        #expect(Configuration.outputFormats == ReportFormat.allCases.map(\.rawValue))
        #expect(Configuration.colorModes == ColorMode.allCases.map(\.rawValue))
    }
}
