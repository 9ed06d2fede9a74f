import Foundation
import PackagePlugin

/// `swift package flowlens [subcommand] [options] [paths]`: runs the `flowlens` executable (built
/// from this package) with the arguments given, from the package's folder.
///
/// - No arguments: `flowlens check` over every target's source folder.
/// - `check` or `export` with no paths: the source folders of the targets named with `--target`
///   (repeatable), else of every target, are added. Give `.` to check the whole package instead.
/// - Anything else (`rules`, `--help`, paths) is passed through unchanged.
///
/// The plugin exits with `flowlens`'s status; SwiftPM reports a non-zero one as a failed command.
@main
struct FlowLensCommandPlugin: CommandPlugin {
    /// `check` and `export` options that take a value, so that their values are not taken for paths.
    static let optionsWithValues: Set<String> = [
        "--config", "--max-warnings", "--baseline", "--write-baseline", "--define", "--cache-path",
        "--format", "--color", "--output", "-o",
    ]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var forwarded = extractor.remainingArguments
        if forwarded.isEmpty { forwarded = ["check"] }
        if ["--help", "-h", "help"].contains(forwarded[0]) {
            print(Self.usage)
            forwarded = ["--help"]
        }

        if ["check", "export"].contains(forwarded[0]), !Self.hasPaths(Array(forwarded.dropFirst())) {
            let targets = try targetNames.isEmpty ? context.package.targets : context.package.targets(named: targetNames)
            let folders = targets.compactMap { target in
                ((target as? SwiftSourceModuleTarget)?.directoryURL ?? (target as? ClangSourceModuleTarget)?.directoryURL)?.path
            }
            forwarded += folders.map { Self.relative($0, to: context.package.directoryURL.path) }
        }

        let process = Process()
        process.executableURL = try context.tool(named: "flowlens").url
        process.arguments = forwarded
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            exit(process.terminationReason == .exit ? process.terminationStatus : 2)
        }
    }

    static let usage = """
        USAGE: swift package flowlens [<subcommand>] [--target <name> ...] [<options>] [<path> ...]

        Runs FlowLens's 'flowlens' (built from the FlowLens package) in this package's folder with
        the arguments given. With no arguments it runs 'flowlens check' on every target's folder;
        'check' or 'export' without paths check the folders of the targets named with --target
        (repeatable), else of every target. Give '.' to check the whole package. The exit status is
        flowlens's (0 clean, 1 findings fail, 2 invalid input or usage), reported by SwiftPM as a
        failed plugin when it is not 0.

        EXAMPLES
          swift package flowlens
          swift package flowlens check --target Returns --format sarif > flowlens.sarif
          swift package flowlens rules

        flowlens's own help follows.

        """

    /// Whether the arguments after the subcommand name any path.
    static func hasPaths(_ arguments: [String]) -> Bool {
        var skipValue = false
        for argument in arguments {
            if skipValue { skipValue = false; continue }
            if argument == "--" { return true }
            if argument.hasPrefix("-") {
                skipValue = optionsWithValues.contains(argument)
                continue
            }
            return true
        }
        return false
    }

    /// `path` relative to `base` when inside it, so findings name files as the package does.
    static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
