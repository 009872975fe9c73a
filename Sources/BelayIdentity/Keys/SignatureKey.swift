import CCrypto

/// One OpenSSL key (`EVP_PKEY`), owned here and freed in `deinit`. OpenSSL 3 keys are
/// reference-counted and safe to use from several threads at once for verifying and signing,
/// which only read the key; nothing changes a key once it is made.
final class SignatureKey: @unchecked Sendable {
    enum Kind: Sendable, Equatable {
        case rsa
        case ecP256
    }

    let key: OpaquePointer
    let kind: Kind

    private init(key: OpaquePointer, kind: Kind) {
        self.key = key
        self.kind = kind
    }

    deinit { EVP_PKEY_free(key) }

    /// An RSA public key from a JWK's `n` and `e`; nil when they make no key OpenSSL accepts,
    /// or one shorter than 2048 bits.
    static func rsaPublic(modulus: [UInt8], exponent: [UInt8]) -> SignatureKey? {
        let made = modulus.withUnsafeBufferPointer { n in
            exponent.withUnsafeBufferPointer { e in
                belay_rsa_public_key(n.baseAddress, n.count, e.baseAddress, e.count)
            }
        }
        guard let made else { return nil }
        let key = SignatureKey(key: made, kind: .rsa)
        return EVP_PKEY_get_bits(made) >= 2048 ? key : nil
    }

    /// An EC P-256 public key from a JWK's `x` and `y` (32 bytes each); nil when the point is
    /// not on the curve.
    static func p256Public(x: [UInt8], y: [UInt8]) -> SignatureKey? {
        guard x.count == 32, y.count == 32 else { return nil }
        let made = x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in belay_ec_p256_public_key(xs.baseAddress, ys.baseAddress) }
        }
        return made.map { SignatureKey(key: $0, kind: .ecP256) }
    }

    /// A private key from PEM text; nil when it is not one OpenSSL reads (or is encrypted),
    /// or neither RSA nor EC on P-256.
    static func privateKey(pem: [UInt8]) -> SignatureKey? {
        let made = pem.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { belay_pem_private_key($0.baseAddress, $0.count) }
        }
        guard let made else { return nil }
        if belay_key_is_p256(made) == 1 { return SignatureKey(key: made, kind: .ecP256) }
        if belay_key_is_rsa(made) == 1 { return SignatureKey(key: made, kind: .rsa) }
        EVP_PKEY_free(made)
        return nil
    }

    /// Whether `signature` signs `message` with SHA-256 under this key (RS256, or ES256 with
    /// the raw r||s signature JWS uses).
    func verifies(signature: [UInt8], of message: [UInt8]) -> Bool {
        message.withUnsafeBufferPointer { m in
            signature.withUnsafeBufferPointer { s in
                belay_verify_sha256(key, m.baseAddress, m.count, s.baseAddress, s.count) == 1
            }
        }
    }

    /// The RS256 signature of `message`; nil when OpenSSL fails or the key is not RSA.
    func rs256Signature(of message: [UInt8]) -> [UInt8]? {
        guard kind == .rsa else { return nil }
        var signature = [UInt8](repeating: 0, count: 1_024)
        var length = signature.count
        let ok = message.withUnsafeBufferPointer { m in belay_rs256_sign(key, m.baseAddress, m.count, &signature, &length) }
        return ok == 1 ? Array(signature.prefix(length)) : nil
    }

    /// The ES256 signature (raw r||s, 64 bytes) of `message`; nil when OpenSSL fails or the
    /// key is not a P-256 key.
    func es256Signature(of message: [UInt8]) -> [UInt8]? {
        guard kind == .ecP256 else { return nil }
        var signature = [UInt8](repeating: 0, count: 64)
        let ok = message.withUnsafeBufferPointer { m in belay_es256_sign(key, m.baseAddress, m.count, &signature) }
        return ok == 1 ? signature : nil
    }
}
