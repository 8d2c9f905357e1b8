import Foundation
import TestSupport
import Testing

/// A course unlike ours: an English language book with no core file and no limitation notes
/// (`language-book`), checked and built under `--strict` by the binary.
@Suite(.serialized) struct LanguageBookTests {
    @Test func checksAndBuildsGreenWithNoDeadLink() throws {
        let root = temporaryFolder("language-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let check = try coursebook(["check", "language-book", "--strict", "--cache-dir", cache])
        #expect(check.status == 0 && check.standardError.isEmpty, "\(check)")
        #expect(check.standardOutput.hasSuffix("24 passed, 0 failed\n"), "\(check)")

        let site = root.appendingPathComponent("site")
        let build = try coursebook(["build", "language-book", "--strict", "--cache-dir", cache, "--out", site.path])
        #expect(build.status == 0 && build.standardError.isEmpty, "\(build)")
        #expect(build.standardOutput.contains("24 passed, 0 failed\n"), "\(build)")
        #expect(build.standardOutput.contains("; 1 file the lessons link to\n"), "\(build)")

        let image = "images/protocol.svg"
        #expect(FileManager.default.contents(atPath: site.appendingPathComponent(image).path)
                == FileManager.default.contents(atPath: fixtures.appendingPathComponent("language-book/\(image)").path))

        let pages = try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.hasSuffix(".html") }.sorted()
        // Five lessons, the index, the whole course, the search page (Pagefind is installed by
        // `make`); no limitations page for a course without limitation notes, and no link to one.
        #expect(pages.count == 8)
        #expect(!pages.contains("limitations.html"))
        var checkedLinks = 0
        for page in pages {
            let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            // The editors' comments stay in the lesson files.
            #expect(!html.contains("Editors:") && !html.contains("TODO(editor)"), "\(page)")
            for reference in relativeReferences(in: html) {
                checkedLinks += 1
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? page : String(parts[0])
                let target = site.appendingPathComponent(file)
                guard let bytes = FileManager.default.contents(atPath: target.path) else {
                    Issue.record("\(page): '\(reference)' leads to no file")
                    continue
                }
                if parts.count == 2, !parts[1].isEmpty {
                    #expect(String(decoding: bytes, as: UTF8.self).contains("id=\"\(parts[1])\""),
                            "\(page): '\(reference)' leads to no anchor")
                }
            }
        }
        #expect(checkedLinks > 50)
        let protocols = try String(contentsOf: site.appendingPathComponent("02-protocols.html"), encoding: .utf8)
        #expect(protocols.contains("<img src=\"images/protocol.svg\""))
        #expect(protocols.contains("<a href=\"01-values.html#structures\">structures</a>"))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!index.contains("imitation"), "the index speaks of limitations the course has not")
    }

    /// Every `href` and `src` that is not a web address (nor an inline image).
    func relativeReferences(in html: String) -> [String] {
        html.matches(of: /(?:href|src)="([^"]*)"/).map { String($0.output.1) }
            .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
            .filter { reference in
                !["http:", "https:", "mailto:", "data:", "//"].contains { reference.hasPrefix($0) }
            }
    }
}
