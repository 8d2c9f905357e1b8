import CourseModel
import LessonParsing

/// Lesson parsing never crashes, whatever the bytes: the one parse, the lesson made from it,
/// its pages' blocks and its notes. The lines the checker cuts cover the file exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func parseLesson(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = SourceText(bytes)
    var joined: [UInt8] = []
    for line in source.lines { joined += bytes[line.whole] }
    if joined != bytes { violated("lines cover the file", "\(source.lines)") }

    guard let (lesson, document, _) = fuzzLesson(bytes, typography: size % 2 == 0 ? .plain : .smart) else { return 0 }
    let blocks = document.renderBlocks { $0 % 3 == 0 ? nil : "#dr\($0)" }
    _ = document.renderNotes { "#dr\($0)" }
    // Every code block the check knows is one the page shows (nested ones are rendered as HTML).
    let shown = Set(blocks.compactMap { block -> Int? in if case .code(let id, _) = block { id } else { nil } })
    for block in lesson.codeBlocks where !shown.contains(block.id) && block.role != .other {
        violated("every checked block is on the page", "block \(block.id) at line \(block.line)")
    }
    return 0
}
