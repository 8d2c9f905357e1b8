import AuthorLoop
import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// The quick fix's text edit, applied as an editor applies it, gives the bytes `--update`
/// splices, whatever the file's line ends and characters.
@Suite struct QuickFixesTests {
    /// The edit from `old` to `new`, applied to `old` by its positions (UTF-16 units).
    func applied(_ old: [UInt8], _ new: [UInt8]) -> [UInt8] {
        let source = SourceText(old)
        let positions = TextPositions(source, encoding: .utf16)
        let edit = QuickFixes.textEdit(from: source, to: new, positions: positions)
        let range = TextRange(edit["range"])!
        func offset(_ position: Position) -> Int {
            guard position.line < source.lineCount else { return old.count }
            let place = positions.place(of: position)
            return source.startOffset(ofLine: place.line) + place.column - 1
        }
        return Array(old[..<offset(range.start)]) + Array(edit["newText"]!.string!.utf8) + Array(old[offset(range.end)...])
    }

    @Test(arguments: ["\n", "\r\n"])
    func acceptingAnOutputIsTheUpdateSplice(_ lineEnd: String) throws {
        let text = ["# T", "", "```swift scenario", "print(\"çö\")", "```", "", "```output", "co", "```", "", "After 😀."]
            .joined(separator: lineEnd) + lineEnd
        let (lesson, _) = TestSupport.lesson(text)
        let scenario = try #require(lesson.scenarios.first)
        let edit = try #require(CourseCheck.outputEdit(for: scenario, printed: "çö\r\nmore\n"))
        let (bytes, _) = try BlockRewrite.apply([edit], to: lesson.source)
        #expect(String(decoding: bytes, as: UTF8.self).contains("çö" + lineEnd + "more" + lineEnd + "```"))
        #expect(applied(lesson.source.bytes, bytes) == bytes)
    }

    @Test func insertingAMissingBlockAtTheEndOfAFileWithoutALineEnd() throws {
        let (lesson, _) = TestSupport.lesson("# T\n\n```swift scenario\nprint(1)\n```")
        let scenario = try #require(lesson.scenarios.first)
        let edit = try #require(CourseCheck.outputEdit(for: scenario, printed: "1\n"))
        let (bytes, _) = try BlockRewrite.apply([edit], to: lesson.source)
        #expect(String(decoding: bytes, as: UTF8.self) == "# T\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n")
        #expect(applied(lesson.source.bytes, bytes) == bytes)
    }

    @Test func noEditWhenTheBlockAlreadySaysIt() throws {
        let (lesson, _) = TestSupport.lesson("# T\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n")
        #expect(CourseCheck.outputEdit(for: try #require(lesson.scenarios.first), printed: "1") == nil)
    }
}

/// The check queue: quiet first, the lesson due first, and a newer edit cancels the check of
/// its lesson in progress.
@Suite struct CheckQueueTests {
    final class Log: @unchecked Sendable {
        let condition = NSCondition()
        var started: [String] = []
        var cancelled: [String: Bool] = [:]
        var release = false
    }

    @Test func aNewerEditCancelsTheCheckOfItsLesson() {
        let log = Log()
        // A check that runs until it is cancelled or released (at the latest after 5 s).
        let queue = CheckQueue { uri, cancellation in
            log.condition.lock()
            log.started.append(uri)
            log.condition.broadcast()
            let deadline = Date().addingTimeInterval(5)
            while !log.release && !cancellation.isCancelled && Date() < deadline {
                log.condition.wait(until: Date().addingTimeInterval(0.01))
            }
            log.cancelled[uri + "#\(log.started.count)"] = cancellation.isCancelled
            log.condition.unlock()
        }
        func waitForStarts(_ count: Int) {
            let deadline = Date().addingTimeInterval(10)
            log.condition.lock()
            while log.started.count < count, log.condition.wait(until: deadline) {}
            log.condition.unlock()
        }
        queue.schedule("a", after: .zero)
        waitForStarts(1)
        // Another lesson's edit does not cancel; the same lesson's does, and it runs again.
        queue.schedule("b", after: .seconds(60))
        queue.schedule("a", after: .zero)
        waitForStarts(2)
        log.condition.lock()
        log.release = true
        log.condition.unlock()
        queue.waitUntilIdle(limit: .seconds(1))
        queue.stop()
        log.condition.lock()
        #expect(log.started == ["a", "a"])
        #expect(log.cancelled == ["a#1": true, "a#2": false])
        log.condition.unlock()
    }
}
