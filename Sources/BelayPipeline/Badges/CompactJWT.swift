import BelayCore
import BelayDomain
import Foundation

/// JSON Web Tokens in compact form, signed with EdDSA (Ed25519): what Open Badges 3.0 calls a
/// VC-JWT. Members are written by `JSONOutput` with sorted keys, so a token for the same claims
/// and key is byte for byte the same (Ed25519 signatures are deterministic): a sticker is
/// reproducible.
public enum CompactJWT {
    /// `header.payload.signature` for `payload` under `key`; the header carries the key's id
    /// and the public key itself (`jwk`).
    /// - Throws: `PipelineError` when signing fails.
    public static func sign(_ payload: JSONObject, key: Ed25519Key, keyID: String) throws -> String {
        let header: JSONObject = ["alg": "EdDSA", "typ": "JWT", "kid": .string(keyID), "jwk": .object(key.jwk)]
        let signingInput = encoded(header) + "." + encoded(payload)
        return signingInput + "." + Crypto.base64URL(try key.sign(Array(signingInput.utf8)))
    }

    /// A token's parts, decoded but not verified.
    public struct Parts {
        public let header: JSONObject
        public let payload: JSONObject
        let signingInput: [UInt8]
        let signature: [UInt8]

        /// Whether the signature is `publicKey`'s, with the algorithm EdDSA.
        public func isSigned(by publicKey: [UInt8]) -> Bool {
            header["alg"] == "EdDSA" && Ed25519Key.verify(signature: signature, of: signingInput, publicKey: publicKey)
        }
    }

    /// Splits and decodes `token`, or nil when it is not a compact JWT with JSON objects.
    public static func parts(of token: String) -> Parts? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let headerBytes = Crypto.decodeBase64URL(String(pieces[0])),
              let payloadBytes = Crypto.decodeBase64URL(String(pieces[1])),
              let signature = Crypto.decodeBase64URL(String(pieces[2])),
              let header = (try? JSONParser.parse(headerBytes))?.objectValue,
              let payload = (try? JSONParser.parse(payloadBytes))?.objectValue else { return nil }
        return Parts(header: header, payload: payload, signingInput: Array((pieces[0] + "." + pieces[1]).utf8), signature: signature)
    }

    static func encoded(_ object: JSONObject) -> String {
        Crypto.base64URL(JSONValue.object(object).jsonBytes)
    }
}
