@testable import CoursebookCLI
import CourseModel
import Foundation
import FoundationXML
import LessonParsing
import Processes
import ScenarioRunning
import TestSupport
import Testing

/// The repository's own course, built by the binary as `make` builds it, then checked as a
/// reader's tools would: tidy, every internal link, every limitation note, and a real browser.
@Suite(.serialized) struct PublishedSiteTests {
    /// The course this repository publishes.
    static let course = packageRoot.appendingPathComponent("lessons")

    /// Built once for the suite, into the build folder (replaced by the next run, like any
    /// site coursebook writes), so that nothing is left behind in the system's temporary folder.
    static let built: Result<URL, BuildFailure> = {
        let site = packageRoot.appendingPathComponent(".build/published-site-test")
        do {
            let result = try coursebook(["build", course.path, "--out", site.path, "--strict"])
            guard result.status == 0 else { return .failure(BuildFailure(result: "\(result)")) }
            return .success(site)
        } catch {
            return .failure(BuildFailure(result: "\(error)"))
        }
    }()

    struct BuildFailure: Error { var result: String }

    func site() throws -> URL { try Self.built.get() }

    func pages() throws -> [URL] {
        let site = try site()
        return try FileManager.default.contentsOfDirectory(atPath: site.path)
            .filter { $0.hasSuffix(".html") }.sorted().map { site.appendingPathComponent($0) }
    }

    func lessons() throws -> [Lesson] {
        try CourseLoader.load(folder: Self.course.path).course.lessons
    }

    @Test func everyPageIsValidHTML() throws {
        for page in try pages() {
            var watcher = CollectingWatcher(timeLimit: .seconds(60))
            guard let tidy = findOnPath("tidy") else {
                Issue.record("tidy is not installed: 'make' installs it (Debian package tidy)")
                return
            }
            let termination = try ChildProcess(executable: tidy, arguments: ["-quiet", "-errors", page.path])
                .run(watching: &watcher)
            let report = String(decoding: watcher.standardError, as: UTF8.self)
            #expect(termination != .exited(2), "tidy found errors in \(page.lastPathComponent):\n\(report)")
            // tidy 5.6 does not know the ARIA attribute aria-current; anything else is a finding.
            let findings = report.split(separator: "\n").filter { !$0.contains("proprietary attribute \"aria-current\"") }
            #expect(findings.isEmpty, "\(page.lastPathComponent): \(findings.joined(separator: "\n"))")
        }
    }

    @Test func everyInternalLinkAndAnchorResolves() throws {
        let site = try site()
        var ids: [String: Set<String>] = [:]
        var links: [(page: String, href: String)] = []
        for page in try pages() {
            let html = try String(contentsOf: page, encoding: .utf8)
            ids[page.lastPathComponent] = Set(matches(of: #" id="([^"]*)""#, in: html))
            let hrefs = matches(of: #" (?:href|src)="([^"]*)""#, in: html)
            links += hrefs.map { (page.lastPathComponent, $0) }
            #expect(Set(matches(of: #" id="([^"]*)""#, in: html)).count == matches(of: #" id="([^"]*)""#, in: html).count,
                    "\(page.lastPathComponent) repeats an id")
        }
        #expect(!links.isEmpty)
        for (page, href) in links {
            if href.hasPrefix("http://") || href.hasPrefix("https://") || href.hasPrefix("mailto:") || href.hasPrefix("data:") { continue }
            #expect(!href.hasPrefix("/"), "\(page): \(href) is not relative")
            let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? page : String(parts[0])
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(file).path),
                    "\(page): \(href) points to a missing file")
            if parts.count == 2, !parts[1].isEmpty {
                #expect(ids[file]?.contains(String(parts[1])) == true, "\(page): \(href) points to a missing anchor")
            }
        }
    }

    @Test func everyLimitationNoteIsOnItsLessonPageAndTheLimitationsPage() throws {
        let site = try site()
        let limitations = try String(contentsOf: site.appendingPathComponent("limitations.html"), encoding: .utf8)
        var count = 0
        for lesson in try lessons() {
            let page = try String(contentsOf: site.appendingPathComponent(lesson.slug + ".html"), encoding: .utf8)
            for note in lesson.notes {
                count += 1
                #expect(page.contains("<aside class=\"limit\" id=\"dr\(note.number)\""), "\(lesson.fileName): DR\(note.number) has no aside")
                #expect(limitations.contains("<li class=\"limit\" id=\"dr\(note.number)\">"), "DR\(note.number) is missing from the limitations page")
                #expect(limitations.contains("href=\"\(lesson.slug).html#dr\(note.number)\""), "DR\(note.number) does not link back")
            }
        }
        #expect(count > 0)
    }

    /// Across the course, the verified outputs show every cause the classifier knows and both
    /// empty lists. (The build above passed `--strict`, so every output block is what its
    /// scenario printed.)
    @Test func theCourseShowsEveryCause() throws {
        _ = try site()
        let outputs = try lessons().flatMap { $0.scenarios.compactMap { $0.expected?.code } }.joined(separator: "\n")
        let lines = outputs.split(separator: "\n").filter { $0.contains(" degisti | yeniden ") }
        for cause in ["yerel", "ebeveyn", "gozlem", "ortam", "kural-disi", "olcum-disi"] {
            #expect(lines.contains { $0.split(separator: "|")[1].contains(" \(cause)") }, "no output shows \(cause)")
        }
        #expect(lines.contains { $0.contains("| yeniden yok |") }, "no output shows 'yeniden yok'")
        #expect(lines.contains { $0.hasSuffix("| atlanan yok") }, "no output shows 'atlanan yok'")
    }

    /// Chromium (headless) loads each page from disk; the DOM it built is queried with XPath.
    @Test func aRealBrowserBuildsTheExpectedDocument() throws {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let site = try site()
        let lessons = try lessons()
        let pages: [(String, Lesson?)] = [("index.html", nil)] + lessons.map { ($0.slug + ".html", $0) } + [("limitations.html", nil)]
        for page in pages {
            var watcher = CollectingWatcher(timeLimit: .seconds(120))
            let termination = try ChildProcess(
                executable: chromium,
                arguments: ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                            site.appendingPathComponent(page.0).absoluteString]
            ).run(watching: &watcher)
            #expect(termination.isSuccess, "chromium failed on \(page.0)")
            // Foundation's HTML reading does not know `<wbr>` is empty and would nest the rest of
            // the page in it.
            let html = String(decoding: watcher.standardOutput, as: UTF8.self).replacingOccurrences(of: "<wbr>", with: "<wbr/>")
            let dom = try XMLDocument(data: Data(html.utf8), options: [.documentTidyHTML])
            func count(_ xpath: String) throws -> Int { try dom.nodes(forXPath: xpath).count }
            func text(_ xpath: String) throws -> String { try dom.nodes(forXPath: xpath).first?.stringValue ?? "" }

            #expect(try text("//title").hasSuffix("SwiftUI’de Yeniden Hesaplama"), "\(page.0)")
            #expect(try text("/html/@lang") == "tr")
            #expect(try count("//nav[contains(@class,'sidebar')]//ol[@class='toc']/li") == lessons.count, "\(page.0)")
            guard let lesson = page.1 else { continue }
            #expect(try text("//nav[contains(@class,'sidebar')]//a[@aria-current='page']").contains(lesson.title ?? "-"))
            #expect(try count("//main//h1") == 1)
            #expect(try text("//main//h1") == lesson.title)
            // A scenario that must not compile shows its refusal instead of an output.
            let printing = lesson.scenarios.filter { !$0.isSkipped && $0.expectation.errors == nil }.count
            let refused = lesson.scenarios.filter { !$0.isSkipped && $0.expectation.errors != nil }.count
            #expect(try count("//main//figure[contains(@class,'scenario')]") == lesson.scenarios.count)
            // Each verified output stands in its scenario's figure, or, in an exercise, inside the
            // <details> that hides it until the reader has made a prediction.
            // (A trap's message stands in the same output, as its end.)
            let inFigures = try count("//main//figure[contains(@class,'scenario')]/div[contains(concat(' ', @class, ' '), ' verified ')]")
            let inExercises = try count("//main//details/div[contains(concat(' ', @class, ' '), ' verified ')]")
            #expect(inFigures + inExercises == printing, "\(page.0)")
            #expect(try count("//main//*[contains(concat(' ', @class, ' '), ' refusal ')]") == refused, "\(page.0)")
            #expect(try count("//main//aside[contains(@class,'limit')]") == lesson.notes.count)
            #expect(try count("//main//script") == 0)
        }
    }

    private func matches(of pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
