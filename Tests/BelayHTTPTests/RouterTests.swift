import BelayCore
import BelayHTTP
import Foundation
import Testing

/// Drives routers in-process through `RouterResponder.respond(to:)`.
@Suite("Router")
struct RouterTests {
    struct Problem {
        let response: Response
        let object: [String: Any]

        init(_ response: Response) throws {
            self.response = response
            object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.bytes)) as? [String: Any])
        }

        var code: String? { object["code"] as? String }
        var detail: String { object["detail"] as? String ?? "" }
    }

    enum Color: String, CaseIterable { case red, green }

    func makeRouter(logSink: CapturingLogSink = CapturingLogSink()) -> RouterResponder<BasicRequestContext> {
        let logger = Logger(label: "http", sink: logSink)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: logger)
        router.get("/v1/meetups") { _, context in .text("list \(context.route ?? "-")") }
        router.get("/v1/meetups/{id}") { _, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return .text("meetup \(id) via \(context.route ?? "-")")
        }
        router.delete("/v1/meetups/{id}") { _, _ in Response(status: .noContent) }
        router.post("/v1/meetups/{id}/check-in") { _, context in .text("check-in \(try context.parameters.require("id"))") }
        router.get("/v1/meetups/upcoming") { _, _ in .text("literal wins") }
        router.get("/v1/images/{hash}.png") { _, context in .text("image \(try context.parameters.require("hash"))") }
        router.get("/v1/colors/{color}") { _, context in .text("color \(try context.parameters.require("color", as: Color.self).rawValue)") }
        router.get("/v1/uuids/{uuid}") { _, context in .text(try context.parameters.require("uuid", as: UUID.self).uuidString) }
        router.get("/v1/users/{userID}/rewards/{rewardID}") { _, context in
            let user = try context.parameters.require("userID", as: Int.self)
            let reward = try context.parameters.require("rewardID", as: UInt32.self)
            return .text("\(user)/\(reward)")
        }
        router.get("/undeclared") { _, context in .text(try context.parameters.require("nope")) }
        router.get("/search", query: ["limit"]) { request, _ in .text("limit \(try request.query("limit", as: Int.self) ?? 50)") }
        return router.buildResponder()
    }

    func get(_ responder: RouterResponder<BasicRequestContext>, _ path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> Response {
        responder.respond(to: Request(method: method, path: path, headers: headers))
    }

    @Test("routes match literals and typed parameters, and expose their pattern")
    func matching() throws {
        let router = makeRouter()
        #expect(get(router, "/v1/meetups").body.bytes == Array("list /v1/meetups".utf8))
        #expect(get(router, "/v1/meetups/42").body.bytes == Array("meetup 42 via /v1/meetups/{id}".utf8))
        #expect(get(router, "/v1/meetups/42/").body.bytes == Array("meetup 42 via /v1/meetups/{id}".utf8))
        #expect(get(router, "/v1/meetups/upcoming").body.bytes == Array("literal wins".utf8))
        #expect(get(router, "/v1/meetups/7/check-in", method: .post).body.bytes == Array("check-in 7".utf8))
        #expect(get(router, "/v1/images/abc123.png").body.bytes == Array("image abc123".utf8))
        #expect(get(router, "/v1/colors/green").body.bytes == Array("color green".utf8))
        #expect(get(router, "/v1/users/3/rewards/9").body.bytes == Array("3/9".utf8))
        #expect(router.respond(to: Request(method: .get, path: "/search")).body.bytes == Array("limit 50".utf8))
        #expect(router.respond(to: Request(method: .get, path: "/search", queryItems: [QueryItem(name: "limit", value: "10")])).body.bytes == Array("limit 10".utf8))
    }

    @Test("a bad typed parameter is a 400 naming the parameter and the expected type")
    func badParameter() throws {
        let router = makeRouter()
        let problem = try Problem(get(router, "/v1/meetups/abc"))
        #expect(problem.response.status == .badRequest)
        #expect(problem.code == "invalid_path_parameter")
        #expect(problem.object["parameter"] as? String == "id")
        #expect(problem.object["expected"] as? String == "an integer")
        #expect(problem.detail.contains("`id`"))
        #expect(problem.detail.contains("an integer"))
        #expect(problem.detail.contains("abc"))

        let overflow = try Problem(get(router, "/v1/meetups/99999999999999999999"))
        #expect(overflow.code == "invalid_path_parameter")

        let negative = try Problem(get(router, "/v1/users/1/rewards/-5"))
        #expect(negative.object["parameter"] as? String == "rewardID")
        #expect(negative.object["expected"] as? String == "a non-negative integer")

        let color = try Problem(get(router, "/v1/colors/blue"))
        #expect(color.object["expected"] as? String == "one of: red, green")

        let uuid = try Problem(get(router, "/v1/uuids/not-a-uuid"))
        #expect(uuid.object["expected"] as? String == "a UUID")

        let query = try Problem(router.respond(to: Request(method: .get, path: "/search", queryItems: [QueryItem(name: "limit", value: "ten")])))
        #expect(query.code == "invalid_query_parameter")
        #expect(query.object["parameter"] as? String == "limit")
    }

    @Test("a query parameter the route does not take is a 400 naming it, before the handler runs")
    func unknownQueryParameter() throws {
        let router = makeRouter()
        let misspelt = try Problem(router.respond(to: Request(method: .get, path: "/search",
                                                               queryItems: [QueryItem(name: "limit", value: "5"), QueryItem(name: "limt", value: "5")])))
        #expect(misspelt.response.status == .badRequest)
        #expect(misspelt.code == "unknown_query_parameter")
        #expect(misspelt.object["parameter"] as? String == "limt")
        #expect(misspelt.detail == "Query parameter `limt` is not one this operation takes; it takes `limit`.")
        let none = try Problem(router.respond(to: Request(method: .get, path: "/v1/meetups", queryItems: [QueryItem(name: "x", value: nil)])))
        #expect(none.code == "unknown_query_parameter")
        #expect(none.detail.hasSuffix("it takes none."))

        let open = Router(context: BasicRequestContext.self)
        open.get("/s/{slug}", query: .any) { _, _ in .text("page") }
        let page = open.buildResponder().respond(to: Request(method: .get, path: "/s/abc", queryItems: [QueryItem(name: "fbclid", value: "1")]))
        #expect(page.body.bytes == Array("page".utf8))
        #expect(open.routes[0].queryNames == nil)
        #expect(router.routes.first { $0.pattern == "/search" }?.queryNames == ["limit"])
    }

    @Test("an unknown path is 404 problem+json; a path-traversal attempt matches nothing")
    func notFound() throws {
        let router = makeRouter()
        for path in ["/nope", "/v1/meetups/1/2/3", "/v1/images/../../etc/passwd", "/v1/images/.png", "/"] {
            let problem = try Problem(get(router, path))
            #expect(problem.response.status == .notFound, "\(path)")
            #expect(problem.code == "route_not_found")
            #expect(problem.response.headers["Content-Type"] == "application/problem+json")
        }
    }

    @Test("a known path with a wrong method is 405 with Allow; OPTIONS lists the methods")
    func methodNotAllowed() throws {
        let router = makeRouter()
        let problem = try Problem(get(router, "/v1/meetups/5", method: .put))
        #expect(problem.response.status == .methodNotAllowed)
        #expect(problem.response.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(problem.code == "method_not_allowed")
        #expect(problem.detail.contains("PUT"))

        let options = get(router, "/v1/meetups/5", method: .options)
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")

        #expect(get(router, "/v1/meetups/5", method: .head).status == .ok)
    }

    @Test("request ids: a sane incoming X-Request-Id is kept, anything else replaced, always echoed")
    func requestIDs() throws {
        let router = makeRouter()
        let kept = get(router, "/v1/meetups", headers: ["x-request-id": "client-abc.123:4_5"])
        #expect(kept.headers["X-Request-Id"] == "client-abc.123:4_5")

        for insane in ["", "has space", String(repeating: "a", count: 129), "semi;colon", "ünïcode", "new\nline"] {
            let replaced = get(router, "/v1/meetups", headers: ["X-Request-Id": insane])
            let id = try #require(replaced.headers["X-Request-Id"])
            #expect(id != insane)
            #expect(!id.isEmpty)
        }
        let first = get(router, "/v1/meetups").headers["X-Request-Id"]
        let second = get(router, "/v1/meetups").headers["X-Request-Id"]
        #expect(first != nil && second != nil && first != second)

        let problem = try Problem(get(router, "/nope", headers: ["X-Request-Id": "trace-9"]))
        #expect(problem.object["request_id"] as? String == "trace-9")
        #expect(problem.response.headers["X-Request-Id"] == "trace-9")
    }

    @Test("a route asking for a parameter its pattern lacks is a logged 500")
    func undeclaredParameter() throws {
        let log = CapturingLogSink()
        let router = makeRouter(logSink: log)
        let problem = try Problem(get(router, "/undeclared"))
        #expect(problem.response.status == .internalServerError)
        #expect(log.entries.contains { $0.level == .error && $0.message.contains("`nope`") })
    }

    @Test("the route table lists every route with its pattern and parameters")
    func routeTable() {
        let router = Router(context: BasicRequestContext.self)
        router.get("/healthz") { _, _ in Response() }
        let v1 = router.group("/v1")
        v1.get("meetups/{id}") { _, _ in Response() }
        v1.group("/rewards").post("/{id}/share-events") { _, _ in Response() }
        let expected = [
            "GET /healthz", "GET /v1/meetups/{id}", "POST /v1/rewards/{id}/share-events",
        ]
        #expect(router.routes.map(\.description) == expected)
        #expect(router.buildResponder().routes.map(\.description) == expected)
        #expect(router.routes[2].parameterNames == ["id"])
    }

    @Test("middleware runs in order; group middleware only for the group's routes")
    func middlewareOrder() throws {
        struct TaggingMiddleware<Context: RequestContext>: RouterMiddleware {
            let tag: String
            func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
                var request = request
                request.headers.add(name: "Trail", value: tag)
                return next(request, context).map { [tag] outcome in
                    outcome.map { response in
                        var response = response
                        response.headers.add(name: "Trail", value: tag)
                        return response
                    }
                }
            }
        }
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: TaggingMiddleware(tag: "outer"))
        router.add(middleware: TaggingMiddleware(tag: "inner"))
        router.add(middleware: ErrorMiddleware(logger: .disabled()))
        let echoTrail: Router<BasicRequestContext>.Handler = { request, _ in
            .text(request.headers.values(for: "Trail").joined(separator: ">"))
        }
        router.get("/open", use: echoTrail)
        router.group("/private").add(middleware: TaggingMiddleware(tag: "group")).get("/thing", use: echoTrail)
        let responder = router.buildResponder()

        let open = responder.respond(to: Request(method: .get, path: "/open"))
        #expect(open.body.bytes == Array("outer>inner".utf8))
        #expect(open.headers.values(for: "Trail") == ["inner", "outer"])
        let grouped = responder.respond(to: Request(method: .get, path: "/private/thing"))
        #expect(grouped.body.bytes == Array("outer>inner>group".utf8))
        // Unmatched requests still pass the router-wide middleware.
        #expect(responder.respond(to: Request(method: .get, path: "/missing")).headers.values(for: "Trail") == ["inner", "outer"])
    }

    @Test("a custom context carries what middleware established to the handler")
    func customContext() throws {
        struct AuthContext: RequestContext {
            var core: CoreRequestContext
            var user: String?
            init(core: CoreRequestContext) { self.core = core }
        }
        struct Authenticate: RouterMiddleware {
            func handle(_ request: Request, context: AuthContext, next: (Request, AuthContext) -> ResponseFuture) throws -> ResponseFuture {
                guard let token = request.headers["Authorization"], token.hasPrefix("Bearer ") else {
                    throw HTTPError.unauthorized(detail: "Send `Authorization: Bearer <token>`.")
                }
                var context = context
                context.user = String(token.dropFirst(7))
                return next(request, context)
            }
        }
        let router = Router(context: AuthContext.self)
        router.addStandardMiddleware(logger: .disabled())
        router.get("/healthz") { _, _ in .text("ok") }
        router.group("/v1").add(middleware: Authenticate()).get("/me") { _, context in .text("user \(context.user ?? "?")") }
        let responder = router.buildResponder()

        #expect(responder.respond(to: Request(method: .get, path: "/healthz")).status == .ok)
        let refused = try Problem(responder.respond(to: Request(method: .get, path: "/v1/me")))
        #expect(refused.response.status == .unauthorized)
        #expect(refused.response.headers["WWW-Authenticate"] == "Bearer")
        let me = responder.respond(to: Request(method: .get, path: "/v1/me", headers: ["Authorization": "Bearer alice"]))
        #expect(me.body.bytes == Array("user alice".utf8))
    }

    @Test("a body over the limit is refused with 413 before the handler runs")
    func bodyLimitFlag() throws {
        let router = Router(context: BasicRequestContext.self)
        router.addStandardMiddleware(logger: .disabled())
        router.post("/upload") { _, _ in Issue.record("handler must not run"); return Response() }
        let response = router.buildResponder().respond(to: Request(method: .post, path: "/upload", bodyExceedsLimit: true, bodyLimit: 64))
        let problem = try Problem(response)
        #expect(problem.response.status == .contentTooLarge)
        #expect(problem.detail.contains("64 bytes"))
    }
}
