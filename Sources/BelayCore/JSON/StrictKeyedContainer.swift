import Foundation

/// A keyed container over one object, marking the members it is asked for.
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
