import Foundation

/// Encodes `Encodable` values straight into JSON bytes, without the intermediate tree and
/// dictionaries `JSONEncoder` builds: several times faster for response bodies, with members in
/// declaration order.
///
/// Output matches `JSONResponseEncoding.encoder`: compact, slashes unescaped, `Date` as RFC 3339
/// in UTC. A type that writes to its coding containers out of order (an earlier container after a
/// later one, or `superEncoder`) cannot be streamed; such values are encoded again with the
/// fallback `JSONEncoder`, so every `Encodable` works.
public struct StreamingJSONEncoder: Sendable {
    public init() {}

    /// The JSON bytes of `value`.
    /// - Throws: `EncodingError.invalidValue` for non-finite floating-point numbers, or whatever
    ///   the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let state = StreamingJSONState()
        do {
            try state.encodeValue(value, path: [])
            state.closeContainers(downTo: 0)
            return state.bytes
        } catch is StreamingJSONState.OutOfOrder {
            return [UInt8](try JSONResponseEncoding.encoder.encode(value))
        }
    }
}

/// The buffer and the stack of open containers of one encoding.
final class StreamingJSONState {
    /// Thrown when a type's container use cannot be streamed; caught by `StreamingJSONEncoder`.
    struct OutOfOrder: Error {}

    enum ContainerKind { case object, array }

    struct OpenContainer {
        let kind: ContainerKind
        var hasElements: Bool
        /// The encoder level that opened it, so a second `container(keyedBy:)` on the same
        /// encoder reuses it.
        let ownerLevel: Int
        /// Opened by `Encoder.container`/`unkeyedContainer` rather than as a nested container.
        let isEncoderRoot: Bool
        /// Tells this container apart from a later one at the same depth.
        let serial: Int
    }

    /// What a container value holds to reach its place on the stack.
    struct Handle {
        let depth: Int
        let serial: Int

        /// A handle every write through fails on, ending in the `JSONEncoder` fallback.
        static let unusable = Handle(depth: Int.max, serial: -1)
    }

    var bytes: [UInt8] = []
    var stack: [OpenContainer] = []
    /// Incremented for every nested `encode(to:)`; identifies which encoder a request comes from.
    var level = 0
    private var nextSerial = 0

    init() { bytes.reserveCapacity(512) }

    // MARK: Structure

    /// Closes containers until `depth` remain open.
    func closeContainers(downTo depth: Int) {
        while stack.count > depth {
            let closed = stack.removeLast()
            bytes.append(closed.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Prepares to write an element into the container at `depth` (1-based stack height):
    /// closes deeper containers left open, refuses writes to containers already closed.
    func beginElement(in handle: Handle) throws {
        let depth = handle.depth
        guard depth <= stack.count, stack[depth - 1].serial == handle.serial else { throw OutOfOrder() }
        closeContainers(downTo: depth)
        if stack[depth - 1].hasElements { bytes.append(UInt8(ascii: ",")) }
        stack[depth - 1].hasElements = true
    }

    func openContainer(_ kind: ContainerKind, isEncoderRoot: Bool = false) -> Handle {
        bytes.append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextSerial += 1
        stack.append(OpenContainer(kind: kind, hasElements: false, ownerLevel: level, isEncoderRoot: isEncoderRoot, serial: nextSerial))
        return Handle(depth: stack.count, serial: nextSerial)
    }

    /// Encodes one value at the current position: scalars directly, others through their
    /// `encode(to:)` with the containers they open closed afterwards.
    /// The path is only built when needed (a nested encoder or an error), saving an array per value.
    func encodeValue<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey]) throws {
        // Metadata comparisons, not dynamic casts: this runs for every nested value.
        if T.self == String.self { writeString(unsafeBitCast(value, to: String.self)); return }
        if T.self == Int.self { writeRaw(String(unsafeBitCast(value, to: Int.self))); return }
        if T.self == Int64.self { writeRaw(String(unsafeBitCast(value, to: Int64.self))); return }
        if T.self == Bool.self { writeRaw(unsafeBitCast(value, to: Bool.self) ? "true" : "false"); return }
        if T.self == Double.self { try writeDouble(unsafeBitCast(value, to: Double.self), path: path()); return }
        if T.self == Date.self { writeDate(unsafeBitCast(value, to: Date.self), utcOffsetSeconds: 0); return }
        if T.self == OffsetDateTime.self {
            let moment = unsafeBitCast(value, to: OffsetDateTime.self)
            writeDate(moment.date, utcOffsetSeconds: moment.utcOffsetSeconds)
            return
        }
        let depth = stack.count
        let start = bytes.count
        level += 1
        defer { level -= 1 }
        try value.encode(to: StreamingJSONCoder(state: self, codingPath: path(), level: level, startLength: start))
        closeContainers(downTo: depth)
        if bytes.count == start {
            // Encoding nothing at all is an empty object, as with JSONEncoder.
            writeRaw("{}")
        }
    }

    // MARK: Scalars

    func writeRaw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    func writeDouble(_ value: Double, path: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "\(value) is not representable in JSON"))
        }
        if value == value.rounded(), abs(value) < 1e15 {
            writeRaw(String(Int64(value)))
        } else {
            writeRaw(String(value))
        }
    }

    /// An RFC 3339 date-time string: nothing in it needs escaping.
    func writeDate(_ date: Date, utcOffsetSeconds: Int) {
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(date, utcOffsetSeconds: utcOffsetSeconds, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func appendEscaped(_ byte: UInt8) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [backslash, UInt8(ascii: "\"")])
        case backslash: bytes.append(contentsOf: [backslash, backslash])
        case 0x0A: bytes.append(contentsOf: [backslash, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [backslash, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [backslash, UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}

/// The `Encoder` handed to each value's `encode(to:)`.
struct StreamingJSONCoder: Encoder {
    let state: StreamingJSONState
    let codingPath: [any CodingKey]
    let level: Int
    /// Where this encoder's value starts; nothing may have been written for it before a container opens.
    let startLength: Int

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamingKeyedContainer<Key>(state: state, handle: openOrReuse(.object), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(state: state, handle: openOrReuse(.array), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(state: state, codingPath: codingPath, expectedLength: startLength)
    }

    /// A second request for the same kind of container from the same encoder continues the
    /// first; asking for another kind is a misuse that `JSONEncoder` would trap on, so it is
    /// handed a container whose writes fail over to `JSONEncoder`.
    private func openOrReuse(_ kind: StreamingJSONState.ContainerKind) -> StreamingJSONState.Handle {
        if let index = state.stack.lastIndex(where: { $0.ownerLevel == level && $0.isEncoderRoot }) {
            let existing = state.stack[index]
            return existing.kind == kind ? StreamingJSONState.Handle(depth: index + 1, serial: existing.serial) : .unusable
        }
        guard state.bytes.count == startLength else { return .unusable }
        return state.openContainer(kind, isEncoderRoot: true)
    }
}

struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: StreamingJSONState
    let handle: StreamingJSONState.Handle
    let codingPath: [any CodingKey]

    private func beginMember(_ key: Key) throws {
        try state.beginElement(in: handle)
        state.writeString(key.stringValue)
        state.bytes.append(UInt8(ascii: ":"))
    }

    mutating func encodeNil(forKey key: Key) throws {
        try beginMember(key)
        state.writeRaw("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try beginMember(key); state.writeRaw(value ? "true" : "false") }
    mutating func encode(_ value: String, forKey key: Key) throws { try beginMember(key); state.writeString(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try beginMember(key); try state.writeDouble(value, path: codingPath + [key]) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try beginMember(key); try state.writeDouble(Double(value), path: codingPath + [key]) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try beginMember(key); state.writeRaw(String(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try beginMember(key)
        try state.encodeValue(value, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // Protocol requirements here cannot throw; a misuse is caught on the next write.
        guard (try? beginMember(key)) != nil else {
            return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(state: state, handle: .unusable, codingPath: codingPath + [key]))
        }
        let nested = state.openContainer(.object)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(state: state, handle: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard (try? beginMember(key)) != nil else {
            return StreamingUnkeyedContainer(state: state, handle: .unusable, codingPath: codingPath + [key])
        }
        let nested = state.openContainer(.array)
        return StreamingUnkeyedContainer(state: state, handle: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { UnstreamableEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnstreamableEncoder(codingPath: codingPath + [key]) }
}

struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let state: StreamingJSONState
    let handle: StreamingJSONState.Handle
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(state: StreamingJSONState, handle: StreamingJSONState.Handle, codingPath: [any CodingKey]) {
        self.state = state
        self.handle = handle
        self.codingPath = codingPath
    }

    private mutating func beginElement() throws {
        try state.beginElement(in: handle)
        count += 1
    }

    mutating func encodeNil() throws { try beginElement(); state.writeRaw("null") }
    mutating func encode(_ value: Bool) throws { try beginElement(); state.writeRaw(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { try beginElement(); state.writeString(value) }
    mutating func encode(_ value: Double) throws { try beginElement(); try state.writeDouble(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { try beginElement(); try state.writeDouble(Double(value), path: codingPath) }
    mutating func encode(_ value: Int) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int8) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int16) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int32) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int64) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt8) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt16) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt32) throws { try beginElement(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt64) throws { try beginElement(); state.writeRaw(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginElement()
        try state.encodeValue(value, path: codingPath + [JSONKey(intValue: count - 1)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        guard (try? beginElement()) != nil else {
            return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(state: state, handle: .unusable, codingPath: codingPath))
        }
        let nested = state.openContainer(.object)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(state: state, handle: nested, codingPath: codingPath + [JSONKey(intValue: count - 1)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        guard (try? beginElement()) != nil else {
            return StreamingUnkeyedContainer(state: state, handle: .unusable, codingPath: codingPath)
        }
        let nested = state.openContainer(.array)
        return StreamingUnkeyedContainer(state: state, handle: nested, codingPath: codingPath + [JSONKey(intValue: count - 1)])
    }

    mutating func superEncoder() -> any Encoder { UnstreamableEncoder(codingPath: codingPath) }
}

struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let state: StreamingJSONState
    let codingPath: [any CodingKey]
    /// A single-value container writes exactly once, where the value belongs.
    let expectedLength: Int

    private func begin() throws {
        guard state.bytes.count == expectedLength else { throw StreamingJSONState.OutOfOrder() }
    }

    mutating func encodeNil() throws { try begin(); state.writeRaw("null") }
    mutating func encode(_ value: Bool) throws { try begin(); state.writeRaw(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { try begin(); state.writeString(value) }
    mutating func encode(_ value: Double) throws { try begin(); try state.writeDouble(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { try begin(); try state.writeDouble(Double(value), path: codingPath) }
    mutating func encode(_ value: Int) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int8) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int16) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int32) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: Int64) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt8) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt16) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt32) throws { try begin(); state.writeRaw(String(value)) }
    mutating func encode(_ value: UInt64) throws { try begin(); state.writeRaw(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try state.encodeValue(value, path: codingPath)
    }
}

/// Handed out for `superEncoder()`: any use makes the encoding fall back to `JSONEncoder`.
struct UnstreamableEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(UnstreamableKeyedContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnstreamableUnkeyedContainer(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { UnstreamableSingleValueContainer(codingPath: codingPath) }
}

struct UnstreamableKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws { throw StreamingJSONState.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw StreamingJSONState.OutOfOrder() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(UnstreamableKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnstreamableUnkeyedContainer(codingPath: codingPath) }
    mutating func superEncoder() -> any Encoder { UnstreamableEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnstreamableEncoder(codingPath: codingPath) }
}

struct UnstreamableUnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }
    mutating func encodeNil() throws { throw StreamingJSONState.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw StreamingJSONState.OutOfOrder() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(UnstreamableKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { UnstreamableUnkeyedContainer(codingPath: codingPath) }
    mutating func superEncoder() -> any Encoder { UnstreamableEncoder(codingPath: codingPath) }
}

struct UnstreamableSingleValueContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    mutating func encodeNil() throws { throw StreamingJSONState.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw StreamingJSONState.OutOfOrder() }
}
