import Foundation

/// Writes a file whole or not at all: the bytes go to a new file beside the destination,
/// which is then renamed over it, so that a reader (or a later run after a crash) never sees
/// half a file. An existing file keeps its permissions.
package func writeAtomically(_ bytes: [UInt8], to path: String, keepingPermissions: Bool = true) throws(FileWriteError) {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary = (folder.isEmpty ? "" : folder + "/")
        + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    var mode: mode_t = 0o644
    if keepingPermissions {
        var existing = stat()
        if stat(path, &existing) == 0 { mode = existing.st_mode & 0o7777 }
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw FileWriteError(path: path, code: errno) }
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { buffer in
            write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        }
        if result < 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw FileWriteError(path: path, code: code)
        }
        written += result
    }
    close(descriptor)
    if keepingPermissions { chmod(temporary, mode) }
    guard rename(temporary, path) == 0 else {
        let code = errno
        unlink(temporary)
        throw FileWriteError(path: path, code: code)
    }
}

/// A file that could not be written, with the system's reason.
package struct FileWriteError: Error, CustomStringConvertible, LocalizedError {
    package var path: String
    package var code: Int32

    /// The system's reason ("No space left on device").
    package var reason: String { String(cString: strerror(code)) }
    package var description: String { "\(path): \(reason)" }
    package var errorDescription: String? { description }
}

/// Writes a file that must not exist yet (a file of a new folder), in one go.
package func writeNewFile(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
    let file = try NewFile(path: path, mode: mode)
    defer { file.close() }
    try bytes.withUnsafeBytes { buffer in try file.write(buffer) }
}

/// A file that must not exist yet, written piece by piece (a page too large to hold whole):
/// created on `init`, closed by `close()` or when it is dropped. Errors are those of
/// `writeNewFile`.
package final class NewFile {
    package let path: String
    private var descriptor: Int32

    package init(path: String, mode: mode_t = 0o644) throws(FileWriteError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileWriteError(path: path, code: errno) }
    }

    /// Appends `bytes`, all of them (a short write is continued).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        precondition(descriptor >= 0, "write to a closed file")
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(path: path, code: errno)
            }
            written += result
        }
    }

    package func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}

/// Why `readRegularFile` gave no bytes.
package enum FileReadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is there (or a folder on the way is not one).
    case missing
    /// Something is there that is not a regular file: `kind` says what, as a message names it
    /// ("a named pipe (FIFO)", "a device", "a socket", "a folder").
    case notRegular(kind: String)
    /// A regular file that the system would not let this process read.
    case unreadable(code: Int32)

    package var description: String {
        switch self {
        case .missing: "it does not exist"
        case .notRegular(let kind): "it is not a regular file but \(kind)"
        case .unreadable(let code): String(cString: strerror(code))
        }
    }

    /// What a message calls a file of this `st_mode`, nil for a regular file.
    package static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }
}

/// The bytes of the regular file at `path` (a symbolic link is followed), read with one `open`
/// and as few `read`s as it takes. Anything else is refused before it is opened, and the open
/// itself never waits: a named pipe opened for reading would wait for a writer forever, and a
/// device would be opened for nothing. So the kind is looked at first (`stat`), the file is
/// opened with `O_NONBLOCK` (a pipe put in its place meanwhile is opened at once, not waited
/// for) and looked at again on the descriptor (`fstat`) before a byte is read.
package func readRegularFile(atPath path: String) -> Result<[UInt8], FileReadFailure> {
    var info = stat()
    guard stat(path, &info) == 0 else { return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(code: errno)) }
    if let kind = FileReadFailure.kind(ofMode: info.st_mode) { return .failure(.notRegular(kind: kind)) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { return .failure(errno == ENOENT ? .missing : .unreadable(code: errno)) }
    defer { close(descriptor) }
    guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(code: errno)) }
    if let kind = FileReadFailure.kind(ofMode: info.st_mode) { return .failure(.notRegular(kind: kind)) }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var filled = 0
    while true {
        if filled == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: 4096)) }
        let count = bytes.withUnsafeMutableBytes { buffer in
            read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        }
        if count < 0 {
            if errno == EINTR { continue }
            return .failure(.unreadable(code: errno))
        }
        if count == 0 { break }
        filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return .success(bytes)
}

/// A regular file's bytes (see `readRegularFile`); nil when it cannot be read (missing, a
/// folder, a pipe or a device, no permission). Cheaper than Foundation's `Data` for the
/// thousands of small files a warm check reads.
package func readFile(atPath path: String) -> [UInt8]? {
    try? readRegularFile(atPath: path).get()
}

/// Makes a folder and those above it that are missing, as `mkdir -p` does; fails with the
/// system's reason (a file where a folder would be: "Not a directory"), for `path`.
package func makeFolders(_ path: String, mode: mode_t = 0o755) throws(FileWriteError) {
    var info = stat()
    if stat(path, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw FileWriteError(path: path, code: ENOTDIR) }
        return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path {
        do { try makeFolders(parent, mode: mode) } catch { throw FileWriteError(path: path, code: error.code) }
    }
    if mkdir(path, mode) != 0, errno != EEXIST { throw FileWriteError(path: path, code: errno) }
}
