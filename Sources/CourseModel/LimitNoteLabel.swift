/// The `DRn.` label at the start of a paragraph.
package enum LimitNoteLabel: Equatable {
    case note(number: Int, body: String)
    /// `DR3 ...` without the full stop: probably meant as a note.
    case missingFullStop(label: String)
    /// `DR99999999999999999999. ...`: a note whose number is too large to hold.
    case numberTooLarge(label: String)
    case none

    package static func parse(_ text: String) -> LimitNoteLabel {
        guard text.hasPrefix("DR") else { return .none }
        let afterDR = text.dropFirst(2)
        let digits = afterDR.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return .none }
        let rest = afterDR.dropFirst(digits.count)
        if rest.first == "." {
            let body = rest.dropFirst()
            guard body.isEmpty || body.first == " " || body.first == "\t" else { return .none }
            guard let number = Int(digits) else { return .numberTooLarge(label: "DR\(digits)") }
            return .note(number: number, body: String(body.drop { $0 == " " || $0 == "\t" }))
        }
        if rest.isEmpty || rest.first == " " || rest.first == ":" || rest.first == "," {
            return .missingFullStop(label: "DR\(digits)")
        }
        return .none
    }
}
