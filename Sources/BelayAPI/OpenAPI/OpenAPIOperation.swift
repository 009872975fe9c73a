import BelayCore
import BelayHTTP

/// One operation of the API as the OpenAPI document describes it, and what its route is
/// registered from: method, path and the query parameters it takes
/// (`OperationRoutes.on(_:use:)`). Each is named in `Operations`.
struct OpenAPIOperation: Sendable {
    /// A documented response.
    struct Answer {
        let status: Int
        let description: String
        /// The body's schema; nil for a response without a body (304).
        let schema: JSONValue?
        var contentType = "application/json"
        var headers: [String: JSONValue] = [:]
        /// More media types the same body is listed under, with their schemas.
        var alternatives: [String: JSONValue] = [:]

        /// A body of bytes that are neither JSON nor text (an image, a signed JWT), served as
        /// `contentType`. It is listed under `application/octet-stream` too, with the same
        /// bytes: code generators type only JSON, text and octet streams, and would otherwise
        /// leave the answer out of the client (openapi-python-client warns and drops it), so the
        /// app could not download the image through the client at all.
        static func bytes(status: Int = 200, _ description: String, contentType: String,
                          headers: [String: JSONValue] = [:]) -> Answer {
            Answer(status: status,
                   description: description + " The body is served as `\(contentType)`; it is listed as `application/octet-stream` too so that a generated client returns its bytes.",
                   schema: ["type": "string", "format": "binary", "contentMediaType": .string(contentType)],
                   contentType: contentType, headers: headers,
                   alternatives: ["application/octet-stream": ["type": "string", "format": "binary"]])
        }
    }

    let method: HTTPMethod
    /// The route pattern exactly as registered, e.g. `/v1/meetups/{id}`.
    let path: String
    let operationID: String
    let summary: String
    let tag: String
    var description = ""
    /// Reachable without a bearer token.
    var isPublic = false
    /// The query parameters the route takes; the router answers any other with 400
    /// `unknown_query_parameter`.
    var queryParameters: [JSONValue] = []
    /// The route takes any query string besides those documented: a public page that link
    /// unfurlers and messengers open with parameters of their own appended (`fbclid`, `utm_source`).
    var takesAnyQuery = false
    var headerParameters: [JSONValue] = []
    /// The request body's schema name in `components/schemas`.
    var requestBody: String?
    /// The route also takes no body at all (every member then takes its default).
    var requestBodyIsOptional = false
    var answers: [Answer]
    /// Statuses answered with a problem (besides 401, which every authenticated route has).
    var problems: [Int] = []

    /// The query parameters the router lets through to the route: the documented ones, or any.
    var acceptedQuery: AcceptedQuery {
        takesAnyQuery ? .any : .only(Set(queryParameters.compactMap { $0["name"]?.stringValue }))
    }

    /// `{name}` segments of the path, in order.
    var pathParameterNames: [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    static func query(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "query", "required": false, "schema": withoutNul(schema), "description": .string(description)]
    }

    /// A free-form string schema with the one rule every path and query value has: no NUL
    /// (`%00` is refused with 400 `invalid_request_target`). Other schemas are returned as they are.
    static func withoutNul(_ schema: JSONValue) -> JSONValue {
        guard case var .object(members) = schema, members["type"] == "string",
              members["pattern"] == nil, members["enum"] == nil, members["format"] == nil else { return schema }
        members["pattern"] = #"^[^\u0000]*$"#
        return .object(members)
    }

    static func header(_ name: String, _ description: String, schema: JSONValue = Schema.string) -> JSONValue {
        ["name": .string(name), "in": "header", "required": false, "schema": schema, "description": .string(description)]
    }

    static func limit(_ defaultValue: Int, _ maximum: Int) -> JSONValue {
        query("limit", ["type": "integer", "minimum": 1, "maximum": .int(Int64(maximum)), "default": .int(Int64(defaultValue))],
              "Page size.")
    }

    static let cursor = query("cursor", Schema.cursor, "The `next_cursor` of the previous page of the same list; leave out for the first page.")
}
