import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

@Suite("Problem responses (RFC 9457)")
struct ProblemTests {
    struct DatabaseExploded: Error, CustomStringConvertible {
        var description: String { "SQLite error 11: database disk image is malformed at /srv/secret/path.db" }
    }

    @Test("a thrown HTTPError becomes problem+json with every standard member, extensions and headers")
    func problemShape() throws {
        let test = try TestServer { router, logger in
            router.addStandardMiddleware(logger: logger)
            router.post("/v1/meetups/{id}/check-in") { _, _ in
                throw HTTPError(.conflict, code: "check_in_refused", detail: "The check-in window closed at 21:00.",
                                headers: ["Retry-After": "60"], extensions: ["reason": "window_closed", "code": "overridden?"])
            }
        }
        let response = try test.request("POST", "/v1/meetups/7/check-in", headers: [("X-Request-Id", "req-77")])
        #expect(response.status == 409)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Retry-After") == "60")
        #expect(response.header("Cache-Control") == "no-store")
        let problem = try #require(response.jsonObject)
        #expect(problem["type"] as? String == "/problems/check_in_refused")
        #expect(problem["title"] as? String == "Conflict")
        #expect(problem["status"] as? Int == 409)
        #expect(problem["detail"] as? String == "The check-in window closed at 21:00.")
        #expect(problem["instance"] as? String == "/v1/meetups/7/check-in")
        #expect(problem["code"] as? String == "check_in_refused")
        #expect(problem["request_id"] as? String == "req-77")
        #expect(problem["reason"] as? String == "window_closed")
        // Extensions cannot replace standard members.
        #expect(response.text.components(separatedBy: "\"code\"").count == 2)
    }

    @Test("an unexpected error is answered 500 with nothing internal, and logged with the request id")
    func unexpectedError() throws {
        let test = try TestServer { router, logger in
            router.addStandardMiddleware(logger: logger)
            router.get("/boom") { _, _ in throw DatabaseExploded() }
        }
        let response = try test.request("GET", "/boom", headers: [("X-Request-Id", "boom-1")])
        #expect(response.status == 500)
        #expect(!response.text.contains("SQLite"))
        #expect(!response.text.contains("secret"))
        #expect(!response.text.contains("DatabaseExploded"))
        let problem = try #require(response.jsonObject)
        #expect(problem["code"] as? String == "internal_error")
        #expect(problem["request_id"] as? String == "boom-1")
        #expect((problem["detail"] as? String)?.contains("boom-1") == true)

        let errors = test.log.entries.filter { $0.level == .error }
        #expect(errors.count == 1)
        let entry = try #require(errors.first)
        #expect(entry.message.contains("SQLite error 11"))
        #expect(entry.metadata.contains { $0.key == "request_id" && $0.value == "boom-1" })
        // The access log line for the same request carries the status and the request id.
        #expect(test.log.entries.contains { $0.message == "GET /boom 500" && $0.metadata.contains { $0.key == "request_id" && $0.value == "boom-1" } })
    }

    @Test("without ErrorMiddleware the router's last resort still answers a problem")
    func lastResort() throws {
        let log = CapturingLogSink()
        let router = Router(context: BasicRequestContext.self, logger: Logger(label: "http", sink: log))
        router.get("/boom") { _, _ in throw DatabaseExploded() }
        router.get("/teapot") { _, _ in throw HTTPError(HTTPStatus(code: 418), code: "teapot", detail: "I am one.") }
        let responder = router.buildResponder()
        let boom = responder.respond(to: Request(method: .get, path: "/boom"))
        #expect(boom.status == .internalServerError)
        #expect(boom.headers["Content-Type"] == "application/problem+json")
        #expect(!String(decoding: boom.body.bytes, as: UTF8.self).contains("SQLite"))
        #expect(log.entries.contains { $0.level == .error && $0.message.contains("SQLite") })
        let teapot = responder.respond(to: Request(method: .get, path: "/teapot"))
        #expect(teapot.status.code == 418)
        #expect(String(decoding: teapot.body.bytes, as: UTF8.self).contains("\"title\":\"Status 418\""))
    }

    @Test("the problem type base is configurable; strings are escaped")
    func renderer() throws {
        let renderer = ProblemRenderer(typeBaseURI: "https://api.example/problems/")
        let body = renderer.body(for: HTTPError(.badRequest, code: "x", detail: "quote \" backslash \\ newline \n tab \t nul \u{0}"),
                                 instance: "/p", requestID: "r")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(object["type"] as? String == "https://api.example/problems/x")
        #expect(object["detail"] as? String == "quote \" backslash \\ newline \n tab \t nul \u{0}")
    }
}
