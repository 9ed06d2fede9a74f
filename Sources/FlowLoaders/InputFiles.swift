import FlowModel
import Foundation

/// The kinds of source FlowLens reads, chosen by file name. A dialect whose flows are in files of
/// their own declares its kind, the names of its files and its loader (`Dialect.fileTypes`); two
/// kinds are FlowLens's own and stay here (see `SourceFileType.central`).
public struct SourceKind: RawRepresentable, Hashable, Sendable {
    /// The kind's name: the cache records it, so it never changes (`plantuml`, `ruby`).
    public var rawValue: String

    /// A kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `*.flow.yaml`, `*.flow.yml`, `*.flow.json`: FlowLens's own format.
    public static let declarative = SourceKind(rawValue: "declarative")
    /// `*.swift`: parsed once, all together, for every Swift dialect (`SwiftDialect`).
    public static let swift = SourceKind(rawValue: "swift")

    /// Every kind, FlowLens's own first, then the dialects' in the order of `Dialects.all`.
    public static var allCases: [SourceKind] { SourceFileType.all.map(\.kind) }

    /// The kind of a file, from its name; nil for files FlowLens does not read.
    public static func of(path: String) -> SourceKind? {
        // Asked of every file a walk finds. A name of ASCII bytes (nearly every one) is matched by
        // its bytes: folding ASCII case is then all `lowercased()` does, and each byte is a
        // character. Any other name, or a path ending in `/`, as `String` and `NSString` read it.
        let bytes = path.utf8
        if bytes.last != UInt8(ascii: "/") {
            let name = bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex)...]
            if name.allSatisfy({ $0 < 0x80 }) {
                return SourceFileType.all.first { $0.suffixes.contains { hasSuffix(name, folding: $0) } }?.kind
            }
        }
        let name = (path as NSString).lastPathComponent.lowercased()
        return SourceFileType.all.first { $0.suffixes.contains(where: name.hasSuffix) }?.kind
    }

    /// Whether the ASCII bytes `name` end with `suffix` (lowercase) when upper-case letters are folded.
    private static func hasSuffix(_ name: Substring.UTF8View, folding suffix: String) -> Bool {
        let ending = suffix.utf8
        guard name.count >= ending.count else { return false }
        return zip(name.suffix(ending.count), ending).allSatisfy { byte, expected in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
        }
    }

    /// Human-readable list of the file names each kind reads, for help and errors.
    public static var patternsDescription: String {
        SourceFileType.all.flatMap(\.suffixes).map { "*" + $0 }.joined(separator: ", ")
    }
}

/// The files of one kind of source, and how they are read.
public struct SourceFileType: Sendable {
    /// How a kind's files are read.
    public enum Reading: Sendable {
        /// One file at a time, by the loader made with the run's settings: files load in parallel
        /// and are cached one by one.
        case perFile(@Sendable (LoaderSettings) -> any FlowLoader)
        /// All the run's files of the kind together (`SourceLoader` knows the one such kind, Swift).
        case batch
    }

    /// The kind its files are.
    public var kind: SourceKind
    /// The endings of its file names, in lower case (`.rb`; `.flow.yaml`).
    public var suffixes: [String]
    /// How its files are read.
    public var reading: Reading

    /// A file type.
    public init(kind: SourceKind, suffixes: [String], reading: Reading) {
        self.kind = kind
        self.suffixes = suffixes
        self.reading = reading
    }

    /// FlowLens's own kinds, which no dialect owns: the declarative format is FlowLens's, not a
    /// library's; and Swift files are read by several dialects from one parse, so the kind belongs
    /// to the shared pass (`SwiftSourcesLoader`), and a Swift dialect adopts `SwiftDialect` instead.
    static let central: [SourceFileType] = [
        SourceFileType(kind: .declarative, suffixes: [".flow.yaml", ".flow.yml", ".flow.json"],
                       reading: .perFile { DeclarativeLoader(limits: $0.limits) }),
        SourceFileType(kind: .swift, suffixes: [".swift"], reading: .batch),
    ]

    /// Every file type FlowLens reads, in the order names are matched: FlowLens's own, then each
    /// dialect's, in the order of `Dialects.all`.
    /// (Asked once a file by discovery and by the loader: made once.)
    static let all: [SourceFileType] = central + Dialects.all.flatMap { $0.fileTypes }
}

/// What a per-file loader is made with: the run's settings.
public struct LoaderSettings: Sendable {
    /// The bounds a file must keep to be read.
    public var limits: Limits
    /// The variables a file's preprocessor may read (PlantUML's `%getenv`).
    public var environment: @Sendable (InputFile) -> [String: String]

    /// Settings.
    public init(limits: Limits = .default, environment: @escaping @Sendable (InputFile) -> [String: String] = { _ in [:] }) {
        self.limits = limits
        self.environment = environment
    }
}

/// One file to load.
public struct InputFile: Hashable, Sendable {
    /// The path to open.
    public var path: String
    /// The path as reported: relative to the working directory when under it.
    public var displayPath: String
    /// How to read it.
    public var kind: SourceKind

    /// A file to load; `displayPath` defaults to `path`, `kind` to the kind its name implies.
    public init(path: String, displayPath: String? = nil, kind: SourceKind? = nil) {
        self.path = path
        self.displayPath = displayPath ?? path
        self.kind = kind ?? SourceKind.of(path: path) ?? .declarative
    }
}

/// Turns the paths a user gave into the files to load.
///
/// Folders are walked recursively (hidden folders such as `.git` and `.build` are skipped, symbolic
/// links are followed once: a file reached twice is read once); files are chosen by name. A path that
/// does not exist, or a file given by name that FlowLens cannot read, becomes an `invalid-input`
/// finding, never an exception, so the other paths are still analysed.
public enum InputDiscovery {
    /// The files under `paths`, sorted by display path, and findings for paths that cannot be used.
    public static func discover(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath,
                                includeWalked: ((String) -> Bool)? = nil)
        -> (files: [InputFile], findings: [Finding])
    {
        let fm = FileManager.default
        var files: [InputFile] = []
        var findings: [Finding] = []
        var seen = Set<String>()  // resolved real paths, so links and repeated arguments are read once
        var reportedLinks = Set<String>()  // broken links, reported once however they are reached

        /// `real` is the file's canonical path when the walk knows it (a file that is no link, in a
        /// folder whose canonical path is known), else `realpath` finds it.
        func add(_ path: String, explicit: Bool, shownAs given: String? = nil, real known: String? = nil) {
            let shown = displayPath(given ?? path, workingDirectory)
            let real = known ?? canonicalPath(path)
            guard let kind = SourceKind.of(path: path) else {
                if explicit {
                    findings.append(.invalidInput(
                        "not a file FlowLens reads (expected \(SourceKind.patternsDescription))",
                        at: SourceLocation(file: shown)))
                }
                return
            }
            guard seen.insert(real).inserted else { return }
            files.append(InputFile(path: path, displayPath: shown, kind: kind))
        }

        /// Walks `folder`, whose canonical path is `real`.
        func walk(_ folder: String, real: String) {
            guard let entries = entries(of: folder) else {
                findings.append(.invalidInput("cannot list folder", at: SourceLocation(file: displayPath(folder, workingDirectory))))
                return
            }
            for (name, type) in entries.sorted(by: { $0.name < $1.name }) where !name.hasPrefix(".") {
                let child = (folder as NSString).appendingPathComponent(name)
                if type == .undecodable {
                    // A name that is not UTF-8 cannot be opened through a `String` path: one named like
                    // a file FlowLens reads is reported, not dropped without a word.
                    if SourceKind.of(path: child) != nil, includeWalked?(child) ?? true {
                        findings.append(.invalidInput("the file's name is not valid UTF-8: not read (rename it)",
                                                      at: SourceLocation(file: displayPath(child, workingDirectory))))
                    }
                    continue
                }
                // A plain file or folder (no link) of a folder whose canonical path is known has that
                // path and its name as its own, where `realpath` would look at every folder of the
                // path again; the listing tells which it is (or one `lstat`, on a file system that
                // does not say). A link is followed by `stat` and resolved by `realpath`.
                let mode = type == .unknown ? entryType(atPath: child) : type
                let isLink = mode == .link
                let realChild = isLink ? nil : (real == "/" ? "/" : real + "/") + name
                var isDir = ObjCBool(mode == .folder)
                guard !isLink || fm.fileExists(atPath: child, isDirectory: &isDir) else {
                    // A link to nothing (or to itself): skipped, but one named like a file FlowLens
                    // reads is reported, or its flows would vanish from the run without a word.
                    if SourceKind.of(path: child) != nil, includeWalked?(child) ?? true, let problem = brokenLink(child),
                       reportedLinks.insert(lexicallyNormalised(child)).inserted {
                        findings.append(.invalidInput(problem, at: SourceLocation(file: displayPath(child, workingDirectory))))
                    }
                    continue
                }
                if isDir.boolValue {
                    let real = realChild ?? canonicalPath(child)
                    guard seen.insert(real + "/").inserted else { continue }  // a link back up the tree
                    walk(child, real: real)
                } else if includeWalked?(child) ?? true {
                    // A configuration's include/exclude patterns choose among the files of a folder;
                    // a file named explicitly is always read.
                    add(child, explicit: false, real: realChild)
                }
            }
        }

        for given in paths {
            // Relative paths are relative to the working directory given, not the process's.
            let path = given.hasPrefix("/") ? given : (workingDirectory as NSString).appendingPathComponent(given)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                let link = brokenLink(path)
                if link == nil || reportedLinks.insert(lexicallyNormalised(path)).inserted {
                    findings.append(.invalidInput(link ?? "no such file or folder", at: SourceLocation(file: displayPath(given, workingDirectory))))
                }
                continue
            }
            if isDir.boolValue {
                let real = canonicalPath(path)
                if seen.insert(real + "/").inserted { walk(path, real: real) }
            } else {
                add(path, explicit: true, shownAs: given)
            }
        }
        files.sort { $0.displayPath < $1.displayPath }
        return (files, findings)
    }

    /// What a folder's listing says an entry is.
    enum EntryType { case folder, link, other, unknown, undecodable }

    /// The names in `folder` and what each is, as `readdir` lists them (`.` and `..` left out), in no
    /// particular order; nil when the folder cannot be opened. The type is `.unknown` where the
    /// file system does not tell (then one `lstat` asks), `.undecodable` for a name that is not
    /// UTF-8 (given with U+FFFD in place of its bad bytes).
    static func entries(of folder: String) -> [(name: String, type: EntryType)]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var entries: [(name: String, type: EntryType)] = []
        while let entry = readdir(directory) {
            let (name, valid) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                return String(validatingCString: bytes).map { ($0, true) } ?? (String(cString: bytes), false)
            }
            if name == "." || name == ".." { continue }
            let type: EntryType
            switch Int32(entry.pointee.d_type) {
            case _ where !valid: type = .undecodable
            case Int32(DT_DIR): type = .folder
            case Int32(DT_LNK): type = .link
            case Int32(DT_UNKNOWN): type = .unknown
            default: type = .other
            }
            entries.append((name, type))
        }
        return entries
    }

    /// What `lstat` says the entry at `path` is: a folder, a link, or another file; a link when it is
    /// gone (then it is treated as a broken one).
    static func entryType(atPath path: String) -> EntryType {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .link }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// Why `path`, which does not resolve to a file, cannot be read, when it is a symbolic link.
    static func brokenLink(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        if stat(path, &info) != 0, errno == ELOOP { return "symbolic link loop (it points to '\(target)'): not read" }
        return "broken symbolic link (it points to '\(target)', which does not exist): not read"
    }

    /// The canonical absolute path (links, `.` and `..` resolved) that identifies a file or folder, so
    /// that one reached under two names is read once. POSIX `realpath`: Foundation's
    /// `resolvingSymlinksInPath` leaves relative links such as `sub/up -> ..` unresolved on Linux.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// An absolute path with `.`, `..` and repeated slashes removed, without resolving links (which
    /// `standardizingPath` does on Linux): a file is reported under the name the user gave it.
    static func lexicallyNormalised(_ path: String) -> String {
        isLexicallyNormal(path) ? path : normalisedByParts(path)  // nearly every path a walk makes is normal
    }

    /// `lexicallyNormalised` the long way, for any path: split into names, `.` dropped, `..` taking
    /// the name before it away, joined again.
    static func normalisedByParts(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `lexicallyNormalised` would return `path` unchanged: absolute, no empty, `.` or `..`
    /// name, no `/` at the end (`/` itself is normal). By its bytes, without splitting it.
    static func isLexicallyNormal(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
            guard bytes.first == slash else { return false }
            if bytes.count == 1 { return true }
            guard bytes.last != slash else { return false }
            // Each name starts after a `/`: it must not be empty, `.` or `..`.
            for i in bytes.indices where bytes[i] == slash {
                let next = i + 1 < bytes.count ? bytes[i + 1] : slash
                if next == slash { return false }
                if next == dot {
                    let after = i + 2 < bytes.count ? bytes[i + 2] : slash
                    if after == slash { return false }
                    if after == dot, (i + 3 == bytes.count || bytes[i + 3] == slash) { return false }
                }
            }
            return true
        }
    }

    /// The folder of `path`, a path `lexicallyNormalised` made (`/` for a name at the root): what
    /// `NSString.deletingLastPathComponent` says of it, without bridging to `NSString`.
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `path` relative to `workingDirectory` when it is inside it, else as given (absolute stays absolute).
    public static func displayPath(_ path: String, _ workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        let standard = lexicallyNormalised(absolute)
        let base = lexicallyNormalised(workingDirectory)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if standard.hasPrefix(prefix) { return String(standard.dropFirst(prefix.count)) }
        if standard == base { return "." }
        return path.hasPrefix("/") ? standard : path
    }
}
