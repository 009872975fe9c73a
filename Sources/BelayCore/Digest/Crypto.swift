import CCrypto
import Foundation

/// SHA-256, HMAC-SHA256 (and HMAC-SHA1 for one-time passwords), hex and base64url, and random bytes: from OpenSSL's libcrypto and
/// the system RNG. Belay's one place for these; content names are in `ContentDigest`.
public enum Crypto {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func sha256<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = [UInt8](repeating: 0, count: 32)
        let input = Array(bytes)
        input.withUnsafeBufferPointer { buffer in
            _ = SHA256(buffer.baseAddress, buffer.count, &digest)
        }
        return digest
    }

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                _ = HMAC(EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                         messageBuffer.baseAddress, messageBuffer.count, &digest, &length)
            }
        }
        return digest
    }

    /// The 20-byte HMAC-SHA1 of `message` under `key`: only for TOTP (RFC 6238), whose
    /// authenticator apps compute SHA-1 codes; everything else uses `hmacSHA256`.
    public static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 20
        key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                _ = HMAC(EVP_sha1(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                         messageBuffer.baseAddress, messageBuffer.count, &digest, &length)
            }
        }
        return digest
    }

    /// `count` bytes from the system's cryptographically secure generator.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        // Eight bytes per draw: each draw is a getrandom call, and an id is asked for in
        // every check-in's transaction when a webhook is subscribed.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// Base64url without padding (RFC 4648 §5), safe in URLs and headers.
    /// Encoded by libcrypto and turned into the URL alphabet in place: tokens are made on every
    /// sign-in and refresh, and a calendar feed's is checked on every request.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        var encoded = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let written = encoded.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                EVP_EncodeBlock(output.baseAddress, input.baseAddress, Int32(input.count))
            }
        }
        var end = Int(max(0, written))
        while end > 0 && encoded[end - 1] == UInt8(ascii: "=") { end -= 1 }
        for index in 0..<end {
            switch encoded[index] {
            case UInt8(ascii: "+"): encoded[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): encoded[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: encoded[..<end], as: UTF8.self)
    }

    private static let base64URLValues: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(character)] = Int8(index)
        }
        return table
    }()

    /// Decodes strict base64url (RFC 4648 §5, as JWS uses it and `base64URL` writes it): the
    /// URL-safe alphabet only, no padding, no whitespace, and unused trailing bits zero, so that
    /// one text has one meaning. Nil for anything else.
    public static func decodeBase64URL<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        if text.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = base64URLValues[Int(character)]
            if value < 0 { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return accumulator == 0 ? output : nil
    }

    /// `decodeBase64URL` of a string's UTF-8.
    public static func decodeBase64URL(_ text: String) -> [UInt8]? { decodeBase64URL(Array(text.utf8)) }

    /// Lowercase hexadecimal.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first eight bytes of `digest` from `offset`, big-endian.
    public static func uint64(_ digest: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(digest[index]) }
        return value
    }
}
