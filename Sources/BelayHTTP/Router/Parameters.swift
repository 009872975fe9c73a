import Foundation

/// The values a route's `{name}` segments captured, with typed access that answers 400 on bad input.
public struct Parameters: Sendable, Sequence {
    struct Entry: Sendable {
        var name: String
        var value: Substring
    }

    var entries: [Entry]

    public init() { entries = [] }

    /// Parameters from name/value pairs; for tests that call handlers directly.
    public init(_ pairs: KeyValuePairs<String, String>) {
        entries = pairs.map { Entry(name: $0.key, value: Substring($0.value)) }
    }

    init(entries: [Entry]) { self.entries = entries }

    public var count: Int { entries.count }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        entries.lazy.map { (name: $0.name, value: String($0.value)) }.makeIterator()
    }

    /// The raw value of `name`, or nil when the route has no such parameter.
    public subscript(name: String) -> String? {
        for entry in entries where entry.name == name { return String(entry.value) }
        return nil
    }

    /// The raw value of `name`.
    /// - Throws: an internal error (answered 500) when the route declares no such parameter: a bug.
    public func require(_ name: String) throws -> String {
        String(try raw(name))
    }

    /// The value of `name` as an integer type.
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter and the type.
    public func require<T: FixedWidthInteger>(_ name: String, as type: T.Type) throws -> T {
        let text = try raw(name)
        guard let value = T(text, radix: 10) else {
            throw HTTPError.invalidPathParameter(name, value: String(text), expected: ParameterTypeDescription.of(T.self))
        }
        return value
    }

    /// The value of `name` as a UUID.
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter and the type.
    public func require(_ name: String, as type: UUID.Type) throws -> UUID {
        let text = try raw(name)
        guard let value = UUID(uuidString: String(text)) else {
            throw HTTPError.invalidPathParameter(name, value: String(text), expected: "a UUID")
        }
        return value
    }

    /// The value of `name` as any type that parses itself from a string (Double, Bool, …).
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter and the type.
    public func require<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws -> T {
        let text = try raw(name)
        guard let value = T(String(text)) else {
            throw HTTPError.invalidPathParameter(name, value: String(text), expected: ParameterTypeDescription.of(T.self))
        }
        return value
    }

    /// The value of `name` as an enum (or other raw-representable type) of allowed values.
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter and listing the
    ///   allowed values when the type is `CaseIterable`.
    public func require<T: RawRepresentable>(_ name: String, as type: T.Type) throws -> T
    where T.RawValue: LosslessStringConvertible {
        let text = try raw(name)
        guard let rawValue = T.RawValue(String(text)), let value = T(rawValue: rawValue) else {
            throw HTTPError.invalidPathParameter(name, value: String(text), expected: ParameterTypeDescription.of(T.self))
        }
        return value
    }

    private func raw(_ name: String) throws -> Substring {
        for entry in entries where entry.name == name { return entry.value }
        throw HTTPServerError(kind: .undeclaredPathParameter(name: name))
    }
}

/// Words for "what was expected" in 400 answers: "an integer", "a number", "one of: a, b".
enum ParameterTypeDescription {
    static func of(_ type: Any.Type) -> String {
        if let iterable = type as? any (CaseIterable & RawRepresentable).Type {
            return oneOf(iterable)
        }
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type: return "an integer"
        case is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type: return "a non-negative integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is UUID.Type: return "a UUID"
        case is String.Type: return "a string"
        default: return "a valid \(type)"
        }
    }

    private static func oneOf<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> String {
        "one of: " + T.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
    }
}
