import CourseModel
import Foundation
import LessonParsing
import Synchronization

/// A file of the site: its path inside the site folder and its bytes.
package struct SiteFile: Sendable, Equatable {
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Where rendered files go as soon as they are made, so that a large site is never held whole
/// in memory: the writer's staging folder, or a collection in tests. Called from several
/// threads at once.
package protocol SiteSink: Sendable {
    func add(_ file: SiteFile) throws(SiteWriteError)
}

/// A sink that keeps the files, in the order they are added.
package final class CollectingSink: SiteSink {
    private let collected = Mutex<[SiteFile]>([])

    package init() {}

    package func add(_ file: SiteFile) throws(SiteWriteError) {
        collected.withLock { $0.append(file) }
    }

    /// The files by path, sorted.
    package var files: [SiteFile] { collected.withLock { $0 }.sorted { $0.path < $1.path } }
}

/// What the pages are made from: the checked course, each lesson's parsed document, what the
/// Swift parser learned of each block, the templates and the words.
package struct SiteInput: Sendable {
    package var course: Course
    package var documents: [LessonDocument]
    package var report: CheckReport
    /// What the Swift parser learned of each block: its highlighted HTML comes from here.
    package var facts: CourseFacts
    package var templates: TemplateSet
    package var words: SiteWords

    package init(course: Course, documents: [LessonDocument], report: CheckReport,
                 facts: CourseFacts, templates: TemplateSet, words: SiteWords) {
        self.course = course
        self.documents = documents
        self.report = report
        self.facts = facts
        self.templates = templates
        self.words = words
    }
}

/// The pages of a checked course: an index, one page per lesson, the limitations page and the
/// assets. Course, report, templates and words in; files out, rendered on every core and handed
/// to a sink one by one. Every link is relative and every page sits at the top of the site, so
/// the site works from disk and under any path.
package enum SitePages {
    package static let indexPage = "index.html"
    package static let limitationsPage = "limitations.html"
    package static let stylesheet = "assets/style.css"

    package static func pageName(_ lesson: Lesson) -> String { Lesson.pageName(ofFile: lesson.fileName) }

    /// How a link names a lesson's page (percent-encoded).
    package static func pageHref(_ lesson: Lesson) -> String { Lesson.pageHref(ofFile: lesson.fileName) }

    /// Renders every file into `sink`; returns how many pages and assets it made.
    @discardableResult
    package static func render(_ input: SiteInput, into sink: any SiteSink) throws(SiteWriteError) -> (pages: Int, assets: Int) {
        let course = input.course, report = input.report, words = input.words, templates = input.templates
        let swiftVersion = report.swiftVersion
        var notesByLesson: [Int: Int] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            for note in lesson.notes { notesByLesson[note.number] = index }
        }
        let noteLesson = notesByLesson
        let coreNames = course.coreFiles.map(\.name)
        let facts = input.facts

        // A core file is listed open only the first time the course shows it.
        var shownBefore: [Set<String>] = []
        var coreShown: Set<String> = []
        for lesson in course.lessons {
            shownBefore.append(coreShown)
            for block in lesson.codeBlocks {
                if case .coreListing(let name) = block.role {
                    coreShown.insert(name ?? (coreNames.count == 1 ? coreNames[0] : ""))
                }
            }
        }

        let coreShownBefore = shownBefore

        // Each lesson's body and its notes as the limitations page shows them, on every core.
        let lessonIndices = Array(course.lessons.indices)
        let rendered = lessonIndices.concurrentMap { index -> (body: LessonBody, notes: [Int: String]) in
            let lesson = course.lessons[index]
            let context = LessonBody.Context(
                words: words, swiftVersion: swiftVersion, results: report.results(ofLesson: index),
                highlighted: { block in facts[index, block.id]?.highlighted ?? escapeHTML(block.code) },
                coreFileNames: coreNames, coreShownBefore: coreShownBefore[index],
                noteHref: { number in
                    guard let owner = noteLesson[number] else { return nil }
                    return owner == index ? "#dr\(number)" : "\(pageHref(course.lessons[owner]))#dr\(number)"
                },
                limitationsHref: { "\(limitationsPage)#dr\($0)" })
            let body = LessonBody(lesson, document: input.documents[index], context: context)
            // On the limitations page every note is on the same page; a footnote a note cites
            // stays on its lesson's page.
            let notes = lesson.notes.isEmpty ? [:]
                : input.documents[index].renderNotes(mentionHref: { noteLesson[$0] == nil ? nil : "#dr\($0)" })
                    .mapValues { footnotesPointing(to: pageHref(lesson), in: $0) }
            return (body, notes)
        }
        var passed = [Int](repeating: 0, count: course.lessons.count)
        for result in report.results where result.status == .passed { passed[result.lessonIndex] += 1 }
        let verified = passed

        let common = CommonValues(course: course, words: words, swiftVersion: swiftVersion,
                                  sections: rendered.map(\.body.sections))
        @Sendable func page(_ title: String, _ values: TemplateRecord, content: String) -> SiteFile {
            var layout = values
            layout["pageTitle"] = .text(title)
            layout["content"] = .html(content)
            return SiteFile(path: "", bytes: Array(templates.layout.render(layout).utf8))
        }

        // The index.
        var index = common.values(current: nil, isIndex: true)
        index["lessons"] = .list(course.lessons.enumerated().map { number, lesson in
            [
                "number": .text(String(number + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(pageHref(lesson)),
                "introduction": .html(rendered[number].body.introduction),
                // A page with no scenario (a glossary) or no note says nothing of them.
                "scenarioCount": .text(lesson.scenarios.isEmpty ? "" : words.scenarioCount(verified[number])),
                "noteCount": .text(lesson.notes.isEmpty ? "" : words.noteCount(lesson.notes.count)),
            ]
        })
        index["scenarioTotal"] = .text(words.scenarioCount(verified.reduce(0, +)))
        index["noteTotal"] = .text(words.noteCount(course.lessons.map(\.notes.count).reduce(0, +)))
        var indexFile = page(course.config.title, index, content: templates.index.render(index))
        indexFile.path = indexPage
        try sink.add(indexFile)

        // The lessons, on every core, each handed to the sink as soon as it is made.
        let failures = lessonIndices.concurrentMap { number -> SiteWriteError? in
            let lesson = course.lessons[number]
            var values = common.values(current: number)
            let title = lesson.title ?? lesson.slug
            func link(_ other: Int) -> TemplateValue {
                guard course.lessons.indices.contains(other) else { return .record(["title": .text(""), "href": .text("")]) }
                let target = course.lessons[other]
                return .record(["title": .text(target.title ?? target.slug), "href": .text(pageHref(target))])
            }
            let body = rendered[number].body
            values["lesson"] = .record([
                "number": .text(String(number + 1)),
                "title": .text(title),
                "body": .html(body.html),
                "sections": .list(body.sections.map { ["title": .text($0.title), "href": .text("#\($0.anchor)")] }),
                "scenarioCount": .text(lesson.scenarios.isEmpty ? "" : words.scenarioCount(verified[number])),
            ])
            values["previous"] = link(number - 1)
            values["next"] = link(number + 1)
            var file = page("\(title) · \(course.config.title)", values, content: templates.lesson.render(values))
            file.path = pageName(lesson)
            do throws(SiteWriteError) {
                try sink.add(file)
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }

        // The limitations page: every note, by lesson, each linking back to its place.
        var limitations = common.values(current: nil, isLimitations: true)
        limitations["groups"] = .list(course.lessons.enumerated().compactMap { number, lesson in
            guard !lesson.notes.isEmpty else { return nil }
            let bodies = rendered[number].notes
            return [
                "number": .text(String(number + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(pageHref(lesson)),
                "notes": .list(lesson.notes.map { note in
                    [
                        "label": .text(note.label),
                        "id": .text("dr\(note.number)"),
                        "href": .text("\(pageHref(lesson))#dr\(note.number)"),
                        "body": .html(bodies[note.number] ?? escapeHTML(note.text)),
                    ]
                }),
            ]
        })
        var limitationsFile = page("\(words.limitations) · \(course.config.title)", limitations,
                                   content: templates.limitations.render(limitations))
        limitationsFile.path = limitationsPage
        try sink.add(limitationsFile)

        for (name, bytes) in templates.assets.sorted(by: { $0.key < $1.key }) {
            try sink.add(SiteFile(path: "assets/\(name)", bytes: bytes))
        }
        return (course.lessons.count + 2, templates.assets.count)
    }

    /// Every file of the site, collected: for tests and small courses.
    package static func files(_ input: SiteInput) throws(SiteWriteError) -> [SiteFile] {
        let sink = CollectingSink()
        try render(input, into: sink)
        return sink.files
    }
}

/// A note's HTML for another page: its footnote references link to the footnotes on the
/// lesson's page and lose their ids, which belong to that page.
func footnotesPointing(to page: String, in html: String) -> String {
    guard html.contains("data-footnote-ref") else { return html }
    var result = html.replacingOccurrences(of: "href=\"#fn-", with: "href=\"\(page)#fn-")
    while let start = result.range(of: " id=\"fnref-") {
        guard let end = result[start.upperBound...].firstIndex(of: "\"") else { break }
        result.removeSubrange(start.lowerBound...end)
    }
    return result
}

/// The values every page template sees. The navigation lists every lesson on every page; its
/// entries are made once and only the current one differs from page to page.
private struct CommonValues: Sendable {
    var shared: TemplateRecord
    var navEntries: [TemplateRecord]
    var sections: [[LessonBody.Section]]

    init(course: Course, words: SiteWords, swiftVersion: String, sections: [[LessonBody.Section]]) {
        self.sections = sections
        navEntries = course.lessons.enumerated().map { index, lesson in
            [
                "number": .text(String(index + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(SitePages.pageHref(lesson)),
                "current": .bool(false),
                "sections": .list([]),
            ]
        }
        shared = [
            "lang": .text(course.config.language),
            "courseTitle": .text(course.config.title),
            "indexHref": .text(SitePages.indexPage),
            "limitationsHref": .text(SitePages.limitationsPage),
            "stylesheet": .text(SitePages.stylesheet),
            "swiftVersion": .text(swiftVersion),
            "words": .record([
                "contents": .text(words.contents), "lessons": .text(words.lessons),
                "lesson": .text(words.lesson), "onThisPage": .text(words.onThisPage),
                "previous": .text(words.previous), "next": .text(words.next),
                "home": .text(words.home), "limitations": .text(words.limitations),
                "limitationsIntro": .text(words.limitationsIntro),
                "allLimitations": .text(words.allLimitations),
                "backToLesson": .text(words.backToLesson),
                "skipToContent": .text(words.skipToContent),
                "footer": .text(words.footer(swiftVersion)),
            ]),
        ]
    }

    func values(current: Int?, isIndex: Bool = false, isLimitations: Bool = false) -> TemplateRecord {
        var nav = navEntries
        if let current {
            nav[current]["current"] = .bool(true)
            nav[current]["sections"] = .list(sections[current].map { ["title": .text($0.title), "href": .text("#\($0.anchor)")] })
        }
        var values = shared
        values["nav"] = .list(nav)
        values["isIndex"] = .bool(isIndex)
        values["isLimitations"] = .bool(isLimitations)
        return values
    }
}
