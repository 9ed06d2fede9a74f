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
}
