/// SHA-256 (FIPS 180-4), for the content-addressed cache: its keys and the digests that verify
/// its entries. The toolchain on Linux has no CryptoKit and no outside package can be fetched,
/// so it is written here; the tests hold the standard's test vectors. A warm check of a large
/// course hashes megabytes, so a block is compressed straight from the caller's bytes, without
/// copying or allocating.
package struct SHA256 {
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372
    private var h3: UInt32 = 0xa54ff53a, h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c
    private var h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// Bytes of an unfinished block, at most 63.
    private var pending: [UInt8] = []
    /// Bytes hashed so far.
    private var length: UInt64 = 0

    package init() {
        pending.reserveCapacity(64)
    }

    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update(buffer: $0) } }
    }

    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(buffer: UnsafeRawBufferPointer($0)) }
    }

    private mutating func update(buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress([$0.baseAddress!]) }
            pending.removeAll(keepingCapacity: true)
        }
        if buffer.count - offset >= 64 {
            let blocks = stride(from: offset, through: buffer.count - 64, by: 64).map { base + $0 }
            compress(blocks)
            offset += blocks.count * 64
        }
        if offset < buffer.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: buffer.count - offset))
        }
    }

    /// The digest's 32 bytes.
    package mutating func finalizeBytes() -> [UInt8] {
        let hex = Array(finalize().utf8)
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        return stride(from: 0, to: 64, by: 2).map { value(hex[$0]) << 4 | value(hex[$0 + 1]) }
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`, as 64 hexadecimal digits: only who
    /// holds the key can make it.
    package static func hmac(key: [UInt8], message: [UInt8]) -> String {
        var block = key.count > 64 ? { var hash = SHA256(); hash.update(key); return hash.finalizeBytes() }() : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalizeBytes())
        return outer.finalize()
    }

    /// The digest as 64 lowercase hexadecimal digits.
    package mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail = pending + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        pending = []
        tail.withUnsafeBytes { bytes in
            compress(stride(from: 0, to: bytes.count, by: 64).map { bytes.baseAddress! + $0 })
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
            for shift in stride(from: 28, through: 0, by: -4) { hex.append(digits[Int((word >> UInt32(shift)) & 0xf)]) }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    package static func hex(_ text: String) -> String {
        var hash = SHA256()
        hash.update(text)
        return hash.finalize()
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// 64-byte blocks into the state, one after the other; the message schedule and the
    /// constants are set up once for all of them.
    private mutating func compress(_ blocks: [UnsafeRawPointer]) {
        @inline(__always) func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        Self.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in blocks {
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                        let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for i in 0..<64 {
                        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        h = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
    }
}
