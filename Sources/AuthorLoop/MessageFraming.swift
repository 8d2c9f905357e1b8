internal import CourseFiles
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The base protocol's framing: each message is a header (`Content-Length: N`, other fields
/// ignored, each line ended by CRLF, then an empty line) and N bytes of JSON.
package enum Frame: Equatable, Sendable {
    /// A body of the length the header gave.
    case message(Data)
    /// A header without a usable `Content-Length` (or one past `MessageReader.largest`): the
    /// reader skipped it, and the server answers with a parse error.
    case malformedHeader(String)
    /// The stream ended.
    case end
}

/// Reads frames from a file descriptor (the server's standard input), buffering what a read
/// brings beyond the current frame.
package final class MessageReader {
    /// The largest message the server takes: a lesson is a few hundred kilobytes at most.
    package static let largest = 64 << 20

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next frame.
    package func next() -> Frame {
        guard let header = readHeader() else { return .end }
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" else { continue }
            length = Int(parts[1].trimmingCharacters(in: .whitespaces))
        }
        guard let length, length >= 0 else {
            return .malformedHeader("the header has no Content-Length with a number of bytes")
        }
        guard length <= Self.largest else {
            discard(length)
            return .malformedHeader("a message of \(length) bytes is larger than the \(Self.largest) bytes the server takes")
        }
        guard let body = read(length) else { return .end }
        return .message(Data(body))
    }

    /// The header's text up to (not including) the empty line; nil at the end of the stream.
    private func readHeader() -> String? {
        while true {
            var index = start
            while index + 4 <= buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    let header = String(decoding: buffer[start..<index], as: UTF8.self)
                    start = index + 4
                    return header
                }
                index += 1
            }
            // A header longer than any real one is not a header: it is skipped as malformed.
            if buffer.count - start > 8192 {
                start = buffer.count
                return ""
            }
            guard fill() else { return nil }
        }
    }

    private func read(_ count: Int) -> ArraySlice<UInt8>? {
        while buffer.count - start < count {
            guard fill() else { return nil }
        }
        let body = buffer[start..<start + count]
        start += count
        return body
    }

    private func discard(_ count: Int) {
        var left = count
        while left > 0 {
            if buffer.count - start == 0, !fill() { return }
            let taken = min(left, buffer.count - start)
            start += taken
            left -= taken
        }
    }

    /// Reads more bytes; false at the end of the stream.
    private func fill() -> Bool {
        guard !ended else { return false }
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0, errno == EINTR { continue }
            ended = true
            return false
        }
    }
}

/// Writes frames to a file descriptor (the server's standard output), one whole message at a
/// time whatever thread sends it.
package final class MessageWriter: Sendable {
    private let descriptor: Int32
    private let lock = Locked<Void>(())

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package func send(_ message: JSONValue) {
        let body = message.encoded()
        let bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // The client is gone; the read side will see the end.
                }
                offset += written
            }
        }
    }
}
