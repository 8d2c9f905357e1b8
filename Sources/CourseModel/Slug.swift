import Foundation

/// Text folded into a name for a URL or a file: Turkish letters and other accents folded to
/// ASCII, lower case, words joined by `-` (`Sınırlayıcı Ölçüm` is `sinirlayici-olcum`). Empty
/// when the text holds no letter or digit; the caller picks what stands in for it. Heading
/// anchors on pages and the file names of new lessons are made with it.
package func foldedSlug(_ text: String) -> String {
    var slug = ""
    var pendingDash = false
    func add(_ folded: Unicode.Scalar) {
        if folded.isASCII, folded.properties.isAlphabetic || ("0"..."9").contains(folded) {
            if pendingDash, !slug.isEmpty { slug += "-" }
            pendingDash = false
            slug.unicodeScalars.append(("A"..."Z").contains(folded) ? Unicode.Scalar(folded.value + 32)! : folded)
        } else if !folded.properties.isDiacritic, folded.properties.generalCategory != .nonspacingMark {
            pendingDash = true
        }
    }
    for scalar in text.unicodeScalars {
        // ASCII has no decomposition, and most of a heading is ASCII: Foundation's mapping
        // would cost a string of its own per letter.
        if scalar.isASCII {
            add(scalar)
        } else {
            for folded in foldedLetter(scalar) { add(folded) }
        }
    }
    return slug
}

/// A letter without its accents: the letters of Turkish by hand (ı and İ have no
/// decomposition that gives i), the rest by canonical decomposition.
private func foldedLetter(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
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
