import Foundation
import Processes
import ScenarioRunning
import TestSupport
import Testing

/// A book written for DocC, as The Swift Programming Language is (`docc-book`): `doc:` links
/// between chapters and to their headings, DocC's asides of every kind, images by name with
/// `@2x` and `~dark` variants in `Assets/`, illustrations with editor placeholders. Checked and
/// built by the binary under `--strict`; `docc-broken` holds what DocC would refuse.
@Suite(.serialized) struct DocCBookTests {
    @Test func checksAndBuildsGreenUnderStrict() throws {
        let root = temporaryFolder("docc-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let check = try coursebook(["check", "docc-book", "--strict", "--cache-dir", cache])
        #expect(check.status == 0 && check.standardError.isEmpty, "\(check)")
        #expect(check.standardOutput.hasSuffix("3 passed, 0 failed\n"), "\(check)")

        let site = root.appendingPathComponent("site")
        let build = try coursebook(["build", "docc-book", "--strict", "--cache-dir", cache, "--out", site.path])
        #expect(build.status == 0 && build.standardError.isEmpty, "\(build)")
        #expect(build.standardOutput.contains("; 8 files the lessons link to\n"), "\(build)")
        for file in ["Assets/remainderInteger@2x.png", "Assets/remainderInteger~dark@2x.png", "Assets/collectionTypes.png",
                     "Assets/collectionTypes@2x.png", "Assets/collectionTypes~dark.png", "Assets/collectionTypes~dark@2x.png",
                     "Assets/Closures/captureDiagram.svg", "Assets/Closures/captureDiagram~dark.svg"] {
            #expect(FileManager.default.contents(atPath: site.appendingPathComponent(file).path)
                    == FileManager.default.contents(atPath: fixtures.appendingPathComponent("docc-book/\(file)").path), "\(file)")
        }

        func page(_ name: String) throws -> String { try String(contentsOf: site.appendingPathComponent(name), encoding: .utf8) }
        let pages = try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.hasSuffix(".html") }
        for name in pages {
            let html = try page(name)
            // No `doc:` address and no raw placeholder reaches a reader.
            #expect(!html.contains("doc:"), "\(name)")
            #expect(!html.contains("&lt;#") && !html.contains("#&gt;"), "\(name)")
            for reference in references(in: html) {
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? name : String(parts[0]).removingPercentEncoding!
                guard let bytes = FileManager.default.contents(atPath: site.appendingPathComponent(file).path) else {
                    Issue.record("\(name): '\(reference)' leads to no file")
                    continue
                }
                if parts.count == 2, !parts[1].isEmpty {
                    #expect(String(decoding: bytes, as: UTF8.self).contains("id=\"\(parts[1])\""), "\(name): '\(reference)' leads to no anchor")
                }
            }
        }

        let basics = try page("01-the-basics.html")
        // `<doc:Name>` shows the lesson's title, `<doc:Name#Section>` the heading's, a link with
        // text of its own keeps it.
        #expect(basics.contains("described in <a href=\"02-collection-types.html\">Collection Types</a>, and"))
        #expect(basics.contains("which <a href=\"03-closures.html#capturing-values\">Capturing Values</a> explains"))
        #expect(basics.contains("see <a href=\"01-the-basics.html#constants-and-variables\">Constants and Variables</a> below"))
        #expect(basics.contains("<a href=\"01-the-basics.html#optionals\">the section on optionals</a>"))
        #expect(basics.contains("<p><picture><source media=\"screen and (prefers-color-scheme: dark)\" srcset=\"Assets/remainderInteger~dark@2x.png 2x\"><img src=\"Assets/remainderInteger@2x.png\" srcset=\"Assets/remainderInteger@2x.png 2x\" width=\"240\" height=\"60\" alt=\"Nine split into two fours and a remainder of one\"></picture></p>"))
        #expect(basics.contains("<span class=\"tok-keyword\">if</span> <span class=\"tok-keyword\">let</span> <span class=\"tok-placeholder\">constantName</span> = <span class=\"tok-placeholder\">someOptional</span> {"))
        let collections = try page("02-collection-types.html")
        #expect(collections.contains("<picture><source media=\"screen and (prefers-color-scheme: dark)\" srcset=\"Assets/collectionTypes~dark.png 1x, Assets/collectionTypes~dark@2x.png 2x\"><img src=\"Assets/collectionTypes.png\" srcset=\"Assets/collectionTypes.png 1x, Assets/collectionTypes@2x.png 2x\" width=\"300\" height=\"100\" alt=\"Arrays, sets and dictionaries side by side\"></picture>"))
        #expect(collections.contains("<a href=\"01-the-basics.html#optional-binding\">The Basics</a> introduces"))

        // Every aside is a callout of its kind, titled as DocC titles it, in lesson order.
        let titles = try ["01-the-basics.html", "02-collection-types.html", "03-closures.html"].flatMap { name in
            try page(name).matches(of: /<p class="callout-title">([^<]*)<\/p>/).map { String($0.output.1) }
        }
        #expect(titles == ["Note", "Important", "Warning", "Tip", "Experiment", "Remark",
                           "Precondition", "Postcondition", "Invariant", "Complexity", "Requires", "Throws",
                           "Attention", "Author", "Authors", "Bug", "Copyright", "Date", "Mutating Variant",
                           "Non-Mutating Variant", "Since", "To Do", "Version", "See Also",
                           "Deprecated", "Grammar of a closure expression"])
        let closures = try page("03-closures.html")
        #expect(basics.contains("<div class=\"callout callout-tip\" role=\"note\">\n<p class=\"callout-title\">Experiment</p>\n<p>Change <code>maximumNumberOfLoginAttempts</code>"))
        #expect(closures.contains("<blockquote>\n<p>A quote that is only a quote: its first line says nothing of a kind.</p>\n</blockquote>"))
        #expect(closures.contains("<span class=\"tok-placeholder\">(String, String) throws -&gt; Bool</span>"))
        #expect(closures.contains("add(<span class=\"tok-placeholder\">x: Int</span>, to: <span class=\"tok-placeholder\">y: Int</span>)"))

        // The whole course on one page: the links stay inside it, the placeholders are tokens.
        let whole = try page("print.html")
        #expect(whole.contains("<a href=\"#02-collection-types\">Collection Types</a>"))
        #expect(whole.contains("<a href=\"#03-closures--capturing-values\">Capturing Values</a>"))
        #expect(whole.contains("<span class=\"tok-placeholder\">statements</span>"))
        #expect(whole.contains("srcset=\"Assets/remainderInteger~dark@2x.png 2x\""))
    }

    /// A `doc:` link to a lesson or heading the course lacks, an image nobody drew, one name in
    /// two folders: a warning each at its line and column; `--strict` fails on them.
    @Test func whatNamesNothingIsAWarningAtItsPlace() throws {
        let root = temporaryFolder("docc-broken")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let expected = [
            "docc-broken/01-links.md:3:37: warning: link 'doc:SummaryOfTheGrammar' names no lesson: a doc: link names a lesson by its file name without NN- and .md, case and dashes aside, and no lesson file is named so (NN-summary-of-the-grammar.md)",
            "docc-broken/01-links.md:4:26: warning: link 'doc:Links#No-Such-Heading' names no heading of 01-links.md: none of its headings reads 'No-Such-Heading' (compared by letters and digits, case aside)",
            "docc-broken/01-links.md:9:1: warning: image 'missingDiagram' points at nothing: docc-broken/missingDiagram does not exist, and no image in the course's folders has that name (missingDiagram.png, missingDiagram@2x.png, missingDiagram~dark.png ...)",
            "docc-broken/01-links.md:11:1: warning: image 'twice' has the same variant twice: docc-broken/Assets/twice.png and docc-broken/Old/twice.png; DocC needs an image's name to be unique in the course, so the site shows the first",
        ]
        let check = try coursebook(["check", "docc-broken", "--cache-dir", cache])
        #expect(check.status == 0, "\(check)")
        #expect(check.standardError == expected.joined(separator: "\n") + "\n", "\(check)")
        #expect(check.standardOutput.contains("0 errors, 4 warnings\n"), "\(check)")

        let strict = try coursebook(["check", "docc-broken", "--strict", "--cache-dir", cache])
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.standardError == expected.map { $0.replacingOccurrences(of: ": warning: ", with: ": error: ") }
            .joined(separator: "\n") + "\n", "\(strict)")
        #expect(strict.standardOutput.contains("4 errors, 0 warnings\n"), "\(strict)")

        let site = root.appendingPathComponent("site")
        let build = try coursebook(["build", "docc-broken", "--cache-dir", cache, "--out", site.path])
        #expect(build.status == 0, "\(build)")
        let page = try String(contentsOf: site.appendingPathComponent("01-links.html"), encoding: .utf8)
        // A link that names nothing is its words; a heading that exists is linked.
        #expect(page.contains("summarized in SummaryOfTheGrammar, a chapter"))
        #expect(page.contains("covered in No Such Heading, a section"))
        #expect(page.contains("<a href=\"01-links.html#images\">images</a>"))
        #expect(page.contains("<img src=\"Assets/twice.png\" width=\"40\" height=\"20\" alt=\"The same name in two folders\">"))
        #expect(FileManager.default.contents(atPath: site.appendingPathComponent("Assets/twice.png").path) != nil)
        #expect(FileManager.default.contents(atPath: site.appendingPathComponent("Old/twice.png").path) == nil)
        #expect(!page.contains("doc:"))
    }

    /// A reader in dark mode sees the dark variant; every image fits a phone's screen; a
    /// placeholder is a rounded token in both modes, and no `<#` shows.
    @Test func aReaderSeesTheVariantOfTheirScreen() throws {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let root = temporaryFolder("docc-browser")
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("site")
        let build = try coursebook(["build", "docc-book", "--cache-dir", root.appendingPathComponent("cache").path, "--out", site.path])
        #expect(build.status == 0, "\(build)")
        let browser = try Browser(chromium)
        try browser.open(site.appendingPathComponent("01-the-basics.html"))
        let image = "document.querySelector('picture img')"
        let token = "getComputedStyle(document.querySelector('.tok-placeholder'))"
        var backgrounds: [String] = []
        for dark in [false, true] {
            try browser.setDark(dark)
            try browser.wait(until: "\(image).complete && \(image).currentSrc.endsWith('\(dark ? "remainderInteger~dark@2x.png" : "remainderInteger@2x.png")')")
            // The 480-pixel file of a `2x` source is shown 240 CSS pixels wide.
            #expect(try browser.evaluate("\(image).getBoundingClientRect().width") as? Int == 240)
            #expect(try browser.evaluate("\(token).borderTopLeftRadius") as? String != "0px")
            backgrounds.append(try browser.evaluate("\(token).backgroundColor") as? String ?? "")
            #expect(try browser.evaluate("document.body.innerText.includes('<#')") as? Bool == false)
        }
        #expect(backgrounds[0] != backgrounds[1] && !backgrounds.contains("rgba(0, 0, 0, 0)"), "\(backgrounds)")
        // On a phone, the wide image shrinks to the column, in proportion.
        try browser.open(site.appendingPathComponent("02-collection-types.html"))
        try browser.setViewport(width: 200, mobile: true)
        let width = try browser.evaluate("\(image).getBoundingClientRect().width") as? Double ?? 0
        let height = try browser.evaluate("\(image).getBoundingClientRect().height") as? Double ?? 0
        #expect(width > 0 && width < 200 && (width / height - 3).magnitude < 0.05, "\(width) × \(height)")
    }

    /// Every `href`, `src` and `srcset` address that is not a web address.
    func references(in html: String) -> [String] {
        let plain = html.matches(of: /(?:href|src)="([^"]*)"/).map { String($0.output.1) }
        let sets = html.matches(of: /srcset="([^"]*)"/).flatMap { match in
            match.output.1.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        return (plain + sets).map { $0.replacingOccurrences(of: "&amp;", with: "&") }
            .filter { reference in !["http:", "https:", "mailto:", "data:", "//"].contains { reference.hasPrefix($0) } }
    }
}
