import CourseModel
import Foundation
import LessonParsing
import Processes
import ScenarioRunning
import Testing

/// The published course read as a reader would, in headless Chromium: on a phone and on a wide
/// screen, with the keyboard and a screen reader's view of the page, and searching it.
@Suite(.serialized) struct ReadingTheSiteTests {
    func browser() throws -> Browser? {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return nil
        }
        return try Browser(chromium)
    }

    func site() throws -> URL { try PublishedSiteTests.built.get() }

    func lessons() throws -> [Lesson] {
        try CourseLoader.load(folder: PublishedSiteTests.course.path).course.lessons
    }

    /// On a 360 px phone, every output is shown whole: no output scrolls sideways, no line runs
    /// past its box, and the long lines do wrap (so the measure is not vacuous).
    @Test func everyOutputFitsAPhone() throws {
        guard let browser = try browser() else { return }
        var wrapped = 0
        for lesson in try lessons() where !lesson.scenarios.isEmpty {
            try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
            try browser.setViewport(width: 360, mobile: true)
            let measured = try browser.evaluate("""
                (() => {
                  const outputs = [...document.querySelectorAll('.output pre')];
                  const overflowing = outputs.filter((pre) => {
                    const box = pre.getBoundingClientRect();
                    return pre.scrollWidth > pre.clientWidth + 1
                      || [...pre.querySelectorAll('.line')].some((line) => {
                        const range = document.createRange();
                        range.selectNodeContents(line);
                        return [...range.getClientRects()].some((rect) => rect.right > box.right + 0.5);
                      });
                  });
                  const lineHeight = (line) => parseFloat(getComputedStyle(line).lineHeight);
                  const wrapped = outputs.flatMap((pre) => [...pre.querySelectorAll('.line')])
                    .filter((line) => line.getBoundingClientRect().height > 1.5 * lineHeight(line));
                  return [outputs.length, overflowing.length, wrapped.length];
                })()
                """) as? [Int] ?? []
            #expect(measured.count == 3 && measured[0] > 0, "\(lesson.fileName): no outputs measured")
            #expect(measured.count == 3 && measured[1] == 0, "\(lesson.fileName): \(measured) outputs overflow at 360 px")
            wrapped += measured.count == 3 ? measured[2] : 0
        }
        #expect(wrapped > 0, "no output line wraps at 360 px: the measure measured nothing")
    }

    /// A wrapped output line hangs: its continuation starts to the right of where the line
    /// started, deeper than the line's own leading spaces.
    @Test func aWrappedOutputLineHangs() throws {
        guard let browser = try browser() else { return }
        try browser.open(try site().appendingPathComponent("01-yerel-durum.html"))
        try browser.setViewport(width: 360, mobile: true)
        let indents = try browser.evaluate("""
            (() => {
              const line = [...document.querySelectorAll('.output .line')]
                .find((line) => line.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(line).lineHeight));
              const range = document.createRange();
              range.selectNodeContents(line);
              // Where the first and the last row of the line start (a row is many boxes).
              const rects = [...range.getClientRects()].filter((rect) => rect.width > 0.5);
              const top = Math.min(...rects.map((rect) => rect.top)), bottom = Math.max(...rects.map((rect) => rect.top));
              const start = (row) => Math.min(...rects.filter((rect) => Math.abs(rect.top - row) < 2).map((rect) => rect.left));
              return [start(top), start(bottom)];
            })()
            """) as? [Double] ?? []
        #expect(indents.count == 2 && indents[1] > indents[0] + 10, "\(indents)")
    }

    /// On a wide screen the page map stands beside the text: the lesson's sections and notes,
    /// every link to a place on the page; the section being read is marked while scrolling.
    /// On a phone it gives way to the contents list, which lists the sections.
    @Test func thePageMapListsSectionsAndNotes() throws {
        guard let browser = try browser() else { return }
        for lesson in try lessons() {
            try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
            try browser.setViewport(width: 1440)
            let sections = lesson.headings.filter { $0.level == 2 }.map(\.text)
            guard !sections.isEmpty || !lesson.notes.isEmpty else {
                #expect(try browser.evaluate("document.querySelector('.page-map') === null") as? Bool == true, "\(lesson.fileName)")
                continue
            }
            #expect(try browser.evaluate("document.querySelector('.page-map').checkVisibility()") as? Bool == true)
            let titles = try browser.evaluate("[...document.querySelectorAll('.page-map ol > li > a')].map((a) => a.textContent)") as? [String]
            #expect(titles?.suffix(sections.count) == sections[...], "\(lesson.fileName): \(titles ?? [])")
            let notes = try browser.evaluate("[...document.querySelectorAll('.page-map-notes a')].map((a) => a.textContent)") as? [String]
            #expect(notes == lesson.notes.map(\.label), "\(lesson.fileName)")
            let unresolved = try browser.evaluate("""
                [...document.querySelectorAll('.page-map a')].filter((a) => !document.getElementById(decodeURIComponent(a.hash.slice(1)))).length
                """) as? Int
            #expect(unresolved == 0, "\(lesson.fileName): a page map link points nowhere")
            guard let last = sections.last else { continue }
            let marked = try browser.evaluate("""
                (() => {
                  const links = [...document.querySelectorAll('.page-map ol > li > a')];
                  const target = document.getElementById(decodeURIComponent(links[links.length - 1].hash.slice(1)));
                  target.scrollIntoView();
                  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
                    done(document.querySelector('.page-map a[aria-current]')?.textContent))));
                })()
                """) as? String
            #expect(marked == last, "\(lesson.fileName): the map marks \(marked ?? "nothing") at the last section")

            try browser.setViewport(width: 360, mobile: true)
            #expect(try browser.evaluate("document.querySelector('.page-map').checkVisibility()") as? Bool == false)
            let mobile = try browser.evaluate("[...document.querySelectorAll('.mobile-toc li.current .toc-sections a')].map((a) => a.textContent)") as? [String]
            #expect(mobile == sections, "\(lesson.fileName): the phone's contents list lacks the sections")
        }
    }

    /// What assistive technology gets: headings named by their text alone, a handful of
    /// landmarks (notes are notes, not landmarks), code a keyboard can scroll, the place a link
    /// jumped to marked, an icon and a stylesheet that cost one request between them.
    @Test func aLessonPageForTheKeyboardAndAScreenReader() throws {
        guard let browser = try browser() else { return }
        let lesson = try lessons()[0]
        // Served, so that the browser times every request it makes (it does not for files).
        let server = try StaticServer(root: try site())
        try browser.open(server.url(lesson.slug + ".html"))
        try browser.setViewport(width: 1440)

        let headings = try browser.accessibilityNodes().filter { $0.role == "heading" }.map(\.name)
        let expected = [lesson.title ?? ""] + lesson.headings.filter { $0.level > 1 }.map(\.text)
        #expect(headings.sorted() == expected.sorted())

        let landmarks = try browser.landmarks().map(\.role).sorted()
        #expect(landmarks == ["banner", "contentinfo", "main", "navigation", "navigation", "navigation", "search"], "\(landmarks)")
        #expect(lesson.notes.count > 3)
        #expect(try browser.accessibilityNodes().filter { $0.role == "note" }.count == lesson.notes.count)

        // Everything that scrolls sideways on a phone can be reached by the keyboard.
        try browser.setViewport(width: 360, mobile: true)
        let unreachable = try browser.evaluate("""
            [...document.querySelectorAll('main *')].filter((element) =>
              element.scrollWidth > element.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(element).overflowX)
              && element.tabIndex < 0).map((element) => element.tagName)
            """) as? [String]
        #expect(unreachable == [], "\(unreachable ?? [])")
        #expect(try browser.evaluate("[...document.querySelectorAll('pre.code')].filter((pre) => pre.scrollWidth > pre.clientWidth).length") as? Int ?? 0 > 0,
                "no code block scrolls at 360 px: the check above checked nothing")
        try browser.setViewport(width: 1440)

        // The target of a jump is marked; the other notes are not.
        let style = "(id) => { const s = getComputedStyle(document.getElementById(id)); return s.outlineStyle + ' ' + s.backgroundColor; }"
        let before = try browser.evaluate("(\(style))('dr2')") as? String
        _ = try browser.evaluate("location.hash = 'dr2'")
        let after = try browser.evaluate("(\(style))('dr2')") as? String
        let other = try browser.evaluate("(\(style))('dr3')") as? String
        #expect(before != after && other == before, "\(before ?? "") / \(after ?? "") / \(other ?? "")")

        // The page and the stylesheets it links, nothing else: the icon is inside the page.
        #expect(try browser.evaluate("document.querySelector('link[rel=icon]').href.startsWith('data:image/svg+xml')") as? Bool == true)
        let loaded = try browser.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop())") as? [String]
        let sheets = try browser.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map((link) => link.href.split('/').pop())") as? [String]
        #expect(loaded.map(Set.init) == sheets.map(Set.init) && sheets?.isEmpty == false, "\(loaded ?? []) besides the page, which links \(sheets ?? [])")
        let stylesheet = try browser.evaluate("document.querySelector('link[rel=stylesheet]').getAttribute('href')") as? String ?? ""
        #expect(stylesheet.range(of: #"^assets/style\.[0-9a-f]{10}\.css$"#, options: .regularExpression) != nil, "\(stylesheet)")
        #expect(try browser.evaluate("document.querySelectorAll('script[src]').length") as? Int == 0)
    }

    /// A reader types into the search page and gets the lesson and the section; Turkish words
    /// are found in another form than the one the lesson uses (stemming). The same course
    /// indexed in shards of two pages (`COURSEBOOK_SEARCH_SHARD_PAGES`) finds the same first
    /// results, the lessons they are in being in a shard after the first (merged by the page).
    @Test func searchFindsTheLessonAndTheSection() throws {
        guard let browser = try browser() else { return }
        let site = try site()
        guard FileManager.default.fileExists(atPath: site.appendingPathComponent("pagefind/pagefind.js").path) else {
            Issue.record("the site has no search index: pagefind is not installed ('make' installs it: pip install pagefind-bin)")
            return
        }
        try searchFinds(in: site, browser: browser)

        let sharded = packageRoot.appendingPathComponent(".build/published-site-test-shards")
        // Built anew each time: a site left by the last run would have every shard reused.
        try? FileManager.default.removeItem(at: sharded)
        let built = try coursebook(["build", PublishedSiteTests.course.path, "--out", sharded.path],
                                   environment: ["COURSEBOOK_SEARCH_SHARD_PAGES": "2"])
        #expect(built.status == 0 && built.standardOutput.contains(" shards)\n"), "\(built)")
        let firstShard = try String(contentsOf: sharded.appendingPathComponent("pagefind/coursebook-index.sha256"), encoding: .utf8)
        #expect(firstShard.contains(".html\n") && !firstShard.contains(" 05-ortam.html\n")
                && !firstShard.contains(" 01-yerel-durum.html\n"), "\(firstShard)")
        try searchFinds(in: sharded, browser: browser)

        // Opened from disk, the page says why it cannot search instead of failing silently.
        try browser.open(site.appendingPathComponent("search.html"))
        try browser.wait(until: "document.querySelector('.search-status[role=status]').textContent.length > 0")
        #expect(try browser.evaluate("document.querySelector('.search-status[role=status]').textContent.includes('http.server')") as? Bool == true)
    }

    /// The search page of the site in `site`, served: the queries and their first results.
    func searchFinds(in site: URL, browser: Browser) throws {
        // A browser loads the index only from a served site, never from disk.
        let server = try StaticServer(root: site)
        try browser.open(server.url("search.html"))
        func search(_ query: String) throws -> (pages: [String], sections: [String]) {
            let pages = try browser.searchResults(for: query)
            let sections = try browser.evaluate("[...document.querySelectorAll('.search-result')].slice(0, 1).flatMap((r) => [...r.querySelectorAll('.search-sections a')].map((a) => a.getAttribute('href')))") as? [String] ?? []
            return (pages, sections)
        }
        let bindable = try search("@Bindable")
        #expect(bindable.pages.first == "05-ortam.html", "\(site.lastPathComponent): \(bindable)")
        #expect(bindable.sections.contains("05-ortam.html#ortamdaki-nesne-environmentobject-ile-observable"), "\(site.lastPathComponent): \(bindable)")

        // The lesson says "kronometre" and "Kronometrenin"; the reader types a plural.
        let stemmed = try search("kronometreler")
        #expect(stemmed.pages.first == "01-yerel-durum.html", "\(site.lastPathComponent): \(stemmed)")
        #expect(stemmed.sections.contains("01-yerel-durum.html#kronometre-ve-not-yan-yana"), "\(site.lastPathComponent): \(stemmed)")
    }
}
