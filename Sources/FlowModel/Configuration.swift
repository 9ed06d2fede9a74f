/// A `.flowlens.yml` file: which rules run at which severity, which files are read, and output
/// defaults. Every file in and above an input's folder applies, merged outermost first (or the one
/// given with `--config`); versioned.
public struct Configuration: Hashable, Sendable {
    /// The configuration file format version.
    public static let version = 1

    /// What a configuration says about one rule.
    public enum RuleSetting: Hashable, Sendable {
        /// The rule does not run.
        case off
        /// The rule runs at its default severity.
        case on
        /// The rule runs at this severity.
        case severity(Severity)

        /// The setting a file writes as `text` (`off`, `on`, `error`, `warning`, `note`), or nil.
        public init?(text: String) {
            switch text {
            case "off": self = .off
            case "on": self = .on
            default:
                guard let severity = Severity(rawValue: text) else { return nil }
                self = .severity(severity)
            }
        }

        /// As written in the file.
        public var text: String {
            switch self {
            case .off: return "off"
            case .on: return "on"
            case let .severity(severity): return severity.rawValue
            }
        }
    }

    /// Rule settings for the files matching some paths.
    public struct Override: Hashable, Sendable {
        /// Glob patterns, relative to the configuration file's folder.
        public var paths: [String]
        /// Rule settings that replace the file-wide ones for those paths.
        public var rules: [(String, RuleSetting)]

        public init(paths: [String], rules: [(String, RuleSetting)]) {
            self.paths = paths
            self.rules = rules
        }

        public static func == (a: Override, b: Override) -> Bool {
            a.paths == b.paths && a.rules.map(\.0) == b.rules.map(\.0) && a.rules.map(\.1) == b.rules.map(\.1)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(paths)
            for (id, setting) in rules { hasher.combine(id); hasher.combine(setting) }
        }
    }

    /// The file this configuration was read from (the nearest, when nested files were merged); nil
    /// for the built-in defaults.
    public var file: String?
    /// Every file merged into this configuration, outermost first (one, unless files are nested).
    public var files: [String] = []
    /// The folder patterns are relative to (the outermost file's folder, as given): the patterns of
    /// a nested file are rebased onto it (`Glob.rebased`).
    public var baseDirectory: String
    /// Rule settings, in file order.
    public var rules: [(String, RuleSetting)]
    /// Only files matching one of these are read from folders (all, when empty).
    public var include: [String] { didSet { includePatterns = include.map(Glob.Pattern.init) } }
    /// Files matching one of these are not read from folders.
    public var exclude: [String] { didSet { excludePatterns = exclude.map(Glob.Pattern.init) } }
    /// `include` and `exclude`, each pattern split into its parts once rather than once a file
    /// (`includes(relativePath:)` is asked for every file of a walked tree).
    private var includePatterns: [Glob.Pattern] = [], excludePatterns: [Glob.Pattern] = []
    /// Per-path rule settings; later entries win.
    public var overrides: [Override]
    /// PlantUML preprocessor variables (`!$NAME`), for the PlantUML loader.
    public var plantUMLDefines: [(String, String)]
    /// Default output format name (`text`, `json`, `sarif` …), when set.
    public var format: String?
    /// Default colour mode (`auto`, `always`, `never`), when set.
    public var color: String?
    /// Warnings fail the run.
    public var strict: Bool?
    /// More than this many warnings fail the run.
    public var maxWarnings: Int?
    /// The bounds on the work done for one file (`limits:`).
    public var limits: Limits = .default
    /// How `flowlens trace` reads OpenTelemetry spans (`trace:`).
    public var spans: SpanMapping = .default

    /// The built-in defaults: every rule at its own severity, every file read.
    public init(baseDirectory: String = ".") {
        file = nil
        self.baseDirectory = baseDirectory
        rules = []
        include = []
        exclude = []
        overrides = []
        plantUMLDefines = []
    }

    public static func == (a: Configuration, b: Configuration) -> Bool {
        a.file == b.file && a.files == b.files && a.baseDirectory == b.baseDirectory && a.rules.map(\.0) == b.rules.map(\.0)
            && a.rules.map(\.1) == b.rules.map(\.1) && a.include == b.include && a.exclude == b.exclude
            && a.overrides == b.overrides && a.plantUMLDefines.map(\.0) == b.plantUMLDefines.map(\.0)
            && a.plantUMLDefines.map(\.1) == b.plantUMLDefines.map(\.1) && a.format == b.format
            && a.color == b.color && a.strict == b.strict && a.maxWarnings == b.maxWarnings && a.limits == b.limits
            && a.spans == b.spans
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(baseDirectory)
        hasher.combine(include)
        hasher.combine(exclude)
    }

    /// The setting for `rule` in a file at `path` (relative to the base directory): the last override
    /// whose paths match, else the file-wide setting, else nil (the rule's default).
    public func setting(for rule: String, atRelativePath path: String) -> RuleSetting? {
        for override in overrides.reversed() where override.paths.contains(where: { Glob.matches($0, path) }) {
            if let setting = override.rules.last(where: { $0.0 == rule })?.1 { return setting }
        }
        return rules.last { $0.0 == rule }?.1
    }

    /// `finding` under this configuration's setting for its rule in a file at `path` (relative to the
    /// base directory): nil when the rule is `off`, with the configured severity when one is set.
    public func configured(_ finding: Finding, atRelativePath path: String) -> Finding? {
        var finding = finding
        switch setting(for: finding.rule, atRelativePath: path) {
        case .off?: return nil
        case let .severity(severity)?: finding.severity = severity
        case .on?, nil: break
        }
        return finding
    }

    /// Whether a file found by walking a folder is read (`path` relative to the base directory).
    public func includes(relativePath path: String) -> Bool {
        // The path is split once for every pattern, and only when one needs it: the default
        // excludes (`**/Pods/**` …) ask whether one of its names is theirs, which its bytes tell.
        var names: [Substring]?
        func matches(_ pattern: Glob.Pattern) -> Bool {
            if let answer = pattern.matchesAnywhereName(in: path) { return answer }
            if names == nil { names = path.split(separator: "/") }
            return pattern.matches(names: names!)
        }
        return (includePatterns.isEmpty || includePatterns.contains(where: matches)) && !excludePatterns.contains(where: matches)
    }
}

/// Glob patterns as `.gitignore` users know them: `*` (not across `/`), `**` (any folders), `?`.
public enum Glob {
    /// `pattern`, written relative to `folder` (a relative path with `/` separators; "" for the same
    /// folder), as a pattern relative to the folder above it that matches the same files: how a
    /// nested `.flowlens.yml`'s patterns join those of the files above it.
    public static func rebased(_ pattern: String, under folder: String) -> String {
        guard !folder.isEmpty, folder != "." else { return pattern }
        return folder + "/" + normalised(pattern)
    }

    /// `pattern` with its shorthands spelt out: no leading `./`, `**` after a trailing `/`, and `**/`
    /// before a pattern without `/` (a name in any folder).
    static func normalised(_ pattern: String) -> String {
        var pattern = pattern.hasPrefix("./") ? String(pattern.dropFirst(2)) : pattern
        if pattern.hasSuffix("/") { pattern += "**" }
        if !pattern.utf8.contains(UInt8(ascii: "/")) { pattern = "**/" + pattern }
        return pattern
    }

    /// Whether `path` (with `/` separators) matches `pattern`. A pattern without `/` matches a name
    /// in any folder; a pattern ending with `/` or `/**` matches everything below that folder.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        matches(pattern, names: path.split(separator: "/"))
    }

    /// `matches` for a path already split into its names.
    static func matches(_ pattern: String, names: [Substring]) -> Bool {
        Pattern(pattern).matches(names: names)
    }

    /// A pattern split into its parts (its shorthands spelt out), to match many paths.
    public struct Pattern: Sendable {
        enum Part: Sendable {
            /// `**`: any number of folders.
            case anyFolders
            /// A name without `*` or `?`: that name.
            case name(String)
            /// A name with `*` or `?`, by its characters.
            case wildcard([Character])
        }

        let parts: [Part]
        /// For a pattern `**/NAME/**` with an ASCII name (the default excludes' shape), the name's
        /// bytes: the pattern matches a path one of whose names is NAME.
        let anywhereName: [UInt8]?

        public init(_ pattern: String) {
            parts = Glob.normalised(pattern).split(separator: "/", omittingEmptySubsequences: false).map { part in
                if part == "**" { return .anyFolders }
                return part.contains { $0 == "*" || $0 == "?" } ? .wildcard(Array(part)) : .name(String(part))
            }
            if parts.count == 3, case .anyFolders = parts[0], case let .name(name) = parts[1], case .anyFolders = parts[2],
               name.utf8.allSatisfy({ $0 < 0x80 }) {
                anywhereName = Array(name.utf8)
            } else {
                anywhereName = nil
            }
        }

        /// `matches` for a pattern `**/NAME/**` and an ASCII path, from the path's bytes (no split);
        /// nil for any other pattern or path. (A non-ASCII name can equal an ASCII one as Swift
        /// compares strings, by canonical equivalence: the Kelvin sign is a `K`. Those go by `matches`.)
        func matchesAnywhereName(in path: String) -> Bool? {
            guard let anywhereName else { return nil }
            var path = path
            return path.withUTF8 { bytes -> Bool? in
                var found = false, start = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                    if end - start == anywhereName.count, !found {
                        found = (0..<anywhereName.count).allSatisfy { bytes[start + $0] == anywhereName[$0] }
                    }
                    start = end + 1
                }
                return bytes.allSatisfy { $0 < 0x80 } ? found : nil
            }
        }

        /// Whether the path split into `names` matches. Folder by folder: after each part of the
        /// pattern, the numbers of names it can have consumed (`**` any number of them). Parts ×
        /// names steps, never a search that backtracks without bound.
        public func matches(names: [Substring]) -> Bool {
            var reachable = [Bool](repeating: false, count: names.count + 1)
            var next = reachable
            reachable[0] = true
            for part in parts {
                for j in next.indices { next[j] = false }
                switch part {
                case .anyFolders:
                    var any = false
                    for j in 0...names.count {
                        any = any || reachable[j]
                        next[j] = any
                    }
                case let .name(name):
                    for j in names.indices where reachable[j] && names[j] == name { next[j + 1] = true }
                case let .wildcard(pattern):
                    for j in names.indices where reachable[j] && Glob.matchName(pattern, names[j]) { next[j + 1] = true }
                }
                swap(&reachable, &next)
            }
            return reachable[names.count]
        }
    }

    /// `*` any characters, `?` one, anything else itself: the usual greedy match that returns to the
    /// last `*` on a mismatch (at most pattern × name steps).
    private static func matchName(_ p: [Character], _ name: Substring) -> Bool {
        let n = Array(name)
        var i = 0, j = 0
        var star: Int?, resume = 0
        while j < n.count {
            if i < p.count, p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if i < p.count, p[i] == "?" || p[i] == n[j] {
                i += 1
                j += 1
            } else if let star {
                i = star + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }
}
