import BelayCore
import BelayHTTP
import Foundation
import Testing

/// The middleware driven in-process through the router: allowed responses carry the two
/// fields, refusals are 429 problems with `Retry-After`, and the fields parse back exactly.
@Suite("Rate limit middleware")
struct RateLimitMiddlewareTests {
    let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))

    /// One item of a `RateLimit-Policy` or `RateLimit` field: a quoted name and integer
    /// parameters, in the exact shape `"auth";q=10;w=60`.
    struct FieldItem: Equatable {
        let name: String
        let parameters: [String]
        let values: [Int]

        init(name: String, _ parameters: KeyValuePairs<String, Int>) {
            self.name = name
            self.parameters = parameters.map(\.key)
            values = parameters.map(\.value)
        }

        init?(parsing text: String) throws {
            let pattern = try Regex(#"^"([a-z]+)"((?:;[a-z]+=[0-9]+)+)$"#)
            guard let match = try pattern.wholeMatch(in: text), let name = match.output[1].substring,
                  let list = match.output[2].substring else { return nil }
            var keys: [String] = [], numbers: [Int] = []
            for parameter in list.split(separator: ";") {
                let pair = parameter.split(separator: "=")
                keys.append(String(pair[0]))
                numbers.append(Int(pair[1]) ?? -1)
            }
            self.name = String(name)
            parameters = keys
            values = numbers
        }
    }

    func field(_ response: Response, _ name: String) throws -> FieldItem? {
        let values = response.headers.values(for: name)
        try #require(values.count <= 1, "one \(name) field: \(values)")
        return try values.first.flatMap { try FieldItem(parsing: $0) }
    }

    func problem(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.bytes)) as? [String: Any])
    }

    func makeResponder(limiter: RateLimiter, policy: RateLimitPolicy, trustedProxies: Set<String> = []) -> RouterResponder<BasicRequestContext> {
        let logger = Logger(label: "http", sink: CapturingLogSink())
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: logger, trustedProxies: trustedProxies)
        let limited = router.group("/v1/auth").add(middleware: RateLimitMiddleware<BasicRequestContext>(policy: policy, limiter: limiter) { request, _ in
            request.headers["X-Unlimited"] == nil ? ["ip:\(request.remoteAddress)"] : nil
        })
        limited.post("/sessions") { request, _ in .text("hello \(request.remoteAddress)") }
        limited.get("/missing") { _, _ in throw HTTPError.notFound(detail: "No such session.") }
        router.post("/v1/invitations") { request, _ in
            let email = String(decoding: request.body, as: UTF8.self)
            try limiter.check(policy, keys: ["email:\(email)"])
            return .text("invited")
        }
        return router.buildResponder()
    }

    func post(_ responder: RouterResponder<BasicRequestContext>, _ path: String, from address: String = "192.0.2.4",
              headers: HTTPHeaders = [:], body: String = "") -> Response {
        responder.respond(to: Request(method: .post, path: path, headers: headers, body: Array(body.utf8), remoteAddress: address))
    }

    @Test("allowed responses carry RateLimit-Policy and RateLimit; the refusal is a 429 problem with Retry-After")
    func allowedThenRefused() throws {
        let policy = try RateLimitPolicy(name: "auth", requests: 2, perSeconds: 60)
        let responder = makeResponder(limiter: RateLimiter(clock: clock), policy: policy)

        let first = post(responder, "/v1/auth/sessions")
        #expect(first.status == .ok)
        #expect(first.headers["RateLimit-Policy"] == #""auth";q=2;w=60"#)
        #expect(first.headers["RateLimit"] == #""auth";r=1;t=30"#)
        #expect(try field(first, "RateLimit-Policy") == FieldItem(name: "auth", ["q": 2, "w": 60]))
        #expect(try field(first, "RateLimit") == FieldItem(name: "auth", ["r": 1, "t": 30]))
        let second = post(responder, "/v1/auth/sessions")
        #expect(try field(second, "RateLimit") == FieldItem(name: "auth", ["r": 0, "t": 60]))

        clock.advance(by: 10)
        let refused = post(responder, "/v1/auth/sessions", headers: ["X-Request-Id": "rl-1"])
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.headers["Retry-After"] == "20")
        #expect(try field(refused, "RateLimit-Policy") == FieldItem(name: "auth", ["q": 2, "w": 60]))
        // Reset names the same instant as Retry-After.
        #expect(try field(refused, "RateLimit") == FieldItem(name: "auth", ["r": 0, "t": 20]))
        let body = try problem(refused)
        #expect(body["status"] as? Int == 429)
        #expect(body["code"] as? String == "rate_limited")
        #expect(body["type"] as? String == "/problems/rate_limited")
        #expect(body["request_id"] as? String == "rl-1")
        #expect(body["detail"] as? String == "Too many requests under the `auth` limit, which allows 2 requests per 60 seconds; retry in 20 seconds.")
        #expect(body["policy"] as? String == "auth")
        #expect(body["limit"] as? Int == 2)
        #expect(body["window_seconds"] as? Int == 60)
        #expect(body["retry_after_seconds"] as? Int == 20)

        // Another address has its own bucket; a request the keys leave out is not limited.
        #expect(post(responder, "/v1/auth/sessions", from: "198.51.100.7").status == .ok)
        let unlimited = post(responder, "/v1/auth/sessions", headers: ["X-Unlimited": "1"])
        #expect(unlimited.status == .ok)
        #expect(unlimited.headers["RateLimit"] == nil)

        clock.advance(by: 20)
        #expect(post(responder, "/v1/auth/sessions").status == .ok)
    }

    @Test("an error answered further in carries the fields too")
    func errorsCarryTheFields() throws {
        let policy = try RateLimitPolicy(name: "auth", requests: 5, perSeconds: 60)
        let responder = makeResponder(limiter: RateLimiter(clock: clock), policy: policy)
        let missing = responder.respond(to: Request(method: .get, path: "/v1/auth/missing", remoteAddress: "192.0.2.4"))
        #expect(missing.status == .notFound)
        #expect(try field(missing, "RateLimit") == FieldItem(name: "auth", ["r": 4, "t": 12]))
        #expect(try field(missing, "RateLimit-Policy") == FieldItem(name: "auth", ["q": 5, "w": 60]))
    }

    @Test("a handler checks a limit keyed by the body and is answered the same 429")
    func checkInAHandler() throws {
        let policy = try RateLimitPolicy(name: "auth", requests: 1, perSeconds: 3600)
        let responder = makeResponder(limiter: RateLimiter(clock: clock), policy: policy)
        #expect(post(responder, "/v1/invitations", body: "minji@example.org").status == .ok)
        // From another address, the same email is still limited.
        let refused = post(responder, "/v1/invitations", from: "198.51.100.7", body: "minji@example.org")
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "3600")
        #expect(try problem(refused)["detail"] as? String
            == "Too many requests under the `auth` limit, which allows 1 request per 3600 seconds; retry in 3600 seconds.")
        #expect(try field(refused, "RateLimit") == FieldItem(name: "auth", ["r": 0, "t": 3600]))
        #expect(post(responder, "/v1/invitations", body: "jun@example.org").status == .ok)
    }

    @Test("behind a trusted proxy, the bucket is the forwarded client's, not the proxy's")
    func forwardedClientIsTheKey() throws {
        let policy = try RateLimitPolicy(name: "auth", requests: 1, perSeconds: 60)
        let responder = makeResponder(limiter: RateLimiter(clock: clock), policy: policy, trustedProxies: ["127.0.0.1"])
        let first = post(responder, "/v1/auth/sessions", from: "127.0.0.1", headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(first.status == .ok)
        #expect(String(decoding: first.body.bytes, as: UTF8.self) == "hello 203.0.113.7")
        #expect(post(responder, "/v1/auth/sessions", from: "127.0.0.1", headers: ["X-Forwarded-For": "203.0.113.8"]).status == .ok)
        #expect(post(responder, "/v1/auth/sessions", from: "127.0.0.1", headers: ["X-Forwarded-For": "203.0.113.7"]).status == .tooManyRequests)
    }
}
