@testable import CourseModel
import Testing

/// Quotes decided by their neighbours: an apostrophe before a suffix is always ’, in Turkish and
/// in English, whatever stands before it and however many quotes the paragraph holds.
struct SmartTypographyTests {
    /// A code span, then text: the pieces of `` `body`'si ``.
    func typeset(_ pieces: SmartTypography.Piece...) -> [String] { SmartTypography.typeset(pieces) }

    @Test func anApostropheAfterACodeSpanIsAnApostrophe() {
        #expect(typeset(.word, .text("'si yeniden hesaplanır")) == ["’si yeniden hesaplanır"])
        // The case cmark-gfm got wrong: the apostrophe after the code span opened a quote that
        // the apostrophe of Linux'ta closed.
        #expect(typeset(.text("Önce "), .word, .text("'si, sonra Linux'ta 6'da çalışır."))
                == ["Önce ", "’si, sonra Linux’ta 6’da çalışır."])
        #expect(typeset(.text("Görünümün "), .word, .text("'i ve "), .word, .text("'ın farkı"))
                == ["Görünümün ", "’i ve ", "’ın farkı"])
    }

    @Test func anApostropheAfterALetterOrADigitIsAnApostrophe() {
        #expect(SmartTypography.typeset("Linux'ta, 6'da, SwiftUI'nin, %50'si") == "Linux’ta, 6’da, SwiftUI’nin, %50’si")
        #expect(SmartTypography.typeset("don't, it's, the students' notes") == "don’t, it’s, the students’ notes")
        #expect(SmartTypography.typeset("SwiftUI'de Yeniden Hesaplama") == "SwiftUI’de Yeniden Hesaplama")
        // After a closing quote or bracket, a suffix: “Ortam”’a, (iOS 17)’de.
        #expect(SmartTypography.typeset("\"Ortam\"'a ve (iOS 17)'de") == "“Ortam”’a ve (iOS 17)’de")
    }

    @Test func quotesOpenAndCloseByTheirNeighbours() {
        #expect(SmartTypography.typeset("\"Quoted\" and 'single'") == "“Quoted” and ‘single’")
        #expect(SmartTypography.typeset("\"Ders 'Ortam' dedi\", sonra") == "“Ders ‘Ortam’ dedi”, sonra")
        // Nested without spaces, both ways round.
        #expect(SmartTypography.typeset("\"'iç'\" ve '\"iç\"'") == "“‘iç’” ve ‘“iç”’")
        #expect(SmartTypography.typeset("(\"parantez\") [‘köşeli’]") == "(“parantez”) [‘köşeli’]")
        #expect(SmartTypography.typeset("He said, \"It's 'fine'.\"") == "He said, “It’s ‘fine’.”")
        // A quote around a code span: the span reads as a word.
        #expect(typeset(.text("\""), .word, .text("\" yazın")) == ["“", "” yazın"])
        // Across a line break.
        #expect(typeset(.text("bir \"satır"), .space, .text("sonra\" biter")) == ["bir “satır", "sonra” biter"])
    }

    @Test func anElidedNumberIsAnApostrophe() {
        #expect(SmartTypography.typeset("the '90s and '24'te") == "the ’90s and ’24’te")
        #expect(SmartTypography.typeset("'24' dedi") == "‘24’ dedi")
    }

    @Test func dashesAndEllipses() {
        #expect(SmartTypography.typeset("a -- b --- c... d - e") == "a – b — c… d - e")
        #expect(SmartTypography.dashesAndDots("----") == "––")
        #expect(SmartTypography.dashesAndDots("------") == "——")
        #expect(SmartTypography.dashesAndDots(".... -") == "…. -")
    }
}
