import FlowModel
import Testing

/// A nested `.flowlens.yml`'s patterns, rebased onto the folder of the file above it, match exactly the
/// files they matched relative to their own folder, and nothing outside it.
@Suite("Glob patterns rebased for nested configuration files")
struct GlobTests {
    @Test("each shape of pattern keeps its meaning under the nested folder", arguments: [
        // pattern, nested folder, a path relative to the outer folder, matches
        ("Drafts/", "Modules/Payments", "Modules/Payments/Drafts/a.flow.yaml", true),
        ("Drafts/", "Modules/Payments", "Drafts/a.flow.yaml", false),
        ("*.puml", "App", "App/Login/Login.puml", true),
        ("*.puml", "App", "Other/Login.puml", false),
        ("./Legacy/**", "App/Sub", "App/Sub/Legacy/x/y.rb", true),
        ("./Legacy/**", "App/Sub", "App/Legacy/y.rb", false),
        ("**/Generated/**", "Kit", "Kit/a/Generated/b.swift", true),
        ("**/Generated/**", "Kit", "Generated/b.swift", false),
        ("Flows/?.flow.json", "Kit", "Kit/Flows/a.flow.json", true),
        ("Flows/?.flow.json", "Kit", "Kit/Flows/ab.flow.json", false),
    ])
    func rebased(pattern: String, folder: String, path: String, matches: Bool) {
        let rebased = Glob.rebased(pattern, under: folder)
        #expect(Glob.matches(rebased, path) == matches, "\(rebased) on \(path)")
        // Relative to the nested folder, the original pattern says the same of a path inside it.
        if path.hasPrefix(folder + "/") {
            #expect(Glob.matches(pattern, String(path.dropFirst(folder.count + 1))) == matches)
        }
    }

    @Test("a pattern of the outer folder itself is unchanged")
    func sameFolder() {
        for pattern in ["Drafts/", "*.puml", "./a/**"] {
            #expect(Glob.rebased(pattern, under: "") == pattern && Glob.rebased(pattern, under: ".") == pattern)
        }
    }

    /// The matcher before it was made iterative (recursive, backtracking): the reference.
    private static func reference(_ pattern: String, _ path: String) -> Bool {
        func match(_ parts: [String], _ names: [String]) -> Bool {
            guard let first = parts.first else { return names.isEmpty }
            if first == "**" {
                for skip in 0...names.count where match(Array(parts.dropFirst()), Array(names.dropFirst(skip))) { return true }
                return false
            }
            guard let name = names.first, matchName(Array(first), Array(name)) else { return false }
            return match(Array(parts.dropFirst()), Array(names.dropFirst()))
        }
        func matchName(_ pattern: [Character], _ name: [Character]) -> Bool {
            guard let p = pattern.first else { return name.isEmpty }
            switch p {
            case "*":
                for skip in 0...name.count where matchName(Array(pattern.dropFirst()), Array(name.dropFirst(skip))) { return true }
                return false
            case "?": return !name.isEmpty && matchName(Array(pattern.dropFirst()), Array(name.dropFirst()))
            default: return name.first == p && matchName(Array(pattern.dropFirst()), Array(name.dropFirst()))
            }
        }
        var pattern = pattern.hasPrefix("./") ? String(pattern.dropFirst(2)) : pattern
        if pattern.hasSuffix("/") { pattern += "**" }
        if !pattern.contains("/") { pattern = "**/" + pattern }
        return match(pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init), path.split(separator: "/").map(String.init))
    }

    @Test("the matcher says what the recursive one said, on 20,000 random patterns and paths")
    func sameAsTheRecursiveMatcher() {
        var random = TestRandom(state: 0x61_0B)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let pieces = ["a", "b", "ab", "é", "e\u{301}", ".", "flow", "*", "?", "**", "x.flow.yaml"]
        func segment(_ wild: Bool) -> String {
            (0..<(1 + next(3))).map { _ in wild ? pieces[next(pieces.count)] : pieces[next(pieces.count - 4)] }.joined()
        }
        var matched = 0
        for _ in 0..<20_000 {
            let pattern = (0..<(1 + next(4))).map { _ in next(5) == 0 ? "**" : segment(true) }.joined(separator: "/") + (next(6) == 0 ? "/" : "")
            let path = (0..<(1 + next(4))).map { _ in segment(false) }.joined(separator: "/")
            let expected = Self.reference(pattern, path)
            if expected { matched += 1 }
            #expect(Glob.matches(pattern, path) == expected, "\(pattern) on \(path)")
        }
        #expect(matched > 500)
    }

    @Test("a name excluded anywhere (`**/Pods/**`, the default excludes' shape) is decided from the path's bytes as the matcher decides it: ASCII, accents either way, the Kelvin sign, empty names")
    func anywhereNameAsTheMatcher() {
        var random = TestRandom(state: 0x9E37)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let patterns = ["**/Pods/**", "Pods/", "**/.build/**", "**/K/**", "**/Caf\u{E9}/**", "**/Pods/*.swift", "Pods"]
        let names = ["Pods", "pods", "Pod", "Podsx", "xPods", ".build", "build", "K", "\u{212A}", "Caf\u{E9}", "Cafe\u{301}", "a", "", "x.swift"]
        var excluded = 0
        for _ in 0..<20_000 {
            let pattern = patterns[next(patterns.count)]
            let path = (0..<(1 + next(4))).map { _ in names[next(names.count)] }.joined(separator: "/")
            var configuration = Configuration()
            configuration.exclude = [pattern]
            let expected = !Glob.matches(pattern, path)
            if !expected { excluded += 1 }
            #expect(configuration.includes(relativePath: path) == expected, "\(pattern) on \(path)")
        }
        #expect(excluded > 2_000)
    }

    @Test("many stars against a long name take steps, not an exponential search")
    func manyStars() {
        let name = String(repeating: "a", count: 200)
        #expect(!Glob.matches("**/" + String(repeating: "*a", count: 40) + "b", "x/" + name))
        #expect(Glob.matches(String(repeating: "**/", count: 30) + "*a*", String(repeating: "d/", count: 30) + name))
    }
}
