@testable import Processes
import CourseModel
import Foundation
import TestSupport
import Testing

/// A program that answers framed requests one at a time: every answer in order, a program
/// that takes too long killed and one that ends given up on for that request only, the
/// requests after it asked of a new one.
struct AnsweringChildTests {
    let requests: [[UInt8]] = [Array("one".utf8), Array("two".utf8), Array("six".utf8)]
    let scratch = NSTemporaryDirectory()

    func child(_ script: String) -> AnsweringChild {
        AnsweringChild(executable: "/bin/sh", arguments: ["-c", script])
    }

    @Test func everyRequestIsAnsweredInOrder() {
        // `cat` answers each request with itself.
        let answers = child("exec cat").ask(requests, programs: 2, scratch: scratch, timeLimit: { _ in .seconds(10) })
        #expect(answers == requests.map { .success($0) })
        #expect(child("exec cat").ask([], programs: 2, scratch: scratch, timeLimit: { _ in .seconds(1) }).isEmpty)
    }

    @Test func aProgramThatTakesTooLongIsKilledAndTheNextRequestsAskedAgain() {
        // Answers its first request (4 + 3 bytes), then hangs: each program started answers
        // one request.
        let answers = child("head -c 7; exec sleep 30").ask(requests, programs: 1, scratch: scratch,
                                                             timeLimit: { _ in .milliseconds(300) })
        #expect(answers == [.success(requests[0]), .failure(.tookTooLong(.milliseconds(300))), .success(requests[2])])
    }

    @Test func aProgramThatEndsGivesUpOnlyItsRequest() {
        let answers = child("head -c 7; kill -SEGV $$").ask(requests, programs: 1, scratch: scratch,
                                                              timeLimit: { _ in .seconds(10) })
        #expect(answers == [.success(requests[0]), .failure(.ended(.signaled(11))), .success(requests[2])])
        let missing = AnsweringChild(executable: "/nonexistent/reader", arguments: [])
            .ask(requests, programs: 1, scratch: scratch, timeLimit: { _ in .seconds(1) })
        #expect(missing.count == 3 && missing.allSatisfy { if case .failure(.notStarted) = $0 { true } else { false } })
    }

    @Test func framesAndRuns() {
        let bytes = AnsweringChild.frames(requests)
        #expect(AnsweringChild.unframed(bytes[...]).payloads == requests)
        #expect(AnsweringChild.unframed(bytes.dropLast()[...]).payloads == Array(requests.prefix(2)))
        #expect(AnsweringChild.unframed(bytes.dropLast()[...]).used == 14)
        #expect(AnsweringChild.split([10, 10, 10, 10], into: 2) == [0..<2, 2..<4])
        #expect(AnsweringChild.split([1000, 1, 1, 1], into: 2) == [0..<1, 1..<4])
        #expect(AnsweringChild.split([5], into: 4) == [0..<1])
    }
}
