import Foundation

/// A folder of entries addressed by key: a SHA-256 of everything an entry depends on, so that
/// an entry is never stale, only found or not. Each entry carries its key and a digest of its
/// payload; an entry that does not match both (cut short, edited, copied under another name)
/// is not found, and the work is simply done again.
package struct ContentStore: Sendable {
    package var folder: String

    package init(folder: String) {
        self.folder = folder
    }

    private static let magic = "coursebook-entry 1\n"

    private func path(_ key: String, _ suffix: String) -> String { "\(folder)/\(key).\(suffix)" }

    /// The payload stored under `key`, or nil when there is none or it does not verify.
    package func read(_ key: String, suffix: String) -> [UInt8]? {
        guard let bytes = readFile(atPath: path(key, suffix)) else { return nil }
        let header = Array((Self.magic + key + "\n").utf8)
        let digestEnd = header.count + 64
        guard bytes.count > digestEnd, bytes.starts(with: header),
              bytes[digestEnd] == UInt8(ascii: "\n") else { return nil }
        let payload = Array(bytes[(digestEnd + 1)...])
        guard String(decoding: bytes[header.count..<digestEnd], as: UTF8.self) == SHA256.hex(payload) else {
            return nil
        }
        return payload
    }

    /// Stores payloads by key. A store that cannot be written only makes the next run slower,
    /// so failures are ignored. The writes are spread over the cores: a cold run stores
    /// thousands.
    package func write(_ entries: [(key: String, payload: [UInt8])], suffix: String) {
        guard !entries.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: folder) {
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return }
            // The folder ignores itself, wherever a course keeps it.
            try? writeAtomically(Array("*\n".utf8), to: "\(folder)/.gitignore")
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, entries.count / 32))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: entries.count, by: workers) {
                let (key, payload) = entries[index]
                let bytes = Array((Self.magic + key + "\n" + SHA256.hex(payload) + "\n").utf8) + payload
                try? writeAtomically(bytes, to: path(key, suffix), keepingPermissions: false)
            }
        }
    }
}
