#if canImport(Glibc)
import Glibc
#endif

/// A lesson file's bytes, cut into lines the way cmark-gfm counts them: LF, CRLF or a lone CR
/// ends a line. Checking reads lines from it; `--update` splices bytes by its ranges, so it
/// keeps every byte (a BOM, CRLF, trailing spaces) exactly as the file has it.
package struct SourceText: Sendable, Equatable {
    /// One line: its content without the line end, and the line end itself (empty on a last
    /// line that has none).
    package struct Line: Sendable, Equatable {
        package var content: Range<Int>
        package var end: Range<Int>

        package var whole: Range<Int> { content.lowerBound..<end.upperBound }
    }

    package let bytes: [UInt8]
    package let lines: [Line]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [Line] = []
        lines.reserveCapacity(bytes.count / 32 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            var index = 0
            // Most line ends are LF: the scan jumps from one to the next and looks for a CR
            // only in files that have one.
            let hasCR = !buffer.isEmpty && memchr(buffer.baseAddress!, Int32(UInt8(ascii: "\r")), buffer.count) != nil
            while index < buffer.count {
                if !hasCR {
                    guard let pointer = memchr(buffer.baseAddress! + index, Int32(UInt8(ascii: "\n")), buffer.count - index) else {
                        index = buffer.count
                        break
                    }
                    let found = buffer.baseAddress!.distance(to: pointer.assumingMemoryBound(to: UInt8.self))
                    lines.append(Line(content: start..<found, end: found..<found + 1))
                    index = found + 1
                    start = index
                    continue
                }
                switch buffer[index] {
                case UInt8(ascii: "\n"):
                    lines.append(Line(content: start..<index, end: index..<index + 1))
                    index += 1
                    start = index
                case UInt8(ascii: "\r"):
                    let endLength = index + 1 < buffer.count && buffer[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                    lines.append(Line(content: start..<index, end: index..<index + endLength))
                    index += endLength
                    start = index
                default:
                    index += 1
                }
            }
            if start < buffer.count {
                lines.append(Line(content: start..<buffer.count, end: buffer.count..<buffer.count))
            }
        }
        self.lines = lines
    }

    package init(_ string: String) {
        self.init(Array(string.utf8))
    }

    /// The number of lines; a final line end does not start another line.
    package var lineCount: Int { lines.count }

    /// The content of a 1-based line, without its line end; empty past the end of the file.
    package func content(ofLine number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= lines.count else { return [] }
        return bytes[lines[number - 1].content]
    }

    /// The content of a 1-based line as text.
    package func text(ofLine number: Int) -> String {
        String(decoding: content(ofLine: number), as: UTF8.self)
    }

    /// The byte offset where a 1-based line starts (the end of the file past the last line).
    package func startOffset(ofLine number: Int) -> Int {
        number >= 1 && number <= lines.count ? lines[number - 1].content.lowerBound : bytes.count
    }

    /// The line end the file uses: that of its first line, LF when it has none.
    package var preferredLineEnd: [UInt8] {
        guard let first = lines.first(where: { !$0.end.isEmpty }) else { return [UInt8(ascii: "\n")] }
        return Array(bytes[first.end])
    }

    /// Whether the file starts with a UTF-8 byte order mark.
    package var hasByteOrderMark: Bool { bytes.starts(with: [0xEF, 0xBB, 0xBF]) }
}
