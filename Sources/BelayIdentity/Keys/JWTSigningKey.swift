import BelayCore
import Foundation

/// A private key that signs JWTs: ES256 with an EC P-256 key (an APNs `.p8` key), RS256
/// with an RSA key (a Google service account's key).
///
/// Threading: safe from any thread; the key is only read.
public final class JWTSigningKey: Sendable {
    /// The JWS `alg` this key signs with.
    public let algorithm: String
    private let key: SignatureKey

    /// Reads a PEM private key (PKCS#8, unencrypted).
    /// - Throws: `JWTSigningKeyError` when the text is not an EC P-256 or RSA private key.
    public init(pem: [UInt8], describedAs source: String) throws {
        guard let key = SignatureKey.privateKey(pem: pem) else {
            throw JWTSigningKeyError(description: "\(source) is not an unencrypted EC P-256 or RSA private key in PEM (PKCS#8)")
        }
        self.key = key
        algorithm = key.kind == .ecP256 ? "ES256" : "RS256"
    }

    /// Reads the PEM private key in `path`.
    /// - Throws: `JWTSigningKeyError` naming the file when it cannot be read or holds no usable key.
    public convenience init(file path: String) throws {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw JWTSigningKeyError(description: "the key file \(path) cannot be read: check the path and its permissions")
        }
        try self.init(pem: Array(contents), describedAs: "the key file \(path)")
    }

    /// A compact JWT of `claims` with header `{alg, kid?, typ?}`.
    /// - Throws: `JWTSigningKeyError` when OpenSSL cannot sign.
    public func sign(claims: JSONValue, keyID: String?, type: String? = nil) throws -> String {
        var header: [(String, JSONValue)] = [("alg", .string(algorithm))]
        if let keyID { header.append(("kid", .string(keyID))) }
        if let type { header.append(("typ", .string(type))) }
        let input = Crypto.base64URL(JSONValue.object(JSONObject(header)).jsonBytes) + "." + Crypto.base64URL(claims.jsonBytes)
        let message = Array(input.utf8)
        guard let signature = key.kind == .ecP256 ? key.es256Signature(of: message) : key.rs256Signature(of: message) else {
            throw JWTSigningKeyError(description: "OpenSSL could not sign with the \(algorithm) key")
        }
        return input + "." + Crypto.base64URL(signature)
    }
}

/// Why a signing key cannot be used, for a person.
public struct JWTSigningKeyError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
