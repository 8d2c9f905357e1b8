import CourseFiles
import CourseModel

/// Outputs of scenarios that ran to their end, in the content-addressed store. A key covers
/// everything the output can depend on, so an entry is never stale: it is used or not found.
package struct ResultCache: Sendable {
    package var store: ContentStore

    package init(folder: String) {
        store = ContentStore(folder: folder)
    }

    static let suffix = "out"
    /// Bump when the way scenarios are compiled or run changes what they could print.
    package static let formatVersion = "5"

    /// A digest of the core files (names and texts), computed once per run and hashed into
    /// every key instead of the files themselves.
    package static func coreDigest(_ core: [(name: String, text: String)]) -> String {
        var hash = SHA256()
        for file in core {
            hash.update("core \(file.name) \(file.text.utf8.count)\n")
            hash.update(file.text)
        }
        return hash.finalize()
    }

    /// The key of a scenario: the tool's and the compiler's versions, the core files, the
    /// scenario's code and, only when the code can see its own place (`#line`, `#file` ...),
    /// that place.
    /// - Parameter placement: where the program runs (`Sandbox.Placement.keyPart`).
    package static func key(toolVersion: String, compilerVersion: String, coreDigest: String,
                            placement: String = "plain", source: ScenarioSource) -> String {
        var hash = SHA256()
        for part in ["coursebook-result", formatVersion, toolVersion, compilerVersion, coreDigest, placement] {
            hash.update(part)
            hash.update([0])
        }
        hash.update("scenario \(source.code.utf8.count)\n")
        hash.update(source.code)
        return hash.finalize()
    }

    package func lookup(_ key: String) -> String? {
        store.read(key, suffix: Self.suffix).map { String(decoding: $0, as: UTF8.self) }
    }

    package func store(_ outputs: [(key: String, output: String)]) {
        store.write(outputs.map { ($0.key, Array($0.output.utf8)) }, suffix: Self.suffix)
    }
}
