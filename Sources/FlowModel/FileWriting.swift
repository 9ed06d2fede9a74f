import Foundation

/// A file that could not be written: its path and the cause, as one sentence for a person
/// ("cannot write 'out/Big.svg': no space left on device"), never an `NSError` dump.
public struct WriteFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file or folder.
    public var path: String
    /// Why, in a few words (the system's own: "permission denied", "file name too long" …).
    public var cause: String

    /// A failure to write `path`.
    public init(path: String, cause: String) {
        self.path = path
        self.cause = cause
    }

    public var description: String { "cannot write '\(path)': \(cause)" }

    /// The cause of any error thrown while writing, in words: the POSIX reason when there is one.
    public static func cause(of error: any Error) -> String {
        if let failure = error as? WriteFailure { return failure.cause }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))).lowercased() }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteInvalidFileName: return "invalid or too long file name"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteFileExists: return "a file is in the way"
        default: return ns.localizedDescription
        }
    }
}

/// Writes files so that no reader ever sees half of one: into a temporary file in the same folder,
/// then renamed into place. Every file FlowLens writes goes through here (diagrams, pages, reports
/// written to a folder, the cache, baselines, fixed sources, a new `.flowlens.yml`). A process killed
/// while writing (`SIGKILL`, nothing runs after it) leaves at most its temporary file; the temporary
/// names start with `prefix` and the writer's process id, so a later run can tell and remove what a
/// process no longer running left (`removeStaleTemporaries`).
public enum AtomicFile {
    /// The start of every temporary file's name, followed by the writing process's id and a dash.
    public static let prefix = ".flowlens-tmp-"
    /// What Foundation's `Data.write(options: .atomic)` leaves behind when interrupted, which
    /// FlowLens wrote with before.
    static let foundationPrefix = ".dat.nosync"

    /// Writes every byte of `buffer` to the file descriptor `fd`, going on after an interrupted or
    /// partial write: nil when all was written, else the `errno` of the failure.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Writes `data` to `path` atomically, the file's permissions `mode` (nil: those of the file it
    /// replaces, else 0644 under the umask); the error names the path and the cause. Only a regular
    /// file is replaced: a device, FIFO, socket, folder or symbolic link at `path` is a `WriteFailure`
    /// and nothing is changed (`--write-baseline /dev/null` as root must not replace the system's
    /// `/dev/null`). `throughLink`: a symbolic link at `path` is written through, to the regular file
    /// it leads to, which keeps its permissions, and the link stays a link (`check --fix`).
    /// `removingStaleTemporaries`: first remove what interrupted runs left in the file's folder (for
    /// a single file a command writes, such as a cache; an export does it once for its folder).
    public static func write(_ data: Data, to path: String, mode: mode_t? = nil, throughLink: Bool = false,
                             removingStaleTemporaries: Bool = false) throws(WriteFailure) {
        var target = path
        if throughLink, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let replaced = try replaceableMode(target, shownAs: path)
        let folder = (target as NSString).deletingLastPathComponent
        if removingStaleTemporaries { removeStaleTemporaries(in: folder.isEmpty ? "." : folder) }
        let temporary = (folder.isEmpty ? "." : folder) + "/" + prefix + "\(getpid())-" + UUID().uuidString.prefix(8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw failure(path, errno) }
        // A file replaced keeps its permissions (a source file a fix rewrites); open's mode is masked by umask.
        if let mode = mode ?? replaced, mode != 0o644 { _ = fchmod(fd, mode) }
        let result = data.withUnsafeBytes { writeAll($0, to: fd) ?? 0 }
        if result != 0 || close(fd) != 0 {
            let code = result != 0 ? result : errno
            unlink(temporary)
            throw failure(path, code)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
    }

    /// Whether `path` may be replaced: nothing is there (nil), or a regular file (its permissions);
    /// anything else is a `WriteFailure` naming it as `shown`.
    @discardableResult
    public static func replaceableMode(_ path: String, shownAs shown: String? = nil) throws(WriteFailure) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }  // nothing there (or the write will say why not)
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let kind = InputReading.kindName(info.st_mode)
            throw WriteFailure(path: shown ?? path, cause: "it is \(kind), not a regular file: nothing was written")
        }
        return info.st_mode & 0o7777
    }

    /// Makes the folder `path` and the folders above it that are missing (as `mkdir -p`); the error
    /// names the path and says why in the system's words ("not a directory" when a file is where a
    /// folder should be), never Foundation's error codes.
    public static func createFolder(_ path: String) throws(WriteFailure) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw WriteFailure(path: path, cause: "'\(path)' is \(InputReading.kindName(info.st_mode)), not a folder")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createFolder(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw failure(path, errno) }
    }

    /// Removes the temporary files that runs no longer running left in `folder`: FlowLens's whose
    /// process is gone (another run writing into the same folder at the same moment keeps its own),
    /// and Foundation's from versions that wrote with it (which name no process: those are removed
    /// whoever wrote them, so runs of such versions must not overlap with this one).
    public static func removeStaleTemporaries(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(foundationPrefix) || (name.hasPrefix(prefix) && !writerIsRunning(name)) {
            unlink((folder as NSString).appendingPathComponent(name))
        }
    }

    /// Whether the process named in a temporary file's name still runs (on this machine; a name
    /// without a process id names none that runs).
    static func writerIsRunning(_ temporaryName: String) -> Bool {
        let digits = temporaryName.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
        guard let pid = pid_t(digits), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    private static func failure(_ path: String, _ code: Int32) -> WriteFailure {
        WriteFailure(path: path, cause: String(cString: strerror(code)).lowercased())
    }
}
