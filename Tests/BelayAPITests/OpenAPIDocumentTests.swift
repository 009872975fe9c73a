import BelayCore
@testable import BelayAPI
import BelayHTTP
import Foundation
import Testing

@Suite struct OpenAPIDocumentTests {
    /// What adding a route takes: its operation and one registration naming it, with the
    /// handler. The route then answers over the router, is in the document collected from the
    /// registrations, takes the query parameters its operation declares and no other, has its
    /// caller by type and its role rule from the registration.
    @Test func aThrowawayRouteIsWiredByItsOperationAndHandlerAlone() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let echo = OpenAPIOperation(method: .get, path: "/v1/throwaway/{id}", operationID: "throwawayEcho",
                                    summary: "A route only this test registers.", tag: "meetups",
                                    queryParameters: [OpenAPIOperation.query("colour", Schema.string, "A colour to echo.")],
                                    answers: [OpenAPIOperation.Answer(status: 200, description: "The id, the colour and the caller.",
                                                                      schema: Schema.string, contentType: "text/plain")],
                                    problems: [400])
        let hostsOnly = OpenAPIOperation(method: .post, path: "/v1/throwaway/{id}", operationID: "throwawayForHosts",
                                         summary: "A route only this test registers, for hosts and admins.", tag: "meetups",
                                         answers: [OpenAPIOperation.Answer(status: 204, description: "Done.", schema: nil)], problems: [403])
        let router = Router<APIContext>()
        let registered = RegisteredOperations()
        let routes = OperationRoutes<APIContext>(router.group(), recordingIn: registered)
            .add(middleware: AuthenticationMiddleware(users: fixture.domain.users, cache: TokenCache()))
            .with(AuthenticatedContext.self)
        routes.on(echo) { request, context in
            Response(status: .ok, headers: ["Content-Type": "text/plain"],
                     body: ResponseBody(string: "\(try context.id()) \(request.query("colour") ?? "-") \(context.caller.handle)"))
        }
        routes.on(hostsOnly, allowing: [.host, .admin], to: "try the throwaway") { _, _ in Response(status: .noContent) }
        let responder = router.buildResponder()
        func send(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], as caller: APIFixture.Member?) -> APIResponse {
            var headers = HTTPHeaders()
            if let caller { headers.add(name: "Authorization", value: "Bearer \(caller.token)") }
            let items = query.map { QueryItem(name: $0.0, value: $0.1) }
            return APIResponse(responder.respondWaiting(to: Request(method: method, path: path, queryItems: items, headers: headers,
                                                                     body: [], bodyLimit: 1_024)))
        }

        let answered = send(.get, "/v1/throwaway/7", query: [("colour", "red")], as: member)
        #expect(answered.status == 200)
        #expect(String(decoding: answered.bytes, as: UTF8.self) == "7 red \(member.user.handle)")
        let misspelt = send(.get, "/v1/throwaway/7", query: [("color", "red")], as: member)
        #expect(misspelt.status == 400)
        #expect(misspelt.problemCode == "unknown_query_parameter")
        #expect(misspelt["parameter"]?.stringValue == "color")
        #expect(send(.get, "/v1/throwaway/7", as: nil).problemCode == "missing_token")
        #expect(send(.post, "/v1/throwaway/7", as: member).problemCode == "not_permitted")
        #expect(send(.post, "/v1/throwaway/7", as: fixture.host).status == 204)

        let document = registered.document(serverURL: "/")
        let item = try #require(document["paths"]?["/v1/throwaway/{id}"])
        #expect(item["get"]?["operationId"]?.stringValue == "throwawayEcho")
        #expect(item["post"]?["operationId"]?.stringValue == "throwawayForHosts")
        #expect(item["get"]?["parameters"]?.arrayValue?.filter { $0["in"]?.stringValue == "query" }.compactMap { $0["name"]?.stringValue } == ["colour"])
        #expect(document["paths"]?.objectValue?.count == 1)
    }

    @Test func anUnknownQueryParameterIsA400NamingIt() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let misspelt = fixture.get("/v1/meetups?scop=all", as: member)
        #expect(misspelt.status == 400)
        #expect(misspelt.problemCode == "unknown_query_parameter")
        #expect(misspelt["parameter"]?.stringValue == "scop")
        #expect(fixture.get("/v1/meetups?scope=all", as: member).status == 200)
        #expect(fixture.get("/v1/me?verbose=1", as: member).status == 400)
    }

    @Test func documentIsOpenAPI31WithResolvableReferencesAndPathParameters() throws {
        let fixture = try APIFixture()
        let response = fixture.get("/openapi.json")
        #expect(response.status == 200)
        #expect(response.contentType == "application/json")
        let document = try #require(response.json)
        #expect(document["openapi"]?.stringValue == "3.1.0")
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        let responses = try #require(document["components"]?["responses"]?.objectValue)

        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if let reference = members["$ref"]?.stringValue { references.append(reference) }
                members.values.forEach(collect)
            case .array(let elements): elements.forEach(collect)
            default: break
            }
        }
        collect(document)
        for reference in Set(references) {
            if reference.hasPrefix("#/components/schemas/") {
                #expect(schemas[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference) does not resolve")
            } else {
                #expect(responses[String(reference.dropFirst("#/components/responses/".count))] != nil, "\(reference) does not resolve")
            }
        }

        for (path, item) in try #require(document["paths"]?.objectValue) {
            let templated = path.split(separator: "{").dropFirst().map { String($0.prefix { $0 != "}" }) }
            for (method, operation) in try #require(item.objectValue) {
                let parameters = operation["parameters"]?.arrayValue ?? []
                let inPath = parameters.filter { $0["in"]?.stringValue == "path" }.compactMap { $0["name"]?.stringValue }
                #expect(inPath == templated, "\(method) \(path) documents path parameters \(inPath), the path has \(templated)")
                #expect(operation["responses"]?.objectValue?.isEmpty == false)
                #expect(operation["operationId"]?.stringValue != nil)
                let isPublic = ["/healthz", "/readyz", "/openapi.json", "/assets/share-page.css", "/v1/calendar/{token}.ics"].contains(path)
                    || (path.hasPrefix("/v1/auth/") && path != "/v1/auth/sign-out") || path.hasPrefix("/auth/email/") || path.hasPrefix("/invite/")
                    || path.hasPrefix("/s/") || path.hasPrefix("/m/") || path.hasPrefix("/k/") || path.hasPrefix("/c/") || path.hasPrefix("/assets/") || path.hasPrefix("/.well-known/") || path.hasPrefix("/issuer") || path.hasPrefix("/badges/") || path.hasPrefix("/holds/")
                    || path == "/" || path == "/openapi.html" || path.hasPrefix("/console")
                #expect((operation["security"]?.arrayValue?.isEmpty == true) == isPublic, "\(method) \(path): security")
                if !isPublic { #expect(operation["responses"]?["401"] != nil, "\(method) \(path) must document 401") }
            }
        }
        // Every schema the validator reads must use only keywords it understands.
        for (name, schema) in schemas {
            var unknown: [String] = []
            func scan(_ value: JSONValue, _ path: String) {
                guard let members = value.objectValue else { return }
                for key in members.keys where !JSONSchemaValidator.knownKeywords.contains(key) { unknown.append("\(path).\(key)") }
                members["properties"]?.objectValue?.forEach { scan($0.value, "\(path).\($0.key)") }
                if let items = members["items"] { scan(items, path + "[]") }
                if let additional = members["additionalProperties"], additional.objectValue != nil { scan(additional, path + ".*") }
                members["anyOf"]?.arrayValue?.forEach { scan($0, path + "|") }
            }
            scan(schema, name)
            #expect(unknown == [], "schema \(name) uses keywords the validator does not check")
        }
    }

    @Test func everySchemaNameIsDefinedOnce() {
        #expect(OpenAPIDocument.duplicateSchemaNames == [], "a schema of one group hides the same-named schema of another")
    }

    @Test func problemSchemaListsTheCodesTheAPIAnswersWith() throws {
        let fixture = try APIFixture()
        let document = try #require(fixture.get("/openapi.json").json)
        let codes = Set(try #require(document["components"]?["schemas"]?["Problem"]?["properties"]?["code"]?["enum"]?.arrayValue)
            .compactMap(\.stringValue))
        for code in ["missing_token", "invalid_token", "not_permitted", "unknown_query_parameter", "route_not_found", "method_not_allowed", "invalid_path_parameter",
                     "malformed_json", "invalid_utf8", "unknown_field", "missing_field", "invalid_field", "body_too_large",
                     "bad_code", "waitlisted", "window_closed", "not_attending", "meetup_cancelled", "image_not_found"] {
            #expect(codes.contains(code), "Problem.code does not list \(code)")
        }
    }

    @Test func validatorRejectsWhatDoesNotMatch() throws {
        let document: JSONValue = ["components": ["schemas": [
            "Thing": ["type": "object", "required": ["id", "at"], "additionalProperties": false,
                      "properties": ["id": ["type": "integer"], "at": ["type": "string", "format": "date-time"],
                                     "kind": ["type": "string", "enum": ["a", "b"]], "note": ["type": ["string", "null"]],
                                     "name": ["type": "string", "minLength": 1, "maxLength": 3]]],
        ]]]
        let validator = JSONSchemaValidator(document: document)
        let schema: JSONValue = ["$ref": "#/components/schemas/Thing"]
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00+09:00", "kind": "a", "note": nil], against: schema) == [])
        #expect(validator.problems(["id": "1", "at": "2026-11-29T19:00:00+09:00"], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "2026-11-29 19:00"], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00Z", "extra": true], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00Z", "kind": "c"], against: schema).count == 1)
        #expect(validator.problems(["at": "2026-11-29T19:00:00Z"], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00Z", "name": "지수님"], against: schema) == [])
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00Z", "name": ""], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "2026-11-29T19:00:00Z", "name": "abcd"], against: schema).count == 1)
        #expect(validator.problems(["id": true, "at": "2026-11-29T19:00:00Z"], against: schema).count == 1)
        #expect(validator.problems(["id": 1, "at": "x"], against: ["$ref": "#/components/schemas/Missing"]).count == 1)
    }
}
