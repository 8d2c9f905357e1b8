internal import CZlib

/// Gzip, with zlib (Debian's zlib1g-dev): the search index's files are gzip streams, which the
/// build reads back and, for the statistics of its shards, writes again (see `SearchBalance`).
package enum Gzip {
    /// The bytes `compressed` holds, at most `limit` of them; nil when it is not one whole gzip
    /// stream or holds more than `limit` bytes (so that no file can make a reader hold more).
    package static func decompressed(_ compressed: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard compressed.count <= Int(UInt32.max), coursebook_inflate_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        return run(&stream, over: compressed, limit: limit) { inflate(&$0, Z_NO_FLUSH) }
    }

    /// `bytes` as one gzip stream, compressed at zlib's best level (as Pagefind writes its
    /// files); nil only if zlib cannot start.
    package static func compressed(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard bytes.count <= Int(UInt32.max), coursebook_deflate_gzip(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        return run(&stream, over: bytes, limit: .max) { deflate(&$0, Z_FINISH) }
    }

    /// Feeds `input` to a started `stream`, calling `step` with 64 KB of room each time, until
    /// the stream ends: what it wrote, or nil when it failed, wrote more than `limit` bytes,
    /// or ended before the input did (bytes after a gzip stream).
    private static func run(_ stream: inout z_stream, over input: [UInt8], limit: Int,
                            step: (inout z_stream) -> Int32) -> [UInt8]? {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return input.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return step(&stream)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return nil }
                output += chunk.prefix(produced)
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: continue
                // Z_BUF_ERROR with room left: the input ended before the stream did.
                default: return nil
                }
            }
        }
    }
}
