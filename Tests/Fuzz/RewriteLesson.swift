import CourseChecking
import CourseModel
import LessonParsing

/// The `--update` rewriter. The input is a lesson, then (after a 0xFF byte, which UTF-8 never
/// holds) an output a scenario might print.
/// - Rewriting every `output` block with what it already says changes no byte.
/// - Rewriting every `output` block with the new output, and inserting one after each
///   scenario that has none, gives a lesson whose blocks say exactly that output: a second
///   `--update` would change nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func rewriteLesson(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let cut = input.firstIndex(of: 0xFF) ?? input.count
    let bytes = Array(input[..<cut])
    guard let (lesson, _, _) = fuzzLesson(bytes) else { return 0 }
    let source = SourceText(bytes)

    let same = lesson.scenarios.compactMap(\.expected).map { BlockRewrite.Edit(.replaceCode($0), code: $0.code, summary: "") }
    if let (rewritten, _) = try? BlockRewrite.apply(same, to: source), rewritten != bytes {
        violated("the same outputs change nothing", String(decoding: rewritten, as: UTF8.self))
    }

    guard cut < input.count, let printed = String(validating: input[(cut + 1)...], as: UTF8.self),
          CourseCheck.unholdableByte(in: printed) == nil else { return 0 }
    let output = printed.replacingOccurrences(of: "\r\n", with: "\n")
    var edits: [BlockRewrite.Edit] = []
    for scenario in lesson.scenarios where !scenario.isSkipped {
        if let expected = scenario.expected {
            edits.append(.init(.replaceCode(expected), code: output, summary: ""))
        } else {
            edits.append(.init(.insertOutput(after: scenario.block), code: output, summary: ""))
        }
    }
    guard !edits.isEmpty, let (rewritten, _) = try? BlockRewrite.apply(edits, to: source) else { return 0 }
    guard let (after, _, _) = fuzzLesson(rewritten) else {
        violated("the rewritten lesson is UTF-8", "")
    }
    let before = lesson.scenarios.filter { !$0.isSkipped }
    let now = after.scenarios.filter { !$0.isSkipped }
    guard before.map(\.code) == now.map(\.code) else {
        violated("the scenarios are unchanged", String(decoding: rewritten, as: UTF8.self))
    }
    for scenario in now where !sameIgnoringFinalNewline(scenario.expected?.code ?? "\u{0}", output) {
        violated("each output block says the new output",
                 "scenario at line \(scenario.line): \(String(reflecting: scenario.expected?.code)) ≠ \(String(reflecting: output))\n"
                 + String(decoding: rewritten, as: UTF8.self))
    }
    return 0
}
