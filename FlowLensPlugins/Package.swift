// swift-tools-version:6.0
// FlowLens's SwiftPM plugins on a prebuilt `flowlens` (as SwiftLint's SwiftLintPlugins do with
// SwiftLintBinary): a package using them runs the binary in FlowLensBinary.artifactbundle during
// `swift build`, instead of compiling FlowLens and swift-syntax from source first.
//
// The bundle is built, not committed: `scripts/make-artifact-bundle.sh` writes it (a release with the
// standard library linked statically; `--debug` packs the debug binary). The plugins' code is the
// root package's (Plugins/ holds links to it): they ask for the tool `flowlens`, which is the
// artifact's name in the bundle's info.json here and the executable's name there.
import PackageDescription

let package = Package(
    name: "FlowLensPlugins",
    platforms: [.macOS(.v13)],
    products: [
        .plugin(name: "FlowLensBuildToolPlugin", targets: ["FlowLensBuildToolPlugin"]),
        .plugin(name: "FlowLensCommandPlugin", targets: ["FlowLensCommandPlugin"]),
    ],
    targets: [
        // Local use: the bundle scripts/make-artifact-bundle.sh builds. A release points this target at
        // its bundle instead: `scripts/release.sh VERSION` prints the .binaryTarget(name:url:checksum:)
        // lines to paste here (see docs/releases.md).
        .binaryTarget(name: "FlowLensBinary", path: "FlowLensBinary.artifactbundle"),
        .plugin(name: "FlowLensBuildToolPlugin", capability: .buildTool(), dependencies: ["FlowLensBinary"]),
        .plugin(name: "FlowLensCommandPlugin",
                capability: .command(intent: .custom(verb: "flowlens", description: "Check the package's flows with FlowLens: swift package flowlens [check|export|rules …] [--target NAME] [options] [paths] (no paths: every target's folder)")),
                dependencies: ["FlowLensBinary"]),
    ]
)
