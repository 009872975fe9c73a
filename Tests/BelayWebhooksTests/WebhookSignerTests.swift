import BelayTestSupport
import BelayWebhooks
import Foundation
import Testing

/// Belay's signatures checked by the Standard Webhooks reference library (PyPI
/// `standardwebhooks`), not only by Belay's own code.
@Suite struct WebhookSignerTests {
    /// Runs `scripts/testing/verify-webhook.py` on one message; its exit status and output.
    static func referenceVerify(secret: String, headers: [(String, String)], body: String) throws -> (Int32, String) {
        let root = BelayProcess.packageRoot
        let request: [String: Any] = ["secret": secret, "headers": Dictionary(uniqueKeysWithValues: headers), "body": body]
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/verify-webhook.py").path],
                                             input: try JSONSerialization.data(withJSONObject: request))
        return (result.status, result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let body = #"{"type":"check_in.created","timestamp":"2026-12-01T09:30:00.250Z","data":{"id":7,"display_name":"지수 🧗"}}"#

    @Test func theReferenceLibraryAcceptsBelaysSignature() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let headers = try WebhookSigner.headers(messageID: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", timestamp: now, body: Array(Self.body.utf8),
                                                secrets: [Self.secret])
        #expect(headers.map(\.0) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers[2].1.hasPrefix("v1,"))
        let (status, output) = try Self.referenceVerify(secret: Self.secret, headers: headers, body: Self.body)
        #expect(status == 0, "\(output)")
        #expect(output == "verified check_in.created")
    }

    @Test func theReferenceLibraryRefusesATamperedBodyOrAnotherSecret() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let headers = try WebhookSigner.headers(messageID: "msg_1", timestamp: now, body: Array(Self.body.utf8), secrets: [Self.secret])
        let tampered = Self.body.replacingOccurrences(of: "\"id\":7", with: "\"id\":8")
        #expect(try Self.referenceVerify(secret: Self.secret, headers: headers, body: tampered).0 == 1)
        #expect(try Self.referenceVerify(secret: "whsec_" + Data(repeating: 7, count: 24).base64EncodedString(),
                                         headers: headers, body: Self.body).0 == 1)
    }

    @Test func duringARotationEitherSecretVerifies() throws {
        let old = "whsec_" + Data(repeating: 1, count: 24).base64EncodedString()
        let now = Int64(Date().timeIntervalSince1970)
        let headers = try WebhookSigner.headers(messageID: "msg_rot", timestamp: now, body: Array(Self.body.utf8), secrets: [Self.secret, old])
        #expect(headers[2].1.split(separator: " ").count == 2)
        #expect(try Self.referenceVerify(secret: Self.secret, headers: headers, body: Self.body).0 == 0)
        #expect(try Self.referenceVerify(secret: old, headers: headers, body: Self.body).0 == 0)
    }

    @Test func aKnownVectorAndABadSecret() throws {
        // HMAC-SHA256 over "msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}" with the
        // key below, as the Standard Webhooks specification's example shows it.
        let signature = try WebhookSigner.signature(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", messageID: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                                    timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(throws: WebhookSignerError.self) {
            _ = try WebhookSigner.signature(secret: "not-a-secret", messageID: "m", timestamp: 1, body: [])
        }
    }
}
