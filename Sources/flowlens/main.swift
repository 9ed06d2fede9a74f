import ArgumentParser
import Foundation

// ArgumentParser exits 64 on usage errors; FlowLens documents 2 for every usage or input error.
do {
    var command = try FlowLensCommand.parseAsRoot()
    try command.run()
} catch {
    let code = FlowLensCommand.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((FlowLensCommand.fullMessage(for: error) + "\n").utf8))
        exit(Status.invalidInputOrUsage)
    }
    if error is ExitCode || code == .success { FlowLensCommand.exit(withError: error) }
    if let failure = error as? CommandFailure {
        FileHandle.standardError.write(Data("flowlens: error: \(failure.description)\n".utf8))
        exit(Status.invalidInputOrUsage)
    }
    FileHandle.standardError.write(Data("flowlens: error: \(FlowLensCommand.message(for: error))\n".utf8))
    exit(Status.invalidInputOrUsage)
}
