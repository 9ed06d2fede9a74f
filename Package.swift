// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FlowLens",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flowlens", targets: ["flowlens"]),
        .library(name: "FlowLens", targets: ["FlowLens"]),
        .library(name: "FlowLensTesting", targets: ["FlowLensTesting"]),
        .plugin(name: "FlowLensCommandPlugin", targets: ["FlowLensCommandPlugin"]),
        .plugin(name: "FlowLensBuildToolPlugin", targets: ["FlowLensBuildToolPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The IR every loader produces and every rule, reporter and renderer consumes. No dependencies.
        .target(name: "FlowModel"),
        // One folder per flow library (its dialect: kind, loader, conventions, its own rules) and the
        // loading machinery they share; the only module that imports a parser (Yams, swift-syntax).
        .target(name: "FlowLoaders", dependencies: [
            "FlowModel",
            "FlowRules",
            "FlowTrace",
            .product(name: "Yams", package: "Yams"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
        ]),
        // The core rules, one a file (Rules/), and the shared graph/data-flow analysis; the rule
        // registry is in FlowLoaders, beside the dialects whose rules it also lists.
        .target(name: "FlowRules", dependencies: ["FlowModel", "FlowPresentation"]),
        // What every output says and how it escapes it, written once: a step's rows, a flow's status,
        // finding phrases, severity marks, and one escaper per output language. Pure text, no Graphviz,
        // so that reporters and renderers both read it.
        .target(name: "FlowPresentation", dependencies: ["FlowModel"]),
        // Pure functions: findings + graphs -> text.
        .target(name: "FlowReporters", dependencies: ["FlowModel", "FlowRules", "FlowPresentation"]),
        // Graphviz, linked in-process: Debian's libgraphviz-dev, or Homebrew's graphviz on macOS (with pkg-config).
        .systemLibrary(name: "CGraphviz", pkgConfig: "libgvc", providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]),
        // DOTBuilder (pure) and the one file that calls the C library.
        .target(name: "FlowRendering", dependencies: ["FlowModel", "FlowPresentation", "CGraphviz"]),
        // Flows from live objects (Mirror), and the protocols custom engines adopt to describe themselves.
        .target(name: "FlowReflection", dependencies: ["FlowModel", "FlowLoaders"]),
        // What a flow graph does when it runs, executable: the semantics the analyzer is checked against.
        .target(name: "FlowSemantics", dependencies: ["FlowModel"]),
        // Recorded runs replayed on the flow graph (issue 19): what paths runs take, where they fail.
        .target(name: "FlowTrace", dependencies: ["FlowModel", "FlowRules"]),
        // The library facade: load -> analyze -> report/render.
        .target(name: "FlowLens", dependencies: ["FlowModel", "FlowLoaders", "FlowRules", "FlowPresentation", "FlowReporters", "FlowRendering", "FlowReflection", "FlowTrace"]),
        // Test helpers (Swift Testing and XCTest) that fail a test on a flow defect.
        .target(name: "FlowLensTesting", dependencies: ["FlowLens"]),
        // Throughput of `check` against swift-syntax parsing alone, measured in one run (release build).
        .executableTarget(name: "FlowLensBenchmarks", dependencies: ["FlowLens", "FlowLensTestSupport"]),
        // The fuzz targets' bodies, one function per loader and writer (docs/reliability.md); a library so
        // that the fuzzer and the tests' replay of its saved inputs run the same code.
        .target(name: "FlowLensFuzzing", dependencies: ["FlowLens", "FlowLoaders"]),
        // libFuzzer's entry point in the fuzz build (scripts/fuzz.sh: -D FUZZING); otherwise a replay CLI.
        .executableTarget(name: "flowlens-fuzz", dependencies: ["FlowLensFuzzing"]),
        // The thin CLI.
        .executableTarget(name: "flowlens", dependencies: ["FlowLens", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `swift package flowlens check`, and `flowlens check` on a target's files during `swift build`
        // (see docs/ci.md, "SwiftPM plugins"; examples/swiftpm-plugin uses both).
        .plugin(name: "FlowLensCommandPlugin",
                capability: .command(intent: .custom(verb: "flowlens", description: "Check the package's flows with FlowLens: swift package flowlens [check|export|rules …] [--target NAME] [options] [paths] (no paths: every target's folder)")),
                dependencies: ["flowlens"]),
        .plugin(name: "FlowLensBuildToolPlugin", capability: .buildTool(), dependencies: ["flowlens"]),

        // Helpers shared by the test targets (in-memory loading, golden files); not part of the product.
        .target(name: "FlowLensTestSupport", dependencies: ["FlowLoaders", "FlowRules"], path: "Tests/Support"),
        .testTarget(name: "FlowModelTests", dependencies: ["FlowModel"]),
        .testTarget(name: "FlowLoadersTests", dependencies: ["FlowLoaders", "FlowRules", "FlowLensTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FlowRulesTests", dependencies: ["FlowRules", "FlowTrace", "FlowSemantics", "FlowLensTestSupport"]),
        .testTarget(name: "FlowReportersTests", dependencies: ["FlowReporters", "FlowPresentation", "FlowLensTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "FlowRenderingTests", dependencies: ["FlowRendering", "FlowPresentation", "FlowLensTestSupport"], exclude: ["Golden"]),
        // Depends on the executable so that `swift test` builds the binary its end-to-end tests run.
        .testTarget(name: "FlowLensTests", dependencies: ["FlowLens", "flowlens", "FlowLensTestSupport"], exclude: ["Golden"]),
        // Replays every saved fuzz input (crashes and slow inputs once found) through its target.
        .testTarget(name: "FlowLensFuzzingTests", dependencies: ["FlowLensFuzzing", "FlowLensTestSupport"], exclude: ["Regressions"]),
        .testTarget(name: "FlowTraceTests", dependencies: ["FlowTrace", "FlowLoaders", "FlowRules", "FlowLensTestSupport"]),
        .testTarget(name: "FlowReflectionTests", dependencies: ["FlowLensTesting", "FlowLensTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
