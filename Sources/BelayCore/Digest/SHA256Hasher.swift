import CCrypto

/// SHA-256 over bytes given piece by piece, for data too large to hold at once (a whole
/// table's rows), from libcrypto. `Crypto.sha256` hashes bytes already in memory.
///
/// Not thread-safe: one caller feeds an instance, then takes its digest once.
public final class SHA256Hasher {
    private let context: OpaquePointer
    private var finished = false

    /// A hasher that has seen nothing yet.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            // Only an exhausted or broken libcrypto refuses to start a digest.
            preconditionFailure("libcrypto cannot start a SHA-256 digest")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to what is hashed.
    public func update(_ bytes: [UInt8]) {
        precondition(!finished, "SHA256Hasher.update after finish")
        bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The 32-byte digest of everything added; call it once, last.
    public func finish() -> [UInt8] {
        precondition(!finished, "SHA256Hasher.finish called twice")
        finished = true
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }
}
