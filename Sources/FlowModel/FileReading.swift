import Foundation

/// Reads an input the one way every reader does: a regular file (or standard input), opened without
/// blocking, checked after opening, and read up to a byte bound; anything else is a `ReadFailure`.
public enum InputReading {
    /// The bytes of the regular file at `path` (a link to one is followed: where links may point is
    /// discovery's rule), at most `maximumBytes`. A FIFO, device, socket or folder is refused without
    /// a blocking read: the file is opened with `O_NONBLOCK` and `fstat` tells what was opened.
    public static func bytes(atPath path: String, maximumBytes: Int) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32, size: Int
        switch openRegular(atPath: path) {
        case let .success(opened): (descriptor, size) = opened
        case let .failure(failure): return .failure(failure)
        }
        defer { close(descriptor) }
        // A regular file never blocks; the bound is checked before reading, and again after (it may grow).
        guard size <= maximumBytes else { return .failure(ReadFailure(path: path, reason: .tooLarge(maximumBytes))) }
        guard let bytes = readToEnd(descriptor, size: size, limit: maximumBytes + 1) else {
            return .failure(ReadFailure(path: path, reason: .system(errno)))
        }
        guard bytes.count <= maximumBytes else { return .failure(ReadFailure(path: path, reason: .tooLarge(maximumBytes))) }
        return .success(bytes)
    }

    /// The regular file at `path` opened for reading, and its size (the caller closes the descriptor). It is opened
    /// with `O_NONBLOCK`, so that a FIFO with no writer or a device does not block the open, and
    /// `fstat` then tells what was opened: anything but a regular file is closed again and refused.
    public static func openRegular(atPath path: String) -> Result<(descriptor: Int32, size: Int), ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(ReadFailure(path: path, reason: .system(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(ReadFailure(path: path, reason: .system(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return .failure(ReadFailure(path: path, reason: .notRegular(kindName(info.st_mode))))
        }
        // `O_NONBLOCK` changes nothing for a regular file (its reads never block): it stays set.
        return .success((descriptor, Int(info.st_size)))
    }

    /// The UTF-8 text of the regular file at `path`, under the same rules as `bytes(atPath:maximumBytes:)`.
    public static func text(atPath path: String, maximumBytes: Int) -> Result<String, ReadFailure> {
        bytes(atPath: path, maximumBytes: maximumBytes).flatMap { bytes in
            decode(bytes).map { .success($0) } ?? .failure(ReadFailure(path: path, reason: .notUTF8))
        }
    }

    /// Standard input to its end, at most `maximumBytes` (read no further: `< /dev/zero` is refused
    /// after the bound, not held in memory). `path` names it in the failure.
    public static func standardInput(maximumBytes: Int, shownAs path: String = "standard input") -> Result<[UInt8], ReadFailure> {
        guard let bytes = readToEnd(STDIN_FILENO, size: 0, limit: maximumBytes + 1) else {
            return .failure(ReadFailure(path: path, reason: .system(errno)))
        }
        guard bytes.count <= maximumBytes else { return .failure(ReadFailure(path: path, reason: .tooLarge(maximumBytes))) }
        return .success(bytes)
    }

    /// Bytes as UTF-8 text; a byte order mark at the start is dropped, as Foundation's decoding does.
    public static func decode(_ bytes: [UInt8]) -> String? {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? String(validating: bytes.dropFirst(3), as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// What a file of mode `mode` is, in words ("a FIFO", "a character device" …).
    public static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// The bytes of an open file, read until its end or `limit` bytes; nil on an error. The first
    /// read asks for one byte more than `size`, so that a file as large as `fstat` said ends in it.
    public static func readToEnd(_ descriptor: Int32, size: Int, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var want = min(size + 1, limit)
        var failed = false
        while want > 0, !failed {
            let piece = [UInt8](unsafeUninitializedCapacity: want) { buffer, count in
                count = 0
                while count < want {
                    let n = Foundation.read(descriptor, buffer.baseAddress! + count, want - count)
                    if n < 0, errno == EINTR { continue }
                    if n < 0 { failed = true }
                    if n <= 0 { break }
                    count += n
                }
            }
            let ended = piece.count < want
            if bytes.isEmpty { bytes = piece } else { bytes += piece }
            if ended { break }
            want = min(max(want, 1 << 16), limit - bytes.count)
        }
        return failed ? nil : bytes
    }
}

/// An input that could not be read: its path and why, in plain words ("'x.flow.yaml' is a FIFO
/// (named pipe), not a regular file"), never an `NSError` dump.
public struct ReadFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// Why a read failed.
    public enum Reason: Sendable, Equatable {
        /// Not a regular file: what it is, in words.
        case notRegular(String)
        /// Larger than the bound, in bytes.
        case tooLarge(Int)
        /// Not UTF-8 text.
        case notUTF8
        /// The system's `errno`.
        case system(Int32)
    }

    /// The file (or "standard input").
    public var path: String
    /// Why.
    public var reason: Reason

    /// A failure to read `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Why, without the path: for a finding located at the file.
    public var cause: String {
        switch reason {
        case let .notRegular(kind): return "\(kind), not a regular file: not read"
        case let .tooLarge(bytes): return "larger than \(bytes) bytes (limits.fileBytes), not read"
        case .notUTF8: return "not UTF-8 text"
        case let .system(code) where code == ENOENT: return "no such file or folder"
        case let .system(code): return String(cString: strerror(code)).lowercased()
        }
    }

    public var description: String { "cannot read '\(path)': \(cause)" }
}
