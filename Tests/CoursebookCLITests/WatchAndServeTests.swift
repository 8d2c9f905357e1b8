import Foundation
import Processes
import ScenarioRunning
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `watch` and `serve` run as an author runs them, in a copy of the author-loop course.
@Suite(.serialized) struct WatchAndServeTests {
    /// The first round checks everything; an edited lesson starts a round within a second,
    /// which compiles that scenario alone; an editor's burst of saves is one round; a hidden
    /// file is no change; Ctrl-C ends it with 130 and a short word.
    @Test func watchChecksAgainAfterAnEdit() throws {
        let (root, course) = try authorLoopCourse("watch")
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = try RunningCommand(["watch", "course"], in: root)
        let first = try #require(watch.waitForLine { $0.hasPrefix("watching") }, "\(watch.standardOutput)\(watch.standardError)")
        #expect(watch.standardOutput == """
            compiled 6 scenarios (1 swiftc run), 0 from the cache
            6 passed, 0 failed, 1 skipped
            watching course for changes (Ctrl-C stops)

            """)

        // An editor that writes a scratch file and renames it over the lesson, five times in
        // quick succession: one round.
        let lesson = course.appendingPathComponent("02-sums.md")
        for step in 1...5 {
            try save(lesson, replacing: step == 1 ? "var total = 0" : "var total = 0 // \(step - 1)",
                     with: "var total = 0 // \(step)")
            usleep(30_000)
        }
        let saved = ContinuousClock.now
        let changed = try #require(watch.waitForLine(from: first + 1) { $0.hasPrefix("changed:") })
        #expect(watch.lines[changed].text == "changed: course/02-sums.md")
        #expect(watch.lines[changed].time - saved < .seconds(1), "the round started \(watch.lines[changed].time - saved) after the last save")
        let end = try #require(watch.waitForLine(from: changed) { $0.hasPrefix("watching") })
        #expect(watch.lines[changed...end].map(\.text) == [
            "changed: course/02-sums.md",
            "compiled 1 scenario (1 swiftc run), 5 from the cache",
            "6 passed, 0 failed, 1 skipped",
            "watching course for changes (Ctrl-C stops)",
        ])

        // Files that are not the course's (hidden, an editor's backup) start nothing.
        try "notes".write(to: course.appendingPathComponent(".notes"), atomically: false, encoding: .utf8)
        try "backup".write(to: course.appendingPathComponent("02-sums.md~"), atomically: false, encoding: .utf8)
        #expect(watch.waitForLine(from: end + 1, timeout: .seconds(2)) { _ in true } == nil, "\(watch.standardOutput)")

        // A broken lesson: the round says what the check says, and the watch goes on.
        try save(course.appendingPathComponent("01-tally.md"), replacing: "\n6\n", with: "\n7\n")
        let broken = try #require(watch.waitForLine(from: end + 1) { $0.hasPrefix("watching") })
        #expect(watch.lines[(end + 1)...broken].map(\.text) == [
            "changed: course/01-tally.md",
            "compiled 0 scenarios, 6 from the cache",
            "1 error, 0 warnings",
            "5 passed, 1 failed, 1 skipped",
            "watching course for changes (Ctrl-C stops)",
        ])

        #expect(watch.stop(SIGINT) == 130)
        #expect(watch.standardError.hasPrefix("course/01-tally.md:15:1: error: output of the scenario at line 7 differs"))
        #expect(watch.standardError.hasSuffix("coursebook: stopped\n"))
        #expect(watch.lines.filter { $0.text.hasPrefix("changed:") }.count == 2, "\(watch.standardOutput)")
    }

    /// With `--out`, every green round writes the site; a red one leaves it as it was; the
    /// site folder, even inside the course, is never a change of its own.
    @Test func watchRebuildsTheSiteAfterAGreenCheck() throws {
        let (root, course) = try authorLoopCourse("watch-out")
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = try RunningCommand(["watch", "course", "--out", "course/_site", "--no-search"], in: root)
        let first = try #require(watch.waitForLine { $0.hasPrefix("watching") }, "\(watch.standardOutput)\(watch.standardError)")
        #expect(watch.lines[first - 1].text == "wrote course/_site: 6 pages (3 lessons, index, limitations, whole course) and 3 assets")
        let page = course.appendingPathComponent("_site/01-tally.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("the cat sat on the mat"))

        try save(course.appendingPathComponent("01-tally.md"), replacing: "\n6\n", with: "\n7\n")
        let red = try #require(watch.waitForLine(from: first + 1) { $0.hasPrefix("watching") })
        #expect(!watch.lines[first...red].contains { $0.text.hasPrefix("wrote") })
        #expect(try String(contentsOf: page, encoding: .utf8).contains("the cat sat on the mat"))

        try save(course.appendingPathComponent("01-tally.md"), replacing: "the cat sat on the mat\"\nlet words", with: "the dog sat on the mat\"\nlet words")
        let stillRed = try #require(watch.waitForLine(from: red + 1) { $0.hasPrefix("watching") })
        #expect(!watch.lines[red...stillRed].contains { $0.text.hasPrefix("wrote") })
        try save(course.appendingPathComponent("01-tally.md"), replacing: "\n7\n", with: "\n6\n")
        let green = try #require(watch.waitForLine(from: stillRed + 1) { $0.hasPrefix("watching") })
        #expect(watch.lines[green - 1].text.hasPrefix("wrote course/_site: 6 pages"), "\(watch.standardOutput)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("the dog sat on the mat"))
        // Writing the site started no round of its own.
        #expect(watch.waitForLine(from: green + 1, timeout: .seconds(2)) { _ in true } == nil, "\(watch.standardOutput)")
        #expect(watch.stop(SIGTERM) == 143)
        #expect(watch.standardError.contains("coursebook watch: build failed in step judge: the check failed; course/_site was not written"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: course.path).filter { $0.contains("coursebook-new") || $0.contains("coursebook-old") }
        #expect(leftovers.isEmpty)
    }

    /// With search, a round writes the pages and says so first; the index is refreshed after:
    /// when Pagefind starts, the new page is already in place.
    @Test func watchWritesThePagesBeforeTheIndex() throws {
        guard let pagefind = findOnPath("pagefind") else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return
        }
        let (root, course) = try authorLoopCourse("watch-search")
        defer { try? FileManager.default.removeItem(at: root) }
        let log = root.appendingPathComponent("pagefind.log")
        let page = course.appendingPathComponent("_site/01-tally.html")
        let wrapper = root.appendingPathComponent("pagefind")
        try """
            #!/bin/sh
            if grep -q 'the dog sat' '\(page.path)' 2>/dev/null; then echo 'page in place' >> '\(log.path)'; else echo 'page not yet' >> '\(log.path)'; fi
            exec '\(pagefind)' "$@"
            """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let watch = try RunningCommand(["watch", "course", "--out", "course/_site"], in: root,
                                       environment: ["COURSEBOOK_PAGEFIND": wrapper.path])
        let first = try #require(watch.waitForLine { $0.hasPrefix("search:") }, "\(watch.standardOutput)\(watch.standardError)")
        #expect(watch.lines[first - 1].text.hasPrefix("watching"), "\(watch.standardOutput)")
        #expect(watch.lines[first - 2].text.hasPrefix("wrote course/_site: 7 pages"), "\(watch.standardOutput)")
        try save(course.appendingPathComponent("01-tally.md"), replacing: "the cat sat on the mat\"\nlet words", with: "the dog sat on the mat\"\nlet words")
        let second = try #require(watch.waitForLine(from: first + 1) { $0.hasPrefix("search:") }, "\(watch.standardOutput)\(watch.standardError)")
        #expect(watch.lines[second - 1].text.hasPrefix("watching"))
        #expect(try String(contentsOf: log, encoding: .utf8) == "page not yet\npage in place\n")
        #expect(FileManager.default.fileExists(atPath: course.appendingPathComponent("_site/pagefind/pagefind.js").path))
        #expect(watch.stop(SIGTERM) == 143)
    }

    /// `serve` answers the index, a lesson, a stylesheet, a 404, a 405 and a way out of the
    /// site over the loopback address; pushes a reload event after an edit; shows a failed
    /// check's findings in place of the page; and ends on SIGINT, leaving no folder behind.
    @Test func servePreviewsTheSite() throws {
        let (root, course) = try authorLoopCourse("serve")
        defer { try? FileManager.default.removeItem(at: root) }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let serve = try RunningCommand(["serve", "course", "--port", "0", "--no-search"], in: root)
        let announced = try #require(serve.waitForLine { $0.hasPrefix("serving") }, "\(serve.standardError)")
        let words = serve.lines[announced].text.split(separator: " ")
        #expect(words.count == 6 && words[1] == "course" && words[2] == "at", "\(serve.lines[announced].text)")
        let address = String(words[3])
        let port = try #require(UInt16(address.dropFirst("http://127.0.0.1:".count).dropLast()), "\(address)")
        let first = try #require(serve.waitForLine(from: announced) { $0.hasPrefix("watching") }, "\(serve.standardError)")
        #expect(serve.lines[first - 1].text == "preview: 6 pages, reloaded in the browser")

        let index = try HTTPExchange.get("/", port: port)
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.body.contains("Counting Things"))
        #expect(index.body.contains("EventSource(\"/_coursebook/events"), "the preview adds its script")
        let lesson = try HTTPExchange.get("/02-sums.html", port: port)
        #expect(lesson.status == 200)
        #expect(lesson.body.contains("<h1") && lesson.body.contains("Sums"))
        let stylesheet = try #require(index.body.range(of: #"assets/style\.[0-9a-f]+\.css"#, options: .regularExpression))
        let css = try HTTPExchange.get("/" + String(index.body[stylesheet]), port: port)
        #expect(css.status == 200)
        #expect(css.headers["content-type"] == "text/css; charset=utf-8")
        #expect(!css.body.contains("EventSource"))
        let missing = try HTTPExchange.get("/nothing.html", port: port)
        #expect(missing.status == 404)
        let post = try HTTPExchange.send("POST /index.html HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2\r\n\r\nhi", port: port)
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        for way in ["/../course/course.json", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/../../../../../etc/passwd",
                    "/assets/../index.html", "/.coursebook-site"] {
            let out = try HTTPExchange.get(way, port: port)
            #expect(out.status == 404, "\(way): \(out.status)")
            #expect(!out.body.contains("root:") && !out.body.contains("\"title\""), "\(way)")
        }
        let head = try HTTPExchange.send("HEAD /02-sums.html HTTP/1.0\r\nHost: localhost:\(port)\r\n\r\n", port: port)
        #expect(head.status == 200 && head.body.isEmpty)

        // An edit that breaks the check: a reload event, and the page shows the findings.
        let events = try EventStream(port: port, path: "/_coursebook/events")
        #expect(events.waitFor("retry:"))
        try save(course.appendingPathComponent("02-sums.md"), replacing: "\n55\n```\n\nDR3", with: "\n56\n```\n\nDR3")
        #expect(events.waitFor("event: reload"))
        let red = try #require(serve.waitForLine(from: first + 1) { $0.hasPrefix("watching") })
        #expect(serve.lines[red - 1].text == "preview: the page shows what the check found")
        let failed = try HTTPExchange.get("/02-sums.html", port: port)
        #expect(failed.body.contains("The check failed"))
        #expect(failed.body.contains("course/02-sums.md:15:1: error: output of the scenario at line 7 differs from its &#39;output&#39; block at line 14")
                || failed.body.contains("course/02-sums.md:15:1: error: output of the scenario at line 7 differs from its 'output' block at line 14"),
                "\(failed.body)")
        #expect(failed.body.contains("-56"))

        // Fixed again: another reload, and the site.
        try save(course.appendingPathComponent("02-sums.md"), replacing: "\n56\n```\n\nDR3", with: "\n55\n```\n\nDR3")
        #expect(events.waitFor("event: reload"))
        _ = try #require(serve.waitForLine(from: red + 1) { $0.hasPrefix("watching") })
        #expect(try HTTPExchange.get("/02-sums.html", port: port).body.contains("Sums"))

        // The port is taken: a second server says so and ends with 7.
        let second = try coursebook(["serve", "course", "--port", "\(port)"], in: root)
        #expect(second.status == 7, "\(second)")
        #expect(second.standardError.hasPrefix("coursebook serve: cannot listen on 127.0.0.1:\(port): "), "\(second)")

        #expect(serve.stop(SIGINT) == 130)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        #expect(after.subtracting(before).filter { $0.hasPrefix("coursebook-serve-") }.isEmpty)
        #expect(throws: (any Error).self) { try HTTPExchange.get("/", port: port) }

        // The site `build` publishes carries no preview script.
        #expect(try coursebook(["build", "course", "--out", "site", "--no-search"], in: root).status == 0)
        let published = try String(contentsOf: root.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(!published.contains("EventSource") && !published.contains("_coursebook"))
    }

    /// `serve` as a page of another site and a flood of half-sent requests meet it: a `Host`
    /// other than its own (DNS rebinding) gets 403 and none of the course; 1,100 connections
    /// that each sent half a request, held open, leave a fresh request answered at once.
    @Test func serveAnswersItsOwnHostAndAlwaysAFreshRequest() throws {
        let (root, _) = try authorLoopCourse("serve-hostile")
        defer { try? FileManager.default.removeItem(at: root) }
        let serve = try RunningCommand(["serve", "course", "--port", "0", "--no-search"], in: root)
        let announced = try #require(serve.waitForLine { $0.hasPrefix("serving") }, "\(serve.standardError)")
        let words = serve.lines[announced].text.split(separator: " ")
        let port = try #require(UInt16(words[3].dropFirst("http://127.0.0.1:".count).dropLast()))
        _ = try #require(serve.waitForLine(from: announced) { $0.hasPrefix("watching") }, "\(serve.standardError)")

        let rebound = try HTTPExchange.send("GET /01-tally.html HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n", port: port)
        #expect(rebound.status == 403)
        #expect(!rebound.body.contains("Tally") && !rebound.body.contains("tally"), "\(rebound.body)")
        let events = try HTTPExchange.send("GET /_coursebook/events HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", port: port)
        #expect(events.status == 403)
        let own = try HTTPExchange.send("GET /01-tally.html HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n", port: port)
        #expect(own.status == 200)

        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<1100 {
            let connection = try HTTPExchange.connect(port: port)
            held.append(connection)
            let half = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: "
            _ = half.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) }
        }
        let asked = ContinuousClock.now
        let fresh = try HTTPExchange.get("/02-sums.html", port: port)
        #expect(fresh.status == 200 && fresh.body.contains("Sums"))
        #expect(ContinuousClock.now - asked < .seconds(3), "answered after \(ContinuousClock.now - asked)")
        #expect(serve.stop(SIGINT) == 130)
    }

    /// Without a course folder there is nothing to watch or serve: exit status 2 at once.
    @Test func noCourseFolderEndsAtOnce() throws {
        let root = temporaryFolder("no-course")
        defer { try? FileManager.default.removeItem(at: root) }
        for command in ["watch", "serve"] {
            let result = try coursebook([command, "nowhere", "--port=0"].filter { command == "serve" || $0 != "--port=0" }, in: root)
            #expect(result == CommandResult(status: 2, standardOutput: "", standardError: "nowhere: error: no course folder here\n"), "\(result)")
        }
    }
}
