import FlowLensFuzzing
import Foundation

// Two programs from one file (docs/reliability.md):
// - the fuzz build (scripts/fuzz.sh: release, `-sanitize=fuzzer,address -D FUZZING`) is a libFuzzer
//   binary: libFuzzer's `main` calls `LLVMFuzzerTestOneInput` below with each input, and the target
//   is chosen by FLOWLENS_FUZZ_TARGET (libFuzzer owns argv; an environment variable passes through
//   it and its -fork/-jobs children untouched);
// - the normal build is `flowlens-fuzz TARGET FILE|FOLDER...`, which replays saved inputs (a crash
//   libFuzzer wrote, a corpus) through the same target functions, without a sanitizer or libFuzzer.

#if FUZZING
/// The target of this process, read once.
let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FLOWLENS_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("FLOWLENS_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
    }
    return target
}()

/// libFuzzer's entry point: traps (a crash libFuzzer saves) when the input breaks an invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    let problems = fuzzTarget.violations(data, renderEverySVG: false)
    if !problems.isEmpty { fatalError("fuzz target \(fuzzTarget.rawValue): " + problems.joined(separator: "\n")) }
    return 0
}

/// libFuzzer's driver (the `main` of `-sanitize=fuzzer` calls it too).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The executable's entry point: SwiftPM links an executable target's `main` to `<module>_main`
/// (so that tests can link the module), which the fuzz build, without `@main`, must define. It hands
/// the command line to libFuzzer, as libFuzzer's own `main` would.
@_cdecl("flowlens_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in fuzzTestOneInput(bytes, size) }
}
#else
@main
struct FlowLensFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let usage = """
                usage: flowlens-fuzz TARGET FILE|FOLDER...
                Replays fuzz inputs through a fuzz target and prints the invariants each breaks.
                Targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))

                """
            FileHandle.standardError.write(Data(usage.utf8))
            exit(arguments.first == "--help" ? 0 : 2)
        }
        var failed = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("\(file): cannot read")
                    failed += 1
                    continue
                }
                let start = DispatchTime.now()
                let problems = target.violations(data)
                let milliseconds = (DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
                if problems.isEmpty {
                    print("\(file): ok (\(milliseconds) ms)")
                } else {
                    failed += 1
                    print("\(file): \(problems.count) problems (\(milliseconds) ms)")
                    for problem in problems { print("  \(problem)") }
                }
            }
        }
        exit(failed == 0 ? 0 : 1)
    }

    /// The file at `path`, or the files of the folder at `path` (not recursive), sorted.
    static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [path] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
}
#endif
