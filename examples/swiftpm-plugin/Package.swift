// swift-tools-version:6.0
// An app's package that checks its flows with FlowLens's SwiftPM plugins: on every `swift build`
// (the build-tool plugin) and on demand (`swift package flowlens check`, the command plugin).
import PackageDescription

let package = Package(
    name: "ReturnsExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In your app: .package(url: "<your fork's URL of FlowLens>", from: "0.1.0")
        .package(name: "FlowLens", path: "../.."),
    ],
    targets: [
        // The app code, with its flow as a resource. The build-tool plugin checks the target's flow
        // files (here Flows/return-item.flow.yaml and the Swift sources) before compiling it.
        .target(
            name: "Returns",
            resources: [.copy("Flows")],
            plugins: [.plugin(name: "FlowLensBuildToolPlugin", package: "FlowLens")]),
    ],
    swiftLanguageModes: [.v6]
)
