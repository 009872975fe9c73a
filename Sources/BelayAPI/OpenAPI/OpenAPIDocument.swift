import BelayCore
import BelayDomain
import BelayHTTP
import BelayIdentity

/// The OpenAPI 3.1 document served at `/openapi.json`: every route, parameter, request body,
/// response and problem type of the API. Its operations are the ones the routes were registered
/// with (`OperationRoutes`), so it lists exactly the routes the router has; tests check that real
/// responses match its schemas.
public enum OpenAPIDocument {
    /// The whole document describing `operations` (those the routes were registered with), with
    /// `serverURL` as the one server (`/`: wherever the document was fetched from).
    static func document(of operations: [OpenAPIOperation], serverURL: String) -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        for operation in operations {
            paths[operation.path, default: [:]][operation.method.rawValue.lowercased()] = describe(operation)
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Belay API",
                "version": "1.0.0",
                "description": .string(introduction),
            ],
            "servers": [["url": .string(serverURL)]],
            "security": [["bearerAuth": []]],
            "tags": .array(["health", "meetups", "attendance", "check-in", "rewards", "sharing", "statistics", "collections"]
                .map { ["name": .string($0)] } + [["name": "webhooks"], ["name": "calendars"], ["name": "accounts"], ["name": "notifications"], ["name": "logbook"], ["name": "safety"], ["name": "discovery"]]),
            "webhooks": outgoingWebhooks,
            "paths": .object(paths.mapValues { .object($0) }),
            "components": [
                "securitySchemes": [
                    "bearerAuth": ["type": "http", "scheme": "bearer",
                                   "description": "The `access_token` of a sign-in (`/v1/auth/*`, an hour, renewed with the refresh token), or an API token an admin issued with `belay users token HANDLE`; both start with `belay_`."],
                ],
                "schemas": .object(allSchemas),
                "responses": .object(problemResponses),
            ],
        ]
    }

    /// Every schema group, in the order `components/schemas` takes them.
    static let schemaGroups = [schemas, webhookSchemas, holdSchemas, cohostSchemas, seriesSchemas, accountSchemas, pushSchemas, kioskSchemas, logbookSchemas, safetySchemas, discoverySchemas, consoleSchemas]

    /// `components/schemas`: the groups merged (the first of two same-named schemas is kept;
    /// `duplicateSchemaNames` lets the tests make sure there are none).
    static var allSchemas: [String: JSONValue] {
        schemaGroups.reduce(into: [:]) { merged, group in merged.merge(group) { first, _ in first } }
    }

    /// Names defined in more than one schema group: one of the two would silently hide the other
    /// (as a reward's five-member hold once hid the catalogue's `Hold`).
    public static var duplicateSchemaNames: [String] {
        var seen = Set<String>(), duplicates = Set<String>()
        for name in schemaGroups.flatMap(\.keys) where !seen.insert(name).inserted { duplicates.insert(name) }
        return duplicates.sorted()
    }

    /// Every problem `code` the API answers with, and when.
    public static let problemCodes: [(code: String, meaning: String)] = uniqueCodes([
        ("missing_token", "401: no `Authorization` header."),
        ("invalid_authorization", "401: the header is not `Bearer <token>`."),
        ("invalid_token", "401: the token is unknown or revoked."),
        ("route_not_found", "404: no route has this path."),
        ("method_not_allowed", "405: the path exists but not with this method; `Allow` lists the methods."),
        ("invalid_path_parameter", "400: a path parameter has the wrong type (`parameter` names it)."),
        ("invalid_query_parameter", "400: a query parameter has the wrong type or range (`parameter` names it)."),
        ("unknown_query_parameter", "400: the operation takes no query parameter of this name (`parameter` names it)."),
        ("empty_body", "400: the body is empty."),
        ("malformed_json", "400: the body is not JSON."),
        ("invalid_utf8", "400: the body is not UTF-8."),
        ("duplicate_field", "400: an object has a member twice."),
        ("unsupported_media_type", "415: the body is not `application/json`."),
        ("body_too_large", "413: the body is larger than `server.max_body_bytes`."),
        ("unknown_field", "422: the body has a member the operation does not take (`field` names it)."),
        ("missing_field", "422: a required member is missing or null (`field`)."),
        ("invalid_field", "422: a member has the wrong type or value (`field`)."),
        ("image_not_found", "404: the reward has no image with this hash (it was re-rendered); `current_url` says where it is."),
        ("render_failed", "409: the reward's images could not be rendered."),
        ("collection_unavailable", "503: this server cannot render collections now."),
        ("share_page_not_found", "404: no shared reward has this link."),
        ("reward_revoked", "410: the shared reward was revoked when its check-in was undone."),
        ("share_page_unpublished", "410: the member who shared the reward took its page down."),
        ("meetup_page_not_found", "404: no meetup page has this link."),
        ("meetup_page_unpublished", "410: the meetup's page was taken down, or the meetup made private or hidden."),
        ("card_unavailable", "503: this server cannot render share cards now."),
        ("render_pending", "503: a shared reward's sticker is still being rendered; retry after `Retry-After` seconds."),
        ("image_store_unavailable", "503: the bucket holding the images does not answer, or no link to an image in it can be signed now (the platform's temporary credentials ran out); retry after `Retry-After` seconds."),
        ("app_links_not_configured", "404: the club's app ids are not configured (`app_links` in config.json)."),
        ("badge_key_not_found", "404: the club never had a badge key with this thumbprint."),
        ("badges_not_issued", "404: this server issues no badges."),
        ("busy", "503: the database is busy; retry after `Retry-After` seconds."),
        ("storage_full", "503: the server's disk is full, so the write was not saved; retry after `Retry-After` seconds."),
        ("calendar_not_found", "404: no calendar feed has this token (it was revoked); `GET /v1/me` has the current URL."),
        ("internal_error", "500: an unexpected error, logged under the request id."),
        ("rate_limited", "429: too many requests under one limit (`policy` names it); retry after `Retry-After` seconds. Every limited answer has the `RateLimit` and `RateLimit-Policy` fields."),
        ("sign_in_method_disabled", "403: this way of signing in is not set up on the server."),
        ("invalid_body", "422: the body's members do not fit together (say which one to send)."),
        ("invalid_request_target", "400: the path or query holds %00 (a NUL once decoded)."),
        ("invalid_header_name", "400: a header field name is not a token (`Transfer-Encoding : chunked`)."),
        ("invalid_header_value", "400: a header field's line holds a NUL byte or is folded over two lines."),
        ("conflicting_content_length", "400: Content-Length fields with different values."),
        ("conflicting_framing", "400: both Content-Length and Transfer-Encoding."),
        ("missing_host", "400: an HTTP/1.1 request without `Host`."),
        ("duplicate_host", "400: more than one `Host`."),
        ("uri_too_long", "414: the path and query are longer than the server takes."),
        ("headers_too_large", "431: the header section is larger than the server takes."),
        ("shutting_down", "503: the server is stopping; retry after `Retry-After` seconds (another node, or this one once restarted)."),
        ("not_found", "404: no such file."),
    ] + kioskProblemCodes + safetyProblemCodes + identityTokenCodes.map { code in
        (code.rawValue, code == .keysUnavailable ? "503: the identity provider's keys cannot be fetched now; retry after `Retry-After` seconds."
            : code == .malformedToken ? "422: the ID token is not a JWT." : "401: the ID token was refused.")
    } + RefusalReason.allCases.filter { $0 != .storageFailure && $0 != .leaseLost }.map { reason in
        (reason.rawValue, "A refusal of the club's rules; `reason` is `\(reason.rawValue)` (404 for a missing thing, 403 for `not_permitted` (every 403: the caller may not do this), 422 for bad input or a wrong code, 409 otherwise).")
    })

    /// `codes` with each code once, its first meaning kept (a refusal reason such as
    /// `reward_revoked` is also a code the share pages answer with).
    static func uniqueCodes(_ codes: [(code: String, meaning: String)]) -> [(code: String, meaning: String)] {
        var seen: Set<String> = []
        return codes.filter { seen.insert($0.code).inserted }
    }

    /// Every refusal of an ID token, for the problem codes.
    static let identityTokenCodes: [IdentityTokenError.Code] = [
        .malformedToken, .algorithmNotAllowed, .keyMismatch, .unknownKey, .badSignature, .wrongIssuer, .wrongAudience,
        .wrongAuthorizedParty, .expired, .issuedInFuture, .notYetValid, .wrongNonce, .missingNonce, .keysUnavailable, .malformedKeys,
    ]

    static let introduction = """
        The API of Belay, a climbing club's app backend: meetups, joining and the waitlist, check-in \
        with the host's rotating code, the hold earned as a reward, its story-ready sticker, and what \
        the app needs to share it to Instagram or Facebook Stories or the system share sheet.

        Every route except `/healthz`, `/readyz`, `/openapi.json`, signing in (`/v1/auth/…`), the public \
        share pages (`/s/…`, their stylesheet), the front-desk kiosk (`/k/…`, its check-in links `/c/…`, its \
        script and stylesheet) and the app-link files (`/.well-known/…`) needs \
        `Authorization: Bearer <token>`: the access token of a sign-in, renewed with its refresh token. \
        Members act for themselves; hosts manage the meetups they host; admins everything. Bodies are \
        JSON with snake_case members; times are RFC 3339 with an offset, always explicit: what belongs to a \
        meetup (its start and end, its check-in window, its check-in code's `valid_from` and \
        `expires_at`) is written with the meetup's offset in its `time_zone`; other times carry the \
        club's offset or `Z`. Lists take `limit` and `cursor` and answer `{"items": [...], "next_cursor": ...}`. \
        Every error is an RFC 9457 `application/problem+json` object with a stable `code` (and a \
        `reason` for refusals of the club's rules) and a `detail` saying what to do.
        """

    /// The path item entry of `operation`: its parameters, body, answers and problems.
    static func describe(_ operation: OpenAPIOperation) -> JSONValue {
        var parameters: [JSONValue] = operation.pathParameterNames.map { name in
            let schema: JSONValue = name == "hash"
                ? ["type": "string", "pattern": "^[0-9a-f]{64}$"]
                : name == "token" ? OpenAPIOperation.withoutNul(["type": "string", "description": operation.path.hasPrefix("/k/") ? "The kiosk link's token." : "The feed token from `calendar_url`."])
                : name == "hold_id" ? OpenAPIOperation.withoutNul(["type": "string", "description": "A hold id from `GET /v1/holds`, e.g. `jug-gold`."])
                : name == "slug" ? OpenAPIOperation.withoutNul(Schema.string)
                : ["type": "integer", "format": "int64", "minimum": 1]
            let description = name == "hash" ? "The image's content hash, as in the reward's image URL." : "The \(name)."
            return ["name": .string(name), "in": "path", "required": true, "schema": schema, "description": .string(description)]
        }
        parameters += operation.queryParameters + operation.headerParameters
        var responses: [String: JSONValue] = [:]
        for answer in operation.answers {
            var response: [String: JSONValue] = ["description": .string(answer.description)]
            if let schema = answer.schema {
                response["content"] = .object([answer.contentType: ["schema": schema]].merging(answer.alternatives.mapValues { ["schema": $0] }) { first, _ in first })
            }
            if !answer.headers.isEmpty { response["headers"] = .object(answer.headers) }
            responses[String(answer.status)] = .object(response)
        }
        var problems = Set(operation.problems)
        if !operation.isPublic { problems.insert(401) }
        // Until a member accepts the club's terms, every change answers 403 `terms_required`.
        if !operation.isPublic && operation.method != .get && operation.method != .head { problems.insert(403) }
        // Changes are limited per member, the public pages per address (`rate_limits`).
        if operation.method != .get || ["/s/", "/issuer", "/badges/", "/holds/", "/.well-known/", "/assets/", "/k/", "/c/"].contains(where: operation.path.hasPrefix) {
            problems.insert(429)
        }
        // Any operation: 400 for a query parameter it does not take (or a NUL in the target),
        // 500 for a defect, 503 while the database is busy, full or being shut down.
        problems.formUnion([400, 500, 503])
        for status in problems.sorted() where responses[String(status)] == nil {
            responses[String(status)] = ["$ref": .string("#/components/responses/Problem\(status)")]
        }
        var members: [String: JSONValue] = [
            "operationId": .string(operation.operationID),
            "summary": .string(operation.summary),
            "tags": [.string(operation.tag)],
            "parameters": .array(parameters),
            "responses": .object(responses),
        ]
        if !operation.description.isEmpty { members["description"] = .string(operation.description) }
        if operation.isPublic { members["security"] = [] }
        if let body = operation.requestBody {
            members["requestBody"] = ["required": .bool(!operation.requestBodyIsOptional),
                                      "content": ["application/json": ["schema": Schema.ref(body)]]]
        }
        return .object(members)
    }

    static let problemResponses: [String: JSONValue] = {
        let statuses = [400, 401, 403, 404, 409, 410, 413, 415, 422, 429, 500, 503]
        var responses: [String: JSONValue] = [:]
        for status in statuses {
            var response: [String: JSONValue] = [
                "description": .string(HTTPStatus(code: status).reasonPhrase + " (a problem; see `Problem` for the codes)."),
                "content": ["application/problem+json": ["schema": Schema.ref("Problem")]],
            ]
            let retryAfter: JSONValue = ["schema": Schema.integer, "description": "Seconds to wait before trying again."]
            switch status {
            case 401:
                response["headers"] = ["WWW-Authenticate": ["schema": Schema.string, "description": "`Bearer realm=\"belay\"`, with an `error` when a token was sent."]]
            case 429:
                response["headers"] = [
                    "Retry-After": retryAfter,
                    "RateLimit": ["schema": Schema.string, "description": "The limit that answered, as the IETF RateLimit header fields draft writes it: `\"name\";r=0;t=SECONDS`."],
                    "RateLimit-Policy": ["schema": Schema.string, "description": "The policy behind it: `\"name\";q=QUOTA;w=WINDOW_SECONDS`."],
                ]
            case 503:
                response["headers"] = ["Retry-After": retryAfter]
            default:
                break
            }
            responses["Problem\(status)"] = .object(response)
        }
        return responses
    }()
}
