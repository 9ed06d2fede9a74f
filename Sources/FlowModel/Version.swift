/// FlowLens's name and version as reports state them: the one place the version is written.
/// `scripts/release.sh`, `scripts/make-artifact-bundle.sh`, the CLI's `--version`, the reports and the
/// cache all read it from here.
public enum FlowLensTool {
    /// The tool name.
    public static let name = "flowlens"
    /// The version, following semantic versioning.
    public static let version = "0.1.0"

    /// A package FlowLens is built with, and its version.
    public struct Dependency: Sendable, Equatable {
        /// The package's name, as its URL in `Package.swift` ends (`swift-syntax`, `Yams`).
        public let name: String
        /// The released version of the package FlowLens is built with.
        public let version: String
    }

    /// The packages FlowLens is built with, as `flowlens --version --verbose` names them. Findings can
    /// depend on swift-syntax's parser, so a report is only reproducible with the same versions.
    ///
    /// `Package.resolved` is not committed, so these are kept here and checked: a test
    /// (`VersionTests`) fails when they differ from the versions SwiftPM resolved for the build
    /// (`.build/workspace-state.json`), and `scripts/release.sh` refuses to release a binary whose
    /// resolved versions differ from them.
    public static let dependencies: [Dependency] = [
        Dependency(name: "swift-argument-parser", version: "1.8.2"),
        Dependency(name: "swift-syntax", version: "603.0.1"),
        Dependency(name: "Yams", version: "6.2.2"),
    ]

    /// `flowlens --version --verbose`: the version, then one line per package it is built with.
    public static var verboseVersion: String {
        var lines = ["\(name) \(version)"]
        for dependency in dependencies { lines.append("\(dependency.name): \(dependency.version)") }
        return lines.joined(separator: "\n")
    }
}
