import BelayCore

/// One key of a provider's JWKS, as far as ID tokens need it.
struct JSONWebKey: Sendable {
    /// What the key is: a usable RSA or P-256 key, another kind (which no allowed algorithm
    /// uses), or one whose numbers make no key.
    enum Material: Sendable {
        case rsa(SignatureKey)
        case p256(SignatureKey)
        case other(String)
        case unusable(String)
    }

    let id: String
    let material: Material
    /// The JWK's `alg`, when it names one.
    let algorithm: String?
    /// The JWK's `use`, when it says.
    let use: String?

    /// How the key is described in a refusal: "RSA", "EC P-384", …
    var kindDescription: String {
        switch material {
        case .rsa: "RSA"
        case .p256: "EC P-256"
        case let .other(kind): kind
        case .unusable: "unusable"
        }
    }
}

/// Reads a JSON Web Key Set (RFC 7517): `{"keys": [...]}`. Keys without a `kid` are skipped
/// (a token always names its key); a key whose numbers are wrong is kept as unusable, so that
/// only tokens signed with it are refused.
enum JSONWebKeySet {
    /// - Throws: `IdentityTokenError` `malformedKeys` when the document is not a key set.
    static func parse(_ bytes: [UInt8], from url: String) throws(IdentityTokenError) -> [String: JSONWebKey] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw IdentityTokenError(code: .malformedKeys, detail: "the keys at \(url) are not JSON (\(error)); check the provider's JWKS URL")
        }
        guard let keys = document["keys"]?.arrayValue else {
            throw IdentityTokenError(code: .malformedKeys, detail: "the document at \(url) has no \"keys\" array; check the provider's JWKS URL")
        }
        var found: [String: JSONWebKey] = [:]
        for entry in keys {
            guard let object = entry.objectValue else {
                throw IdentityTokenError(code: .malformedKeys, detail: "the key set at \(url) has an entry that is not an object")
            }
            guard let id = object["kid"]?.stringValue else { continue }
            found[id] = JSONWebKey(id: id, material: material(object), algorithm: object["alg"]?.stringValue, use: object["use"]?.stringValue)
        }
        return found
    }

    private static func material(_ key: JSONObject) -> JSONWebKey.Material {
        switch key["kty"]?.stringValue {
        case "RSA":
            guard let n = key["n"]?.stringValue.flatMap(Crypto.decodeBase64URL), let e = key["e"]?.stringValue.flatMap(Crypto.decodeBase64URL) else {
                return .unusable("its n or e is missing or not base64url")
            }
            guard let made = SignatureKey.rsaPublic(modulus: n, exponent: e) else {
                return .unusable("its n and e make no RSA key of 2048 bits or more")
            }
            return .rsa(made)
        case "EC":
            let curve = key["crv"]?.stringValue ?? "(no crv)"
            guard curve == "P-256" else { return .other("EC \(curve)") }
            guard let x = key["x"]?.stringValue.flatMap(Crypto.decodeBase64URL), let y = key["y"]?.stringValue.flatMap(Crypto.decodeBase64URL) else {
                return .unusable("its x or y is missing or not base64url")
            }
            guard let made = SignatureKey.p256Public(x: x, y: y) else {
                return .unusable("its x and y are not a point on P-256")
            }
            return .p256(made)
        case let kind?:
            return .other(kind)
        case nil:
            return .unusable("it has no kty")
        }
    }
}
