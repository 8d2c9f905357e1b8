import Foundation
import Processes
import ScenarioRunning
import TestSupport
import Testing

/// Markdown as authors write it, built by the binary: footnotes, callouts, the allowed HTML and
/// an exercise in the `markdown` fixture; hostile HTML in `hostile-html`.
@Suite(.serialized) struct MarkdownSiteTests {
    func build(_ fixture: String, _ extra: [String] = []) throws -> (CommandResult, URL) {
        let root = temporaryFolder("markdown-\(fixture)")
        let site = root.appendingPathComponent("site")
        return (try coursebook(["build", fixture, "--out", site.path, "--no-cache"] + extra), site)
    }

    @Test func pagesAreValidHTML() throws {
        let (result, site) = try build("markdown", ["--strict"])
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result)")
        guard let tidy = findOnPath("tidy") else {
            Issue.record("tidy is not installed: 'make' installs it (Debian package tidy)")
            return
        }
        for page in ["index.html", "01-everyday-markdown.html", "limitations.html"] {
            var watcher = CollectingWatcher(timeLimit: .seconds(60))
            let termination = try ChildProcess(executable: tidy, arguments: ["-quiet", "-errors", site.appendingPathComponent(page).path])
                .run(watching: &watcher)
            let findings = String(decoding: watcher.standardError, as: UTF8.self).split(separator: "\n")
                .filter { !$0.contains("proprietary attribute \"aria-current\"") }
            #expect(termination != .exited(2) && findings.isEmpty, "\(page): \(findings.joined(separator: "\n"))")
        }
    }

    /// A reader opens the exercise's answer, follows a footnote and comes back.
    @Test func aReaderOpensTheAnswerAndFollowsAFootnoteAndBack() throws {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let (result, site) = try build("markdown")
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result)")
        let browser = try Browser(chromium)
        try browser.open(site.appendingPathComponent("01-everyday-markdown.html"))

        let answer = "document.querySelector('main details')"
        #expect(try browser.evaluate("\(answer).open") as? Bool == false)
        #expect(try browser.evaluate("\(answer).querySelector('.output samp').checkVisibility()") as? Bool == false)
        #expect(try browser.evaluate("\(answer).querySelector('summary').click(); \(answer).open") as? Bool == true)
        #expect(try browser.evaluate("\(answer).querySelector('.output samp').checkVisibility()") as? Bool == true)
        #expect(try browser.evaluate("\(answer).querySelector('.output samp').textContent")
                as? String == "c: k degisti | yeniden A ortam | atlanan yok\nyerel: 0\nebeveyn: 0\ngozlem: 0\nortam: 1")

        #expect(try browser.evaluate("document.querySelector('.footnote-ref a').click(); location.hash") as? String == "#fn-counts")
        #expect(try browser.evaluate("document.querySelector(':target').tagName") as? String == "LI")
        #expect(try browser.evaluate("document.querySelector('#fn-counts .footnote-backref').click(); location.hash")
                as? String == "#fnref-counts")
        #expect(try browser.evaluate("document.querySelector('.callout-note .callout-title').textContent") as? String == "Note")
        #expect(try browser.evaluate("document.querySelector('.callout-note').getAttribute('role')") as? String == "note")
    }

    /// None of the hostile HTML reaches a page as markup: each piece is shown as text, and
    /// under --strict each is an error at its line.
    @Test func hostileHTMLIsShownAsTextWithAWarningEach() throws {
        let cache = temporaryFolder("hostile-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let strict = try coursebook(["check", "hostile-html", "--strict", "--cache-dir", cache.path])
        #expect(strict.status == 1)
        let errors = strict.standardError.split(separator: "\n")
        let rawHTML = errors.filter { $0.contains(": error: raw HTML is shown on the page as text") }
        #expect(rawHTML.count == 21, "\(strict)")
        // The Markdown link and image to unsafe addresses are findings of their own.
        #expect(errors.filter { !rawHTML.contains($0) } == [
            "hostile-html/01-lesson.md:26:1: error: link 'javascript:alert(1)' goes nowhere: 'javascript:' addresses are taken off pages for safety; link a lesson file (02-name.md), a file of the course or a web address",
            "hostile-html/01-lesson.md:26:44: error: image 'data:text/html;base64,PHNjcmlwdD4=' goes nowhere: 'data:' addresses are taken off pages for safety; show an image file of the course or one at a web address",
        ])
        #expect(errors.first?.hasPrefix("hostile-html/01-lesson.md:3:1: ") == true)
        #expect(errors.contains { $0.hasPrefix("hostile-html/01-lesson.md:28:1: ") })

        let (result, site) = try build("hostile-html")
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        #expect(result.status == 0, "\(result)")
        // The lesson's part of the page (the layout carries the site's own icon and script).
        let whole = try String(contentsOf: site.appendingPathComponent("01-lesson.html"), encoding: .utf8)
        let page = String(whole[whole.range(of: "<main")!.lowerBound..<whole.range(of: "</main>")!.upperBound])
        for markup in ["<script", "<iframe", "<style", "<img src=x", "href=\"javascript:", "href=\"data:", "<KBD>",
                       "<details>", "<summary>Never", "<details onclick"] {
            #expect(!page.contains(markup), "\(markup) reached the page")
        }
        #expect(page.range(of: #"<[a-zA-Z][^<>]*\son[a-z]+="#, options: .regularExpression) == nil)
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("<h2 id=\"a-section\">A Section"))
        #expect(!whole.contains("<script src"))
    }
}
