import CourseFiles
import Foundation
import Processes
import ScenarioRunning
import Testing

/// `coursebook build` through the built binary: what it writes, what it refuses, and what a
/// failure leaves behind.
struct BuildCommandTests {
    func build(_ fixture: String, out: URL, _ extra: [String] = [], environment: [String: String] = [:]) throws -> CommandResult {
        let cache = temporaryFolder("build-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        return try coursebook(["build", fixture, "--out", out.path, "--cache-dir", cache.path] + extra, environment: environment)
    }

    @Test func writesTheSite() throws {
        let root = temporaryFolder("build")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site")
        let result = try build("passing", out: out, ["--no-search"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasSuffix("2 passed, 0 failed, 1 skipped\nwrote \(out.path): 4 pages (1 lesson, index, limitations, whole course) and 4 assets\n"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted()
        #expect(files.count == 10)
        // The part sheets its pages link (the lesson's diagrams, the index, the limitations
        // page), and no other: no refusal, callout or placeholder here.
        #expect(files.filter { !$0.hasPrefix("assets/style.") }.map { $0.replacingOccurrences(of: #"\.[0-9a-f]{10}\.css$"#, with: ".css", options: .regularExpression) }
                == [".coursebook-site", "01-counter.html", "assets", "assets/style-diagrams.css", "assets/style-index.css", "assets/style-limitations.css",
                    "index.html", "limitations.html", "print.html"])
        #expect(files.contains { $0.range(of: #"^assets/style\.[0-9a-f]{10}\.css$"#, options: .regularExpression) != nil }, "\(files)")
    }

    /// Without Pagefind the site has no search (no search page, no search field) and the build
    /// says so in one line; with it, the index is written into the site before it is in place.
    @Test func searchWhenPagefindIsInstalledAndALineWhenItIsNot() throws {
        let root = temporaryFolder("search")
        defer { try? FileManager.default.removeItem(at: root) }
        let without = root.appendingPathComponent("without")
        let result = try build("passing", out: without, environment: ["COURSEBOOK_PAGEFIND": ""])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasSuffix("wrote \(without.path): 4 pages (1 lesson, index, limitations, whole course) and 4 assets\nsearch: pagefind is not installed, so the site has no search ('pip install pagefind-bin' adds it)\n"))
        #expect(!FileManager.default.fileExists(atPath: without.appendingPathComponent("search.html").path))
        #expect(try !String(contentsOf: without.appendingPathComponent("01-counter.html"), encoding: .utf8).contains("search"))

        guard findOnPath("pagefind") != nil else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return
        }
        let with = root.appendingPathComponent("with")
        let indexed = try build("passing", out: with)
        #expect(indexed.status == 0, "\(indexed)")
        #expect(indexed.standardOutput.hasSuffix("wrote \(with.path): 5 pages (1 lesson, index, limitations, whole course, search) and 5 assets\nsearch: pagefind indexed 1 page\n"))
        #expect(FileManager.default.fileExists(atPath: with.appendingPathComponent("pagefind/pagefind.js").path))
        #expect(try String(contentsOf: with.appendingPathComponent("01-counter.html"), encoding: .utf8)
            .contains("<form class=\"site-search\" role=\"search\" action=\"search.html\" data-script=\"assets/search."))
        // The index Pagefind wrote is the site's own: the next build replaces it.
        let again = try build("passing", out: with)
        #expect(again.status == 0, "\(again)")

        // A Pagefind that fails leaves no site behind, and says why.
        let failing = root.appendingPathComponent("failing")
        let broken = try build("passing", out: failing, environment: ["COURSEBOOK_PAGEFIND": "false"])
        #expect(broken.status == 4, "\(broken)")
        #expect(broken.standardError.contains("cannot index the site for search"), "\(broken)")
        #expect(!FileManager.default.fileExists(atPath: failing.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
                == [".failing.coursebook-lock", ".with.coursebook-lock", ".without.coursebook-lock", "with", "without"])
    }

    /// Pagefind reads only the lesson pages, and runs only when one of them changed: a build
    /// whose pages are byte-for-byte those in place reuses the index once its files are found
    /// to be those its record names; a changed lesson, or a tampered index file, makes a new one.
    @Test func searchIndexCostsWhatChanged() throws {
        guard let pagefind = findOnPath("pagefind") else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return
        }
        let root = temporaryFolder("search-reuse")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = try copyOfFixture("passing")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        // A Pagefind that notes each run and the pages it was given.
        let runs = root.appendingPathComponent("runs")
        let wrapper = root.appendingPathComponent("pagefind")
        try """
            #!/bin/sh
            echo run >> '\(runs.path)'
            ls -R "$2" >> '\(runs.path)'
            exec '\(pagefind)' "$@"
            """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let environment = ["COURSEBOOK_PAGEFIND": wrapper.path]
        func runCount() -> Int {
            ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0 == "run" }.count
        }
        let out = root.appendingPathComponent("site")
        let first = try build(course.path, out: out, environment: environment)
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput.hasSuffix("search: pagefind indexed 1 page\n"), "\(first)")
        #expect(runCount() == 1)
        let given = try String(contentsOf: runs, encoding: .utf8)
        #expect(given.contains("01-counter.html") && !given.contains("print.html") && !given.contains("index.html")
                && !given.contains("limitations.html"), "\(given)")
        let record = out.appendingPathComponent("pagefind/coursebook-index.sha256")
        #expect(FileManager.default.fileExists(atPath: record.path))

        let unchanged = try build(course.path, out: out, environment: environment)
        #expect(unchanged.status == 0, "\(unchanged)")
        #expect(unchanged.standardOutput.hasSuffix("search: the index of 1 page is the one in place (its pages unchanged, its files verified)\n"), "\(unchanged)")
        #expect(runCount() == 1)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("pagefind/pagefind.js").path))

        // A tampered index file: the index is made again.
        let entry = out.appendingPathComponent("pagefind/pagefind-entry.json")
        try Data("{}".utf8).write(to: entry)
        let tampered = try build(course.path, out: out, environment: environment)
        #expect(tampered.status == 0, "\(tampered)")
        #expect(tampered.standardOutput.hasSuffix("search: pagefind indexed 1 page\n"), "\(tampered)")
        #expect(runCount() == 2)
        #expect(try String(contentsOf: entry, encoding: .utf8) != "{}")

        // A forged record: a tampered index file, and the record's digest of it made to match
        // (what anyone who can write the site can do). Its signature no longer holds: made again.
        let forged = Array("{\"forged\":true}".utf8)
        try Data(forged).write(to: entry)
        let recordText = try String(contentsOf: record, encoding: .utf8)
        let forgedRecord = recordText.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix(" pagefind-entry.json") ? "file \(SHA256.hex(forged)) pagefind-entry.json" : String(line)
        }.joined(separator: "\n")
        #expect(forgedRecord != recordText)
        try forgedRecord.write(to: record, atomically: true, encoding: .utf8)
        let forgedBuild = try build(course.path, out: out, environment: environment)
        #expect(forgedBuild.status == 0, "\(forgedBuild)")
        #expect(forgedBuild.standardOutput.hasSuffix("search: pagefind indexed 1 page\n"), "\(forgedBuild)")
        #expect(runCount() == 3)
        #expect(try String(contentsOf: entry, encoding: .utf8) != "{\"forged\":true}")

        // One changed lesson: the index is made again, and holds the new words.
        let lesson = course.appendingPathComponent("01-counter.md")
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try text.replacingOccurrences(of: "A course that no one here wrote", with: "A course about zanzibarquokka")
            .write(to: lesson, atomically: true, encoding: .utf8)
        let changed = try build(course.path, out: out, environment: environment)
        #expect(changed.status == 0, "\(changed)")
        #expect(changed.standardOutput.hasSuffix("search: pagefind indexed 1 page\n"), "\(changed)")
        #expect(runCount() == 4)
        #expect(try String(contentsOf: record, encoding: .utf8).contains("page "))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".coursebook-search-pages").path))
    }

    /// A build that stops says in which step of its pipeline: here the index, after the pages
    /// were rendered, with Pagefind's own words, exit status 4 and no site.
    @Test func aStopNamesItsStep() throws {
        let root = temporaryFolder("stop-step")
        defer { try? FileManager.default.removeItem(at: root) }
        let broken = root.appendingPathComponent("broken-pagefind")
        try "#!/bin/sh\necho 'no room for the index' >&2\nexit 3\n".write(to: broken, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: broken.path)
        let out = root.appendingPathComponent("site")
        let result = try build("passing", out: out, environment: ["COURSEBOOK_PAGEFIND": broken.path])
        // (A line break in a message is shown as <U+000A>: one stop, one line.)
        #expect(result == CommandResult(status: 4, standardOutput: "", standardError: """
            coursebook build: build failed in step index: cannot index the site for search: \(broken.path) failed (exit status 3):<U+000A>no room for the index<U+000A>

            """), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A Pagefind that takes longer than the search time limit is stopped: the build fails
    /// with a finding that says so and exit status 8, and writes nothing.
    @Test func pagefindRunsUnderATimeLimit() throws {
        let root = temporaryFolder("search-limit")
        defer { try? FileManager.default.removeItem(at: root) }
        let slow = root.appendingPathComponent("slow-pagefind")
        try "#!/bin/sh\nexec sleep 30\n".write(to: slow, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slow.path)
        let out = root.appendingPathComponent("site")
        let started = ContinuousClock.now
        let result = try build("passing", out: out, environment: ["COURSEBOOK_PAGEFIND": slow.path,
                                                                   "COURSEBOOK_SEARCH_TIME_LIMIT": "0.5"])
        #expect(ContinuousClock.now - started < .seconds(25))
        #expect(result.status == 8, "\(result)")
        #expect(result.standardError.contains("took longer than the search time limit (0.5 s) and was stopped"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aFailedCheckLeavesTheOldSiteAsItWas() throws {
        let root = temporaryFolder("failed")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site")
        #expect(try build("passing", out: out).status == 0)
        let before = try snapshot(out)
        let result = try build("output-mismatch", out: out)
        #expect(result.status == 1)
        #expect(result.standardError.hasSuffix("coursebook build: build failed in step judge: the check failed; \(out.path) was not written\n"))
        #expect(try snapshot(out) == before)
        // Beside it, only the lock file that builds of it take turns with.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".site.coursebook-lock", "site"])
    }

    /// A build killed between its two renames left no site, the old one moved aside and a
    /// staging folder: the next build, even one whose check fails, puts the site back.
    @Test func theNextBuildRepairsWhatAKilledOneLeft() throws {
        let root = temporaryFolder("killed-build")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site")
        #expect(try build("passing", out: out).status == 0)
        let before = try snapshot(out)
        try FileManager.default.moveItem(at: out, to: root.appendingPathComponent(".site.coursebook-old-7-7"))
        // A staging folder of a build killed while it wrote: a folder a build made (the mark
        // in its marker is of its own inode, which a rename keeps).
        let other = root.appendingPathComponent("other/site")
        #expect(try build("passing", out: other).status == 0)
        try FileManager.default.moveItem(at: other, to: root.appendingPathComponent(".site.coursebook-new-7-7"))
        let failed = try build("output-mismatch", out: out)
        #expect(failed.status == 1)
        #expect(try snapshot(out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".site.coursebook-lock", "other", "site"])
    }

    /// Four builds of one site at once, through the binary: they take turns, and every one
    /// succeeds.
    @Test func concurrentBuildsOfOneSiteAllSucceed() async throws {
        let root = temporaryFolder("concurrent-builds")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        let cache = root.appendingPathComponent("cache").path
        _ = try coursebook(["check", "passing", "--cache-dir", cache])
        let statuses = try await withThrowingTaskGroup(of: [Int32].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try (0..<3).map { _ in try coursebook(["build", "passing", "--out", out, "--cache-dir", cache]).status }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses == Array(repeating: 0, count: 12))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".site.coursebook-lock", "cache", "site"])
    }

    @Test func refusesALinkTheCacheFolderAndASiteWithTheAuthorsFiles() throws {
        let root = temporaryFolder("refused-out")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: target)
        let link = try coursebook(["build", "passing", "--out", root.path + "/link"])
        #expect(link == CommandResult(status: 4, standardOutput: "", standardError: "coursebook build: build failed in step read: \(root.path)/link: this is a symbolic link, and a build replaces --out whole; give the folder it points to, or another --out\n"))

        let cache = root.appendingPathComponent("cache").path
        let sameAsCache = try coursebook(["build", "passing", "--out", cache, "--cache-dir", cache])
        #expect(sameAsCache == CommandResult(status: 4, standardOutput: "", standardError: "coursebook build: build failed in step read: \(cache): this is the cache folder (--cache-dir); choose another --out\n"))

        let out = root.appendingPathComponent("site")
        #expect(try build("passing", out: out).status == 0)
        try "mine".write(to: out.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
        let foreign = try build("passing", out: out)
        #expect(foreign.status == 4)
        #expect(foreign.standardError == "coursebook build: build failed in step read: \(out.path): the site holds files coursebook did not write (notes.md); a build would delete them: move them out, or choose another --out\n")
        #expect(try String(contentsOf: out.appendingPathComponent("notes.md"), encoding: .utf8) == "mine")

        // A file where a folder above --out would be: the system's reason, not Foundation's.
        try Data().write(to: root.appendingPathComponent("file"))
        let underFile = try coursebook(["build", "passing", "--out", root.path + "/file/sub/site"])
        #expect(underFile == CommandResult(status: 4, standardOutput: "", standardError: "coursebook build: build failed in step render: \(root.path)/file/sub/site: cannot write the site: cannot make \(root.path)/file/sub: Not a directory\n"))
    }

    @Test func refusesTheCourseFolderAndFoldersItDidNotWrite() throws {
        let result = try coursebook(["build", "passing", "--out", "passing"])
        #expect(result == CommandResult(status: 4, standardOutput: "",
                                        standardError: "coursebook build: build failed in step read: passing: this is the course folder; choose another --out\n"))
        let containing = try coursebook(["build", "passing", "--out", "."])
        #expect(containing.status == 4)
        #expect(containing.standardError == "coursebook build: build failed in step read: .: this folder contains the course; choose another --out\n")
        let root = temporaryFolder("foreign")
        defer { try? FileManager.default.removeItem(at: root) }
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("notes.txt").path, contents: Data("keep".utf8))
        let foreign = try coursebook(["build", "passing", "--out", root.path])
        #expect(foreign.status == 4)
        #expect(foreign.standardError == "coursebook build: build failed in step read: \(root.path): the folder exists and coursebook did not write it; remove it or choose another --out\n")
        #expect(try String(contentsOf: root.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
    }

    @Test func anUnknownPlaceholderNamesTheTemplateAndLine() throws {
        let root = temporaryFolder("template")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try build("bad-template", out: root.appendingPathComponent("site"))
        #expect(result.status == 3)
        #expect(result.standardError == "bad-template/templates/lesson.html:3:1: error: unknown placeholder 'lesson.bodyy': 'lesson' has no field 'bodyy'\n")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("site").path))
    }

    /// The navigation repeated inside itself, 8 deep, would be N⁸ entries on every page: refused
    /// at its line before anything runs.
    @Test func aTemplateThatRepeatsAListInsideItselfIsRefused() throws {
        let root = temporaryFolder("nested-each")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try #"{ "title": "T", "language": "en", "templates": "templates" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        try "# A\n\nText.\n".write(to: course.appendingPathComponent("01-a.md"), atomically: true, encoding: .utf8)
        let nested = String(repeating: "{{#each nav}}\n", count: 8) + String(repeating: "{{/each}}", count: 8) + "\n{{content}}\n"
        try nested.write(to: course.appendingPathComponent("templates/layout.html"), atomically: true, encoding: .utf8)
        try "{{lesson.body}}\n".write(to: course.appendingPathComponent("templates/lesson.html"), atomically: true, encoding: .utf8)
        let result = try coursebook(["build", "course", "--out", "site", "--no-cache"], in: root)
        #expect(result.status == 3, "\(result)")
        #expect(result.standardError == "course/templates/layout.html:2:1: error: '{{#each nav}}' inside the '{{#each}}' of line 1, which already repeats that list: the page would hold it once for every item of it\n")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("site").path))
    }

    @Test func aTemplatesFolderOverridesWhatItHolds() throws {
        let root = temporaryFolder("custom")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site")
        let result = try build("custom-templates", out: out)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "custom-templates/course.json: warning: no built-in words for language 'de'; pages use English for the words the tool adds\n")
        let assets = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("assets").path).sorted()
            .filter { !$0.hasPrefix("search.") && !$0.hasPrefix("style-") }
        #expect(assets.count == 2 && assets[0].hasPrefix("logo.") && assets[0].hasSuffix(".svg") && assets[1].hasPrefix("style."), "\(assets)")
        #expect(try String(contentsOf: out.appendingPathComponent("assets/\(assets[1])"), encoding: .utf8)
            == "body{color:rebeccapurple;background:url(\(assets[0])) no-repeat;}")
        let page = try String(contentsOf: out.appendingPathComponent("01-lektion.html"), encoding: .utf8)
        #expect(page.contains("<html lang=\"de\">"))
        #expect(page.contains("Skip to content"))
        // The folder's style.css is every page's sheet; the index also links the built-in one
        // for what only it holds.
        #expect(linkedStylesheets(page) == ["assets/\(assets[1])"], "\(linkedStylesheets(page))")
        let index = linkedStylesheets(try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8))
        #expect(index.count == 2 && index[0] == "assets/\(assets[1])" && index[1].hasPrefix("assets/style-index."), "\(index)")
    }

    /// A course in a language without built-in words draws a warning from the prepare step;
    /// under --strict it is an error, and nothing is written.
    @Test func strictStopsABuildOnTheLanguageWarning() throws {
        let root = temporaryFolder("strict-language")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site")
        let result = try build("custom-templates", out: out, ["--strict"])
        #expect(result.status == 1)
        #expect(result.standardError == """
            custom-templates/course.json: error: no built-in words for language 'de'; pages use English for the words the tool adds
            coursebook build: build failed in step judge: the check failed; \(out.path) was not written

            """)
        #expect(result.standardOutput == "compiled 0 scenarios, 0 from the cache\n1 error, 0 warnings\n0 passed, 0 failed\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func outIsRequired() throws {
        let result = try coursebook(["build", "passing"])
        #expect(result.status == 64)
        #expect(result.standardError == "coursebook build: '--out DIR' is required: the folder to write the site into\nsee 'coursebook build --help'\n")
    }

    @Test func worksFromAnyFolder() throws {
        let root = temporaryFolder("anywhere")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try coursebook(["build", fixtures.appendingPathComponent("passing").path, "--out", "site", "--no-cache"], in: root)
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("site/print.html").path))
    }

    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
