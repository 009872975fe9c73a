import BelayHTTP
import Foundation

/// Writes compact JSON straight into a byte buffer: the encoder of every API response body.
///
/// Foundation's `JSONEncoder` spends most of a small endpoint's time on reflection and
/// key conversion; response types here write their members by hand instead, with the
/// snake_case names the OpenAPI document lists, in a fixed order.
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
    public private(set) var bytes: [UInt8]
    /// Whether the current container already has a member (so the next needs a comma).
    private var needsComma = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    /// Writes `{`, the members `body` writes, and `}`.
    public mutating func object(_ body: (inout JSONOutput) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, one element per item, and `]`.
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONOutput, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for item in items { element(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes the member name and its colon; the value must follow.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that is only known at run time (pasteboard keys, map keys).
    public mutating func key(dynamic name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Members

    public mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func member(_ name: StaticString, _ value: String?) { key(name); value.map { string($0) } ?? null() }
    public mutating func member(_ name: StaticString, _ value: Int64) { key(name); integer(value) }
    public mutating func member(_ name: StaticString, _ value: Int64?) { key(name); value.map { integer($0) } ?? null() }
    public mutating func member(_ name: StaticString, _ value: Int) { key(name); integer(Int64(value)) }
    public mutating func member(_ name: StaticString, _ value: Int?) { key(name); value.map { integer(Int64($0)) } ?? null() }
    public mutating func member(_ name: StaticString, _ value: Bool) { key(name); boolean(value) }
    public mutating func member(_ name: StaticString, _ value: Double) { key(name); number(value) }

    /// A member whose value is an object written by `body`.
    public mutating func member(_ name: StaticString, object body: (inout JSONOutput) -> Void) {
        key(name)
        object(body)
    }

    /// A date-time member, RFC 3339 with the given offset; `null` for nil.
    public mutating func member(_ name: StaticString, _ date: Date?, offset: TimeZoneOffsets.Zone) {
        key(name)
        guard let date else { return null() }
        string(RFC3339.string(from: date, utcOffsetSeconds: offset.secondsFromGMT(for: date)))
    }

    // MARK: Values

    public mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    public mutating func integer(_ value: Int64) {
        separate()
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
        } else {
            var magnitude = value.magnitude
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                while magnitude > 0 {
                    buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                }
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            withUnsafeBytes(of: &digits) { buffer in
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
            }
        }
        needsComma = true
    }

    public mutating func number(_ value: Double) {
        separate()
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 {
                bytes.append(contentsOf: String(Int64(value)).utf8)
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
        needsComma = true
    }

    public mutating func boolean(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes a value that can write itself.
    public mutating func value(_ value: some JSONRepresentable) {
        value.write(to: &self)
    }

    /// Writes a free-form value (problem extensions, the OpenAPI document).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .int(let number): integer(number)
        case .double(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements): array(elements) { json, element in json.value(element) }
        case .object(let members):
            object { json in
                for key in members.keys.sorted() {
                    json.key(dynamic: key)
                    json.value(members[key]!)
                }
            }
        }
    }

    // MARK: Internals

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeString(_ text: String) {
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
                    let hex = Self.hexDigits
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
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
