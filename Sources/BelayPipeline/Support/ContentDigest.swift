import CCrypto

/// The names of content-addressed files: the SHA-256 of a renderer's content key, in hex.
public enum ContentDigest {
    /// 64 lowercase hex digits of SHA-256(`key` as UTF-8).
    public static func hex(of key: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let bytes = Array(key.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            _ = SHA256(buffer.baseAddress, buffer.count, &digest)
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

    /// True for 64 lowercase hex digits (a name this store could have made).
    static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
