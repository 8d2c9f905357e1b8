import CourseFiles
import Foundation
import TestSupport
import Testing

struct GzipTests {
    /// `gzip.compress(b"coursebook reads gzip", mtime=0)`, as Python's gzip module writes it.
    let sample: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 75, 206, 47, 45, 42, 78, 77, 202, 207, 207, 86, 40, 74,
                           77, 76, 41, 86, 72, 175, 202, 44, 0, 0, 83, 180, 98, 226, 21, 0, 0, 0]

    @Test func readsAGzipStream() {
        #expect(Gzip.decompressed(sample).map { String(decoding: $0, as: UTF8.self) } == "coursebook reads gzip")
    }

    @Test func readsMoreThanOneChunk() {
        // 300 KB of one byte, compressed by zlib into a few hundred bytes: more than the
        // reader's 64 KB chunk, so the stream is read in several.
        let large = [UInt8](repeating: 0x61, count: 300_000)
        let compressed = gzipped(large)
        #expect(compressed.count < 2_000)
        #expect(Gzip.decompressed(compressed) == large)
        #expect(Gzip.decompressed(compressed, limit: 299_999) == nil)
    }

    @Test func refusesWhatIsNotOneWholeStream() {
        #expect(Gzip.decompressed([]) == nil)
        #expect(Gzip.decompressed(Array("not gzip".utf8)) == nil)
        #expect(Gzip.decompressed(Array(sample.dropLast(4))) == nil)
        #expect(Gzip.decompressed(sample + [0]) == nil)
        #expect(Gzip.decompressed(sample, limit: 20) == nil)
        #expect(Gzip.decompressed(sample, limit: 21) != nil)
    }

    @Test func writesWhatGzipReads() throws {
        let text = Array(String(repeating: "Görünüm yeniden hesaplanır. ", count: 5_000).utf8)
        let compressed = try #require(Gzip.compressed(text))
        #expect(compressed.starts(with: [31, 139]) && compressed.count < text.count / 20)
        #expect(Gzip.decompressed(compressed) == text)
        #expect(Gzip.compressed([]).flatMap { Gzip.decompressed($0) } == [])
    }

    /// A gzip stream of `bytes` made by the system's gzip.
    func gzipped(_ bytes: [UInt8]) -> [UInt8] {
        let folder = temporaryFolder("gzip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("data")
        FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n", file.path]
        guard (try? gzip.run()) != nil else { return [] }
        gzip.waitUntilExit()
        return [UInt8](FileManager.default.contents(atPath: file.path + ".gz") ?? Data())
    }
}
