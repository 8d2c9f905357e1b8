import Foundation

/// A mention of a limitation note in prose: `DR10` standing as a word of its own (`DR10'da`,
/// `(DR10)` and `DR10.` count; `XDR10` and `DR10a` do not).
package struct LimitNoteMention: Equatable, Sendable {
    package var number: Int
    package var range: Range<String.Index>

    package static func find(in text: String) -> [LimitNoteMention] {
        var mentions: [LimitNoteMention] = []
        var index = text.startIndex
        while let start = text[index...].range(of: "DR")?.lowerBound {
            let digitsStart = text.index(start, offsetBy: 2)
            let digitsEnd = text[digitsStart...].firstIndex { !($0.isASCII && $0.isNumber) } ?? text.endIndex
            let standsAlone = start == text.startIndex || !isWordCharacter(text[text.index(before: start)])
            let endsWord = digitsEnd == text.endIndex || !isWordCharacter(text[digitsEnd])
            if digitsEnd > digitsStart, standsAlone, endsWord, let number = Int(text[digitsStart..<digitsEnd]) {
                mentions.append(LimitNoteMention(number: number, range: start..<digitsEnd))
            }
            index = digitsEnd > digitsStart ? digitsEnd : digitsStart
        }
        return mentions
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
