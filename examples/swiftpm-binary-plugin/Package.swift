// swift-tools-version:6.0
// An app's package that checks its flows with FlowLens's binary plugins: `swift build` runs the
// prebuilt `flowlens` of FlowLensPlugins' artifact bundle (no FlowLens or swift-syntax to compile).
import PackageDescription

let package = Package(
    name: "OrdersExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In your app: the FlowLensPlugins package of your fork of FlowLens, with a released bundle.
        .package(name: "FlowLensPlugins", path: "../../FlowLensPlugins"),
    ],
    targets: [
        .target(
            name: "Orders",
            resources: [.copy("Flows")],
            plugins: [.plugin(name: "FlowLensBuildToolPlugin", package: "FlowLensPlugins")]),
    ],
    swiftLanguageModes: [.v6]
)
