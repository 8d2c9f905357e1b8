import Foundation
import Synchronization

/// A folder of entries addressed by key: a SHA-256 of everything an entry depends on, so that
/// an entry is never stale, only found or not. Each entry carries its key and an HMAC of key
/// and payload under this machine's secret (`CacheSecret`). An entry that does not verify (cut
/// short, edited, copied under another name, written with another secret, forged) or is not a
/// plain file (a symbolic link, a folder, a device) is refused: counted, never believed, and the
/// work is done again and written over it.
package struct ContentStore: Sendable {
    package var folder: String
    /// This machine's secret, ready to sign with; nil when there is none: nothing is read or
    /// written.
    private var secret: HMACKey?
    /// Entries refused so far, shared by copies of this store.
    private let refused: Refusals

    package init(folder: String, secret: Result<CacheSecret, CacheSecretError> = CacheSecret.machine) {
        self.folder = folder
        self.secret = (try? secret.get().bytes).map(HMACKey.init)
        refused = Refusals()
        // A store folder that is a symbolic link could lead the writes anywhere.
        var info = stat()
        if lstat(folder, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            self.secret = nil
            refused.folderProblem = "\(folder) is not a folder (a symbolic link?); the cache is not used"
        } else if case .failure(let error) = secret {
            refused.folderProblem = "no key to sign the cache with (\(error.reason)); the cache is not used"
        }
    }

    /// How many entries were refused, and why the store could not be used at all, if so.
    package var refusals: Int { refused.count.load(ordering: .relaxed) }
    package var problem: String? { refused.folderProblem }
    /// Why an entry could not be written, the first time one could not (a full disk, a folder
    /// that cannot be made): what this run learned is then not kept, and the next run does the
    /// work again.
    package var writeProblem: String? { refused.writeFailure.withLock { $0 } }

    private static let magic = "coursebook-entry 2\n"
    /// Larger entries are not believed (a scenario's output is capped far below this).
    private static let largestEntry = 64 << 20

    private func path(_ key: String, _ suffix: String) -> String { "\(folder)/\(key).\(suffix)" }

    /// The HMAC of the key's line and the payload; nil without a secret.
    private func signature(_ key: String, _ payload: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let secret else { return nil }
        var line = key + "\n"
        return line.withUTF8 { Array(secret.signature(UnsafeRawBufferPointer($0), payload).utf8) }
    }

    /// The payload stored under `key`, or nil when there is none or it is refused.
    package func read(_ key: String, suffix: String) -> [UInt8]? {
        guard secret != nil else { return nil }
        let descriptor = open(path(key, suffix), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            // No entry is the usual case; a symbolic link in its place is refused.
            if errno == ELOOP { refused.count.add(1, ordering: .relaxed) }
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              info.st_size <= Self.largestEntry else {
            refused.count.add(1, ordering: .relaxed)
            return nil
        }
        guard let bytes = readAll(descriptor, size: Int(info.st_size)) else { return nil }
        let header = Array((Self.magic + key + "\n").utf8)
        let signatureEnd = header.count + 64
        // An entry an earlier version of the tool wrote is only a miss.
        if !bytes.starts(with: Array(Self.magic.utf8)), bytes.starts(with: Array("coursebook-entry ".utf8)) { return nil }
        guard bytes.count > signatureEnd, bytes.starts(with: header), bytes[signatureEnd] == UInt8(ascii: "\n"),
              bytes[header.count..<signatureEnd].elementsEqual(
                bytes.withUnsafeBytes { signature(key, UnsafeRawBufferPointer(rebasing: $0[(signatureEnd + 1)...])) } ?? []) else {
            refused.count.add(1, ordering: .relaxed)
            return nil
        }
        return Array(bytes[(signatureEnd + 1)...])
    }

    /// Stores payloads by key. A store that cannot be written only makes the next run slower:
    /// the first failure is kept (`writeProblem`), for the command to say, and the run goes on.
    /// The writes are spread over the cores: a cold run stores thousands.
    package func write(_ entries: [(key: String, payload: [UInt8])], suffix: String) {
        guard !entries.isEmpty, secret != nil else { return }
        if !FileManager.default.fileExists(atPath: folder) {
            do throws(FileWriteError) {
                try makeFolders(folder)
            } catch {
                refused.failedToWrite("cannot make \(folder): \(error.reason)")
                return
            }
            // The folder ignores itself, wherever a course keeps it.
            try? writeAtomically(Array("*\n".utf8), to: "\(folder)/.gitignore")
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, entries.count / 32))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: entries.count, by: workers) {
                let (key, payload) = entries[index]
                guard let signed = payload.withUnsafeBytes({ signature(key, $0) }) else { continue }
                let bytes = Array((Self.magic + key + "\n").utf8) + signed + [UInt8(ascii: "\n")] + payload
                // A rename replaces whatever had the name, a refused link included.
                do throws(FileWriteError) {
                    try writeAtomically(bytes, to: path(key, suffix), keepingPermissions: false)
                } catch {
                    refused.failedToWrite("cannot write in \(folder): \(error.reason)")
                }
            }
        }
    }

    /// Many entries in one file, `name.pack`, signed as one entry: what a command reads of
    /// hundreds of entries every time (a warm check's readings) comes back with one open and
    /// one signature instead of one of each per entry. Each entry is its key's line, its
    /// length's line, then its bytes. A pack that is missing, refused or cut short reads as
    /// empty, and the entries are read one by one as before.
    package func readPack(_ name: String) -> [String: [UInt8]] {
        guard let bytes = read(name, suffix: Self.packSuffix) else { return [:] }
        var entries: [String: [UInt8]] = [:]
        var start = 0
        func line() -> String? {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { start = end + 1 }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        while start < bytes.count {
            guard let key = line(), let count = line().flatMap({ Int($0) }), count >= 0,
                  count <= bytes.count - start else { return [:] }
            entries[key] = Array(bytes[start..<(start + count)])
            start += count
        }
        return entries
    }

    /// Writes `entries` as the pack `name` (see `readPack`), in place of the one there.
    package func writePack(_ name: String, _ entries: [(key: String, payload: [UInt8])]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + $1.key.utf8.count + $1.payload.count + 16 })
        for entry in entries where !entry.key.utf8.contains(UInt8(ascii: "\n")) {
            bytes += Array("\(entry.key)\n\(entry.payload.count)\n".utf8)
            bytes += entry.payload
        }
        write([(name, bytes)], suffix: Self.packSuffix)
    }

    private static let packSuffix = "pack"

    /// The names of the packs in the folder whose names begin with `prefix` (see `readPack`),
    /// sorted; none without a secret, since they could not be read.
    package func packNames(beginningWith prefix: String) -> [String] {
        guard secret != nil, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let suffix = "." + Self.packSuffix
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }

    private func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, size - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return filled == size ? bytes : nil
    }
}

/// Refusals of a store, counted across its copies and threads.
private final class Refusals: Sendable {
    let count = Atomic<Int>(0)
    nonisolated(unsafe) var folderProblem: String?
    let writeFailure = Mutex<String?>(nil)

    /// Keeps the first write that failed.
    func failedToWrite(_ why: String) {
        writeFailure.withLock { $0 = $0 ?? why }
    }
}
