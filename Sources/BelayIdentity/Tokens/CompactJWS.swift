import BelayCore

/// A compact JWS (`header.payload.signature`, RFC 7515) taken apart, nothing checked yet
/// but its shape: three strict base64url segments, a JSON object header and payload.
struct CompactJWS {
    /// Tokens of Apple and Google are about 1 KB; anything much longer is not one.
    static let maximumLength = 16 * 1024

    let header: JSONObject
    let claims: JSONObject
    /// `header.payload` as sent: what the signature signs.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// - Throws: `IdentityTokenError` `malformedToken` naming the part that is wrong.
    static func parse(_ token: String) throws(IdentityTokenError) -> CompactJWS {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { throw malformed("the token is empty") }
        guard bytes.count <= maximumLength else { throw malformed("the token is \(bytes.count) bytes, more than the \(maximumLength) an ID token can be") }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw malformed("a compact ID token has three parts separated by dots; this one has \(segments.count)")
        }
        guard let headerBytes = Crypto.decodeBase64URL(segments[0]) else { throw malformed("the header is not base64url") }
        guard let payloadBytes = Crypto.decodeBase64URL(segments[1]) else { throw malformed("the payload is not base64url") }
        guard let signature = Crypto.decodeBase64URL(segments[2]) else { throw malformed("the signature is not base64url") }
        let header = try object(headerBytes, part: "header")
        let claims = try object(payloadBytes, part: "payload")
        return CompactJWS(header: header, claims: claims, signingInput: Array(bytes[..<(segments[1].endIndex)]), signature: signature)
    }

    private static func object(_ bytes: [UInt8], part: String) throws(IdentityTokenError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: 16)
        } catch {
            throw malformed("the \(part) is not JSON")
        }
        guard let object = value.objectValue else { throw malformed("the \(part) is \(value.kindDescription), not a JSON object") }
        return object
    }

    static func malformed(_ detail: String) -> IdentityTokenError {
        IdentityTokenError(code: .malformedToken, detail: detail + "; ask the app to sign in again")
    }
}
