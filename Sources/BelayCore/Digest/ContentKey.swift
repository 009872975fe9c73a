/// Names content by everything that decides it: a readable text of the inputs, one per line,
/// and its digest. Equal keys mean equal content, so a renderer's identical inputs are drawn
/// once and stored under `digest`, which is computed once, here.
public struct ContentKey: Hashable, Sendable, CustomStringConvertible {
    /// Every input, one per line, readable (for logs and debugging).
    public let canonical: String
    /// `ContentDigest.hex(of: canonical)`: the stored file's name.
    public let digest: String

    /// The key of `canonical`, hashing it once.
    public init(canonical: String) {
        self.canonical = canonical
        digest = ContentDigest.hex(of: canonical)
    }

    public var description: String { digest }
}
