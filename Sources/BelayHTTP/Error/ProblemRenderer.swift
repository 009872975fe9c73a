import BelayCore

/// Turns errors into `application/problem+json` responses (RFC 9457): the one place errors become
/// responses, used by `ErrorMiddleware` and by the router's last resort.
///
/// A problem body looks like:
/// ```json
/// {"type":"/problems/invalid_path_parameter","title":"Bad Request","status":400,
///  "detail":"Path parameter `id` must be an integer; got `abc`.","instance":"/v1/meetups/abc",
///  "code":"invalid_path_parameter","request_id":"1f2e3d4c-2a","parameter":"id","expected":"an integer"}
/// ```
public struct ProblemRenderer: Sendable {
    /// Prefix of every problem `type`; the code is appended. Relative by default (resolved
    /// against the API's base URL, where the API may document each problem).
    public var typeBaseURI: String

    public static let contentType = "application/problem+json"

    public init(typeBaseURI: String = "/problems/") {
        self.typeBaseURI = typeBaseURI
    }

    /// The response for `error`: an `HTTPError` as described by it; anything else is logged with
    /// the request id and answered 500 with nothing of its contents.
    public func response(for error: any Error, request: Request, requestID: String, logger: Logger) -> Response {
        let problem: HTTPError
        if let httpError = error as? HTTPError {
            problem = httpError
        } else {
            logger.error("unexpected error: \(String(reflecting: error))", metadata: [
                ("method", request.method.rawValue), ("path", request.path), ("request_id", requestID),
            ])
            problem = .internalError(requestID: requestID)
        }
        return response(for: problem, instance: request.path, requestID: requestID)
    }

    /// The problem response for `problem`.
    public func response(for problem: HTTPError, instance: String, requestID: String) -> Response {
        var headers = problem.headers
        headers.replaceOrAdd(name: "Content-Type", value: Self.contentType)
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return Response(status: problem.status, headers: headers, body: ResponseBody(bytes: body(for: problem, instance: instance, requestID: requestID)))
    }

    /// The JSON object; standard members first, then extensions sorted by name. Extensions never
    /// replace standard members.
    public func body(for problem: HTTPError, instance: String, requestID: String) -> [UInt8] {
        var json = JSONOutput(capacity: 256)
        json.object { json in
            json.member("type", typeBaseURI + problem.code)
            json.member("title", problem.title)
            json.member("status", problem.status.code)
            json.member("detail", problem.detail)
            json.member("instance", instance)
            json.member("code", problem.code)
            json.member("request_id", requestID)
            for (key, value) in problem.extensions.sorted(by: { $0.key < $1.key }) where !Self.standardMembers.contains(key) {
                json.key(dynamic: key)
                json.value(value)
            }
        }
        return json.bytes
    }

    static let standardMembers: Set<String> = ["type", "title", "status", "detail", "instance", "code", "request_id"]

    /// At most 80 characters of client input, for quoting it back in a detail.
    static func excerpt(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }
}
