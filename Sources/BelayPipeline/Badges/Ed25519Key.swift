import BelayCore
import BelayDomain
import CCrypto
import Foundation

/// An Ed25519 signing key (its 32-byte seed) and its public key, through libcrypto.
public struct Ed25519Key: Sendable, Hashable {
    /// The private seed; never leaves the key store's file.
    let seed: [UInt8]
    /// The 32-byte public key.
    public let publicKey: [UInt8]

    /// A new random key.
    /// - Throws: `PipelineError` when libcrypto cannot make one.
    public static func generate() throws -> Ed25519Key {
        var seed = [UInt8](repeating: 0, count: 32)
        var publicKey = [UInt8](repeating: 0, count: 32)
        guard belay_ed25519_generate(&seed, &publicKey) == 1 else {
            throw PipelineError.invalidSetting("badge key", "libcrypto could not generate an Ed25519 key")
        }
        return Ed25519Key(seed: seed, publicKey: publicKey)
    }

    /// The key with this seed.
    /// - Throws: `PipelineError` for a seed that is not 32 bytes or not usable.
    public init(seed: [UInt8]) throws {
        var publicKey = [UInt8](repeating: 0, count: 32)
        guard seed.count == 32, belay_ed25519_public_key(seed, &publicKey) == 1 else {
            throw PipelineError.invalidSetting("badge key", "the stored key is not a 32-byte Ed25519 seed")
        }
        self.init(seed: seed, publicKey: publicKey)
    }

    private init(seed: [UInt8], publicKey: [UInt8]) {
        self.seed = seed
        self.publicKey = publicKey
    }

    /// The 64-byte signature of `message`.
    /// - Throws: `PipelineError` when libcrypto refuses to sign.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        guard belay_ed25519_sign(seed, message, message.count, &signature) == 1 else {
            throw PipelineError.invalidSetting("badge key", "libcrypto could not sign with the Ed25519 key")
        }
        return signature
    }

    /// Whether `signature` is `publicKey`'s signature of `message`.
    public static func verify(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        publicKey.count == 32 && belay_ed25519_verify(publicKey, message, message.count, signature, signature.count) == 1
    }

    /// The public key as a JWK (`{"crv":"Ed25519","kty":"OKP","x":…}`).
    public var jwk: JSONObject { ["kty": "OKP", "crv": "Ed25519", "x": .string(Crypto.base64URL(publicKey))] }

    /// The RFC 7638 thumbprint of the public JWK: the key's id.
    public var thumbprint: String {
        let canonical = #"{"crv":"Ed25519","kty":"OKP","x":"\#(Crypto.base64URL(publicKey))"}"#
        return Crypto.base64URL(Crypto.sha256(Array(canonical.utf8)))
    }

    /// The public key as a PEM `PUBLIC KEY` (SubjectPublicKeyInfo), for other verifiers.
    public var publicKeyPEM: String {
        // The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), then the raw key.
        let der: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00] + publicKey
        return "-----BEGIN PUBLIC KEY-----\n" + Data(der).base64EncodedString() + "\n-----END PUBLIC KEY-----\n"
    }
}
