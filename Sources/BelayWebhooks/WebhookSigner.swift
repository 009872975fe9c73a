import BelayCore
import Foundation

/// Signs webhook messages as Standard Webhooks 1.0 specifies: the signed content is
/// `{webhook-id}.{webhook-timestamp}.{body}`, the key the base64 part of the `whsec_`
/// secret, the signature `v1,` and the base64 HMAC-SHA256; several signatures (during a
/// secret rotation) are separated by spaces.
public enum WebhookSigner {
    /// The headers of one attempt: `webhook-id`, `webhook-timestamp` (Unix seconds) and
    /// `webhook-signature`, one signature per secret.
    /// - Throws: `WebhookSignerError` for a secret that is not `whsec_` and base64.
    public static func headers(messageID: String, timestamp: Int64, body: [UInt8], secrets: [String]) throws -> [(String, String)] {
        let signatures = try secrets.map { try signature(secret: $0, messageID: messageID, timestamp: timestamp, body: body) }
        return [("webhook-id", messageID), ("webhook-timestamp", String(timestamp)),
                ("webhook-signature", signatures.joined(separator: " "))]
    }

    /// `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under `secret`.
    /// - Throws: `WebhookSignerError` for a secret that is not `whsec_` and base64.
    public static func signature(secret: String, messageID: String, timestamp: Int64, body: [UInt8]) throws -> String {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))), !key.isEmpty else {
            throw WebhookSignerError(description: "A webhook secret is whsec_ followed by base64; rotate the endpoint's secret with `belay webhooks rotate-secret`")
        }
        let content = Array("\(messageID).\(timestamp).".utf8) + body
        return "v1," + Data(Crypto.hmacSHA256(key: Array(key), message: content)).base64EncodedString()
    }
}

/// A secret that cannot sign.
public struct WebhookSignerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
