/// One name/value pair from the query string, percent-decoded. `value` is nil for `?flag`.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

/// A complete HTTP request as the server received it: the body is fully read before handlers run.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path, percent-decoded, without the query string (e.g. `/v1/meetups/42`).
    public var path: String
    public var queryItems: [QueryItem]
    public var headers: HTTPHeaders
    /// The body bytes exactly as sent; may be empty, binary or invalid UTF-8.
    public var body: [UInt8]
    /// The client's numeric IP address, or "" when unknown.
    public var remoteAddress: String
    /// True when the declared body was larger than `ServerSettings.maxBodyBytes`: the body was not
    /// read (it is empty here) and the router answers 413 without running the route's handler.
    public var bodyExceedsLimit: Bool
    /// The limit that applied, so a 413 can say what is allowed.
    public var bodyLimit: Int
    /// Set when the server refused the request's framing (e.g. two different `Content-Length`
    /// fields, or HTTP/1.1 without `Host`): the router answers with this problem whatever the
    /// route, no handler runs, and the server closes the connection after the answer.
    public var rejection: HTTPError?

    public init(
        method: HTTPMethod,
        path: String,
        queryItems: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "",
        bodyExceedsLimit: Bool = false,
        bodyLimit: Int = .max,
        rejection: HTTPError? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.bodyExceedsLimit = bodyExceedsLimit
        self.bodyLimit = bodyLimit
        self.rejection = rejection
    }

    /// The first value of the query parameter `name`; nil when absent, "" for `?name` or `?name=`.
    public func query(_ name: String) -> String? {
        for item in queryItems where item.name == name { return item.value ?? "" }
        return nil
    }

    /// The query parameter `name` converted to `T`, or nil when absent.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` naming the parameter and the expected type.
    public func query<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws -> T? {
        guard let text = query(name) else { return nil }
        guard let value = T(text) else {
            throw HTTPError.invalidQueryParameter(name, value: text, expected: ParameterTypeDescription.of(T.self))
        }
        return value
    }
}
