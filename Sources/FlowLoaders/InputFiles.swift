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
/// Folders are walked recursively (hidden folders such as `.git` and `.build` are skipped); files are
/// chosen by name, and only regular files are read. A file reached twice (through a link, or under
/// two paths given, such as `x` and `./x`, or a file and its folder) is read once: files are told
/// apart by their real path. Symbolic links found in a walk are followed only while their real path
/// stays inside one of the folders given (a link out of the tree is not read, a folder link out of
/// it is not walked, and no cycle is walked twice); a path given by name that goes through a link is
/// read only if its real path stays inside the working directory (or, for a path outside it, inside
/// the folder the path names it in) or inside a folder given. A FIFO, device or socket named like a
/// file FlowLens reads is reported, never opened. A path that does not exist, or a file given by
/// name that FlowLens cannot read, becomes an `invalid-input` finding, never an exception, so the
/// other paths are still analysed.
public enum InputDiscovery {
    /// The files under `paths`, sorted by display path, and findings for paths that cannot be used.
    public static func discover(_ paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath,
                                includeWalked: ((String) -> Bool)? = nil)
        -> (files: [InputFile], findings: [Finding])
    {
        var session = Session(paths: paths, workingDirectory: workingDirectory)
        var files: [InputFile] = []
        var findings: [Finding] = []
        for path in paths {
            let found = session.discover(path, includeWalked: includeWalked)
            files += found.files
            findings += found.findings
        }
        files.sort { $0.displayPath < $1.displayPath }
        return (files, findings)
    }

    /// One run's discovery of several paths, one at a time: what was read for one path is not read
    /// again for another, and links may lead into any folder given.
    public struct Session {
        let workingDirectory: String
        /// The real paths of the folders given whose links stay inside where they may go.
        var roots: [String] = []
        /// The real path of the working directory, and of each given path's folder, by lexical path.
        var realFolders: [String: String] = [:]
        var seen = Set<String>()           // real paths (folders with a `/` after), so each is read once
        var reportedLinks = Set<String>()  // broken links, reported once however they are reached

        /// A session for `paths` (the folders among them are where walked links may lead).
        public init(paths: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) {
            self.workingDirectory = workingDirectory
            for given in paths {
                let path = absolute(given)
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
                let real = canonicalPath(path)
                if isInside(real, trustedBase(of: path)) { roots.append(real) }
            }
        }

        /// What a path given contributes.
        public struct Found {
            /// Its files not read already in this session, sorted as a walk finds them.
            public var files: [InputFile] = []
            /// Why parts of it cannot be read.
            public var findings: [Finding] = []
            /// It, or a file in it, was reached already in this session (for another path given): a
            /// folder that adds no file is then no empty folder.
            public var foundBefore = false
        }

        /// The files under the path `given` (relative to the working directory) not found yet, and
        /// findings for what cannot be read; walked files are kept when `includeWalked` says so.
        public mutating func discover(_ given: String, includeWalked: ((String) -> Bool)? = nil) -> Found {
            var found = Found()
            let path = absolute(given)
            var info = stat()
            guard stat(path, &info) == 0 else {
                let link = brokenLink(path)
                if link == nil || reportedLinks.insert(lexicallyNormalised(path)).inserted {
                    found.findings.append(.invalidInput(link ?? "no such file or folder", at: SourceLocation(file: displayPath(given, workingDirectory))))
                }
                return found
            }
            let real = canonicalPath(path)
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            guard isInside(real, trustedBase(of: path)) || (!isFolder && isInsideRoot(real)) else {
                found.findings.append(.invalidInput(
                    "the path leads through a symbolic link to '\(real)', outside the working directory: not read",
                    at: SourceLocation(file: displayPath(given, workingDirectory))))
                return found
            }
            if isFolder {
                if seen.insert(real + "/").inserted {
                    walk(path, real: real, includeWalked, &found)
                } else {
                    found.foundBefore = true
                }
            } else {
                add(path, mode: info.st_mode, explicit: true, shownAs: given, real: real, &found)
            }
            return found
        }

        /// Adds the file at `path`, whose real path is `real`, if FlowLens reads it and it was not read yet.
        mutating func add(_ path: String, mode: mode_t, explicit: Bool, shownAs given: String? = nil, real: String, _ found: inout Found) {
            let shown = displayPath(given ?? path, workingDirectory)
            guard let kind = SourceKind.of(path: path) else {
                if explicit {
                    found.findings.append(.invalidInput(
                        "not a file FlowLens reads (expected \(SourceKind.patternsDescription))",
                        at: SourceLocation(file: shown)))
                }
                return
            }
            guard (mode & S_IFMT) == S_IFREG else {
                // A FIFO would block the read forever, a device may never end: named like a flow
                // file, it is reported, and never opened.
                if seen.insert(real).inserted {
                    found.findings.append(.invalidInput("\(InputReading.kindName(mode)), not a regular file: not read",
                                                        at: SourceLocation(file: shown)))
                }
                return
            }
            guard seen.insert(real).inserted else {
                found.foundBefore = true
                return
            }
            found.files.append(InputFile(path: path, displayPath: shown, kind: kind))
        }

        /// Walks `folder`, whose real path is `real`.
        mutating func walk(_ folder: String, real: String, _ includeWalked: ((String) -> Bool)?, _ found: inout Found) {
            guard let entries = entries(of: folder) else {
                found.findings.append(.invalidInput("cannot list folder", at: SourceLocation(file: displayPath(folder, workingDirectory))))
                return
            }
            for (name, type) in entries.sorted(by: { $0.name < $1.name }) where !name.hasPrefix(".") {
                let child = (folder as NSString).appendingPathComponent(name)
                if type == .undecodable {
                    // A name that is not UTF-8 cannot be opened through a `String` path: one named like a
                    // file FlowLens reads is reported, not dropped without a word.
                    if SourceKind.of(path: child) != nil, includeWalked?(child) ?? true {
                        found.findings.append(.invalidInput("the file's name is not valid UTF-8: not read (rename it)",
                                                            at: SourceLocation(file: displayPath(child, workingDirectory))))
                    }
                    continue
                }
                // A plain file or folder (no link) of a folder whose real path is known has that path
                // and its name as its own, where `realpath` would look at every folder of the path
                // again; the listing tells which it is (or one `lstat`, on a file system that does not
                // say). A link is followed by `stat`, resolved by `realpath`, and must stay inside.
                let listed = type == .unknown ? entryType(atPath: child) : type
                var mode: mode_t
                var realChild: String
                if listed == .link {
                    var info = stat()
                    guard stat(child, &info) == 0 else {
                        // A link to nothing (or to itself): skipped, but one named like a file FlowLens
                        // reads is reported, or its flows would vanish from the run without a word.
                        if SourceKind.of(path: child) != nil, includeWalked?(child) ?? true, let problem = brokenLink(child),
                           reportedLinks.insert(lexicallyNormalised(child)).inserted {
                            found.findings.append(.invalidInput(problem, at: SourceLocation(file: displayPath(child, workingDirectory))))
                        }
                        continue
                    }
                    mode = info.st_mode
                    realChild = canonicalPath(child)
                    guard isInsideRoot(realChild) else {
                        // Out of the folders given: a folder is not walked (`ln -s / root` would walk the
                        // machine), a file named like a flow file is reported and not read.
                        if (mode & S_IFMT) != S_IFDIR, SourceKind.of(path: child) != nil, includeWalked?(child) ?? true,
                           reportedLinks.insert(lexicallyNormalised(child)).inserted {
                            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: child)) ?? realChild
                            found.findings.append(.invalidInput("symbolic link to '\(target)', outside the folders given: not read",
                                                                at: SourceLocation(file: displayPath(child, workingDirectory))))
                        }
                        continue
                    }
                } else {
                    mode = listed == .folder ? S_IFDIR : listed == .file ? S_IFREG : listed == .special ? 0 : S_IFREG
                    realChild = (real == "/" ? "/" : real + "/") + name
                    if listed == .special {
                        var info = stat()
                        mode = lstat(child, &info) == 0 ? info.st_mode : S_IFIFO
                    }
                }
                if (mode & S_IFMT) == S_IFDIR {
                    guard seen.insert(realChild + "/").inserted else { continue }  // a link back up the tree
                    walk(child, real: realChild, includeWalked, &found)
                } else if includeWalked?(child) ?? true {
                    // A configuration's include/exclude patterns choose among the files of a folder;
                    // a file named explicitly is always read.
                    add(child, mode: mode, explicit: false, real: realChild, &found)
                }
            }
        }

        func absolute(_ given: String) -> String {
            // Relative paths are relative to the working directory given, not the process's.
            given.hasPrefix("/") ? given : (workingDirectory as NSString).appendingPathComponent(given)
        }

        /// Where a path given by name may lead through links: the working directory's real path for
        /// a path inside it, else the real path of the folder the path names it in (a link given
        /// by name may point beside itself, not out).
        mutating func trustedBase(of path: String) -> String {
            // Keyed by the folder it depends on: "" for the working directory.
            let lexical = lexicallyNormalised(path)
            let folder = isInside(lexical, lexicallyNormalised(workingDirectory)) ? "" : InputDiscovery.folder(of: lexical)
            if let known = realFolders[folder] { return known }
            let real = InputDiscovery.trustedBase(of: path, workingDirectory: workingDirectory)
            realFolders[folder] = real
            return real
        }

        /// Whether the real path `real` is one of the folders given or inside one.
        func isInsideRoot(_ real: String) -> Bool {
            roots.contains { isInside(real, $0) }
        }
    }

    /// Where a path given by name may lead through links (`path` absolute): the working directory's
    /// real path for a path inside it, else the real path of the folder the path names it in.
    static func trustedBase(of path: String, workingDirectory: String) -> String {
        let lexical = lexicallyNormalised(path)
        let base = lexicallyNormalised(workingDirectory)
        return canonicalPath(isInside(lexical, base) ? base : folder(of: lexical))
    }

    /// Why the file at `path` (absolute, or relative to `workingDirectory`) is not read because a
    /// symbolic link on its way leads out of where it may (`trustedBase`); nil when it may be read.
    /// For inputs other than flows: configuration files, baselines, run records.
    public static func linkLeavingTree(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        let absolute = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        let real = canonicalPath(absolute)
        if isInside(real, trustedBase(of: absolute, workingDirectory: workingDirectory)) { return nil }
        return "the path leads through a symbolic link to '\(real)', outside the working directory: not read"
    }

    /// Whether `path` is `folder` or inside it (both absolute, normalised).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    /// What a folder's listing says an entry is: a regular file, a FIFO, device or socket (`special`).
    enum EntryType { case folder, link, file, special, other, unknown, undecodable }

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
            case Int32(DT_REG): type = .file
            case Int32(DT_FIFO), Int32(DT_CHR), Int32(DT_BLK), Int32(DT_SOCK): type = .special
            case Int32(DT_UNKNOWN): type = .unknown
            default: type = .other
            }
            entries.append((name, type))
        }
        return entries
    }

    /// What `lstat` says the entry at `path` is: a folder, a link, a regular file or a special one; a
    /// link when it is gone (then it is treated as a broken one).
    static func entryType(atPath path: String) -> EntryType {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .link }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .special
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
