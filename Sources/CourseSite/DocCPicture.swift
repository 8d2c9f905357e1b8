import CourseModel
import Foundation
import HTMLText
import LessonParsing

/// How a page shows an image named the DocC way: the light variant in an `<img>` (every scale
/// in its `srcset`, its size in CSS pixels from the file's pixels and scale, so that a `@2x`
/// file alone is not shown twice as large), inside a `<picture>` whose source for a dark screen
/// is the `~dark` variant when there is one. Printed, the light one.
enum DocCPicture {
    static func html(_ image: DocCImage, alt: String) -> String? {
        let light = image.variants(dark: false), dark = image.variants(dark: true)
        // An image with only a dark variant shows it everywhere.
        let shown = light.isEmpty ? dark : light
        guard let main = shown.first(where: { $0.scale == 1 }) ?? shown.first else { return nil }
        var img = "<img src=\"\(escapeHTML(href(main.path)))\""
        if shown.count > 1 || main.scale != 1 { img += " srcset=\"\(srcset(shown))\"" }
        if let size = main.pixelSize {
            img += " width=\"\(max(1, size.width / main.scale))\" height=\"\(max(1, size.height / main.scale))\""
        }
        img += " alt=\"\(escapeHTML(alt))\">"
        guard !light.isEmpty, !dark.isEmpty else { return img }
        return "<picture><source media=\"screen and (prefers-color-scheme: dark)\" srcset=\"\(srcset(dark))\">\(img)</picture>"
    }

    /// `a.png 1x, a@2x.png 2x`.
    private static func srcset(_ variants: [DocCImage.Variant]) -> String {
        escapeHTML(variants.map { "\(href($0.path)) \($0.scale)x" }.joined(separator: ", "))
    }

    /// A path inside the site as a link writes it: what a URL path cannot hold percent-encoded,
    /// and the comma too, which would split a `srcset`.
    static func href(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(",")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

extension CourseReferences {
    /// What the pages of `course` make of lesson `from`'s `doc:` links and DocC images: a link
    /// to a lesson goes to its page and shows its title; to a heading, to the heading's anchor
    /// (`anchors`, every lesson's, by `AnchorNamer.headingAnchors`) and shows the heading's
    /// words; an image is shown from the files the course has for it.
    static func site(_ course: Course, anchors: [[String?]], docLinks: DocLinks, from: Int) -> CourseReferences {
        CourseReferences(
            docLink: { name, fragment in
                switch docLinks.resolve(name: name, fragment: fragment, from: from) {
                case .lesson(let index):
                    let lesson = course.lessons[index]
                    return DocTarget(href: SitePages.pageHref(lesson), title: lesson.title ?? lesson.slug)
                case let .heading(index, heading):
                    let lesson = course.lessons[index]
                    let anchor = anchors[index].indices.contains(heading) ? anchors[index][heading] : nil
                    // The title has no anchor: a link to it goes to the top of the page.
                    return DocTarget(href: SitePages.pageHref(lesson) + (anchor.map { "#" + $0 } ?? ""),
                                     title: lesson.headings[heading].text)
                case .noLesson, .noHeading:
                    return nil
                }
            },
            image: { name, alt in course.doccImages[name].flatMap { DocCPicture.html($0, alt: alt) } })
    }
}
