/// A mention of a limitation note in prose: `DR10` standing as a word of its own (`DR10'da`,
/// `(DR10)` and `DR10.` count; `XDR10` and `DR10a` do not).
package struct LimitNoteMention: Equatable, Sendable {
    /// The note's number; `nil` when its digits are too many for any note (`DR99999999999999999999`).
    package var number: Int?
    package var range: Range<String.Index>

    package static func find(in text: String) -> [LimitNoteMention] {
        var mentions: [LimitNoteMention] = []
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            // Scans bytes, not characters: "DR" and digits are ASCII, and most text has no "DR".
            guard bytes[index] == UInt8(ascii: "D") else { bytes.formIndex(after: &index); continue }
            let start = index
            let afterD = bytes.index(after: start)
            guard afterD != bytes.endIndex, bytes[afterD] == UInt8(ascii: "R") else { index = afterD; continue }
            let digitsStart = bytes.index(after: afterD)
            var digitsEnd = digitsStart
            while digitsEnd != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[digitsEnd]) {
                bytes.formIndex(after: &digitsEnd)
            }
            let standsAlone = start == text.startIndex || !isWordCharacter(text[..<start].last!)
            let endsWord = digitsEnd == text.endIndex || !isWordCharacter(text[digitsEnd...].first!)
            if digitsEnd > digitsStart, standsAlone, endsWord {
                mentions.append(LimitNoteMention(number: Int(text[digitsStart..<digitsEnd]), range: start..<digitsEnd))
            }
            index = digitsEnd > digitsStart ? digitsEnd : digitsStart
        }
        return mentions
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
