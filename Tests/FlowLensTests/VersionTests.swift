import FlowLens
import FlowLensTestSupport
import Foundation
import Testing

/// The versions of the packages SwiftPM resolved for this build (`.build/workspace-state.json`,
/// written by every `swift build`), by the last path component of their URL (`swift-syntax`, `Yams`).
private let resolvedVersions: [String: String]? = {
    guard let data = FileManager.default.contents(atPath: packageRoot + "/.build/workspace-state.json"),
          let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let object = json["object"] as? [String: Any],
          let dependencies = object["dependencies"] as? [[String: Any]] else { return nil }
    var versions: [String: String] = [:]
    for dependency in dependencies {
        guard let reference = dependency["packageRef"] as? [String: Any],
              let location = reference["location"] as? String ?? reference["identity"] as? String,
              let state = dependency["state"] as? [String: Any],
              let checkout = state["checkoutState"] as? [String: Any],
              let version = checkout["version"] as? String else { continue }
        let name = URL(fileURLWithPath: location).deletingPathExtension().lastPathComponent
        versions[name.lowercased()] = version
    }
    return versions
}()

/// The packages `Package.swift` depends on: the last path component of each `.package(url:)`.
private func declaredPackages() throws -> [String] {
    let manifest = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
    let pattern = try NSRegularExpression(pattern: #"\.package\(url: "[^"]*/([^"/]+?)(?:\.git)?""#)
    return pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).map {
        String(manifest[Range($0.range(at: 1), in: manifest)!])
    }
}

@Suite("The version and what it is built with")
struct VersionTests {
    @Test("--version --verbose names the version and every package it is built with")
    func verboseVersion() throws {
        for arguments in [["--version", "--verbose"], ["--verbose", "--version"]] {
            let run = try flowlens(arguments)
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "flowlens \(FlowLensTool.version)")
            for dependency in FlowLensTool.dependencies {
                #expect(lines.contains("\(dependency.name): \(dependency.version)"), "\(run.stdout)")
            }
        }
        #expect(try flowlens(["--version"]).stdout == FlowLensTool.version + "\n")
    }

    @Test("every package Package.swift names is listed, once")
    func everyPackageListed() throws {
        let declared = try declaredPackages()
        #expect(declared.count == 3)
        #expect(declared.map { $0.lowercased() }.sorted() == FlowLensTool.dependencies.map { $0.name.lowercased() }.sorted())
    }

    @Test("the versions named are those SwiftPM resolved for this build",
          .enabled(if: resolvedVersions != nil, "no .build/workspace-state.json: built with another scratch path"))
    func versionsMatchTheBuild() throws {
        let resolved = try #require(resolvedVersions)
        for dependency in FlowLensTool.dependencies {
            #expect(resolved[dependency.name.lowercased()] == dependency.version,
                    "Sources/FlowModel/Version.swift names \(dependency.name) \(dependency.version), the build resolved \(resolved[dependency.name.lowercased()] ?? "nothing"): update FlowLensTool.dependencies")
        }
    }

    @Test("the version is a semantic version, and the changelog has an entry for it")
    func changelogEntry() throws {
        #expect(FlowLensTool.version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?/) != nil)
        let changelog = try String(contentsOfFile: packageRoot + "/CHANGELOG.md", encoding: .utf8)
        #expect(changelog.contains("## [\(FlowLensTool.version)]"))
    }
}
