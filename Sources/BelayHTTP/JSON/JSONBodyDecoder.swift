import BelayCore

/// Decodes request bodies strictly and answers every mistake with a problem naming the field:
///
/// | mistake | status | code |
/// |---|---|---|
/// | empty body | 400 | `empty_body` |
/// | not JSON (syntax) | 400 | `malformed_json` |
/// | not UTF-8 | 400 | `invalid_utf8` |
/// | a member twice | 400 | `duplicate_field` |
/// | a member the type does not declare | 422 | `unknown_field` |
/// | a required member missing, or null | 422 | `missing_field` |
/// | a value of the wrong JSON type, out of range, or not an allowed value | 422 | `invalid_field` |
///
/// Problems for fields carry a `field` member with the path (`items[2].name`).
public struct JSONBodyDecoder: Sendable {
    public init() {}

    /// Decodes `type` from `body`.
    /// - Throws: `HTTPError` as in the table above; errors a type's own `init(from:)` throws
    ///   other than `DecodingError` pass through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw HTTPError(.badRequest, code: "empty_body", detail: "The request body is empty; send a JSON document.")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw Self.problem(for: error)
        }
        do {
            return try StrictJSONDecoder().decode(type, from: root)
        } catch let error as DecodingError {
            throw Self.problem(for: error)
        } catch let error as JSONUnknownMemberError {
            let field = Self.fieldPath(error.codingPath)
            throw HTTPError(.unprocessableContent, code: "unknown_field",
                            detail: "Field `\(field)` is not part of this request body; remove it or check its spelling.",
                            extensions: ["field": .string(field)])
        }
    }

    static func problem(for error: JSONSyntaxError) -> HTTPError {
        switch error.kind {
        case .invalidUTF8:
            return HTTPError(.badRequest, code: "invalid_utf8",
                             detail: "The request body is not valid UTF-8 (at byte \(error.offset)); send JSON encoded as UTF-8.",
                             extensions: ["offset": .int(Int64(error.offset))])
        case .duplicateKey(let key):
            return HTTPError(.badRequest, code: "duplicate_field",
                             detail: "Field `\(key)` appears more than once in an object (at byte \(error.offset)); send it once.",
                             extensions: ["field": .string(key), "offset": .int(Int64(error.offset))])
        case .syntax, .tooDeep:
            return HTTPError(.badRequest, code: "malformed_json",
                             detail: "The request body is not valid JSON: \(error.message) (at byte \(error.offset)).",
                             extensions: ["offset": .int(Int64(error.offset))])
        }
    }

    static func problem(for error: DecodingError) -> HTTPError {
        switch error {
        case let .keyNotFound(key, context):
            let field = fieldPath(context.codingPath + [key])
            return HTTPError(.unprocessableContent, code: "missing_field",
                             detail: "Field `\(field)` is required.", extensions: ["field": .string(field)])
        case let .valueNotFound(_, context):
            return fieldProblem(code: "missing_field", context)
        case let .typeMismatch(_, context):
            return fieldProblem(code: "invalid_field", context)
        case let .dataCorrupted(context):
            return fieldProblem(code: "invalid_field", context)
        @unknown default:
            return HTTPError(.unprocessableContent, code: "invalid_field", detail: "The request body does not have the expected shape.")
        }
    }

    private static func fieldProblem(code: String, _ context: DecodingError.Context) -> HTTPError {
        if context.codingPath.isEmpty {
            return HTTPError(.unprocessableContent, code: code, detail: "The request body \(context.debugDescription).")
        }
        let field = fieldPath(context.codingPath)
        return HTTPError(.unprocessableContent, code: code, detail: "Field `\(field)` \(context.debugDescription).",
                         extensions: ["field": .string(field)])
    }

    /// `items[2].name` for the path items → 2 → name.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

extension Request {
    /// Decodes the body as JSON into `type` with `JSONBodyDecoder`.
    /// - Throws: `HTTPError` 415 `unsupported_media_type` when `Content-Type` is present and not
    ///   JSON; otherwise as `JSONBodyDecoder.decode`.
    public func decodeJSON<T: Decodable>(as type: T.Type = T.self, decoder: JSONBodyDecoder = JSONBodyDecoder()) throws -> T {
        if let contentType = headers["Content-Type"], !Self.isJSONMediaType(contentType) {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type",
                            detail: "The body must be sent as `Content-Type: application/json`; got `\(ProblemRenderer.excerpt(contentType))`.")
        }
        return try decoder.decode(type, from: body)
    }

    /// `application/json`, `application/<x>+json`, with any parameters.
    /// Read as ASCII bytes: a media type is ASCII, and this runs on every request with a body.
    static func isJSONMediaType(_ value: String) -> Bool {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var mediaType = ArraySlice(value.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let first = mediaType.first, isBlank(first) { mediaType.removeFirst() }
        while let last = mediaType.last, isBlank(last) { mediaType.removeLast() }
        let lowercased = mediaType.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let application = Array("application/".utf8)
        return lowercased.elementsEqual("application/json".utf8)
            || (lowercased.starts(with: application) && lowercased.count > application.count + 5
                && lowercased.suffix(5).elementsEqual("+json".utf8))
    }
}
