internal import CLibCrypto

/// SHA-256 (FIPS 180-4), for the content-addressed cache: its keys and the digests that verify
/// its entries, computed by OpenSSL's libcrypto (Debian's libssl-dev). The tests hold the
/// standard's test vectors.
package struct SHA256 {
    /// The running digest; copied before an update when another value shares it, so that a
    /// copy of a `SHA256` goes on by itself, as a value does.
    private var context: DigestContext

    package init() {
        context = DigestContext()
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
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        guard EVP_DigestUpdate(context.pointer, base, buffer.count) == 1 else { fatalError("libcrypto: SHA-256 update failed") }
    }

    /// The digest's 32 bytes.
    package mutating func finalizeBytes() -> [UInt8] {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context.pointer, &digest, &length) == 1, length == 32 else {
            fatalError("libcrypto: SHA-256 final failed")
        }
        return digest
    }

    /// The digest as 64 lowercase hexadecimal digits.
    package mutating func finalize() -> String {
        hexadecimal(finalizeBytes())
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`, as 64 hexadecimal digits: only who
    /// holds the key can make it.
    package static func hmac(key: [UInt8], message: [UInt8]) -> String {
        HMACKey(key).signature(message)
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
}

/// A key made ready for HMAC-SHA-256 once (its padded blocks hashed), then used for many
/// messages: the content store signs and verifies every entry with one.
package final class HMACKey: @unchecked Sendable {
    /// Only read after `init` (each message works on a copy), so threads may share it.
    private let context: OpaquePointer

    package init(_ key: [UInt8]) {
        guard let context = key.withUnsafeBufferPointer({ coursebook_hmac_sha256($0.baseAddress, $0.count) }) else {
            fatalError("libcrypto: cannot make an HMAC-SHA-256 context")
        }
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// The HMAC of the parts one after the other, as 64 hexadecimal digits.
    package func signature(_ parts: UnsafeRawBufferPointer...) -> String {
        hexadecimal(signatureBytes(parts))
    }

    package func signature(_ message: [UInt8]) -> String {
        message.withUnsafeBytes { signature($0) }
    }

    func signatureBytes(_ parts: [UnsafeRawBufferPointer]) -> [UInt8] {
        guard let copy = EVP_MAC_CTX_dup(context) else { fatalError("libcrypto: cannot copy an HMAC context") }
        defer { EVP_MAC_CTX_free(copy) }
        for part in parts where !part.isEmpty {
            guard EVP_MAC_update(copy, part.baseAddress!.assumingMemoryBound(to: UInt8.self), part.count) == 1 else {
                fatalError("libcrypto: HMAC update failed")
            }
        }
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        guard EVP_MAC_final(copy, &mac, &length, 32) == 1, length == 32 else { fatalError("libcrypto: HMAC final failed") }
        return mac
    }
}

/// An EVP_MD_CTX computing SHA-256, freed with its owner.
private final class DigestContext {
    /// SHA-256 as libcrypto's default provider implements it, fetched once: fetching it for
    /// every digest (as `EVP_sha256()` does) costs more than hashing a key.
    nonisolated(unsafe) private static let sha256: OpaquePointer = {
        guard let digest = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("libcrypto has no SHA-256") }
        return digest
    }()

    let pointer: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Self.sha256, nil) == 1 else {
            fatalError("libcrypto: cannot start a SHA-256 digest")
        }
        pointer = context
    }

    private init(copying other: DigestContext) {
        guard let context = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(context, other.pointer) == 1 else {
            fatalError("libcrypto: cannot copy a SHA-256 digest")
        }
        pointer = context
    }

    func copy() -> DigestContext { DigestContext(copying: self) }

    deinit { EVP_MD_CTX_free(pointer) }
}

/// Bytes as lowercase hexadecimal digits.
func hexadecimal(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: text, as: UTF8.self)
}
