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

    /// Writes `data` to `path` atomically, the file's permissions `mode`; the error names the path
    /// and the cause. `removingStaleTemporaries`: first remove what interrupted runs left in the
    /// file's folder (for a single file a command writes, such as a cache; an export does it once
    /// for its folder).
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644, removingStaleTemporaries: Bool = false) throws(WriteFailure) {
        let folder = (path as NSString).deletingLastPathComponent
        if removingStaleTemporaries { removeStaleTemporaries(in: folder.isEmpty ? "." : folder) }
        let temporary = (folder.isEmpty ? "." : folder) + "/" + prefix + "\(getpid())-" + UUID().uuidString.prefix(8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, errno) }
        // A source file keeps its permissions when a fix rewrites it (open's mode is masked by umask).
        if mode != 0o644 { _ = fchmod(fd, mode) }
        let result = data.withUnsafeBytes { writeAll($0, to: fd) ?? 0 }
        if result != 0 || close(fd) != 0 {
            let code = result != 0 ? result : errno
            unlink(temporary)
            throw failure(path, code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
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
