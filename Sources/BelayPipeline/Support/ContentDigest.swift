import BelayDomain

/// The names of content-addressed files: the SHA-256 of a renderer's content key, in hex.
public enum ContentDigest {
    /// 64 lowercase hex digits of SHA-256(`key` as UTF-8).
    public static func hex(of key: String) -> String { Crypto.hex(Crypto.sha256(Array(key.utf8))) }

    /// True for 64 lowercase hex digits (a name this store could have made).
    static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
