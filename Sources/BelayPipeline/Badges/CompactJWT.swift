import BelayCore
import BelayDomain
import Foundation

/// JSON Web Tokens in compact form, signed with EdDSA (Ed25519): what Open Badges 3.0 calls a
/// VC-JWT. Members are written with sorted keys, so a token for the same claims and key is
/// byte for byte the same (Ed25519 signatures are deterministic): a sticker is reproducible.
public enum CompactJWT {
    /// `header.payload.signature` for `payload` under `key`; the header carries the key's id
    /// and the public key itself (`jwk`).
    /// - Throws: `PipelineError` when the claims cannot be written as JSON or signing fails.
    public static func sign(_ payload: [String: Any], key: Ed25519Key, keyID: String) throws -> String {
        let header: [String: Any] = ["alg": "EdDSA", "typ": "JWT", "kid": keyID, "jwk": key.jwk]
        let signingInput = try encoded(header) + "." + encoded(payload)
        return signingInput + "." + Crypto.base64URL(try key.sign(Array(signingInput.utf8)))
    }

    /// A token's parts, decoded but not verified.
    public struct Parts {
        public let header: [String: Any]
        public let payload: [String: Any]
        let signingInput: [UInt8]
        let signature: [UInt8]

        /// Whether the signature is `publicKey`'s, with the algorithm EdDSA.
        public func isSigned(by publicKey: [UInt8]) -> Bool {
            header["alg"] as? String == "EdDSA" && Ed25519Key.verify(signature: signature, of: signingInput, publicKey: publicKey)
        }
    }

    /// Splits and decodes `token`, or nil when it is not a compact JWT with JSON objects.
    public static func parts(of token: String) -> Parts? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let headerBytes = Crypto.decodeBase64URL(String(pieces[0])),
              let payloadBytes = Crypto.decodeBase64URL(String(pieces[1])),
              let signature = Crypto.decodeBase64URL(String(pieces[2])),
              let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
              let payload = (try? JSONSerialization.jsonObject(with: Data(payloadBytes))) as? [String: Any] else { return nil }
        return Parts(header: header, payload: payload, signingInput: Array((pieces[0] + "." + pieces[1]).utf8), signature: signature)
    }

    static func encoded(_ object: [String: Any]) throws -> String {
        do {
            return Crypto.base64URL(Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])))
        } catch {
            throw PipelineError.invalidSetting("badge", "the credential cannot be written as JSON: \(error)")
        }
    }
}
