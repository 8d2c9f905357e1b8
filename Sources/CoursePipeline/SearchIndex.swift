internal import CourseModel
import Foundation
import ScenarioRunning

/// The site's search index, made by Pagefind (`pip install pagefind-bin`), a static search
/// engine that stems Turkish among other languages: it reads the staged pages and writes
/// `pagefind/` beside them, before the site is swapped into place. Pagefind is optional:
/// without it the site has no search page and no search field, and `build` says so.
package struct SearchIndexer: Sendable {
    /// The `pagefind` program.
    package var executable: String

    /// `COURSEBOOK_PAGEFIND` when set (a path; empty for none), else `pagefind` on `PATH`.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> SearchIndexer? {
        if let chosen = environment["COURSEBOOK_PAGEFIND"] {
            return chosen.isEmpty ? nil : findOnPath(chosen, path: environment["PATH"]).map(SearchIndexer.init)
        }
        return (findOnPath("pagefind", path: environment["PATH"]) ?? findOnPath("pagefind_extended", path: environment["PATH"]))
            .map(SearchIndexer.init)
    }

    /// What Pagefind did, and why it could not.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Indexes the pages of `site` (every page that marks its text `data-pagefind-body`: the
    /// lessons and the limitations page) into `site/pagefind/`; returns how many pages it read.
    package func index(site: String) throws(Failure) -> Int {
        var watcher = CollectingWatcher(timeLimit: .seconds(300))
        let termination: Termination
        do throws(ChildProcess.LaunchError) {
            termination = try ChildProcess(executable: executable,
                                           arguments: ["--site", site, "--output-subdir", "pagefind"])
                .run(watching: &watcher)
        } catch {
            throw Failure(description: error.description)
        }
        let output = String(decoding: watcher.standardOutput + watcher.standardError, as: UTF8.self)
        guard termination.isSuccess else {
            throw Failure(description: "\(executable) failed (\(termination)):\n\(output)")
        }
        Self.removeUnloadedFiles(from: site + "/pagefind")
        // "Indexed 9 pages" is the line of its summary that says how many.
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 3, words[0] == "Indexed", words[2].hasPrefix("page"), let count = Int(words[1]) { return count }
        }
        return 0
    }

    /// Pagefind writes its ready-made search interfaces (about 400 KB of scripts and styles)
    /// and a word-splitter for every language beside the index; the site's own search loads
    /// only `pagefind.js`, its worker, the entry file, the index and the splitter of the
    /// languages indexed. The rest is removed, so that the site ships only what a page loads.
    static func removeUnloadedFiles(from folder: String) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: folder) else { return }
        var splitters: Set<String> = []
        if let entry = files.contents(atPath: folder + "/pagefind-entry.json"),
           let object = try? JSONSerialization.jsonObject(with: entry) as? [String: Any],
           let languages = object["languages"] as? [String: Any] {
            for case let language as [String: Any] in languages.values {
                splitters.insert("wasm.\((language["wasm"] as? String) ?? "unknown").pagefind")
            }
        }
        for name in names {
            let interface = name.hasPrefix("pagefind-") && (name.hasSuffix("ui.js") || name.hasSuffix("ui.css") || name == "pagefind-highlight.js")
            let unusedSplitter = name.hasPrefix("wasm.") && !splitters.isEmpty && !splitters.contains(name)
            if interface || unusedSplitter { try? files.removeItem(atPath: folder + "/" + name) }
        }
    }
}
