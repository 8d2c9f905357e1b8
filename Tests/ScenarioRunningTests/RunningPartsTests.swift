@testable import ScenarioRunning
import CourseModel
import TestSupport
import Testing

struct MarkerStreamTests {
    let prefix = Array("\u{1E}coursebook-n-".utf8)

    @Test func splitsSegmentsAtMarkersCutAcrossReads() {
        var stream = MarkerStream(prefix: prefix)
        let whole = Array("\u{1E}coursebook-n-begin-3\u{1E}hello\n\u{1E}coursebook-n-end-3\u{1E}\u{1E}coursebook-n-begin-7\u{1E}a\u{1E}b".utf8)
        var markers: [MarkerStream.Marker] = []
        for start in stride(from: 0, to: whole.count, by: 5) {
            markers += stream.append(whole[start..<min(start + 5, whole.count)])
        }
        stream.finish()
        #expect(markers == [.init(kind: .begin, index: 3), .init(kind: .end, index: 3), .init(kind: .begin, index: 7)])
        #expect(String(decoding: stream.segment(3), as: UTF8.self) == "hello\n")
        #expect(String(decoding: stream.segment(7), as: UTF8.self) == "a\u{1E}b")
    }

    @Test func aCappedStreamDropsTheRestButReadsMarkers() {
        var stream = MarkerStream(prefix: prefix, segmentCap: 4)
        let markers = stream.append(Array("\u{1E}coursebook-n-begin-1\u{1E}0123456789\u{1E}coursebook-n-end-1\u{1E}".utf8)[...])
        #expect(markers.count == 2)
        #expect(String(decoding: stream.segment(1), as: UTF8.self) == "0123")
    }

    @Test func aStreamWithoutMarkersIsOneSegment() {
        var stream = MarkerStream(single: 4)
        _ = stream.append(Array("x\u{1E}coursebook-n-end-4\u{1E}".utf8)[...])
        #expect(stream.segment(4).count == 21)
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
