import Foundation

/// Outputs of scenarios that ran to their end, one file per key under a folder. A key covers
/// everything the output can depend on, so an entry is never stale: it is used or not found.
package struct ResultCache: Sendable {
    package var folder: String

    package init(folder: String) {
        self.folder = folder
    }

    /// Bump when the way scenarios are compiled or run changes what they could print.
    package static let formatVersion = "1"

    /// The key of a scenario: the tool's and the compiler's versions, every core file (name and
    /// text), the scenario's code and, only when the code can see its own place (`#line`,
    /// `#file` ...), that place.
    package static func key(toolVersion: String, compilerVersion: String,
                            core: [(name: String, text: String)], source: ScenarioSource) -> String {
        var hash = SHA256()
        for part in ["coursebook-result", formatVersion, toolVersion, compilerVersion] {
            hash.update(part)
            hash.update([0])
        }
        for file in core {
            hash.update("core \(file.name) \(file.text.utf8.count)\n")
            hash.update(file.text)
        }
        hash.update("scenario \(source.code.utf8.count)\n")
        hash.update(source.code)
        if ["#file", "#line", "#column", "#fileID", "#filePath"].contains(where: source.code.contains) {
            hash.update("at \(source.file):\(source.firstLine)")
        }
        return hash.finalize()
    }

    private func path(_ key: String) -> String { "\(folder)/\(key).out" }

    package func lookup(_ key: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path(key)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Stores outputs, key to output; a cache that cannot be written only makes the next
    /// check slower. The writes are spread over the cores: a cold check stores hundreds.
    package func store(_ outputs: [(key: String, output: String)]) {
        guard !outputs.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: folder) {
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return }
            // The folder ignores itself, wherever a course keeps it.
            try? writeAtomically(Array("*\n".utf8), to: "\(folder)/.gitignore")
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, outputs.count / 32))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: outputs.count, by: workers) {
                // Nothing to lose on failure: the result is in this run's report either way.
                try? writeAtomically(Array(outputs[index].output.utf8), to: path(outputs[index].key),
                                     keepingPermissions: false)
            }
        }
    }
}
