import CourseKit

/// A file of the site: its path inside the site folder and its bytes.
package struct SiteFile: Sendable, Equatable {
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// The pages of a checked course: an index, one page per lesson, the limitations page and the
/// assets. Pure: course, check report, templates and words in; files out. Every link is
/// relative and every page sits at the top of the site, so the site works from disk and under
/// any path.
package enum SitePages {
    package static let indexPage = "index.html"
    package static let limitationsPage = "limitations.html"
    package static let stylesheet = "assets/style.css"

    package static func pageName(_ lesson: Lesson) -> String { lesson.slug + ".html" }

    package static func render(course: Course, report: CheckReport, templates: TemplateSet,
                               words: SiteWords) -> [SiteFile] {
        let swiftVersion = report.swiftVersion
        var noteLesson: [Int: Int] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            for note in lesson.notes { noteLesson[note.number] = index }
        }

        // Each lesson's body, in course order (a core file is listed open only the first time).
        var bodies: [LessonBody] = []
        var coreShown: Set<String> = []
        let coreNames = course.coreFiles.map(\.name)
        for (index, lesson) in course.lessons.enumerated() {
            let results = Dictionary(report.results.filter { $0.lessonIndex == index }.map { ($0.scenario.line, $0) },
                                     uniquingKeysWith: { first, _ in first })
            let context = LessonBody.Context(
                words: words, swiftVersion: swiftVersion, results: results,
                coreFileNames: coreNames, coreShownBefore: coreShown,
                noteHref: { number in
                    guard let owner = noteLesson[number] else { return nil }
                    return owner == index ? "#dr\(number)" : "\(pageName(course.lessons[owner]))#dr\(number)"
                },
                limitationsHref: { "\(limitationsPage)#dr\($0)" })
            bodies.append(LessonBody(lesson, context: context))
            for block in lesson.codeBlocks {
                if case .coreListing(let name) = block.role {
                    coreShown.insert(name ?? (coreNames.count == 1 ? coreNames[0] : ""))
                }
            }
        }
        let verified = course.lessons.indices.map { index in
            report.results.filter { $0.lessonIndex == index && $0.status == .passed }.count
        }

        func common(current: Int?, isIndex: Bool = false, isLimitations: Bool = false) -> TemplateRecord {
            let nav: [TemplateRecord] = course.lessons.enumerated().map { index, lesson in
                [
                    "number": .text(String(index + 1)),
                    "title": .text(lesson.title ?? lesson.slug),
                    "href": .text(pageName(lesson)),
                    "current": .bool(index == current),
                    "sections": .list(index == current
                        ? bodies[index].sections.map { ["title": .text($0.title), "href": .text("#\($0.anchor)")] }
                        : []),
                ]
            }
            return [
                "lang": .text(course.config.language),
                "courseTitle": .text(course.config.title),
                "indexHref": .text(indexPage),
                "limitationsHref": .text(limitationsPage),
                "stylesheet": .text(stylesheet),
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
                "nav": .list(nav),
                "isIndex": .bool(isIndex),
                "isLimitations": .bool(isLimitations),
            ]
        }

        func page(_ title: String, _ values: TemplateRecord, content: String) -> [UInt8] {
            var layout = values
            layout["pageTitle"] = .text(title)
            layout["content"] = .html(content)
            return Array(templates.layout.render(layout).utf8)
        }

        var files: [SiteFile] = []

        // The index.
        var index = common(current: nil, isIndex: true)
        index["lessons"] = .list(course.lessons.enumerated().map { number, lesson in
            [
                "number": .text(String(number + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(pageName(lesson)),
                "introduction": .html(bodies[number].introduction),
                "scenarioCount": .text(words.scenarioCount(verified[number])),
                "noteCount": .text(words.noteCount(lesson.notes.count)),
            ]
        })
        index["scenarioTotal"] = .text(words.scenarioCount(verified.reduce(0, +)))
        index["noteTotal"] = .text(words.noteCount(course.lessons.map(\.notes.count).reduce(0, +)))
        files.append(SiteFile(path: indexPage, bytes: page(course.config.title, index,
                                                             content: templates.index.render(index))))

        // The lessons.
        for (number, lesson) in course.lessons.enumerated() {
            var values = common(current: number)
            let title = lesson.title ?? lesson.slug
            func link(_ other: Int) -> TemplateValue {
                guard course.lessons.indices.contains(other) else { return .record(["title": .text(""), "href": .text("")]) }
                let target = course.lessons[other]
                return .record(["title": .text(target.title ?? target.slug), "href": .text(pageName(target))])
            }
            values["lesson"] = .record([
                "number": .text(String(number + 1)),
                "title": .text(title),
                "body": .html(bodies[number].html),
                "sections": .list(bodies[number].sections.map { ["title": .text($0.title), "href": .text("#\($0.anchor)")] }),
                "scenarioCount": .text(words.scenarioCount(verified[number])),
            ])
            values["previous"] = link(number - 1)
            values["next"] = link(number + 1)
            files.append(SiteFile(path: pageName(lesson), bytes: page("\(title) · \(course.config.title)", values,
                                                                   content: templates.lesson.render(values))))
        }

        // The limitations page: every note, by lesson, each linking back to its place.
        var limitations = common(current: nil, isLimitations: true)
        limitations["groups"] = .list(course.lessons.enumerated().compactMap { number, lesson in
            guard !lesson.notes.isEmpty else { return nil }
            let rendered = noteBodies(lesson, href: { noteLesson[$0] == nil ? nil : "#dr\($0)" })
            return [
                "number": .text(String(number + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(pageName(lesson)),
                "notes": .list(lesson.notes.map { note in
                    [
                        "label": .text(note.label),
                        "id": .text("dr\(note.number)"),
                        "href": .text("\(pageName(lesson))#dr\(note.number)"),
                        "body": .html(rendered[note.number] ?? escapeHTML(note.text)),
                    ]
                }),
            ]
        })
        files.append(SiteFile(path: limitationsPage, bytes: page("\(words.limitations) · \(course.config.title)", limitations,
                                                                  content: templates.limitations.render(limitations))))

        for (name, bytes) in templates.assets.sorted(by: { $0.key < $1.key }) {
            files.append(SiteFile(path: "assets/\(name)", bytes: bytes))
        }
        return files
    }

    /// The notes of a lesson rendered for another page, with mentions linked by `href`.
    static func noteBodies(_ lesson: Lesson, href: (Int) -> String?) -> [Int: String] {
        var bodies: [Int: String] = [:]
        for block in LessonMarkdown.render(String(decoding: lesson.source.bytes, as: UTF8.self), mentionHref: href) {
            if case let .limitNote(number, innerHTML, _) = block { bodies[number] = innerHTML }
        }
        return bodies
    }
}
