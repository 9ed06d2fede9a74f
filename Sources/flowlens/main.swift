import ArgumentParser
import FlowLens
import Foundation

// ArgumentParser exits 64 on usage errors; FlowLens documents 2 for every usage or input error.
Output.ignoreBrokenPipeSignal()
// `flowlens --version --verbose` (in either order): the version and the packages it is built with.
if Set(CommandLine.arguments.dropFirst()) == ["--version", "--verbose"], CommandLine.arguments.count == 3 {
    print(FlowLensTool.verboseVersion)
    exit(Status.clean)
}
do {
    var command = try FlowLensCommand.parseAsRoot()
    try command.run()
} catch {
    let code = FlowLensCommand.exitCode(for: error)
    if code == .validationFailure {
        Output.error((FlowLensCommand.fullMessage(for: error) + "\n"))
        exit(Status.invalidInputOrUsage)
    }
    if error is ExitCode { FlowLensCommand.exit(withError: error) }
    if code == .success {
        // `--help`, `--version`: printed through `Output`, so that a full disk or a closed pipe is an
        // error (exit 2), not a silent success with nothing written.
        let text = FlowLensCommand.fullMessage(for: error)
        do {
            try Output.write(text.isEmpty || text.hasSuffix("\n") ? text : text + "\n")
        } catch {
            Output.error("flowlens: error: \((error as? CommandFailure)?.description ?? "\(error)")\n")
            exit(Status.invalidInputOrUsage)
        }
        exit(0)
    }
    if let failure = error as? CommandFailure {
        Output.error("flowlens: error: \(failure.description)\n")
        exit(Status.invalidInputOrUsage)
    }
    Output.error("flowlens: error: \(FlowLensCommand.message(for: error))\n")
    exit(Status.invalidInputOrUsage)
}
