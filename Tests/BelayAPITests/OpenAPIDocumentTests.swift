import BelayCore
import BelayAPI
import BelayHTTP
import Testing

@Suite struct OpenAPIDocumentTests {
    @Test func everyRegisteredRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let fixture = try APIFixture()
        let registered = Set(fixture.application.routes.map { "\($0.method.rawValue) \($0.pattern)" })
        let document = try #require(fixture.get("/openapi.json").json)
        var documented = Set<String>()
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for method in try #require(item.objectValue).keys {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        #expect(registered.subtracting(documented).sorted() == [], "routes missing from /openapi.json")
        #expect(documented.subtracting(registered).sorted() == [], "documented routes the router does not have")
        #expect(registered.count >= 25)
    }

    @Test func everyRouteDocumentsExactlyTheQueryParametersItTakes() throws {
        let fixture = try APIFixture()
        let document = try #require(fixture.get("/openapi.json").json)
        for route in fixture.application.routes {
            let operation = try #require(document["paths"]?[route.pattern]?[route.method.rawValue.lowercased()], "\(route)")
            let documented = (operation["parameters"]?.arrayValue ?? []).filter { $0["in"]?.stringValue == "query" }
                .compactMap { $0["name"]?.stringValue }.sorted()
            if let taken = route.queryNames {
                #expect(documented == taken, "\(route) takes \(taken) but documents \(documented)")
            }
        }
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
