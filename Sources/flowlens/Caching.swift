import FlowLens
import Foundation

/// `--cache-path`: the cache a run loads through, and what it says about it on standard error.
extension LoadCache {
    /// The cache at `path`, for this executable: its version, size and modification date name the
    /// build, so a cache written by another build of FlowLens (whose loaders may differ) is not used.
    static func forCommandLine(path: String) -> LoadCache {
        var identity = FlowLensTool.version
        if let executable = Bundle.main.executablePath,
           let attributes = try? FileManager.default.attributesOfItem(atPath: executable) {
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            identity += " \(size) \(date)"
        }
        let cache = LoadCache(path: path, toolIdentity: identity)
        if let reason = cache.ignoredReason {
            Output.error("flowlens: warning: ignoring the cache '\(path)' (\(reason)); it is rewritten\n")
        }
        return cache
    }

    /// Saves the cache and prints `cache: reused N of M files` (not with `--quiet`). A cache that
    /// cannot be written is a warning, not a failure: the findings are the same without it.
    func finishCommandLineRun(quiet: Bool = false) {
        do {
            try save()
        } catch {
            Output.error("flowlens: warning: cannot write the cache '\(path ?? "")': \(WriteFailure.cause(of: error))\n")
        }
        if quiet { return }
        let (reused, parsed) = statistics
        let total = reused + parsed
        Output.error("cache: reused \(reused) of \(Plural.count(total, "file"))\n")
    }
}
