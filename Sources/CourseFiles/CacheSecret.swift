import Foundation

/// The key that signs cache entries. Entries found in a course's cache folder are believed only
/// when signed with it, so that a cache committed with a course, restored from elsewhere or
/// forged cannot make a page claim an output that no run here produced. It lives outside every
/// course: `COURSEBOOK_CACHE_KEY` when set (CI jobs that share a cache share this secret too),
/// else 32 random bytes in `$XDG_CACHE_HOME/coursebook/cache-key` (`~/.cache/...`), made on
/// first use, readable by the user alone.
package struct CacheSecret: Sendable, Equatable {
    package var bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// This machine's key, or why there is none (then nothing is cached).
    package static let machine: Result<CacheSecret, CacheSecretError> = load(
        environment: ProcessInfo.processInfo.environment)

    package static func load(environment: [String: String]) -> Result<CacheSecret, CacheSecretError> {
        if let given = environment["COURSEBOOK_CACHE_KEY"], !given.isEmpty {
            var hash = SHA256()
            hash.update("coursebook cache key\n" + given)
            return .success(CacheSecret(bytes: hash.finalizeBytes()))
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.cache" }
        guard let base else { return .failure(CacheSecretError(reason: "neither HOME nor XDG_CACHE_HOME is set")) }
        let folder = base + "/coursebook"
        let path = folder + "/cache-key"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // A new key is written whole under a temporary name and linked into place, so that two
        // runs starting at once agree on one key.
        if access(path, F_OK) != 0 {
            var random = SystemRandomNumberGenerator()
            let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
            let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor >= 0 {
                _ = fresh.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
                close(descriptor)
                link(temporary, path)
                unlink(temporary)
            }
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            return .failure(CacheSecretError(reason: "cannot read or make \(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid(),
              info.st_mode & 0o077 == 0 else {
            return .failure(CacheSecretError(reason: "\(path) is not a file of this user's that only they can read"))
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard read(descriptor, &bytes, 32) == 32 else {
            return .failure(CacheSecretError(reason: "\(path) is cut short"))
        }
        return .success(CacheSecret(bytes: bytes))
    }
}

package struct CacheSecretError: Error, Sendable, Equatable {
    package var reason: String
}
