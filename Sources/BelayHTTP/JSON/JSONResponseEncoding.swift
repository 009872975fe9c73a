import Foundation

/// Shared `JSONEncoder`s, configured like `StreamingJSONEncoder`'s output. Making a `JSONEncoder`
/// per request halves a small endpoint's throughput, so these are reused (encoding is
/// thread-safe once configured). `Response.json` uses the faster `StreamingJSONEncoder`.
public enum JSONResponseEncoding {
    /// Compact output, slashes unescaped, dates as RFC 3339 in UTC (`2026-11-29T10:00:00Z`;
    /// milliseconds when the date has them). Use `OffsetDateTime` for a date in a local offset.
    public static let encoder: JSONEncoder = makeEncoder(prettyPrinted: false)

    /// Like `encoder` but indented with sorted keys, for documents people read (OpenAPI).
    public static let prettyEncoder: JSONEncoder = makeEncoder(prettyPrinted: true)

    static func makeEncoder(prettyPrinted: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }

    public static let contentType = "application/json"
}

extension Response {
    /// A JSON response (`Content-Type: application/json`) written by `StreamingJSONEncoder`:
    /// members in declaration order, dates as RFC 3339.
    /// - Throws: `EncodingError` when the value cannot be encoded (e.g. a non-finite number); the
    ///   error middleware answers it 500.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) throws -> Response {
        let bytes = try StreamingJSONEncoder().encode(value)
        var headers = headers
        if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: JSONResponseEncoding.contentType) }
        return Response(status: status, headers: headers, body: ResponseBody(bytes: bytes))
    }

    /// A JSON response written by a configured `JSONEncoder` (e.g. `JSONResponseEncoding.prettyEncoder`).
    /// Reuse encoders: making one per request halves a small endpoint's throughput.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok, headers: HTTPHeaders = [:],
                            encoder: JSONEncoder) throws -> Response {
        let data = try encoder.encode(value)
        var headers = headers
        if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: JSONResponseEncoding.contentType) }
        return Response(status: status, headers: headers, body: ResponseBody(data: data))
    }
}
