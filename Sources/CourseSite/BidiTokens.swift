import CourseModel

/// Bidirectional controls shown on the page as what they are, never as themselves (as GitHub
/// shows them in a diff): a highlighted token naming the code point,
/// `<mark class="bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">U+202E</mark>`, so that a reader
/// of the site sees the character the compiler sees and no line of code or prose is reordered.
/// Embeddings, overrides and isolates are shown so everywhere; marks (U+200E, U+200F, U+061C),
/// which right-to-left prose needs, only inside `<pre>` (code and outputs).
enum BidiTokens {
    /// HTML that the site made (a lesson's body, a note): every control in text becomes a
    /// token; one inside a tag (an attribute's value) becomes the plain text `U+202E`.
    static func inHTML(_ html: String) -> String {
        guard BidiControl.mayOccur(in: html) else { return html }
        var shown = String.UnicodeScalarView()
        var inTag = false
        // The first characters of the tag being read, enough to tell `<pre ...>` and `</pre>`.
        var tagStart = ""
        var preDepth = 0
        for scalar in html.unicodeScalars {
            if inTag {
                if scalar == ">" {
                    inTag = false
                    let name = tagStart.lowercased()
                    if name == "pre" || name.hasPrefix("pre ") {
                        preDepth += 1
                    } else if name == "/pre" || name.hasPrefix("/pre ") {
                        preDepth = max(0, preDepth - 1)
                    }
                } else if tagStart.unicodeScalars.count < 5 {
                    tagStart.unicodeScalars.append(scalar)
                }
            } else if scalar == "<" {
                inTag = true
                tagStart = ""
            }
            guard BidiControl.isFormatting(scalar) || (BidiControl.isMark(scalar) && preDepth > 0) else {
                shown.append(scalar)
                continue
            }
            if inTag {
                shown.append(contentsOf: codePointName(scalar).unicodeScalars)
            } else {
                shown.append(contentsOf: "<mark class=\"bidi\" title=\"\(BidiControl.describe(scalar))\">\(codePointName(scalar))</mark>".unicodeScalars)
            }
        }
        return String(shown)
    }

    /// Text that a template puts into a page (a title, a heading in the page map): every
    /// embedding, override or isolate as the text `<U+202E>`, escaped with the rest.
    static func inText(_ text: String) -> String {
        guard BidiControl.mayOccur(in: text) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if BidiControl.isFormatting(scalar) {
                shown.append(contentsOf: codePointToken(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}
