import CourseModel
import Foundation

/// Stable anchors for headings: Turkish letters and other accents folded to ASCII, lowercase,
/// words joined by `-` (`Sınırlayıcı Ölçüm` is `sinirlayici-olcum`), unique within a page.
package struct AnchorNamer: Sendable {
    private var used: Set<String>

    /// `reserved` anchors (`dr3` ...) are never given to a heading.
    package init(reserved: Set<String> = []) {
        used = reserved
    }

    /// A new anchor for `text`: its slug, or the slug with `-2`, `-3` ... when taken.
    package mutating func anchor(for text: String) -> String {
        let base = Self.slug(text)
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// The slug of a heading (`foldedSlug`), `bolum` when it has no letter or digit.
    package static func slug(_ text: String) -> String {
        let slug = foldedSlug(text)
        return slug.isEmpty ? "bolum" : slug
    }
}

extension AnchorNamer {
    /// The anchors of a lesson's headings on its page, in the order of `lesson.headings`: nil
    /// for the title (the page's own `<h1>`). They never take the ids of the lesson's notes and
    /// their labels, of its footnotes (`footnoteLabels`), of the layout's main element, or the
    /// `reserving` ones (the glossary's terms on its page); a `doc:` link from another lesson
    /// names a heading by the anchor given here.
    package static func headingAnchors(of lesson: Lesson, footnoteLabels: [String],
                                       reserving extra: Set<String> = []) -> [String?] {
        var reserved = Set(lesson.notes.flatMap { ["dr\($0.number)", "dr\($0.number)-label"] } + ["main", "footnotes"])
        reserved.formUnion(extra)
        for label in footnoteLabels {
            reserved.insert("fn-\(label)")
            reserved.formUnion((1...9).map { $0 == 1 ? "fnref-\(label)" : "fnref-\(label)-\($0)" })
        }
        var namer = AnchorNamer(reserved: reserved)
        var sawTitle = false
        return lesson.headings.map { heading in
            if heading.level == 1, !sawTitle {
                sawTitle = true
                return nil
            }
            return namer.anchor(for: heading.text)
        }
    }
}
