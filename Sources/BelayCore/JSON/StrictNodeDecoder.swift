import Foundation

/// The `Decoder` behind `StrictJSONDecoder`, for one value.
struct StrictNodeDecoder: Decoder {
    let node: JSONValue
    let codingPath: [any CodingKey]
    let session: StrictDecodingSession

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = node else {
            throw Self.mismatch([String: Any].self, expected: "an object", found: node, path: codingPath)
        }
        let usage = session.usage(of: object, at: codingPath)
        return KeyedDecodingContainer(StrictKeyedContainer<Key>(usage: usage, codingPath: codingPath, session: session))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = node else {
            throw Self.mismatch([Any].self, expected: "an array", found: node, path: codingPath)
        }
        return StrictUnkeyedContainer(elements: elements, codingPath: codingPath, session: session)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        StrictSingleValueContainer(node: node, codingPath: codingPath, session: session)
    }

    // MARK: - Conversions shared by the containers

    static func mismatch(_ type: Any.Type, expected: String, found node: JSONValue, path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path, debugDescription: "must be \(expected); found \(node.kindDescription)"))
    }

    static func decodeBool(_ node: JSONValue, path: [any CodingKey]) throws -> Bool {
        guard case .bool(let value) = node else { throw nullOrMismatch(Bool.self, expected: "true or false", node, path) }
        return value
    }

    static func decodeString(_ node: JSONValue, path: [any CodingKey]) throws -> String {
        guard case .string(let value) = node else { throw nullOrMismatch(String.self, expected: "a string", node, path) }
        return value
    }

    static func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ node: JSONValue, path: [any CodingKey]) throws -> T {
        let expected = T.isSigned ? "an integer" : "a non-negative integer"
        guard case .number(let number) = node else { throw nullOrMismatch(T.self, expected: expected, node, path) }
        let text = number.text
        if let value = T(text) { return value }
        // 1e3 or 2.0 are integers written differently; 2.5 or out-of-range values are not.
        if let double = Double(text), double.rounded(.towardZero) == double, let value = T(exactly: double) {
            return value
        }
        let isIntegral = Double(text).map { $0.rounded(.towardZero) == $0 } ?? false
        let problem = isIntegral ? "must be \(expected) between \(T.min) and \(T.max); found \(text)" : "must be \(expected); found \(text)"
        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: problem))
    }

    static func decodeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ node: JSONValue, path: [any CodingKey]) throws -> T {
        guard case .number(let number) = node else { throw nullOrMismatch(T.self, expected: "a number", node, path) }
        let text = number.text
        guard let value = T(text), value.isFinite else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: "is out of range: \(text)"))
        }
        return value
    }

    static func decodeValue<T: Decodable>(_ type: T.Type, _ node: JSONValue, path: [any CodingKey], session: StrictDecodingSession) throws -> T {
        if T.self == Date.self {
            let text = try decodeString(node, path: path)
            guard let parsed = RFC3339.parse(text) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: path, debugDescription: "must be an RFC 3339 date-time with an offset, like 2026-11-29T19:00:00+09:00; found `\(excerpt(text))`"))
            }
            return parsed.date as! T
        }
        if T.self == JSONValue.self {
            // A free-form value is taken as it is; its objects are not checked for unknown members.
            return node as! T
        }
        do {
            return try T(from: StrictNodeDecoder(node: node, codingPath: path, session: session))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.count == path.count {
            // A type that refused the value as a whole: for enums, say which values are allowed.
            if let allowed = allowedValues(of: T.self), case .string(let text) = node {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: path, debugDescription: "must be one of: \(allowed.joined(separator: ", ")); found `\(excerpt(text))`"))
            }
            throw DecodingError.dataCorrupted(context)
        }
    }

    private static func allowedValues(of type: Any.Type) -> [String]? {
        guard let iterable = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        return values(of: iterable)
    }

    private static func values<T: CaseIterable & RawRepresentable>(of type: T.Type) -> [String] {
        T.allCases.map { "\($0.rawValue)" }
    }

    /// At most 80 characters of input, for quoting it back in a message.
    static func excerpt(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }

    private static func nullOrMismatch(_ type: Any.Type, expected: String, _ node: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if case .null = node {
            return DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "must not be null; expected \(expected)"))
        }
        return mismatch(type, expected: expected, found: node, path: path)
    }
}
