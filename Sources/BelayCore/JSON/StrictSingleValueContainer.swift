import Foundation

/// A single-value container over one value.
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
