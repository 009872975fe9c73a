import BelayCore

extension Response {
    /// A JSON response (`Content-Type: application/json`) whose body is already written (by
    /// `JSONOutput`, as every API body is).
    public static func json(bytes: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
        return Response(status: status, headers: headers, body: ResponseBody(bytes: bytes))
    }

    /// A JSON response with `value` written by `JSONOutput` (object members sorted by name).
    public static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        json(bytes: JSONOutput.bytes(of: value), status: status, headers: headers)
    }
}
