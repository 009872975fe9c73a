import BelayCore
import BelayHTTP
import BelayRepresentations
import Foundation

/// A list's `?limit=…&cursor=…`.
struct Pagination {
    var limit: Int
    var cursor: String?
}

extension Request {
    /// `limit` (1…`maximum`, default `defaultLimit`) and `cursor` (opaque, from a previous page;
    /// present but empty is refused, as the OpenAPI document's pattern says).
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` naming the parameter.
    func pagination(defaultLimit: Int = 20, maximum: Int = 200) throws -> Pagination {
        let limit = try query("limit", as: Int.self) ?? defaultLimit
        guard (1...maximum).contains(limit) else {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `limit` must be an integer from 1 to \(maximum); got `\(limit)`.",
                                       extensions: ["parameter": "limit", "expected": .string("an integer from 1 to \(maximum)")])
        }
        let cursor = query("cursor")
        if cursor?.isEmpty == true {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `cursor` is empty; send the `next_cursor` of the previous page, or leave `cursor` out for the first page.",
                                       extensions: ["parameter": "cursor", "expected": "the next_cursor of the previous page"])
        }
        return Pagination(limit: limit, cursor: cursor)
    }

    /// The query parameter `name` as one of `T`'s raw values.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter` listing the allowed values.
    func query<T: RawRepresentable & CaseIterable>(_ name: String, oneOf type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = query(name) else { return nil }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `\(name)` must be one of: \(allowed); got `\(text.prefix(80))`.",
                                       extensions: ["parameter": .string(name), "expected": .string("one of: \(allowed)")])
        }
        return value
    }

    /// The query parameter `name` as an RFC 3339 date-time with an offset.
    /// - Throws: `HTTPError` 400 `invalid_query_parameter`.
    func query(_ name: String, asDate: Void) throws -> Date? {
        guard let text = query(name) else { return nil }
        // A `+` in a query string may arrive decoded as a space (form encoding).
        let repaired = text.count > 19 ? String(text.prefix(19)) + text.dropFirst(19).replacingOccurrences(of: " ", with: "+") : text
        guard let parsed = RFC3339.parse(repaired) else {
            throw HTTPError.badRequest(code: "invalid_query_parameter",
                                       detail: "Query parameter `\(name)` must be an RFC 3339 date-time with an offset, like 2026-11-29T00:00:00+09:00; got `\(text.prefix(80))`.",
                                       extensions: ["parameter": .string(name), "expected": "an RFC 3339 date-time"])
        }
        return parsed.date
    }
}

extension Response {
    /// A JSON response written with `JSONOutput`.
    static func api(_ value: some JSONRepresentable, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        headers.add(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: ResponseBody(bytes: value.jsonBytes))
    }
}
