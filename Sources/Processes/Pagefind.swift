import CourseModel
import Foundation

/// Pagefind (`pip install pagefind-bin`), the static search engine that indexes a site, as a
/// process: found where `COURSEBOOK_PAGEFIND` or `PATH` says, run over a folder of pages under a
/// time limit (`COURSEBOOK_SEARCH_TIME_LIMIT`), stopped when it takes longer. Which pages it
/// reads and what is kept of its index is the pipeline's (`SearchIndexer`).
package struct Pagefind: Sendable {
    /// The `pagefind` program.
    package var executable: String
    /// How long Pagefind may take before it is stopped.
    package var timeLimit: Duration = .seconds(Pagefind.defaultTimeLimitSeconds)

    /// The time limit when `COURSEBOOK_SEARCH_TIME_LIMIT` (seconds) does not set one.
    package static let defaultTimeLimitSeconds = 60

    package init(executable: String) {
        self.executable = executable
    }

    /// `COURSEBOOK_PAGEFIND` when set (a path; empty for none), else `pagefind` on `PATH`.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> Pagefind? {
        let found: String?
        if let chosen = environment["COURSEBOOK_PAGEFIND"] {
            found = chosen.isEmpty ? nil : findOnPath(chosen, path: environment["PATH"])
        } else {
            found = findOnPath("pagefind", path: environment["PATH"]) ?? findOnPath("pagefind_extended", path: environment["PATH"])
        }
        guard let found else { return nil }
        var pagefind = Pagefind(executable: found)
        if let seconds = environment["COURSEBOOK_SEARCH_TIME_LIMIT"].flatMap(Double.init), seconds > 0, seconds.isFinite {
            pagefind.timeLimit = .milliseconds(Int64(seconds * 1000))
        }
        return pagefind
    }

    /// Why Pagefind made no index.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Pagefind took longer than the time limit and was stopped.
        package var timedOut = false

        package init(description: String, timedOut: Bool = false) {
            self.description = description
            self.timedOut = timedOut
        }
    }

    /// Runs Pagefind over the pages in `site`, writing the index into `output`; returns how many
    /// pages it says it indexed.
    package func index(site: String, output: String) throws(Failure) -> Int {
        var watcher = CollectingWatcher(timeLimit: timeLimit)
        let termination: Termination
        do throws(ChildProcess.LaunchError) {
            termination = try ChildProcess(executable: executable, arguments: ["--site", site, "--output-path", output])
                .run(watching: &watcher)
        } catch {
            throw Failure(description: error.description)
        }
        let said = String(decoding: watcher.standardOutput + watcher.standardError, as: UTF8.self)
        if watcher.timedOut {
            throw Failure(description: "\(executable) took longer than the search time limit (\(Self.seconds(timeLimit)) s) and was stopped; COURSEBOOK_SEARCH_TIME_LIMIT=SECONDS sets another, --no-search builds without search",
                          timedOut: true)
        }
        guard termination.isSuccess else {
            throw Failure(description: "\(executable) failed (\(termination)):\n\(said)")
        }
        // "Indexed 9 pages" is the line of its summary that says how many.
        for line in said.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 3, words[0] == "Indexed", words[2].hasPrefix("page"), let count = Int(words[1]) { return count }
        }
        return 0
    }

    /// A duration in seconds as a reader writes it: `60`, `0.5`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }
}
