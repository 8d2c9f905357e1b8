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

    package static func slug(_ text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in text.unicodeScalars {
            for folded in fold(scalar) {
                if folded.isASCII, folded.properties.isAlphabetic || ("0"..."9").contains(folded) {
                    if pendingDash, !slug.isEmpty { slug += "-" }
                    pendingDash = false
                    slug.unicodeScalars.append(contentsOf: String(folded).lowercased().unicodeScalars)
                } else if !folded.properties.isDiacritic, folded.properties.generalCategory != .nonspacingMark {
                    pendingDash = true
                }
            }
        }
        return slug.isEmpty ? "bolum" : slug
    }

    /// A letter without its accents: the letters of Turkish by hand (ı and İ have no
    /// decomposition that gives i), the rest by canonical decomposition.
    private static func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        switch scalar {
        case "ı", "İ": return ["i"]
        case "ğ", "Ğ": return ["g"]
        case "ş", "Ş": return ["s"]
        case "ç", "Ç": return ["c"]
        case "ö", "Ö": return ["o"]
        case "ü", "Ü": return ["u"]
        case "ß": return ["s", "s"]
        case "æ", "Æ": return ["a", "e"]
        case "ø", "Ø": return ["o"]
        default:
            return String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { $0.properties.generalCategory != .nonspacingMark }
        }
    }
}
