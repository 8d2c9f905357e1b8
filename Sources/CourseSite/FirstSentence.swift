/// The first sentence of a rendered paragraph (`<p>...</p>` as cmark-gfm writes it), as HTML
/// with every tag it opened closed again: what the index shows of a lesson.
///
/// A sentence ends at `.`, `!`, `?` or `…` outside code, followed by a space or a line end and
/// then by something that is not a lower-case letter or a digit (`1. ders`, `vb. gibi` go on);
/// closing quotes and brackets right after the mark belong to the sentence. A full stop right
/// after a digit (`6. ders`) ends nothing. A paragraph with no such end is a sentence whole.
func firstSentence(ofHTML html: String) -> String {
    let characters = Array(html)
    var open: [String] = []
    var inCode = 0
    var index = 0
    var previousText: Character = " "
    while index < characters.count {
        let character = characters[index]
        if character == "<" {
            // A tag: note what it opens and closes (cmark-gfm writes no `<` inside attributes).
            guard let end = characters[index...].firstIndex(of: ">") else { break }
            let tag = String(characters[(index + 1)..<end])
            let name = String(tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }).lowercased()
            let isVoid = ["br", "img", "input", "hr", "wbr"].contains(name) || tag.hasSuffix("/")
            if tag.hasPrefix("/") {
                if let last = open.lastIndex(of: name) { open.removeSubrange(last...) }
                if name == "code" { inCode = max(0, inCode - 1) }
            } else if !isVoid, !name.isEmpty {
                open.append(name)
                if name == "code" { inCode += 1 }
            }
            index = end + 1
            continue
        }
        if inCode == 0, ".!?…".contains(character), !(character == "." && previousText.isNumber) {
            // Closing quotes and brackets after the mark are part of the sentence.
            var end = index + 1
            while end < characters.count {
                if "”’\"')»".contains(characters[end]) {
                    end += 1
                } else if characters[end...].starts(with: "&quot;") {
                    end += 6
                } else {
                    break
                }
            }
            if let next = nextText(characters, from: end), next.isSpace,
               !(nextWordStart(characters, from: end).map { $0.isLowercase || $0.isNumber } ?? false) {
                var sentence = String(characters[..<end])
                for name in open.reversed() { sentence += "</\(name)>" }
                return sentence + (html.hasSuffix("\n") ? "\n" : "")
            }
        }
        previousText = character
        index += 1
    }
    return html
}

/// What follows `index` in the text: a space (a space or a line end, or the end of the
/// paragraph) or the next character.
private func nextText(_ characters: [Character], from index: Int) -> (isSpace: Bool, character: Character?)? {
    var index = index
    while index < characters.count {
        let character = characters[index]
        if character == "<" {
            guard let end = characters[index...].firstIndex(of: ">") else { return nil }
            let tag = String(characters[(index + 1)..<end])
            // The paragraph's own end ends the sentence; any other tag is skipped over.
            if tag == "/p" { return (true, nil) }
            if tag == "br" || tag == "br /" { return (true, nil) }
            index = end + 1
            continue
        }
        return (character == " " || character == "\n", character)
    }
    return (true, nil)
}

/// The first letter or digit of the text after `index`, skipping spaces, tags and opening
/// quotes.
private func nextWordStart(_ characters: [Character], from index: Int) -> Character? {
    var index = index
    while index < characters.count {
        let character = characters[index]
        if character == "<" {
            guard let end = characters[index...].firstIndex(of: ">") else { return nil }
            if String(characters[(index + 1)..<end]) == "/p" { return nil }
            index = end + 1
            continue
        }
        if character.isLetter || character.isNumber { return character }
        if character == "&" {
            // An entity (`&quot;`) is punctuation here.
            index = characters[index...].firstIndex(of: ";").map { $0 + 1 } ?? index + 1
            continue
        }
        index += 1
    }
    return nil
}

/// The text of rendered HTML as a reader sees it, on one line: tags dropped, the entities
/// cmark-gfm writes read back, runs of spaces and line ends made one space. What a page's
/// `<meta name="description">` says of its lead.
func plainText(ofHTML html: String) -> String {
    var text = ""
    var inTag = false
    // A footnote's number is a link, not part of the sentence.
    var html = html
    // The bytes first (see `HiddenLines.appear`).
    while html.containsBytes("<sup class=\"footnote-ref\">"),
          let start = html.range(of: "<sup class=\"footnote-ref\">"), let end = html[start.upperBound...].range(of: "</sup>") {
        html.removeSubrange(start.lowerBound..<end.upperBound)
    }
    for character in html {
        if character == "<" { inTag = true; continue }
        if character == ">", inTag { inTag = false; continue }
        if !inTag { text.append(character) }
    }
    // Every entity begins with `&`, which no other character is equal to.
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#x27;", "'"), ("&#39;", "'"), ("&amp;", "&")]
    where text.containsBytes("&") {
        text = text.replacingOccurrences(of: entity, with: character)
    }
    return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
