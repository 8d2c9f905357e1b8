import CourseModel
import Foundation
import LessonParsing
import Processes
import ScenarioRunning
import Testing

/// The published course as a reader meets it, page by page, in headless Chromium: axe-core
/// finds nothing (WCAG 2.2 AA and best practice) at a phone's and a desktop's width, light and
/// dark; the header, its search and "back to top" stay in reach; the keyboard's focus is never
/// cut off; diagrams keep their text readable and use the page; tables fit a phone; the
/// typography has no wrong quote; the site ships only what its pages load.
@Suite(.serialized) struct AccessibleSiteTests {
    func browser() throws -> Browser? {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return nil
        }
        return try Browser(chromium)
    }

    func site() throws -> URL { try PublishedSiteTests.built.get() }

    func pages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try site().path).filter { $0.hasSuffix(".html") }.sorted()
    }

    func lessons() throws -> [Lesson] {
        try CourseLoader.load(folder: PublishedSiteTests.course.path).course.lessons
    }

    /// The `axe.min.js` that PyPI's axe-playwright-python wheel ships (`make deps` installs it
    /// without its dependencies): `COURSEBOOK_AXE` when set, else where Python finds the package.
    static let axeScript: String? = {
        if let chosen = ProcessInfo.processInfo.environment["COURSEBOOK_AXE"] {
            return try? String(contentsOfFile: chosen, encoding: .utf8)
        }
        guard let python = findOnPath("python3") ?? findOnPath("python") else { return nil }
        var watcher = CollectingWatcher(timeLimit: .seconds(30))
        let find = "import importlib.util as u; s = u.find_spec('axe_playwright_python'); print(s.submodule_search_locations[0] if s else '')"
        guard (try? ChildProcess(executable: python, arguments: ["-c", find]).run(watching: &watcher)) != nil else { return nil }
        let folder = String(decoding: watcher.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return folder.isEmpty ? nil : try? String(contentsOfFile: folder + "/axe.min.js", encoding: .utf8)
    }()

    /// What axe-core finds on the open page: each violation's rule, and where (at most three).
    func axeViolations(_ browser: Browser) throws -> [String] {
        guard let axe = Self.axeScript else {
            Issue.record("axe-core is not installed: 'make deps' installs it (pip install --no-deps axe-playwright-python)")
            return []
        }
        _ = try browser.evaluate(axe)
        let found = try browser.evaluate("""
            axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
              .then((result) => result.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')))
            """) as? [String]
        return try #require(found, "axe did not run")
    }

    /// Every page, at 360 and 1440 px, light and dark: no violation. And the search dialog,
    /// open with results, the same.
    @Test func axeFindsNothingOnAnyPage() throws {
        guard let browser = try browser(), Self.axeScript != nil else {
            if Self.axeScript == nil { Issue.record("axe-core is not installed: 'make deps' installs it (pip install --no-deps axe-playwright-python)") }
            return
        }
        let site = try site()
        var runs = 0
        for page in try pages() {
            for width in [360, 1440] {
                for dark in [false, true] {
                    try browser.open(site.appendingPathComponent(page))
                    try browser.setViewport(width: width, mobile: width < 600)
                    try browser.setDark(dark)
                    let found = try axeViolations(browser)
                    #expect(found == [], "\(page) at \(width) px, \(dark ? "dark" : "light")")
                    runs += 1
                }
            }
        }
        #expect(runs >= 4 * 10)
        let server = try StaticServer(root: site)
        for (width, dark) in [(360, true), (1440, false)] {
            try browser.open(server.url("05-ortam.html"))
            try browser.setViewport(width: width, mobile: width < 600)
            try browser.setDark(dark)
            try browser.press("/")
            try browser.wait(until: "document.querySelector('dialog.search-dialog')?.open")
            try browser.type("ortam")
            try browser.wait(until: "document.querySelectorAll('dialog .search-result').length > 0")
            #expect(try axeViolations(browser) == [], "the search dialog at \(width) px")
        }
    }

    /// On a long page the header stays at the top at every width, its controls in the order a
    /// keyboard reaches them; "back to top" shows once the top is gone and takes the reader
    /// there. Without a script the search button opens the search page.
    @Test func theHeaderAndBackToTopStayInReach() throws {
        guard let browser = try browser() else { return }
        try browser.open(try site().appendingPathComponent("01-yerel-durum.html"))
        for width in [360, 768, 1440] {
            try browser.setViewport(width: width, mobile: width < 600)
            _ = try browser.evaluate("scrollTo(0, document.documentElement.scrollHeight * 0.7)")
            try browser.wait(until: "!document.documentElement.hasAttribute('data-at-top')")
            let header = try browser.evaluate("""
                (() => { const r = document.querySelector('.site-header').getBoundingClientRect();
                         const b = document.querySelector('.back-to-top').getBoundingClientRect();
                         return [r.top, r.height, getComputedStyle(document.querySelector('.back-to-top')).visibility === 'visible' ? 1 : 0, b.bottom <= innerHeight ? 1 : 0]; })()
                """) as? [Double]
            #expect(header?[0] == 0 && (header?[1] ?? 99) <= 64, "\(width) px: the header is at \(header ?? [])")
            #expect(header?[2] == 1 && header?[3] == 1, "\(width) px: back to top is not in view")
            // The controls a keyboard reaches, left to right as they are read.
            let order = try browser.evaluate("""
                [...document.querySelectorAll('.site-header summary, .site-header a, .site-header button')]
                  .filter((e) => e.checkVisibility()).map((e) => Math.round(e.getBoundingClientRect().left))
                """) as? [Int] ?? []
            #expect(order.count >= 2 && order == order.sorted(), "\(width) px: \(order)")
            _ = try browser.evaluate("document.querySelector('.back-to-top').click()")
            try browser.wait(until: "scrollY === 0 && document.documentElement.hasAttribute('data-at-top')")
            #expect(try browser.evaluate("getComputedStyle(document.querySelector('.back-to-top')).visibility") as? String == "hidden")
        }
        #expect(try browser.evaluate("document.querySelector('form.site-search').getAttribute('action')") as? String == "search.html")
        #expect(try browser.evaluate("document.querySelectorAll('script[src], dialog').length") as? Int == 0)
    }

    /// The search opens over any page ("/" or the header's button), loading its one script
    /// then; the reader types, walks the results with the arrow keys, Escape closes it and the
    /// focus goes back. The lesson titled with the query comes first; the limitations page and
    /// the whole course never show. Only the files a search loads are in the site's pagefind/.
    @Test func searchOpensOverAnyPage() throws {
        guard let browser = try browser() else { return }
        let site = try site()
        guard FileManager.default.fileExists(atPath: site.appendingPathComponent("pagefind/pagefind.js").path) else {
            Issue.record("the site has no search index: pagefind is not installed ('make' installs it: pip install pagefind-bin)")
            return
        }
        let server = try StaticServer(root: site)
        try browser.open(server.url("04-gozlem.html"))
        try browser.setViewport(width: 1440)
        let resources = "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.slice(1))"
        let sheets = try browser.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href'))") as? [String] ?? []
        let before = try browser.evaluate(resources) as? [String] ?? []
        #expect(!sheets.isEmpty && Set(before) == Set(sheets) && before.count == sheets.count,
                "before searching, the page loads its stylesheets only: \(before), links \(sheets)")
        try browser.press("/")
        try browser.wait(until: "document.querySelector('dialog.search-dialog')?.open && document.activeElement.id === 'search-dialog-field'")
        func search(_ query: String) throws -> [String] {
            _ = try browser.evaluate("(() => { const f = document.getElementById('search-dialog-field'); f.value = ''; f.focus(); })()")
            try browser.type(query)
            try browser.wait(until: "document.querySelector('dialog .search-status').textContent.includes(\(String(reflecting: query)))")
            return try browser.evaluate("[...document.querySelectorAll('dialog .search-result h2 a')].map((a) => a.getAttribute('href'))") as? [String] ?? []
        }
        for (query, first) in [("ortam", "05-ortam.html"), ("gözlem", "04-gozlem.html"), ("@Bindable", "05-ortam.html"), ("kronometreler", "01-yerel-durum.html")] {
            let found = try search(query)
            #expect(found.first == first, "\(query): \(found)")
            #expect(!found.contains { $0.hasPrefix("limitations.html") || $0.hasPrefix("print.html") }, "\(query): \(found)")
        }
        // No excerpt carries a heading's mark or a note's label.
        let excerpts = try browser.evaluate("[...document.querySelectorAll('dialog .search-excerpt')].map((p) => p.textContent)") as? [String] ?? []
        #expect(!excerpts.isEmpty && !excerpts.contains { $0.contains(" # ") || $0.hasPrefix("#") || $0.contains("Ölçüm sınırı.") }, "\(excerpts)")
        try browser.press("ArrowDown")
        #expect(try browser.evaluate("document.activeElement === document.querySelector('dialog .search-results a')") as? Bool == true)
        try browser.press("ArrowDown")
        try browser.press("ArrowUp")
        try browser.press("ArrowUp")
        #expect(try browser.evaluate("document.activeElement.id") as? String == "search-dialog-field")
        try browser.press("Escape")
        try browser.wait(until: "!document.querySelector('dialog.search-dialog').open")
        // The focus goes back to the button that opened it: waited for, since the browser
        // moves it after the dialog closes (a loaded machine saw the moment in between).
        try browser.wait(until: "document.activeElement.classList.contains('search-open')", seconds: 5)
        // What was loaded: the page, its stylesheets, the search script, Pagefind's (some by its
        // worker, which the page's own list of resources does not show).
        let loaded = Set(server.served)
        #expect(loaded.filter { !$0.hasPrefix("pagefind/") }.count == 2 + sheets.count, "\(loaded)")
        let shipped = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("pagefind").path)
            // coursebook's own record of what the index was built from (read by the next build,
            // never by a reader's browser) is not Pagefind's.
            .filter { !["index", "fragment", "coursebook-index.sha256"].contains($0) }
        #expect(!shipped.isEmpty && shipped.allSatisfy { loaded.contains("pagefind/\($0)") }, "shipped but never loaded: \(shipped.filter { !loaded.contains("pagefind/\($0)") })")
    }

    /// Everything the keyboard reaches shows its focus ring whole: no box around it cuts the
    /// ring off (a `details` or a figure that hides its overflow, a frame that scrolls).
    @Test func focusIsNeverCutOff() throws {
        guard let browser = try browser() else { return }
        var focused = 0
        for lesson in try lessons() {
            try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
            for width in [360, 1440] {
                try browser.setViewport(width: width, mobile: width < 600)
                try browser.press("Tab")
                let cut = try browser.evaluate("""
                    (() => {
                      const cut = [];
                      const focusable = [...document.querySelectorAll('main a[href], main summary, main [tabindex="0"], main button')]
                        .filter((e) => e.checkVisibility());
                      let unknown = 0;
                      for (const element of focusable) {
                        element.focus();
                        // Chromium decides on its own whether a focus from a script shows.
                        if (!element.matches(':focus-visible')) { unknown++; continue; }
                        const style = getComputedStyle(element);
                        if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 1) { cut.push('no ring: ' + element.outerHTML.slice(0, 80)); continue; }
                        const grow = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
                        const box = element.getBoundingClientRect();
                        const ring = { left: box.left - grow, right: box.right + grow, top: box.top - grow, bottom: box.bottom + grow };
                        for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
                          const overflow = getComputedStyle(parent);
                          if (overflow.overflowX === 'visible' && overflow.overflowY === 'visible') continue;
                          const clip = parent.getBoundingClientRect();
                          if (ring.left < clip.left - 0.5 || ring.right > clip.right + 0.5 || ring.top < clip.top - 0.5 || ring.bottom > clip.bottom + 0.5) {
                            cut.push(element.outerHTML.slice(0, 80) + ' in ' + parent.className);
                            break;
                          }
                        }
                      }
                      return [focusable.length - unknown, ...cut];
                    })()
                    """) as? [Any] ?? []
                focused += cut.first as? Int ?? 0
                #expect(cut.count == 1, "\(lesson.fileName) at \(width) px: \(cut.dropFirst().prefix(5))")
            }
        }
        #expect(focused > 200, "too little was focused: the measure measured nothing")
    }

    /// The dashed box of a skipped view, the edges of a tree and the edges of the controls
    /// stand out 3:1 against what is behind them, light and dark.
    @Test func nonTextContrastIsThreeToOne() throws {
        guard let browser = try browser() else { return }
        try browser.open(try site().appendingPathComponent("05-ortam.html"))
        for dark in [false, true] {
            try browser.setDark(dark)
            let ratios = try browser.evaluate("""
                (() => {
                  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
                  const light = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
                  const ratio = (a, b) => { const [x, y] = [light(rgb(a)), light(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
                  const behind = (element) => { for (let e = element; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!c.endsWith(', 0)') && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; };
                  const stroke = (selector) => { const e = document.querySelector(selector); return ratio(getComputedStyle(e).stroke, behind(e.closest('.diagrams'))); };
                  const border = (selector) => { const e = document.querySelector(selector); return ratio(getComputedStyle(e).borderTopColor, behind(e.parentElement)); };
                  return [stroke('.diagrams .tree-view .skipped rect'), stroke('.diagrams .tree-view .edge'), border('.search-open'), border('.back-to-top')];
                })()
                """) as? [Double] ?? []
            #expect(ratios.count == 4 && ratios.allSatisfy { $0 >= 3 }, "\(dark ? "dark" : "light"): \(ratios)")
        }
    }

    /// Diagram text is never under 11 px, at any width; between 768 and 1279 px the pictures
    /// of a row stand two or three abreast; every group of an output has its title; the legend
    /// never breaks a word.
    @Test func diagramsKeepTheirTextAndUseThePage() throws {
        guard let browser = try browser() else { return }
        var rowsSeen = 0
        for lesson in try lessons() where !lesson.scenarios.isEmpty {
            try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
            for width in [360, 768, 1024, 1279, 1440] {
                try browser.setViewport(width: width, mobile: width < 600)
                let measured = try browser.evaluate("""
                    (() => {
                      let smallest = 99;
                      for (const svg of document.querySelectorAll('.diagrams svg:not(.swatch)')) {
                        if (!svg.checkVisibility()) continue;
                        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                        for (const text of svg.querySelectorAll('text')) smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
                      }
                      const rows = [...document.querySelectorAll('.diagram-row')].filter((row) => row.children.length > 1);
                      const alone = rows.filter((row) => row.children[0].getBoundingClientRect().top !== row.children[1].getBoundingClientRect().top).length;
                      const broken = [...document.querySelectorAll('.diagram-legend code')].filter((code) => code.getClientRects().length > 1).length;
                      return [smallest, rows.length, alone, broken];
                    })()
                    """) as? [Double] ?? []
                #expect(measured.count == 4 && measured[0] >= 11, "\(lesson.fileName) at \(width) px: text at \(measured.first ?? 0) px")
                if (768...1279).contains(width) {
                    #expect(measured.count == 4 && measured[2] == 0, "\(lesson.fileName) at \(width) px: \(Int(measured[2])) rows show one picture a row")
                    rowsSeen += measured.count == 4 ? Int(measured[1]) : 0
                }
                #expect(measured.count == 4 && measured[3] == 0, "\(lesson.fileName) at \(width) px: the legend breaks a word")
            }
        }
        #expect(rowsSeen > 10, "no rows of several pictures: the measure measured nothing")
        // Lesson 4's output has two sections, and its pictures two group titles.
        try browser.open(try site().appendingPathComponent("05-ortam.html"))
        let titles = try browser.evaluate("[...document.querySelectorAll('.diagram-group-title')].map((p) => p.textContent)") as? [String] ?? []
        #expect(titles.starts(with: ["ortamla", "parametreyle"]), "\(titles)")
    }

    /// On a 360 px phone nothing is wider than the screen; a table too wide for it is a stack
    /// of cards; the glossary is a definition list whose terms the lessons link to.
    @Test func tablesAndTheGlossaryFitAPhone() throws {
        guard let browser = try browser() else { return }
        let lessons = try lessons()
        for page in try pages() {
            try browser.open(try site().appendingPathComponent(page))
            try browser.setViewport(width: 360, mobile: true)
            let wider = try browser.evaluate("""
                [...document.querySelectorAll('main table, main dl, .table-wrap')].filter((e) => e.closest('.table-wrap') === null || e.classList.contains('table-wrap'))
                  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length
                """) as? Int
            #expect(wider == 0, "\(page): a table runs past a 360 px screen")
            #expect(try browser.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth") as? Bool == true, "\(page) scrolls sideways")
        }
        try browser.open(try site().appendingPathComponent("08-ozet-tablosu.html"))
        try browser.setViewport(width: 360, mobile: true)
        #expect(try browser.evaluate("getComputedStyle(document.querySelector('.table-cards tr')).display") as? String == "block")
        #expect(try browser.evaluate("getComputedStyle(document.querySelector('.table-cards td'), '::before').content") as? String == "\"Değer nerede yaşar\"")
        try browser.setViewport(width: 1440)
        #expect(try browser.evaluate("document.querySelector('.table-wide').getBoundingClientRect().width > document.querySelector('.lesson > p').getBoundingClientRect().width + 100") as? Bool == true,
                "a wide table is held to the reading measure on a wide screen")
        try browser.open(try site().appendingPathComponent("09-sozluk.html"))
        let terms = try browser.evaluate("[...document.querySelectorAll('.glossary dt[id]')].length") as? Int ?? 0
        #expect(terms > 30)
        for lesson in lessons where lesson.fileName != "09-sozluk.md" {
            let page = try String(contentsOf: try site().appendingPathComponent(lesson.slug + ".html"), encoding: .utf8)
            #expect(page.contains("<a class=\"term\" href=\"09-sozluk.html#"), "\(lesson.fileName) links no term of the glossary")
        }
    }

    /// With smart typography an apostrophe after a code span is ’ everywhere (the pages and the
    /// whole course), the header's title is set as the text is, every lesson number stands
    /// apart from its title, and each lesson's page describes itself with its lead.
    @Test func typographyAndLabels() throws {
        let site = try site()
        for page in try pages() {
            let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            #expect(!html.contains("</code>‘"), "\(page): an opening quote right after a code span")
            #expect(html.contains("<a class=\"course-title\" href=\"index.html\">SwiftUI’de Yeniden Hesaplama</a>"), "\(page)")
            #expect(!html.contains("</span><span class=\"title\">"), "\(page): a lesson number runs into its title")
        }
        let whole = try String(contentsOf: site.appendingPathComponent("print.html"), encoding: .utf8)
        #expect(whole.components(separatedBy: "</code>’").count > 22)
        for lesson in try lessons() {
            let html = try String(contentsOf: site.appendingPathComponent(lesson.slug + ".html"), encoding: .utf8)
            let description = html.components(separatedBy: "<meta name=\"description\" content=\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
            #expect(description.count > 10, "\(lesson.fileName): no meta description")
            #expect(!description.contains("<"), "\(lesson.fileName): \(description)")
        }
    }

    /// A lesson page and every stylesheet it links, as a browser gets them compressed, stay under a fifth
    /// of what MkDocs Material sends for the same lesson (110 KB over 7 requests).
    @Test func aPageWeighsUnderAFifthOfMkDocsMaterials() throws {
        guard let gzip = findOnPath("gzip") else { Issue.record("no gzip"); return }
        let site = try site()
        func compressed(_ file: URL) throws -> Int {
            var watcher = CollectingWatcher(timeLimit: .seconds(30))
            _ = try ChildProcess(executable: gzip, arguments: ["-6", "-c", file.path]).run(watching: &watcher)
            return watcher.standardOutput.count
        }
        for lesson in try lessons() {
            let page = site.appendingPathComponent(lesson.slug + ".html")
            let sheets = linkedStylesheets(try String(contentsOf: page, encoding: .utf8))
            #expect(sheets.first?.hasPrefix("assets/style.") == true, "\(lesson.fileName): \(sheets)")
            let weight = try sheets.reduce(try compressed(page)) { $0 + (try compressed(site.appendingPathComponent($1))) }
            #expect(weight < 110 * 1024 / 5, "\(lesson.fileName): \(weight) bytes with \(sheets)")
        }
    }
}

/// The `href` of every `<link rel="stylesheet">` of a page, in order.
func linkedStylesheets(_ html: String) -> [String] {
    html.components(separatedBy: "<link rel=\"stylesheet\" href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
}

/// `scripts/screenshots`, which `make test` runs on every page and `make docs-screenshots` keeps
/// in docs/screenshots: each width light and dark, and the page printed.
@Suite(.serialized) struct ScreenshotTests {
    @Test func aPageAtThreeWidthsLightAndDarkAndPrinted() throws {
        guard findOnPath("chromium") ?? findOnPath("chromium-browser") != nil else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let site = try PublishedSiteTests.built.get()
        let out = temporaryFolder("screenshots")
        defer { try? FileManager.default.removeItem(at: out) }
        var watcher = CollectingWatcher(timeLimit: .seconds(300))
        let script = packageRoot.appendingPathComponent("scripts/screenshots").path
        let ended = try ChildProcess(executable: "/bin/bash", arguments: [script, site.path, out.path, "08-ozet-tablosu.html"]).run(watching: &watcher)
        #expect(ended.isSuccess, "\(String(decoding: watcher.standardError, as: UTF8.self))")
        for width in [360, 768, 1440] {
            let light = try Data(contentsOf: out.appendingPathComponent("08-ozet-tablosu-\(width).png"))
            let dark = try Data(contentsOf: out.appendingPathComponent("08-ozet-tablosu-\(width)-dark.png"))
            for picture in [light, dark] {
                // A PNG's width is the big-endian number at bytes 16 to 19 of its header.
                #expect(picture.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                #expect(picture.count > 24 && picture[16..<20].reduce(0) { $0 << 8 | Int($1) } == width)
            }
            #expect(light != dark, "\(width) px: the dark screenshot is the light one")
        }
        let pdf = try Data(contentsOf: out.appendingPathComponent("08-ozet-tablosu-print.pdf"))
        #expect(pdf.starts(with: Array("%PDF".utf8)))
    }
}
