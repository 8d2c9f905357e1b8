/// The names each page template may use. The README's template reference lists the same.
package enum SiteSchema {
    static let words = TemplateSchema.Kind.record(TemplateSchema([
        "contents": .text, "lessons": .text, "lesson": .text, "onThisPage": .text,
        "previous": .text, "next": .text, "home": .text, "limitations": .text,
        "limitationsIntro": .text, "allLimitations": .text, "backToLesson": .text,
        "skipToContent": .text, "footer": .text,
    ]))

    static let link = TemplateSchema(["title": .text, "href": .text])

    /// Every page template sees these.
    static let common: [String: TemplateSchema.Kind] = [
        "lang": .text,
        "courseTitle": .text,
        "indexHref": .text,
        "limitationsHref": .text,
        "stylesheet": .text,
        "swiftVersion": .text,
        "words": words,
        "nav": .list(TemplateSchema([
            "number": .text, "title": .text, "href": .text, "current": .bool,
            "sections": .list(link),
        ])),
        "isIndex": .bool,
        "isLimitations": .bool,
    ]

    package static let layout = TemplateSchema(common.merging([
        "pageTitle": .text,
        "content": .html,
    ]) { $1 })

    package static let index = TemplateSchema(common.merging([
        "lessons": .list(TemplateSchema([
            "number": .text, "title": .text, "href": .text, "introduction": .html,
            "scenarioCount": .text, "noteCount": .text,
        ])),
        "scenarioTotal": .text,
        "noteTotal": .text,
    ]) { $1 })

    package static let lesson = TemplateSchema(common.merging([
        "lesson": .record(TemplateSchema([
            "number": .text, "title": .text, "body": .html, "sections": .list(link),
            "scenarioCount": .text,
        ])),
        "previous": .record(link),
        "next": .record(link),
    ]) { $1 })

    package static let limitations = TemplateSchema(common.merging([
        "groups": .list(TemplateSchema([
            "number": .text, "title": .text, "href": .text,
            "notes": .list(TemplateSchema(["label": .text, "id": .text, "href": .text, "body": .html])),
        ])),
    ]) { $1 })
}
