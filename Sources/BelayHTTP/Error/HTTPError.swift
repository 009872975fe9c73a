import BelayCore

/// An error a handler throws to answer with an RFC 9457 problem: a status, a stable
/// machine-readable `code`, a human `detail` saying what was wrong and what to do, optional
/// response headers (`WWW-Authenticate`, `Allow`, `Retry-After`) and extension members (e.g.
/// `reason` for a refused check-in).
///
/// ```swift
/// throw HTTPError(.conflict, code: "check_in_refused",
///                 detail: "The check-in window closed at 21:00.", extensions: ["reason": "window_closed"])
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    /// Stable identifier clients switch on, e.g. `invalid_path_parameter`; also ends the problem `type` URI.
    public var code: String
    /// Short summary that is the same for every occurrence of `code`; defaults to the reason phrase.
    public var title: String
    /// This occurrence explained for the person reading it: what was wrong and what to do.
    public var detail: String
    /// Headers added to the problem response.
    public var headers: HTTPHeaders
    /// Extra members of the problem object, e.g. `field`, `reason`.
    public var extensions: [String: JSONValue]

    public init(
        _ status: HTTPStatus,
        code: String,
        title: String? = nil,
        detail: String,
        headers: HTTPHeaders = [:],
        extensions: [String: JSONValue] = [:]
    ) {
        self.status = status
        self.code = code
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.headers = headers
        self.extensions = extensions
    }

    public var description: String { "\(status.code) \(code): \(detail)" }

    // MARK: Common problems

    /// 400 for a request that is wrong in a way no more specific problem covers.
    public static func badRequest(code: String = "bad_request", detail: String, extensions: [String: JSONValue] = [:]) -> HTTPError {
        HTTPError(.badRequest, code: code, detail: detail, extensions: extensions)
    }

    /// 401 with a `WWW-Authenticate` challenge (RFC 9110 §11.6.1).
    public static func unauthorized(detail: String, challenge: String = "Bearer", code: String = "unauthorized") -> HTTPError {
        HTTPError(.unauthorized, code: code, detail: detail, headers: ["WWW-Authenticate": challenge])
    }

    public static func forbidden(detail: String, code: String = "forbidden") -> HTTPError {
        HTTPError(.forbidden, code: code, detail: detail)
    }

    public static func notFound(detail: String, code: String = "not_found") -> HTTPError {
        HTTPError(.notFound, code: code, detail: detail)
    }

    public static func conflict(code: String, detail: String, extensions: [String: JSONValue] = [:]) -> HTTPError {
        HTTPError(.conflict, code: code, detail: detail, extensions: extensions)
    }

    /// 422 for a well-formed body whose content is not acceptable.
    public static func unprocessable(code: String, detail: String, extensions: [String: JSONValue] = [:]) -> HTTPError {
        HTTPError(.unprocessableContent, code: code, detail: detail, extensions: extensions)
    }

    /// 413 for a body over the server's limit.
    public static func contentTooLarge(limit: Int) -> HTTPError {
        HTTPError(.contentTooLarge, code: "body_too_large",
                  detail: "The request body is larger than the \(limit) bytes this server accepts; send a smaller body.",
                  extensions: ["limit_bytes": .int(Int64(limit))])
    }

    /// 400 for a request whose framing a proxy in front could read differently (RFC 9112 §6.3).
    static func ambiguousFraming(code: String, detail: String) -> HTTPError {
        HTTPError(.badRequest, code: code, detail: detail)
    }

    /// 400 for an HTTP/1.1 request without exactly one `Host` field (RFC 9112 §3.2).
    static func invalidHost(count: Int) -> HTTPError {
        HTTPError(.badRequest, code: count == 0 ? "missing_host" : "duplicate_host",
                  detail: count == 0
                      ? "An HTTP/1.1 request must carry a Host header field; add one."
                      : "The request carries \(count) Host header fields; send exactly one.")
    }

    /// 414 for a path and query longer than the server answers.
    /// The path or query carries `%00`: Belay would read a path or value cut short at the NUL.
    static var nulInRequestTarget: HTTPError {
        HTTPError(.badRequest, code: "invalid_request_target",
                  detail: "The request's path or query contains %00 (a NUL byte once decoded); no Belay path or query value contains one, so remove it.")
    }

    /// A header field name with whitespace or another separator in it.
    static var invalidFieldName: HTTPError {
        HTTPError(.badRequest, code: "invalid_header_name",
                  detail: "A header field name contains whitespace or another character a field name may not have (as in `Transfer-Encoding : chunked`); write the name and the colon with nothing between them.")
    }

    /// A header field line with a NUL byte in it, or folded over two lines.
    static var unreadableFieldLine: HTTPError {
        HTTPError(.badRequest, code: "invalid_header_value",
                  detail: "A header field's line contains a NUL byte or continues on the next line (obsolete line folding); send each field on one line, without NUL bytes.")
    }

    /// The same, in the `Authorization` field: a credential that does not read whole is a 401.
    static var unreadableAuthorization: HTTPError {
        .unauthorized(detail: "The Authorization header contains a NUL byte or continues on the next line; send `Authorization: Bearer <token>` on one line, without NUL bytes.",
                      challenge: "Bearer error=\"invalid_request\"", code: "invalid_authorization")
    }

    static func requestTargetTooLong(limit: Int) -> HTTPError {
        HTTPError(.uriTooLong, code: "uri_too_long",
                  detail: "The request's path and query are longer than the \(limit) bytes this server accepts; shorten them.",
                  extensions: ["limit_bytes": .int(Int64(limit))])
    }

    /// 431 for more header bytes than the server answers.
    static func headersTooLarge(limit: Int) -> HTTPError {
        HTTPError(.requestHeaderFieldsTooLarge, code: "headers_too_large",
                  detail: "The request's header fields are larger than the \(limit) bytes this server accepts; send fewer or shorter ones.",
                  extensions: ["limit_bytes": .int(Int64(limit))])
    }

    /// 503 for a request the server stopped waiting for because it is shutting down.
    static let shuttingDown = HTTPError(
        .serviceUnavailable, code: "shutting_down",
        detail: "The server is shutting down and stopped waiting for this request, which may still take effect; retry it (with the same Idempotency-Key) in a few seconds.",
        headers: ["Retry-After": "5"])

    static func routeNotFound(path: String) -> HTTPError {
        HTTPError(.notFound, code: "route_not_found",
                  detail: "No route matches this path; the API is described at /openapi.json (readable at /openapi.html).")
    }

    static func methodNotAllowed(_ method: HTTPMethod, allowed: [HTTPMethod]) -> HTTPError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return HTTPError(.methodNotAllowed, code: "method_not_allowed",
                         detail: "\(method.rawValue) is not allowed on this path; use one of: \(list).",
                         headers: ["Allow": list],
                         extensions: ["allowed_methods": .array(allowed.map { .string($0.rawValue) })])
    }

    static func invalidPathParameter(_ name: String, value: String, expected: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_path_parameter",
                  detail: "Path parameter `\(name)` must be \(expected); got `\(ProblemRenderer.excerpt(value))`.",
                  extensions: ["parameter": .string(name), "expected": .string(expected)])
    }

    static func invalidQueryParameter(_ name: String, value: String, expected: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_query_parameter",
                  detail: "Query parameter `\(name)` must be \(expected); got `\(ProblemRenderer.excerpt(value))`.",
                  extensions: ["parameter": .string(name), "expected": .string(expected)])
    }

    static func internalError(requestID: String) -> HTTPError {
        HTTPError(.internalServerError, code: "internal_error",
                  detail: "The server could not complete this request. It has been logged; quote request id \(requestID) when reporting it.")
    }
}
