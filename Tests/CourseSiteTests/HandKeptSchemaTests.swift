@testable import CourseSite
import Testing

/// The names each page template may use. The manual's template reference (docs/site.md) lists the same.
enum HandKeptSchema {
    static let words = TemplateSchema.Kind.record(TemplateSchema([
        "contents": .text, "lessons": .text, "lesson": .text, "onThisPage": .text,
        "previous": .text, "next": .text, "home": .text, "limitations": .text,
        "limitationsIntro": .text, "allLimitations": .text, "backToLesson": .text,
        "skipToContent": .text, "footer": .text, "start": .text,
        "aboutNotesTitle": .text, "aboutNotes": .text, "notesByLesson": .text, "inSection": .text,
        "search": .text, "searchPlaceholder": .text, "searchButton": .text, "searchResults": .text,
        "searchNothing": .text, "searchNeedsScript": .text, "searchNeedsServer": .text,
        "searchClose": .text, "backToTop": .text,
        "wholeCourse": .text, "wholeCourseLink": .text,
    ]))

    static let link = TemplateSchema(["title": .text, "href": .text])

    /// A page map's entry: a section (or a lesson) and the limitation notes in it.
    static let mapEntry = TemplateSchema([
        "title": .text, "href": .text, "notes": .list(TemplateSchema(["label": .text, "href": .text])),
    ])

    /// Every page template sees these.
    static let common: [String: TemplateSchema.Kind] = [
        "lang": .text,
        "courseTitle": .text,
        "indexHref": .text,
        "limitationsHref": .text,
        "aboutNotesHref": .text,
        "printHref": .text,
        "searchHref": .text,
        "stylesheet": .text,
        "stylesheets": .list(TemplateSchema(["href": .text])),
        "searchScript": .text,
        "favicon": .text,
        "swiftVersion": .text,
        "words": words,
        "nav": .list(TemplateSchema([
            "number": .text, "label": .text, "numbered": .bool, "title": .text, "href": .text, "current": .bool,
            "sections": .list(mapEntry),
        ])),
        "pageMap": .list(mapEntry),
        "isIndex": .bool,
        "isLimitations": .bool,
        "isPrint": .bool,
        "isSearch": .bool,
    ]

    static let layout = TemplateSchema(common.merging([
        "pageTitle": .text,
        "pageDescription": .text,
        "content": .html,
    ]) { $1 })

    static let index = TemplateSchema(common.merging([
        "lessons": .list(TemplateSchema([
            "number": .text, "label": .text, "numbered": .bool, "title": .text, "href": .text,
            "introduction": .html, "summary": .html,
            "scenarioCount": .text, "noteCount": .text,
        ])),
        "description": .text,
        "start": .record(link),
        "scenarioTotal": .text,
        "noteTotal": .text,
    ]) { $1 })

    static let lesson = TemplateSchema(common.merging([
        "lesson": .record(TemplateSchema([
            "number": .text, "label": .text, "numbered": .bool, "title": .text, "body": .html,
            "sections": .list(mapEntry),
            "scenarioCount": .text,
        ])),
        "previous": .record(link),
        "next": .record(link),
    ]) { $1 })

    static let limitations = TemplateSchema(common.merging([
        "groups": .list(TemplateSchema([
            "number": .text, "title": .text, "href": .text, "anchor": .text, "range": .text,
            "notes": .list(TemplateSchema([
                "label": .text, "id": .text, "href": .text, "body": .html,
                "section": .text, "sectionHref": .text,
            ])),
        ])),
    ]) { $1 })

    static let print = TemplateSchema(common.merging([
        "description": .text,
        "lessons": .list(TemplateSchema([
            "number": .text, "label": .text, "numbered": .bool, "title": .text, "id": .text,
            "body": .html, "scenarioCount": .text,
        ])),
    ]) { $1 })

    static let search = TemplateSchema(common)
}

struct HandKeptSchemaTests {
    @Test func theDerivedSchemaIsTheHandKeptOne() {
        #expect(SiteSchema.layout == HandKeptSchema.layout)
        #expect(SiteSchema.index == HandKeptSchema.index)
        #expect(SiteSchema.lesson == HandKeptSchema.lesson)
        #expect(SiteSchema.limitations == HandKeptSchema.limitations)
        #expect(SiteSchema.print == HandKeptSchema.print)
        #expect(SiteSchema.search == HandKeptSchema.search)
    }
}
