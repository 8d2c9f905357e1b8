import ChangeDiagrams
import CourseModel
import Foundation
import LessonParsing
import Processes
import ScenarioRunning
import Testing

/// The change diagrams of the repository's own course: every change line of every verified
/// output is drawn, legibly on a phone and on a wide screen, with its text alternative.
@Suite(.serialized) struct CourseDiagramsTests {
    func site() throws -> URL { try PublishedSiteTests.built.get() }

    func lessons() throws -> [Lesson] {
        try CourseLoader.load(folder: PublishedSiteTests.course.path).course.lessons
    }

    /// The change lines a lesson's scenarios print, as its `output` blocks say (the check
    /// makes sure they are what the scenarios printed).
    func changeLines(_ lesson: Lesson) -> Int {
        // A program that must trap is drawn no diagrams (its run ends in the trap): only the
        // outputs of programs that end.
        lesson.scenarios.filter { !$0.isSkipped && $0.expectation.kind == .output }
            .map { MeasuredChange.all(in: $0.expected?.code ?? "").count }.reduce(0, +)
    }

    @Test func everyChangeLineOfTheCourseIsDrawn() throws {
        let check = try coursebook(["check", PublishedSiteTests.course.path])
        #expect(check.status == 0 && !check.standardError.contains("note:"), "\(check)")
        var total = 0
        for lesson in try lessons() {
            #expect(lesson.scenarios.allSatisfy { $0.drawsDiagrams }, "\(lesson.fileName) turns a scenario's diagrams off")
            let page = try String(contentsOf: site().appendingPathComponent(lesson.slug + ".html"), encoding: .utf8)
            // A picture that stands for several identical changes in a row says how many (×3).
            let pictures = page.components(separatedBy: "<figure class=\"diagram").count - 1
            let repeated = page.components(separatedBy: "<span class=\"repeat\">×").dropFirst()
                .compactMap { Int($0.prefix { $0.isNumber }) }.map { $0 - 1 }.reduce(0, +)
            let drawn = pictures + repeated
            #expect(drawn == changeLines(lesson), "\(lesson.fileName): \(drawn) diagrams for \(changeLines(lesson)) change lines")
            total += drawn
        }
        #expect(total > 40)
    }

    /// At 360 px no diagram scrolls sideways or shrinks below 80 %; a wide tree shows its
    /// outline there, and on a wide screen only a row too wide for two tidy drawings does.
    @Test func diagramsAreLegibleOnAPhoneAndAWideScreen() throws {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let browser = try Browser(chromium)
        var outlines = 0
        for lesson in try lessons() where changeLines(lesson) > 0 {
            try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
            for (width, mobile) in [(360, true), (1440, false)] {
                try browser.setViewport(width: width, mobile: mobile)
                let measured = try browser.evaluate("""
                    (() => {
                      // An exercise's answer (and its diagrams) opens when the reader asks.
                      document.querySelectorAll('details').forEach((details) => { details.open = true; });
                      const shown = [...document.querySelectorAll('.diagram svg')].filter((svg) => svg.getBoundingClientRect().width > 0);
                      const scrolling = [...document.querySelectorAll('.diagram-frame')].filter((frame) => frame.scrollWidth > frame.clientWidth + 1);
                      const small = shown.filter((svg) => svg.getBoundingClientRect().width < 0.8 * parseFloat(svg.getAttribute('width')) - 0.5);
                      const outlines = shown.filter((svg) => svg.classList.contains('outline-view') && (innerWidth < 600 || !svg.closest('[data-pair]')));
                      const figures = document.querySelectorAll('figure.diagram').length;
                      return [figures, shown.length, scrolling.length, small.length, outlines.length];
                    })()
                    """) as? [Int] ?? []
                #expect(measured.count == 5, "\(lesson.fileName)")
                guard measured.count == 5 else { continue }
                #expect(measured[1] == measured[0], "\(lesson.fileName) at \(width) px: \(measured[1]) pictures shown for \(measured[0]) diagrams")
                #expect(measured[2] == 0, "\(lesson.fileName) at \(width) px: \(measured[2]) diagrams scroll sideways")
                #expect(measured[3] == 0, "\(lesson.fileName) at \(width) px: \(measured[3]) diagrams shrink below 80 %")
                if mobile { outlines += measured[4] } else { #expect(measured[4] == 0, "\(lesson.fileName): an outline on a wide screen") }
            }
        }
        #expect(outlines > 0, "no tree of the course is wide enough for an outline: the phone measure measured nothing")
    }

    /// A screen reader gets each picture as one image whose name says what changed, what
    /// recomputed and why, and what was skipped.
    @Test func eachPictureIsAnImageWithItsWords() throws {
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return
        }
        let browser = try Browser(chromium)
        let lesson = try lessons()[0]
        try browser.open(try site().appendingPathComponent(lesson.slug + ".html"))
        try browser.setViewport(width: 1440)
        // The exercise's answer is hidden (and so are its pictures) until the reader opens it.
        let closed = try browser.accessibilityNodes().filter { $0.role == "image" && $0.name.contains(" değişti (") }.count
        #expect(closed < changeLines(lesson))
        _ = try browser.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })")
        let images = try browser.accessibilityNodes().filter { $0.role == "image" && $0.name.contains(" değişti (") }.map(\.name)
        let pictures = try browser.evaluate("document.querySelectorAll('figure.diagram').length") as? Int
        #expect(images.count == pictures, "\(images)")
        #expect(images.first == "3 kez: sonraki, sonraki, onceki: pageIndex değişti (@State, sahibi ReaderScreen). Yeniden hesaplanan: ReaderScreen (yerel). Atlanan: ReaderRoot, ReaderToolbar, ChapterHeader. Ağaç: ReaderRoot altında ReaderToolbar, ReaderScreen; ReaderScreen altında ChapterHeader.")
    }
}
