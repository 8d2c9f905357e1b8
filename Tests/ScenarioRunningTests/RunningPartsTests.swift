@testable import ScenarioRunning
import CourseModel
import TestSupport
import Testing

struct FrameStreamTests {
    func frame(_ kind: String, _ index: Int, _ payload: String) -> [UInt8] {
        Array("\u{1E}\(kind)\(index) \(payload.utf8.count)\u{1E}\(payload)".utf8)
    }

    /// Frames cut anywhere across reads come out whole; a payload holding what looks like a
    /// frame is only payload, since its length was counted by the batch program.
    @Test func framesCutAcrossReadsAndForgedMarkersInPayloads() throws {
        let forged = "\u{1E}X3 2\u{1E}e0\u{1E}O9 4\u{1E}lies"
        let whole = frame("B", 3, "") + frame("O", 3, "hello\n") + frame("O", 3, forged) + frame("E", 3, "warning")
            + frame("X", 3, "e0") + frame("B", 7, "")
        var stream = FrameStream()
        var frames: [FrameStream.Frame] = []
        for start in stride(from: 0, to: whole.count, by: 5) {
            let found = stream.append(whole[start..<min(start + 5, whole.count)])
            frames += try #require(found)
        }
        #expect(frames.map(\.kind) == [.begin, .output, .output, .errors, .end, .begin])
        #expect(frames.map(\.index) == [3, 3, 3, 3, 3, 7])
        #expect(String(decoding: frames[2].payload, as: UTF8.self) == forged)
        #expect(!stream.isCut)
    }

    @Test func anythingButFramesBreaksTheProtocol() {
        var stream = FrameStream()
        let text = stream.append(Array("hello".utf8)[...])
        #expect(text == nil)
        var unknown = FrameStream()
        let frame = unknown.append(Array("\u{1E}Z1 0\u{1E}".utf8)[...])
        #expect(frame == nil)
    }

    @Test func theWatcherKeepsEachScenariosStreamsAndEndings() {
        var watcher = ScenarioWatcher(timeLimit: .seconds(10), outputCap: 100)
        let bytes = frame("B", 1, "") + frame("O", 1, "one\n") + frame("X", 1, "e0")
            + frame("B", 2, "") + frame("O", 2, "two\n") + frame("E", 2, "boom\n") + frame("X", 2, "s4")
            + frame("B", 3, "") + frame("O", 3, "three") + frame("X", 3, "e3")
            + frame("B", 4, "") + frame("O", 4, "partial")
        let keepGoing = watcher.received(bytes[...], from: .standardOutput, at: .now)
        #expect(keepGoing)
        let outcomes = watcher.outcomes(after: .signaled(9))
        #expect(outcomes[1] == .completed(output: "one\n", standardError: "", fromCache: false))
        #expect(outcomes[2] == .crashed(.signaled(4), output: "two\n", standardError: "boom\n"))
        #expect(outcomes[3] == .crashed(.exited(3), output: "three", standardError: ""))
        #expect(outcomes[4] == .crashed(.signaled(9), output: "partial", standardError: ""))
    }
}

struct CompilerDiagnosticTests {
    @Test func readsLLVMStyleDiagnosticsWithNotes() {
        let transcript = """
            lessons/01-a.md:12:5: error: cannot find 'x' in scope
                print(x)
                      ^
            /abs/Core.swift:3:10: note: did you mean 'y'?
            error: link command failed with exit code 1
            /tmp/a:b/main.swift:1:1: warning: unused
            """
        let found = CompilerDiagnostic.parse(transcript)
        #expect(found.count == 3)
        #expect(found[0] == CompilerDiagnostic(file: "lessons/01-a.md", line: 12, column: 5, severity: "error",
                                               message: "cannot find 'x' in scope",
                                               notes: [CompilerDiagnostic(file: "/abs/Core.swift", line: 3, column: 10,
                                                                          severity: "note", message: "did you mean 'y'?")]))
        #expect(found[1].file == nil && found[1].message == "link command failed with exit code 1")
        #expect(found[2].file == "/tmp/a:b/main.swift")
    }
}
