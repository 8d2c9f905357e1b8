import AuthorLoop
import CourseModel
import Testing

/// Columns after non-ASCII text: coursebook counts bytes, the protocol UTF-16 units by default.
@Suite struct TextPositionsTests {
    let source = SourceText("a\nçö x😀y\n")

    @Test func bytesBecomeUTF16UnitsAndBack() {
        let positions = TextPositions(source, encoding: .utf16)
        // "çö " is 5 bytes, 3 units; "😀" 4 bytes, 2 units.
        #expect(positions.position(line: 2, column: 6) == Position(line: 1, character: 3))
        #expect(positions.position(line: 2, column: 11) == Position(line: 1, character: 6))
        #expect(positions.place(of: Position(line: 1, character: 6)) == (2, 11))
        #expect(positions.place(of: Position(line: 1, character: 3)) == (2, 6))
    }

    @Test func utf8PositionsAreTheBytes() {
        let positions = TextPositions(source, encoding: .utf8)
        #expect(positions.position(line: 2, column: 11) == Position(line: 1, character: 10))
        #expect(positions.place(of: Position(line: 1, character: 10)) == (2, 11))
    }

    @Test func offsetsAtLineStartsAndTheEnd() {
        let positions = TextPositions(source, encoding: .utf16)
        #expect(positions.position(ofOffset: 2) == Position(line: 1, character: 0))
        #expect(positions.position(ofOffset: source.bytes.count) == Position(line: 2, character: 0))
        #expect(TextPositions(SourceText("ab"), encoding: .utf16).position(ofOffset: 2) == Position(line: 0, character: 2))
    }

    @Test func theClientsOfferDecides() {
        #expect(PositionEncoding.negotiated(["utf-16"]) == .utf16)
        #expect(PositionEncoding.negotiated([]) == .utf16)
        #expect(PositionEncoding.negotiated(["utf-32", "utf-8", "utf-16"]) == .utf8)
    }
}
