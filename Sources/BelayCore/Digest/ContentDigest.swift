/// The names of content-addressed things: the SHA-256 of their bytes (or of a content key's
/// text) in lowercase hex. Stored images, migration checksums and ETags are all named so.
public enum ContentDigest {
    /// 64 lowercase hex digits of SHA-256(`bytes`).
    public static func hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Crypto.hex(Crypto.sha256(bytes))
    }

    /// 64 lowercase hex digits of SHA-256(`text` as UTF-8).
    public static func hex(of text: String) -> String { hex(of: Array(text.utf8)) }

    /// True for 64 lowercase hex digits (a name `hex(of:)` could have made).
    public static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
