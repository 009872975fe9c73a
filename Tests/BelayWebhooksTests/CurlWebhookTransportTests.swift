import BelayTestSupport
@testable import BelayWebhooks
import CCurlShim
import Foundation
import Testing

/// The libcurl transport against a real receiver on loopback: answers, failures, timeouts,
/// and the address guard that keeps webhooks off internal networks.
@Suite struct CurlWebhookTransportTests {
    @Test func postsTheBodyAndHeadersAndReportsTheAnswer() throws {
        let directory = try TemporaryDirectory()
        let receiver = try WebhookReceiverProcess(arguments: ["--fail-first", "1"], in: directory)
        let secret = "whsec_" + Data(repeating: 9, count: 24).base64EncodedString()
        try receiver.useSecret(secret)
        let transport = CurlWebhookTransport(timeoutSeconds: 10, allowPrivateAddresses: true)
        let body = Array(#"{"type":"webhook.test","timestamp":"2026-12-01T00:00:00.000Z","data":{}}"#.utf8)
        let headers = try WebhookSigner.headers(messageID: "msg_t1", timestamp: Int64(Date().timeIntervalSince1970), body: body, secrets: [secret])

        let first = transport.post(url: receiver.url(), headers: headers, body: body)
        #expect(first.statusCode == 503)
        #expect(!first.succeeded)
        #expect(first.error?.hasPrefix("the endpoint answered HTTP 503") == true)
        let second = transport.post(url: receiver.url(), headers: headers, body: body)
        #expect(second.succeeded, "\(String(describing: second.error))")
        #expect(receiver.wait { $0.count == 2 })
        let requests = receiver.requests
        #expect(requests.map(\.verified) == [true, true])
        #expect(requests.map(\.attempt) == [1, 2])
        #expect(requests[1].body == String(decoding: body, as: UTF8.self))
    }

    @Test func deliveriesToOneEndpointReuseTheConnection() throws {
        let directory = try TemporaryDirectory()
        let receiver = try WebhookReceiverProcess(in: directory)
        let transport = CurlWebhookTransport(timeoutSeconds: 10, allowPrivateAddresses: true)
        let body = Array(#"{"type":"webhook.test","timestamp":"2026-12-01T00:00:00.000Z","data":{}}"#.utf8)
        for index in 0..<5 {
            let result = transport.post(url: receiver.url(), headers: [("webhook-id", "msg_keep\(index)")], body: body)
            #expect(result.statusCode == 400, "unsigned, so the receiver refuses it, but it arrives")
        }
        #expect(receiver.wait { $0.count == 5 })
        #expect(Set(receiver.requests.map(\.peerPort)).count == 1, "one connection for all five")
        // A refused address is still refused on a transport whose handles have been used.
        let strict = CurlWebhookTransport(timeoutSeconds: 5, allowPrivateAddresses: false)
        #expect(strict.post(url: receiver.url(), headers: [], body: body).error?.contains("not sent") == true)
    }

    @Test func loopbackIsRefusedAtConnectTimeUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        let receiver = try WebhookReceiverProcess(in: directory)
        let strict = CurlWebhookTransport(timeoutSeconds: 5, allowPrivateAddresses: false)
        // A name resolving to loopback is caught on the address connected to, after DNS.
        for url in [receiver.url(), "http://localhost:\(receiver.port)/hooks"] {
            let result = strict.post(url: url, headers: [], body: Array("{}".utf8))
            #expect(result.statusCode == nil)
            #expect(result.error?.contains("not sent") == true, "\(String(describing: result.error))")
            #expect(result.error?.contains("webhooks.allow_private_addresses") == true)
        }
        #expect(receiver.requests.isEmpty)
    }

    @Test func aSlowEndpointTimesOutAndARefusedConnectionIsAnError() throws {
        let directory = try TemporaryDirectory()
        let receiver = try WebhookReceiverProcess(arguments: ["--hold-first", "webhook.test", "--hold-seconds", "30"], in: directory)
        let transport = CurlWebhookTransport(timeoutSeconds: 1, allowPrivateAddresses: true)
        let started = Date()
        let result = transport.post(url: receiver.url(), headers: [], body: Array(#"{"type":"webhook.test"}"#.utf8))
        #expect(result.error == "no answer within 1 s (webhooks.timeout_seconds)")
        #expect(Date().timeIntervalSince(started) < 10)

        let closed = transport.post(url: "http://127.0.0.1:1/", headers: [], body: [])
        #expect(closed.statusCode == nil)
        #expect(closed.error != nil)
    }

    /// A host with several addresses: libcurl goes on to the next when the guard refuses
    /// one. A delivery that one of them answered is delivered, not "not sent" (which made
    /// the worker send it again, and then disable the endpoint).
    @Test func aRefusedFirstAddressDoesNotHideADeliveryToALaterOne() {
        let delivered = CurlWebhookTransport.attemptResult(CURLE_OK, refusedAddress: "10.0.0.7", status: 204, responseText: "",
                                                           timeoutSeconds: 10)
        #expect(delivered.succeeded && delivered.statusCode == 204 && delivered.error == nil)
        let answered = CurlWebhookTransport.attemptResult(CURLE_OK, refusedAddress: "10.0.0.7", status: 500, responseText: "oops",
                                                          timeoutSeconds: 10)
        #expect(answered.statusCode == 500 && answered.error == "the endpoint answered HTTP 500: oops")
        let refused = CurlWebhookTransport.attemptResult(CURLE_COULDNT_CONNECT, refusedAddress: "10.0.0.7", status: 0,
                                                         responseText: "", timeoutSeconds: 10)
        #expect(refused.statusCode == nil && refused.error?.hasPrefix("not sent: 10.0.0.7 is a loopback, link-local or private address") == true)
        let unreachable = CurlWebhookTransport.attemptResult(CURLE_COULDNT_CONNECT, refusedAddress: nil, status: 0, responseText: "",
                                                             timeoutSeconds: 10)
        #expect(unreachable.error?.hasPrefix("not sent") == false)
    }
}
