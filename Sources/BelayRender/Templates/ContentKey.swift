import CCrypto

/// Names a rendered image by everything that decides its pixels: the template and its
/// version, the artworks' contents (SHA-256 of the files), the text, the scale, the colours,
/// the format and the fonts. Equal keys mean equal images, so the pipeline renders identical
/// inputs once and stores the result under `digest`.
public struct ContentKey: Hashable, Sendable, CustomStringConvertible {
    /// Every input, one per line, readable (for logs and debugging).
    public let canonical: String
    /// SHA-256 of `canonical` in lowercase hex: the stored file's name.
    public let digest: String

    public var description: String { digest }
}

/// Collects inputs as `name=<byte count>:<value>` lines, so no two different inputs can
/// produce the same text.
struct ContentKeyBuilder {
    private var lines: [String]

    init(template: Template) {
        lines = ["belay-render", "template=\(template.rawValue)", "version=\(template.version)"]
    }

    mutating func add(_ name: String, _ value: String) {
        lines.append("\(name)=\(value.utf8.count):\(value)")
    }

    func finish() -> ContentKey {
        let canonical = lines.joined(separator: "\n")
        return ContentKey(canonical: canonical, digest: SHA256Digest.hex(of: Array(canonical.utf8)))
    }
}

/// SHA-256 through libcrypto.
enum SHA256Digest {
    static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
