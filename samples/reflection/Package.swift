// swift-tools-version:6.0
// An app's package that checks its run-time-assembled flows with FlowLens in its own tests.
import PackageDescription

let package = Package(
    name: "CheckoutExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In your app: .package(url: "<your fork's URL of FlowLens>", from: "0.1.0")
        .package(name: "FlowLens", path: "../.."),
    ],
    targets: [
        // The app code: no dependency on FlowLens.
        .target(name: "Checkout"),
        // The tests reflect the live flows and fail on a defect.
        .testTarget(name: "CheckoutTests", dependencies: [
            "Checkout",
            .product(name: "FlowLensTesting", package: "FlowLens"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
