@testable import CourseSite
import CoursePipeline
import CourseModel
import Foundation
import TestSupport
import Testing

/// The pages of the `site`, `markdown` and `must-fail` fixtures, compared file by file with the committed
/// golden copies under Tests/Golden/<fixture>. The compiler's version, which pages show, is
/// written `SWIFT-VERSION` on both sides, so that a new toolchain changes no golden file.
/// `make golden` records them anew (`COURSEBOOK_RECORD_GOLDEN=1`: this test writes the files
/// and fails, as nothing was compared), then runs the comparison; review the diff.
@Suite(.serialized) struct SitePagesTests {
    static let versionMark = "SWIFT-VERSION"

    @Test(arguments: ["site", "markdown", "must-fail", "docc-book", "swift-book", "patterns", "nested-book"])
    func pagesMatchTheGoldenFiles(fixture: String) throws {
        let golden = packageRoot.appendingPathComponent("Tests/Golden/\(fixture)")
        let (report, rendered) = try renderedFixture(fixture)
        #expect(report.succeeded)
        let version = report.swiftVersion
        try #require(!version.isEmpty && version != Self.versionMark)
        let files = rendered.map { file in
            SiteFile(path: file.path, bytes: Array(String(decoding: file.bytes, as: UTF8.self)
                .replacingOccurrences(of: "Swift \(version)", with: "Swift \(Self.versionMark)").utf8))
        }
        if ProcessInfo.processInfo.environment["COURSEBOOK_RECORD_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: golden)
            for file in files {
                let url = golden.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url)
            }
            Issue.record("recorded Tests/Golden/\(fixture) anew, so nothing was compared: review the diff, then run the tests without COURSEBOOK_RECORD_GOLDEN")
            return
        }
        let expected = try FileManager.default.subpathsOfDirectory(atPath: golden.path)
            .filter { !$0.hasSuffix("/") && !isFolder(golden.appendingPathComponent($0)) }.sorted()
        #expect(files.map(\.path).sorted() == expected, "the site's files differ from Tests/Golden/\(fixture) (make golden records them)")
        for file in files {
            let recorded = try? Data(contentsOf: golden.appendingPathComponent(file.path))
            #expect(recorded.map(Array.init) == file.bytes, "\(file.path) differs from Tests/Golden/\(fixture)/\(file.path) (make golden records it)")
        }
        // The pages did show the version: the mark stands where it was.
        #expect(files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("Swift \(Self.versionMark)") })
    }

    private func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    /// A Swift book's chapter (`Tests/Fixtures/swift-book`): no hidden line on the lesson page
    /// or the whole-course page (what the search index reads), and a group's blocks say they
    /// are one program, each linking back to its first block.
    @Test func hiddenLinesAppearNowhereAndAGroupsBlocksLinkToItsFirst() throws {
        let (report, files) = try renderedFixture("swift-book")
        #expect(report.succeeded)
        for path in ["01-classes.html", "print.html"] {
            let page = files.text(path)
            #expect(page.contains("describeSides"), "\(path)")
            for hidden in ["func</span> describe(", "describe(triangle", "struct</span> <span class=\"tok-type\">Point", "# "] {
                #expect(!page.contains(hidden), "\(path) shows '\(hidden)'")
            }
        }
        let page = files.text("01-classes.html")
        #expect(page.components(separatedBy: "<figure class=\"scenario\" id=\"group-shapes\">").count == 2)
        #expect(page.contains("<span class=\"group-note\" data-pagefind-ignore>the first part of one program, continued below</span>"))
        #expect(page.components(separatedBy: "<a class=\"group-note\" href=\"#group-shapes\" data-pagefind-ignore>continues the program begun above</a>").count == 8)
        // The scenario of its own says nothing of a group.
        #expect(page.components(separatedBy: "group-note").count == 9)
    }

    /// Listings in a list of steps and in DocC's asides (`Tests/Fixtures/nested-book`) are shown
    /// as at the top level, inside their list item or callout: no hidden line on the lesson page
    /// or the whole-course page (what the search index reads), the group's blocks linked to its
    /// first, each output verified under its scenario.
    @Test func blocksInListsAndAsidesAreShownAsAtTheTopLevel() throws {
        let (report, files) = try renderedFixture("nested-book")
        #expect(report.succeeded)
        // The whole-course page prefixes a lesson's anchors with its name.
        for (path, anchor) in [("01-steps.html", "group-shelf"), ("print.html", "01-steps--group-shelf")] {
            let page = files.text(path)
            for hidden in ["func</span> show(", "show(shelf", "pages = [", "320", "# ", "coursebook-code"] {
                #expect(!page.contains(hidden), "\(path) shows '\(hidden)'")
            }
            #expect(page.contains("<li>\n<p>Declare the type that holds the books:</p>\n<figure class=\"scenario\" id=\"\(anchor)\">"), "\(path)")
            #expect(page.components(separatedBy: "<a class=\"group-note\" href=\"#\(anchor)\" data-pagefind-ignore>continues the program begun above</a>").count == 3, "\(path)")
            #expect(page.components(separatedBy: "<div class=\"output verified\"").count == 5, "\(path)")
            #expect(page.contains("<p class=\"callout-title\">Note</p>\n<p>A scenario in an aside is a program of its own, and may hide its setup:</p>\n<figure class=\"scenario\">"), "\(path)")
            #expect(page.contains("<li>\n<p>A list item may hold an illustration, which is shown and never run:</p>\n<figure class=\"illustration\">"), "\(path)")
        }
    }

    /// A module block is shown as code labelled with its module's name, without its hidden
    /// lines, on the lesson page and the whole-course page (what the search index reads).
    @Test func aModuleBlockIsLabelledWithItsModulesName() throws {
        let (report, files) = try renderedFixture("swift-book")
        #expect(report.succeeded)
        for path in ["02-modules.html", "print.html"] {
            let page = files.text(path)
            #expect(page.components(separatedBy: "<figure class=\"core module\">\n<figcaption><span class=\"kind\" data-pagefind-ignore>Module</span> <code>Geometry</code></figcaption>").count == 3, "\(path)")
            #expect(page.contains("perimeter"), "\(path)")
            for hidden in ["cm&quot;", "\"cm\"", "# "] {
                #expect(!page.contains(hidden), "\(path) shows '\(hidden)'")
            }
        }
    }

    @Test func whatTheLessonPageSays() throws {
        let (_, files) = try renderedFixture("site")
        let page = files.text("01-first.html")
        // Headings with stable, unique anchors.
        #expect(page.contains("<h2 id=\"sinirlayici-olcum\">Sınırlayıcı Ölçüm"))
        #expect(page.contains("<h2 id=\"sinirlayici-olcum-2\">Sınırlayıcı Ölçüm"))
        // A scenario and its verified output as one figure, with the Swift version.
        #expect(page.contains("<figcaption><span class=\"kind\" data-pagefind-ignore>Scenario</span> <code>main.swift</code> — a badge reads the theme</figcaption>"))
        #expect(page.contains("<p class=\"output-label\"><span class=\"kind\">Output</span> <span class=\"badge\"><span aria-hidden=\"true\">✓</span> verified with Swift "))
        #expect(page.contains("&lt;tema&gt;: theme degisti | yeniden Badge ortam | atlanan Root"))
        #expect(page.contains("5 &gt; 3 &amp;&amp; &quot;quoted&quot;"))
        // Notes set apart, mentions linked within and across lessons.
        #expect(page.contains("<aside class=\"limit\" id=\"dr1\""))
        #expect(page.contains("<aside class=\"limit\" id=\"dr2\""))
        #expect(page.contains("<a href=\"#dr1\">DR1</a> here"))
        #expect(page.contains("see also <a href=\"#dr2\">DR2</a>"))
        // A note is a note, not a landmark; its kind links to what a limitation note is.
        #expect(page.contains("<aside class=\"limit\" id=\"dr1\" role=\"note\" aria-labelledby=\"dr1-label\">"))
        #expect(page.contains("<a class=\"limit-kind\" href=\"limitations.html#about-notes\">Limitation</a>"))
        // A heading's link stands beside it, named for it.
        #expect(page.contains("<div class=\"heading\"><h2 id=\"sinirlayici-olcum\">Sınırlayıcı Ölçüm</h2><a class=\"anchor\" href=\"#sinirlayici-olcum\" aria-label=\"Link to this section: Sınırlayıcı Ölçüm\" data-pagefind-ignore>#</a></div>"))
        // Raw HTML shown as text, never passed.
        let lessonPart = String(page[page.range(of: "<main")!.lowerBound..<page.range(of: "</main>")!.upperBound])
        #expect(!lessonPart.contains("<script"))
        #expect(!page.contains("<b onclick"))
        #expect(page.contains("&lt;b onclick=&quot;alert(1)&quot;&gt;bold&lt;/b&gt;"))
        // The core listing open the first time, collapsed the second.
        #expect(page.contains("<figure class=\"core\">"))
        #expect(files.text("02-second.html").contains("<details class=\"core\">"))
        // A skipped scenario is marked as not verified.
        #expect(files.text("02-second.html").contains("<div class=\"output unverified\" data-pagefind-ignore>"))
        #expect(files.text("02-second.html").contains("<a href=\"01-first.html#dr1\">DR1</a> is in the first lesson"))
    }

    @Test func theIndexAndTheLimitationsPage() throws {
        let (_, files) = try renderedFixture("site")
        let index = files.text("index.html")
        #expect(index.contains("<h1>Rendering &lt;Everything&gt; &amp; More</h1>"))
        // The course's description leads; each lesson says its first sentence; a way in.
        #expect(index.contains("<p class=\"lead\">A course about &lt;rendering&gt; &amp; more: what the index says first.</p>"))
        #expect(index.contains("<div class=\"summary\"><p>This opening paragraph is what the index shows, with <code>code</code>, <em>emphasis</em> and a link to\n<a href=\"02-second.html\">the second lesson</a>.</p>\n</div>"))
        #expect(!index.contains("The index stops before this sentence."))
        #expect(files.text("01-first.html").contains("The index stops before this sentence."))
        #expect(index.contains("<a class=\"start-link\" href=\"01-first.html\">"))
        #expect(index.contains("1 scenario verified · 2 limitations"))
        let limitations = files.text("limitations.html")
        for number in 1...3 {
            #expect(limitations.contains("<li class=\"limit\" id=\"dr\(number)\">"))
        }
        #expect(limitations.contains("href=\"01-first.html#dr1\""))
        #expect(limitations.contains("href=\"02-second.html#dr3\""))
        // What a note is, an index by lesson, and each note's section linked.
        #expect(limitations.contains("<section class=\"about-notes\" id=\"about-notes\""))
        #expect(limitations.contains("<li><a href=\"#lesson-1\"><span class=\"number\">1.</span> <span class=\"title\">First Lesson: Şartlı Ölçüm</span></a> <span class=\"range\">DR1–DR2</span></li>"))
        #expect(limitations.contains("<li><a href=\"#lesson-2\"><span class=\"number\">2.</span> <span class=\"title\">Second Lesson</span></a> <span class=\"range\">DR3</span></li>"))
        #expect(limitations.contains("<span class=\"limit-section\">Section: <a href=\"02-second.html#not-run\">Not Run</a></span>"))
    }

    /// The whole course on one page: every lesson, anchors kept apart, links inside the page.
    @Test func theWholeCourseOnOnePage() throws {
        let (_, files) = try renderedFixture("site")
        let page = files.text("print.html")
        #expect(page.contains("<article class=\"lesson print-lesson\" id=\"01-first\""))
        #expect(page.contains("<article class=\"lesson print-lesson\" id=\"02-second\""))
        #expect(page.contains("<h3 id=\"01-first--sinirlayici-olcum\">Sınırlayıcı Ölçüm</h3>"))
        #expect(page.contains("<h3 id=\"02-second--not-run\">"))
        #expect(page.contains("<a href=\"#01-first\">the second lesson</a>") == false)
        #expect(page.contains("<a href=\"#02-second\">the second lesson</a>"))
        #expect(page.contains("<a href=\"#dr1\">DR1</a> is in the first lesson"))
        let ids = page.matches(of: /\sid="([^"]*)"/).map { String($0.output.1) }
        #expect(Set(ids).count == ids.count, "an id is repeated on the one page")
    }
}

/// A scenario the compiler refused and a program that trapped, as their pages show them.
@Suite(.serialized) struct MustFailPagesTests {
    @Test func aRefusedScenarioMarksItsLinesAndListsTheMessages() throws {
        let (report, files) = try renderedFixture("must-fail")
        #expect(report.succeeded)
        let page = files.text("01-types.html")
        // The erroring line set apart, a caret under the column, hidden from screen readers.
        #expect(page.contains("<span class=\"line error-line\"><span class=\"tok-keyword\">let</span> maximumNumberOfLoginAttempts: <span class=\"tok-type\">Int</span> = <span class=\"tok-string\">&quot;ten&quot;</span>\n</span><span class=\"line caret\" aria-hidden=\"true\">" + String(repeating: " ", count: 40) + "^\n</span>"))
        // The provenance says the compiler refused it, in which mode; each message comes after
        // the words a screen reader says first, with the line as the page shows the code.
        #expect(page.contains("<p class=\"output-label\" data-pagefind-ignore><span class=\"badge\"><span aria-hidden=\"true\">✓</span> compiler refused · Swift \(report.swiftVersion) · language mode 6</span></p>"))
        #expect(page.contains("<li><span class=\"error-kind\" data-pagefind-ignore>compile error</span> <span class=\"error-place\" data-pagefind-ignore>line 1, column 41:</span> <code class=\"error-message\">cannot convert value of type &#39;String&#39; to specified type &#39;Int&#39;</code></li>"))
        // Without a caption the lines are the block's.
        #expect(page.contains("<span class=\"error-place\" data-pagefind-ignore>line 2, column 1:</span>"))
        #expect(files.text("index.html").contains("and every compile error by compiling it"))
    }

    @Test func aTrapShowsTheOutputThenTheMessage() throws {
        let (report, files) = try renderedFixture("must-fail")
        let page = files.text("05-traps.html")
        #expect(page.contains("""
            <div class="output verified trapped" data-pagefind-ignore>
            <p class="output-label"><span class="kind">Output</span> <span class="badge"><span aria-hidden="true">✓</span> verified with Swift \(report.swiftVersion) · language mode 6</span></p>
            <pre><samp><span class="line">90</span></samp></pre>
            <p class="trap"><span class="trap-kind">trap</span> <samp>Fatal error: Index out of range</samp></p>
            </div>
            """))
        // An overflow traps without a word, and the page says so.
        #expect(page.contains("<p class=\"trap\"><span class=\"trap-kind\">trap</span> <span class=\"trap-silent\">the program stopped; the runtime wrote no message (as for an overflow)</span></p>"))
        // Nothing printed before the trap: no empty output.
        #expect(page.contains("language mode 6</span></p>\n<p class=\"trap\"><span class=\"trap-kind\">trap</span> <samp>Simultaneous accesses to 0x"))
    }

    /// In the course's language: a Turkish course says that the compiler refused it.
    @Test func inTheCoursesLanguage() throws {
        let root = temporaryFolder("must-fail-tr")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("must-fail")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("must-fail"), to: course)
        let config = course.appendingPathComponent("course.json")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: #""language": "en""#, with: #""language": "tr""#)
            .write(to: config, atomically: true, encoding: .utf8)
        var options = BuildCommandOptions()
        options.shared.course = course.path
        options.shared.cache = .none
        let (checked, files) = try Pipeline().siteFiles(options)
        let version = checked.report.swiftVersion
        let types = files.text("01-types.html")
        #expect(types.contains("<span class=\"badge\"><span aria-hidden=\"true\">✓</span> derleyici reddetti · Swift \(version) · dil kipi 6</span>"))
        #expect(types.contains("<span class=\"error-kind\" data-pagefind-ignore>derleme hatası</span> <span class=\"error-place\" data-pagefind-ignore>satır 1, sütun 41:</span>"))
        #expect(files.text("05-traps.html").contains("<span class=\"trap-kind\">tuzak</span> <samp>Fatal error: Index out of range</samp>"))
        #expect(files.text("04-concurrency.html").contains("<span class=\"kind\">Çıktı</span> <span class=\"badge\"><span aria-hidden=\"true\">✓</span> Swift \(version) ile doğrulandı · dil kipi 5</span>"))
    }
}

struct SiteWriterTests {
    func course(at folder: URL) -> Course {
        Course(folder: "c", folderPath: folder.path, config: CourseConfig(title: "T", language: "en", core: []),
               coreFiles: [], lessons: [])
    }

    @Test func writesWholeAndReplacesAnEarlierSite() throws {
        let root = temporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out/site").path
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("one".utf8)),
                              SiteFile(path: "assets/a.css", bytes: [])], to: out)
        #expect(try String(contentsOfFile: out + "/index.html", encoding: .utf8) == "one")
        try SiteWriter.validate(destination: out, course: course(at: root.appendingPathComponent("course")))
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("two".utf8))], to: out)
        #expect(try String(contentsOfFile: out + "/index.html", encoding: .utf8) == "two")
        #expect(!FileManager.default.fileExists(atPath: out + "/assets/a.css"))
        // Nothing is left beside it but the lock file that builds of it take turns with.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path + "/out").sorted() == [".site.coursebook-lock", "site"])
        // The marker lists what coursebook wrote, after the build's mark of the folder.
        let marker = try String(contentsOfFile: out + "/.coursebook-site", encoding: .utf8).split(separator: "\n")
        #expect(marker.count == 3, "\(marker)")
        #expect(marker.first == "written by coursebook; 'coursebook build' replaces this folder whole; the files it wrote:")
        #expect(marker.dropFirst().first?.hasPrefix("mark ") == true && marker.last == "index.html", "\(marker)")
    }

    /// A build killed between its two renames leaves no site and the old one moved aside; one
    /// killed while rendering leaves a staging folder. The next build (here only its recovery,
    /// as a build whose check fails does) puts the site back and removes the rest.
    @Test func whatAKilledBuildLeftIsRepaired() throws {
        let root = temporaryFolder("killed")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("old".utf8))], to: out)
        let before = try snapshot(out)
        // Killed after `site` → `.site.coursebook-old-…`, before the new site came in, with
        // half a site in its staging folder; another site's folder of the same kind is left.
        try abandonedStaging(out)
        try FileManager.default.moveItem(atPath: out, toPath: root.path + "/.site.coursebook-old-41-7")
        try FileManager.default.createDirectory(atPath: root.path + "/.other.coursebook-new-12-3", withIntermediateDirectories: true)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).count { $0.hasPrefix(".site.coursebook-new-") } == 1)

        try SiteWriter.recover(destination: out)
        #expect(try snapshot(out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
                == [".other.coursebook-new-12-3", ".site.coursebook-lock", "site"])

        // Killed after the swap, before the old copy was removed: the next build removes it.
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("older".utf8))], to: root.path + "/elsewhere/site")
        try FileManager.default.moveItem(atPath: root.path + "/elsewhere/site", toPath: root.path + "/.site.coursebook-old-9-9")
        try FileManager.default.removeItem(atPath: root.path + "/elsewhere")
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("new".utf8))], to: out)
        #expect(try String(contentsOfFile: out + "/index.html", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
                == [".other.coursebook-new-12-3", ".site.coursebook-lock", "site"])
    }

    /// What a build killed while it rendered leaves: a staging folder with half a site.
    private func abandonedStaging(_ out: String) throws {
        let staging = try SiteStaging(destination: out)
        try staging.add(SiteFile(path: "assets/half.css", bytes: []))
    }

    /// Folders and links committed beside the destination under the names of a build's own
    /// (a pull request can commit `.site.coursebook-old-x/`), and a lock file that is a link or
    /// a folder: refused, naming them, and left as they are; nothing is put in place.
    @Test func whatABuildDidNotLeaveIsNeitherAdoptedNorRemoved() throws {
        let root = temporaryFolder("planted")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        let planted = root.path + "/.site.coursebook-old-x"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try "<p>pwned</p>".write(toFile: planted + "/index.html", atomically: true, encoding: .utf8)
        // Even one that copies a real site's marker: the mark is of another folder.
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("real".utf8))], to: root.path + "/real/site")
        try FileManager.default.copyItem(atPath: root.path + "/real/site/.coursebook-site", toPath: planted + "/.coursebook-site")
        func refusal(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { return (error as? SiteWriteError)?.message ?? "\(error)" }
        }
        #expect(refusal { try SiteWriter.recover(destination: out) }
                == "\(planted) was not left by a coursebook build of this user (it does not carry the mark of a build here); a build neither puts it in place nor removes it: remove it yourself, or choose another --out")
        #expect(refusal { try SiteWriter.write([SiteFile(path: "index.html", bytes: [])], to: out) } != nil)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try String(contentsOfFile: planted + "/index.html", encoding: .utf8) == "<p>pwned</p>")
        try FileManager.default.removeItem(atPath: planted)

        let link = root.path + "/.site.coursebook-new-y"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root.path + "/real/site")
        #expect(refusal { try SiteWriter.recover(destination: out) }?.hasPrefix("\(link) was not left by a coursebook build of this user (it is a symbolic link, not a folder)") == true)
        #expect(FileManager.default.fileExists(atPath: root.path + "/real/site/index.html"))
        try FileManager.default.removeItem(atPath: link)

        let lock = root.path + "/.site.coursebook-lock"
        try? FileManager.default.removeItem(atPath: lock)
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: root.path + "/target")
        #expect(refusal { try SiteWriter.write([SiteFile(path: "index.html", bytes: [])], to: out) }
                == "cannot use the lock file \(lock): it is a symbolic link; remove it, or choose another --out")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/target"))
        try FileManager.default.removeItem(atPath: lock)
        try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        #expect(refusal { try SiteWriter.recover(destination: out) }
                == "cannot use the lock file \(lock): it is a folder; remove it, or choose another --out")
        try FileManager.default.removeItem(atPath: lock)
        // An empty file of this user's is a lock like any other: nothing is written into it.
        try Data().write(to: URL(fileURLWithPath: lock))
        try SiteWriter.write([SiteFile(path: "index.html", bytes: Array("ok".utf8))], to: out)
        #expect(try String(contentsOfFile: out + "/index.html", encoding: .utf8) == "ok")
        #expect(try Data(contentsOf: URL(fileURLWithPath: lock)).isEmpty)
    }

    /// Builds of one destination at once take turns: none fails, none leaves anything behind,
    /// and the site in place is always one of them, whole.
    @Test func concurrentBuildsOfOneSiteTakeTurns() async throws {
        let root = temporaryFolder("concurrent")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        let failures = await withTaskGroup(of: [String].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<25 {
                        let text = "\(writer)-\(round)"
                        do throws(SiteWriteError) {
                            try SiteWriter.write([SiteFile(path: "index.html", bytes: Array(text.utf8)),
                                                  SiteFile(path: "assets/\(text).css", bytes: Array(text.utf8))], to: out)
                        } catch {
                            failures.append(error.description)
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures == [])
        let text = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/assets") == ["\(text).css"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".site.coursebook-lock", "site"])
    }

    private func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }

    @Test func refusesWhatItMustNotReplace() throws {
        let root = temporaryFolder("refuse")
        defer { try? FileManager.default.removeItem(at: root) }
        let courseFolder = root.appendingPathComponent("repo/lessons")
        try FileManager.default.createDirectory(at: courseFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("repo/.git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("repo/src"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("repo/src/main.c").path, contents: Data())
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("repo/file").path, contents: Data())
        let course = course(at: courseFolder)
        let cases: [(String, String)] = [
            ("repo/lessons", "this is the course folder; choose another --out"),
            ("repo/lessons/.", "this is the course folder; choose another --out"),
            ("repo", "this folder contains the course; choose another --out"),
            ("repo/src", "the folder exists and coursebook did not write it; remove it or choose another --out"),
            ("repo/file", "a file is in the way; --out needs a folder"),
        ]
        for (relative, message) in cases {
            let destination = root.appendingPathComponent(relative).path
            #expect(throws: SiteWriteError(folder: destination, message: message)) {
                try SiteWriter.validate(destination: destination, course: course)
            }
        }
        // The repository root itself, when the course sits deeper.
        let deeper = self.course(at: root.appendingPathComponent("repo/docs/lessons"))
        #expect(throws: SiteWriteError(folder: root.appendingPathComponent("repo").path,
                                       message: "this folder contains the course; choose another --out")) {
            try SiteWriter.validate(destination: root.appendingPathComponent("repo").path, course: deeper)
        }
        try SiteWriter.validate(destination: root.appendingPathComponent("repo/_site").path, course: course)

        // A site of coursebook's that holds a file of the author's would lose it.
        try SiteWriter.write([SiteFile(path: "index.html", bytes: []), SiteFile(path: "assets/a.css", bytes: [])],
                             to: root.appendingPathComponent("site").path)
        try SiteWriter.validate(destination: root.appendingPathComponent("site").path, course: course)
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("site/notes.txt").path, contents: Data("mine".utf8))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("site/assets/drafts"), withIntermediateDirectories: true)
        #expect(throws: SiteWriteError(folder: root.appendingPathComponent("site").path,
                                       message: "the site holds files coursebook did not write (assets/drafts, notes.txt); a build would delete them: move them out, or choose another --out")) {
            try SiteWriter.validate(destination: root.appendingPathComponent("site").path, course: course)
        }
        // A symbolic link would be replaced by a folder.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link").path,
                                                   withDestinationPath: root.appendingPathComponent("elsewhere").path)
        #expect(throws: SiteWriteError(folder: root.appendingPathComponent("link").path,
                                       message: "this is a symbolic link, and a build replaces --out whole; give the folder it points to, or another --out")) {
            try SiteWriter.validate(destination: root.appendingPathComponent("link").path, course: course)
        }
        // The cache folder, one that holds it, one inside it.
        let cache = root.appendingPathComponent("cache/results").path
        for (relative, message) in [
            ("cache/results", "this is the cache folder (--cache-dir); choose another --out"),
            ("cache", "this folder contains the cache folder (\(cache)); choose another --out"),
            ("cache/results/site", "this folder is inside the cache folder (\(cache)); choose another --out"),
        ] {
            let destination = root.appendingPathComponent(relative).path
            #expect(throws: SiteWriteError(folder: destination, message: message)) {
                try SiteWriter.validate(destination: destination, course: course, cacheFolder: cache)
            }
        }

        // Another repository's root, for a course kept elsewhere.
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(throws: SiteWriteError(folder: other.path, message: "this is a repository root; choose another --out")) {
            try SiteWriter.validate(destination: other.path, course: course)
        }
    }
}

/// A lesson whose first paragraph is emphasis whole has a lead: the index shows it whole, the
/// page as a lead; a lesson without one is summed up by its first sentence.
struct LessonLeadTests {
    @Test func aLeadIsTheSummaryAndTheFirstSentenceOtherwise() throws {
        let folder = temporaryFolder("lead")
        defer { try? FileManager.default.removeItem(at: folder) }
        let course = folder.appendingPathComponent("course")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("passing"), to: course)
        try giveInvalidationCore(to: course)
        try "# Lead\n\n*This lesson measures one thing. In two steps, with `code`.*\n\nThe body. More.\n"
            .write(to: course.appendingPathComponent("02-lead.md"), atomically: true, encoding: .utf8)
        try "# Mixed\n\n*Not* a lead. *Only* partly.\n"
            .write(to: course.appendingPathComponent("03-mixed.md"), atomically: true, encoding: .utf8)
        var options = BuildCommandOptions()
        options.shared.course = course.path
        options.shared.cache = .none
        let files = try Pipeline().siteFiles(options).files
        let index = files.text("index.html")
        #expect(index.contains("<div class=\"summary\"><p>This lesson measures one thing. In two steps, with <code>code</code>.</p>\n</div>"))
        #expect(index.contains("<div class=\"summary\"><p><em>Not</em> a lead.</p>\n</div>"))
        #expect(files.text("02-lead.html").contains("<p class=\"lead\">This lesson measures one thing. In two steps, with <code>code</code>.</p>\n<p>The body. More.</p>"))
        #expect(files.text("03-mixed.html").contains("<p><em>Not</em> a lead. <em>Only</em> partly.</p>"))
    }
}

/// A page of the course without scenarios or notes (a glossary) does not say "0 scenarios".
struct PageWithoutScenariosTests {
    @Test func saysNothingOfScenariosItHasNot() throws {
        let folder = temporaryFolder("glossary")
        defer { try? FileManager.default.removeItem(at: folder) }
        let course = folder.appendingPathComponent("course")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("passing"), to: course)
        try giveInvalidationCore(to: course)
        try "# Glossary\n\nThe words of the course.\n".write(to: course.appendingPathComponent("02-glossary.md"),
                                                           atomically: true, encoding: .utf8)
        var options = BuildCommandOptions()
        options.shared.course = course.path
        options.shared.cache = .none
        let files = try Pipeline().siteFiles(options).files
        #expect(files.text("02-glossary.html").contains("<p class=\"eyebrow\" data-pagefind-ignore>Lesson 2</p>"))
        #expect(files.text("01-counter.html").contains("<p class=\"eyebrow\" data-pagefind-ignore>Lesson 1 · 2 scenarios verified</p>"))
        let index = files.text("index.html")
        // The hero's totals and the first lesson's counts; nothing under the glossary.
        #expect(index.components(separatedBy: "<p class=\"meta\">2 scenarios verified · 2 limitations</p>").count == 3)
        #expect(index.components(separatedBy: "class=\"meta\"").count == 3)
        #expect(!index.contains("0 scenarios verified") && !index.contains("0 limitations"))
    }

    /// A page that `course.json`'s `labels` names says what it is, above its title and in place
    /// of its number; the lessons keep theirs. A label for no lesson file is an error.
    @Test func aLabelledPageSaysWhatItIs() throws {
        let folder = temporaryFolder("labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let course = folder.appendingPathComponent("course")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("passing"), to: course)
        try giveInvalidationCore(to: course)
        try "# Terms\n\nThe words of the course.\n".write(to: course.appendingPathComponent("02-glossary.md"),
                                                         atomically: true, encoding: .utf8)
        let config = course.appendingPathComponent("course.json")
        var json = try String(contentsOf: config, encoding: .utf8)
        let brace = try #require(json.lastIndex(of: "}"))
        json.replaceSubrange(brace...brace, with: ", \"labels\": { \"02-glossary.md\": \"Glossary\" } }")
        try json.write(to: config, atomically: true, encoding: .utf8)
        var options = BuildCommandOptions()
        options.shared.course = course.path
        options.shared.cache = .none
        let files = try Pipeline().siteFiles(options).files
        let glossary = files.text("02-glossary.html")
        #expect(glossary.contains("<p class=\"eyebrow\" data-pagefind-ignore>Glossary</p>"))
        #expect(!glossary.contains("Lesson 2"))
        // A label is marked as one, so that the stylesheet sets it over the title, not in the
        // numbers' narrow column; a number is not.
        #expect(glossary.contains("<span class=\"number page-label\">Glossary</span> <span class=\"title\">Terms</span>"))
        #expect(glossary.contains("<span class=\"number\">1.</span>"))
        #expect(files.text("01-counter.html").contains("<p class=\"eyebrow\" data-pagefind-ignore>Lesson 1 · 2 scenarios verified</p>"))
        #expect(files.text("index.html").contains("<h2><a href=\"02-glossary.html\"><span class=\"number page-label\">Glossary</span> <span class=\"title\">Terms</span>"))
        #expect(files.text("print.html").contains("<li><a href=\"#02-glossary\"><span class=\"number page-label\">Glossary</span>"))
        #expect(files.text("print.html").contains("<p class=\"eyebrow\">Glossary</p>"))

        json = json.replacingOccurrences(of: "\"02-glossary.md\": \"Glossary\"", with: "\"03-none.md\": \"Appendix\"")
        try json.write(to: config, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try Pipeline().siteFiles(options) }
        json = json.replacingOccurrences(of: "\"03-none.md\": \"Appendix\"", with: "\"02-glossary.md\": \" \"")
        try json.write(to: config, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try Pipeline().siteFiles(options) }
    }
}

/// A lesson file whose name holds `#` or `?`: its page keeps the name, every link to it is
/// percent-encoded, so that a browser opens the page instead of reading a fragment or a query.
struct PageNamesInLinksTests {
    @Test func linksToAPageWithHashOrQuestionMarkAreEncoded() throws {
        let folder = temporaryFolder("page-names")
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{ "title": "T", "language": "en" }"#.write(to: folder.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        try "# One\n\nOn to [the next](02-c%23%3F.md#part).\n".write(to: folder.appendingPathComponent("01-a.md"), atomically: true, encoding: .utf8)
        try "# C# or not?\n\nDR1. A note.\n".write(to: folder.appendingPathComponent("02-c#?.md"), atomically: true, encoding: .utf8)
        try "# Three\n\nSee DR1.\n".write(to: folder.appendingPathComponent("03-d.md"), atomically: true, encoding: .utf8)
        var options = BuildCommandOptions()
        options.shared.course = folder.path
        options.shared.cache = .none
        let (checked, files) = try Pipeline().siteFiles(options)
        #expect(checked.report.diagnostics.isEmpty, "\(checked.report.diagnostics)")
        #expect(files.map(\.path).contains("02-c#?.html"))
        let first = files.text("01-a.html")
        #expect(first.contains("<a href=\"02-c%23%3F.html#part\">the next</a>"))
        #expect(first.contains("href=\"02-c%23%3F.html\""))  // the navigation and "next"
        #expect(!first.contains("href=\"02-c#"))
        #expect(files.text("03-d.html").contains("<a href=\"02-c%23%3F.html#dr1\">DR1</a>"))
        #expect(files.text("index.html").contains("href=\"02-c%23%3F.html\""))
        #expect(files.text("limitations.html").contains("href=\"02-c%23%3F.html#dr1\""))
    }
}

/// Bidirectional controls on the page: a marked token in text, plain text in an attribute, marks
/// shown only inside `<pre>`.
struct BidiTokensTests {
    @Test func tokensInHTML() {
        #expect(BidiTokens.inHTML("<p>a\u{202E}b \u{200F}c</p>")
                == "<p>a<mark class=\"bidi\" title=\"U+202E RIGHT-TO-LEFT OVERRIDE\">U+202E</mark>b \u{200F}c</p>")
        #expect(BidiTokens.inHTML("<pre class=\"code\"><code>x \u{200F}+ 1</code></pre><p>\u{200F}</p>")
                == "<pre class=\"code\"><code>x <mark class=\"bidi\" title=\"U+200F RIGHT-TO-LEFT MARK\">U+200F</mark>+ 1</code></pre><p>\u{200F}</p>")
        #expect(BidiTokens.inHTML("<abbr title=\"x\u{2066}y\">z</abbr>") == "<abbr title=\"xU+2066y\">z</abbr>")
        let plain = "<p>“Türkçe” — no controls</p>"
        #expect(BidiTokens.inHTML(plain) == plain)
    }

    @Test func tokensInText() {
        #expect(BidiTokens.inText("Title \u{202E}x\u{200F}") == "Title <U+202E>x\u{200F}")
    }
}
