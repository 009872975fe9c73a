/// Writes compact JSON straight into a byte buffer: Belay's one JSON writer, the encoder of
/// every API response body and problem, and the one string escaper (quotes, backslashes, the
/// C0 control characters and DEL are escaped; everything else is written as UTF-8).
///
/// Foundation's `JSONEncoder` spends most of a small endpoint's time on reflection and
/// key conversion; response types write their members by hand instead, with the
/// snake_case names the OpenAPI document lists, in a fixed order. The writing methods are
/// `@inlinable`, so callers in other modules write as directly as the writer itself.
///
/// ```swift
/// var json = JSONOutput()
/// json.object { json in
///     json.member("id", 42)
///     json.member("title", "Bouldering night")
/// }
/// ```
public struct JSONOutput: Sendable {
    /// The bytes written so far.
    @inlinable public var bytes: [UInt8] { buffer }
    @usableFromInline var buffer: [UInt8]
    /// Whether the current container already has a member (so the next needs a comma).
    @usableFromInline var needsComma = false

    /// An empty output with room for `capacity` bytes before it grows.
    @inlinable
    public init(capacity: Int = 512) {
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    // MARK: Containers

    /// Writes `{`, the members `body` writes, and `}`.
    @inlinable public mutating func object(_ body: (inout JSONOutput) -> Void) {
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, one element per item, and `]`.
    @inlinable public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONOutput, S.Element) -> Void) {
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
        for item in items { element(&self, item) }
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes the member name and its colon; the value must follow.
    @inlinable public mutating func key(_ name: StaticString) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that is only known at run time (pasteboard keys, map keys).
    @inlinable public mutating func key(dynamic name: String) {
        separate()
        writeString(name)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Members

    /// Writes a member: its name, then the value (`null` for nil). Integral doubles are written
    /// without a fraction.
    @inlinable public mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    @inlinable public mutating func member(_ name: StaticString, _ value: String?) { key(name); value.map { string($0) } ?? null() }
    @inlinable public mutating func member(_ name: StaticString, _ value: Int64) { key(name); integer(value) }
    @inlinable public mutating func member(_ name: StaticString, _ value: Int64?) { key(name); value.map { integer($0) } ?? null() }
    @inlinable public mutating func member(_ name: StaticString, _ value: Int) { key(name); integer(Int64(value)) }
    @inlinable public mutating func member(_ name: StaticString, _ value: Int?) { key(name); value.map { integer(Int64($0)) } ?? null() }
    @inlinable public mutating func member(_ name: StaticString, _ value: Bool) { key(name); boolean(value) }
    @inlinable public mutating func member(_ name: StaticString, _ value: Double) { key(name); number(value) }

    /// A member whose value is an object written by `body`.
    @inlinable public mutating func member(_ name: StaticString, object body: (inout JSONOutput) -> Void) {
        key(name)
        object(body)
    }

    // MARK: Values

    /// Writes a string value, escaped.
    @inlinable public mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    /// Writes an integer value.
    @inlinable public mutating func integer(_ value: Int64) {
        separate()
        if value == 0 {
            buffer.append(UInt8(ascii: "0"))
        } else {
            var magnitude = value.magnitude
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { scratch in
                while magnitude > 0 {
                    scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                }
            }
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            withUnsafeBytes(of: &digits) { scratch in
                for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(scratch[index]) }
            }
        }
        needsComma = true
    }

    /// Writes a number value: integral values below 10¹⁵ without a fraction, non-finite ones as `null`.
    @inlinable public mutating func number(_ value: Double) {
        separate()
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 {
                buffer.append(contentsOf: String(Int64(value)).utf8)
            } else {
                buffer.append(contentsOf: String(value).utf8)
            }
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    @inlinable public mutating func boolean(_ value: Bool) {
        separate()
        buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    /// Writes `null`.
    @inlinable public mutating func null() {
        separate()
        buffer.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes `object`, the bytes of an object this writer wrote before (a cached body), as the
    /// next value, with the members `adding` writes added at its end.
    @inlinable public mutating func embed(object: [UInt8], adding: (inout JSONOutput) -> Void = { _ in }) {
        separate()
        guard object.count >= 2, object.last == UInt8(ascii: "}") else {
            buffer.append(contentsOf: object)
            needsComma = true
            return
        }
        buffer.append(contentsOf: object[..<(object.count - 1)])
        needsComma = object.count > 2
        adding(&self)
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes a value that can write itself.
    @inlinable public mutating func value(_ value: some JSONRepresentable) {
        value.write(to: &self)
    }

    /// Writes a free-form value (problem extensions, the OpenAPI document); object members
    /// sorted by name, so equal values are written alike.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .number(let number):
            separate()
            buffer.append(contentsOf: number.text.utf8)
            needsComma = true
        case .string(let text): string(text)
        case .array(let elements): array(elements) { json, element in json.value(element) }
        case .object(let members):
            object { json in
                for member in members.sorted(by: { $0.key < $1.key }) {
                    json.key(dynamic: member.key)
                    json.value(member.value)
                }
            }
        }
    }

    // MARK: Internals

    @inlinable mutating func separate() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
    }

    @inlinable mutating func writeString(_ text: String) {
        Self.appendQuoted(text, to: &buffer)
    }

    /// `text` as a JSON string literal, quotes included: for messages that quote a value.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal.
    @usableFromInline static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex = hexDigits
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// A value that writes itself as JSON with `JSONOutput`.
public protocol JSONRepresentable {
    func write(to json: inout JSONOutput)
}

extension JSONRepresentable {
    /// The value as compact JSON bytes.
    public var jsonBytes: [UInt8] {
        var json = JSONOutput()
        write(to: &json)
        return json.bytes
    }
}

extension JSONOutput {
    /// A free-form value as compact JSON bytes.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var json = JSONOutput(capacity: 4096)
        json.value(value)
        return json.bytes
    }
}
