@testable import CourseSite
import Foundation
import Testing

/// An output may break after a comma: `<wbr>` after each, made on the bytes, exactly as
/// Foundation's `replacingOccurrences(of: ",", with: ",<wbr>")` makes it.
struct CommaBreakTests {
    @Test(arguments: ["", "no comma", "a,b", ",", ",,", "atlanan A,B,C", "görünüm,ağaç, çocuk", "a,\r\nb", "x,\n",
                      "a,\u{301}b", "a,\u{301}b,c", "\u{301},x", "🇹🇷,🇹🇷", "a,&amp;,<b>,</b>"])
    func sameAsFoundation(_ text: String) {
        #expect(Array(LessonBody.breakingAfterCommas(text).utf8) == Array(text.replacingOccurrences(of: ",", with: ",<wbr>").utf8))
    }
}
