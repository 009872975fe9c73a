import Foundation

/// Decodes `Decodable` types from a parsed `JSONValue`, strictly: no number-to-string or
/// string-to-number coercion, integers exactly as written, dates as RFC 3339 strings with an
/// offset, and (unless told otherwise) every member of an object that a type decodes must be
/// one the type asks for.
public struct StrictJSONDecoder: Sendable {
    /// Whether a member no decoded type asks for is an error (request bodies) or ignored
    /// (files that may carry notes for people).
    public var refusesUnknownMembers: Bool

    /// A decoder; `refusesUnknownMembers` as the property says.
    public init(refusesUnknownMembers: Bool = true) {
        self.refusesUnknownMembers = refusesUnknownMembers
    }

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path of the value at fault (its debug
    ///   description says what was expected and found); `JSONUnknownMemberError` for the first
    ///   member, in document order, that no decoded type asked for (when `refusesUnknownMembers`);
    ///   errors a type's own
    ///   `init(from:)` throws pass through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let session = StrictDecodingSession()
        let decoded = try StrictNodeDecoder.decodeValue(type, value, path: [], session: session)
        if refusesUnknownMembers, let path = session.firstUnknownMember() { throw JSONUnknownMemberError(codingPath: path) }
        return decoded
    }
}

/// Which members of one object the decoded types asked for.
final class MemberUsage {
    let object: JSONObject
    let path: [any CodingKey]
    var used: [Bool]

    init(object: JSONObject, path: [any CodingKey]) {
        self.object = object
        self.path = path
        used = Array(repeating: false, count: object.count)
    }

    /// The value of `key`, marked as asked for.
    func value(for key: String) -> JSONValue? {
        guard let position = object.position(of: key) else { return nil }
        used[position] = true
        return object.values[position]
    }
}

/// State shared by one decoding: the objects opened as keyed containers, by path, to find
/// unknown members afterwards. Used by one decoding on one thread.
final class StrictDecodingSession {
    private var opened: [MemberUsage] = []
    private var byPath: [String: MemberUsage] = [:]

    /// The usage record of the object at `path`, made on first use (a type may open the same
    /// object's container more than once).
    func usage(of object: JSONObject, at path: [any CodingKey]) -> MemberUsage {
        let key = path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        if let usage = byPath[key] { return usage }
        let usage = MemberUsage(object: object, path: path)
        byPath[key] = usage
        opened.append(usage)
        return usage
    }

    /// The path of the first member, in document order, that no decoded type asked for.
    func firstUnknownMember() -> [any CodingKey]? {
        for usage in opened {
            if let index = usage.used.firstIndex(of: false) { return usage.path + [JSONKey(stringValue: usage.object.keys[index])] }
        }
        return nil
    }
}

/// A coding key for array positions and for reporting member names.
struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    static let superKey = JSONKey(stringValue: "super")
}

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

struct StrictKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let usage: MemberUsage
    let codingPath: [any CodingKey]
    let session: StrictDecodingSession

    var allKeys: [Key] {
        usage.object.keys.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        usage.value(for: key.stringValue) != nil
    }

    private func node(for key: Key) throws -> JSONValue {
        guard let value = usage.value(for: key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "is required"))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try node(for: key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try StrictNodeDecoder.decodeBool(node(for: key), path: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try StrictNodeDecoder.decodeString(node(for: key), path: path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try StrictNodeDecoder.decodeFloatingPoint(type, node(for: key), path: path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try StrictNodeDecoder.decodeFloatingPoint(type, node(for: key), path: path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try StrictNodeDecoder.decodeInteger(type, node(for: key), path: path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try StrictNodeDecoder.decodeValue(type, node(for: key), path: path(key), session: session)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try StrictNodeDecoder(node: node(for: key), codingPath: path(key), session: session).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try StrictNodeDecoder(node: node(for: key), codingPath: path(key), session: session).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = JSONKey.superKey
        return StrictNodeDecoder(node: usage.value(for: key.stringValue) ?? .null, codingPath: codingPath + [key], session: session)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        StrictNodeDecoder(node: usage.value(for: key.stringValue) ?? .null, codingPath: path(key), session: session)
    }
}

struct StrictUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let session: StrictDecodingSession
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], session: StrictDecodingSession) {
        self.elements = elements
        self.codingPath = codingPath
        self.session = session
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: codingPath + [JSONKey(intValue: currentIndex)], debugDescription: "is missing: the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [JSONKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if case .null = elements[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (node, path) = try next(); return try StrictNodeDecoder.decodeBool(node, path: path) }
    mutating func decode(_ type: String.Type) throws -> String { let (node, path) = try next(); return try StrictNodeDecoder.decodeString(node, path: path) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (node, path) = try next(); return try StrictNodeDecoder.decodeFloatingPoint(type, node, path: path) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (node, path) = try next(); return try StrictNodeDecoder.decodeFloatingPoint(type, node, path: path) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (node, path) = try next(); return try StrictNodeDecoder.decodeInteger(type, node, path: path) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, path) = try next()
        return try StrictNodeDecoder.decodeValue(type, node, path: path, session: session)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, path) = try next()
        return try StrictNodeDecoder(node: node, codingPath: path, session: session).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, path) = try next()
        return try StrictNodeDecoder(node: node, codingPath: path, session: session).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, path) = try next()
        return StrictNodeDecoder(node: node, codingPath: path, session: session)
    }
}

struct StrictSingleValueContainer: SingleValueDecodingContainer {
    let node: JSONValue
    let codingPath: [any CodingKey]
    let session: StrictDecodingSession

    func decodeNil() -> Bool {
        if case .null = node { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try StrictNodeDecoder.decodeBool(node, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try StrictNodeDecoder.decodeString(node, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try StrictNodeDecoder.decodeFloatingPoint(type, node, path: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try StrictNodeDecoder.decodeFloatingPoint(type, node, path: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try StrictNodeDecoder.decodeInteger(type, node, path: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try StrictNodeDecoder.decodeValue(type, node, path: codingPath, session: session)
    }
}
