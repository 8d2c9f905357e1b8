@testable import CourseFiles
import TestSupport
import Testing

struct SHA256Tests {
    /// The test vectors of FIPS 180-4 and the usual extra ones.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("The quick brown fox jumps over the lazy dog",
         "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func vectors(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }

    @Test func aMillionAsInPieces() {
        var hash = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.update(chunk) }
        #expect(hash.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func boundaryLengths() {
        // 55, 56 and 64 bytes straddle the padding boundary.
        #expect(SHA256.hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(SHA256.hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(SHA256.hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }
}

/// A digest is a value: a copy taken midway goes on by itself.
struct SHA256ValueTests {
    @Test func aCopyGoesOnByItself() {
        var first = SHA256()
        first.update("ab")
        var second = first
        first.update("c")
        second.update("d")
        #expect(first.finalize() == SHA256.hex("abc"))
        #expect(second.finalize() == SHA256.hex("abd"))
        var third = SHA256()
        third.update("ab")
        let copy = third
        #expect(third.finalizeBytes().count == 32)
        var later = copy
        later.update("c")
        #expect(later.finalize() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

struct HMACTests {
    /// A key made ready once signs every message as a fresh HMAC does, in parts or whole, and
    /// the empty key (RFC 2104 pads it like any other) is a key too.
    @Test func aReadyKeySignsManyMessages() {
        let key = HMACKey(Array("Jefe".utf8))
        let head = Array("what do ya ".utf8), tail = Array("want for nothing?".utf8)
        for _ in 0..<3 {
            let signed = head.withUnsafeBytes { head in tail.withUnsafeBytes { tail in key.signature(head, tail) } }
            #expect(signed == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }
        #expect(SHA256.hmac(key: [], message: []) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        // A key shorter than a block is padded with zeros, so a trailing zero changes nothing.
        #expect(HMACKey([]).signature(Array("x".utf8)) == HMACKey([0]).signature(Array("x".utf8)))
        #expect(HMACKey([]).signature(Array("x".utf8)) != HMACKey([1]).signature(Array("x".utf8)))
    }


    /// RFC 4231, test cases 1, 2 and 6 (a key longer than a block).
    @Test func rfc4231() {
        #expect(SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
