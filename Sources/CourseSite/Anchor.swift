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
