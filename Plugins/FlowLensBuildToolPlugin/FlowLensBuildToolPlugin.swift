import Foundation
import PackagePlugin

/// Runs `flowlens check` on a target's flow files (Swift sources, `*.flow.yaml`/`.yml`/`.json`,
/// `*.rb`, `*.puml`/`*.plantuml` among its sources and resources) as part of `swift build`.
///
/// Findings are printed as `file:line:col: error|warning: message [rule-id]`, which SwiftPM and Xcode
/// show as diagnostics; an error finding fails the build (so would warnings with `--strict` in
/// `.flowlens.yml`'s `output`). The command's declared output is an empty Swift file that
/// `flowlens check --touch` writes when the check passes, and its inputs are the flow files and every
/// `.flowlens.yml` from the package's folder down to theirs: the check reruns when one of them changes.
@main
struct FlowLensBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.flatMap { Self.files(at: $0.url) }.filter { Self.isFlowFile($0.lastPathComponent) }
            .sorted { $0.path < $1.path }
        guard !files.isEmpty else { return [] }
        let configurations = Self.configurations(of: files, in: context.package.directoryURL)
        let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("FlowLensChecked\(target.name).swift")
        return [
            .buildCommand(
                displayName: "FlowLens: checking \(files.count) file\(files.count == 1 ? "" : "s") of \(target.name)",
                executable: try context.tool(named: "flowlens").url,
                arguments: ["check", "--format", "text", "--color", "never", "--touch", stamp.path] + files.map(\.path),
                inputFiles: files + configurations,
                outputFiles: [stamp]),
        ]
    }

    /// Every `.flowlens.yml` that governs one of `files`: in the folder of each and in the folders
    /// above it up to the package's (nested files merge, so a change to any of them reruns the check).
    static func configurations(of files: [URL], in package: URL) -> [URL] {
        let root = package.standardizedFileURL.path
        var folders = Set<String>()
        for file in files {
            var folder = file.deletingLastPathComponent().standardizedFileURL.path
            while folder.hasPrefix(root), folders.insert(folder).inserted, folder != root {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        return folders.sorted().map { URL(fileURLWithPath: $0).appendingPathComponent(".flowlens.yml") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The file at `url`, or the files in it when it is a folder (a resource such as `.copy("Flows")`).
    static func files(at url: URL) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return [url] }
        let walked = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        return (walked?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    /// The files `flowlens` reads, by name (as `flowlens check` chooses them in a folder).
    static func isFlowFile(_ name: String) -> Bool {
        let name = name.lowercased()
        return [".flow.yaml", ".flow.yml", ".flow.json", ".swift", ".rb", ".puml", ".plantuml"].contains { name.hasSuffix($0) }
    }
}
