import CCrypto
import Foundation

/// A strong ETag naming content by its digest: `"<sha-256 hex>"`.
enum ContentETag {
    /// The ETag of `bytes`.
    static func of(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { buffer in _ = SHA256(buffer.baseAddress, buffer.count, &digest) }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }
}
