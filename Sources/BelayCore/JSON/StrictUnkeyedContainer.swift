import Foundation

/// An unkeyed container over one array.
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
