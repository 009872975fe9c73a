/// A parsed JSON document, kept close to the text: numbers stay as their literal so integers
/// decode exactly, and objects keep their member order.
indirect enum JSONNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    case object(JSONObject)

    /// How the node is described in errors: "a string", "null", …
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// An object's members plus which of them the decoded type asked for, so unknown members can be
/// reported afterwards. Used by one decoding on one thread.
final class JSONObject {
    let keys: [String]
    let values: [JSONNode]
    private let index: [String: Int]?
    var used: [Bool]
    /// Whether a keyed container was opened on it (only those are checked for unknown members).
    var opened = false

    init(keys: [String], values: [JSONNode], index: [String: Int]?) {
        self.keys = keys
        self.values = values
        self.index = index
        used = Array(repeating: false, count: keys.count)
    }

    func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }
}

/// Why a body is not JSON, with the byte offset where parsing stopped.
struct JSONSyntaxError: Error, Equatable {
    enum Kind: Equatable {
        case syntax
        case invalidUTF8
        case duplicateKey(String)
        case tooDeep
    }

    let kind: Kind
    let offset: Int
    let message: String
}

/// A strict RFC 8259 parser: no comments, no trailing commas, no leading zeros, no lone
/// surrogates, no raw control characters in strings, UTF-8 only, duplicate keys refused.
struct JSONParser {
    static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ input: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        try input.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> JSONNode in
            var parser = JSONParser(bytes: buffer)
            // A UTF-8 byte-order mark is tolerated (RFC 8259 §8.1).
            if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { parser.position = 3 }
            parser.skipWhitespace()
            let node = try parser.parseValue()
            parser.skipWhitespace()
            if parser.position != buffer.count {
                throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
            }
            return node
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard position < bytes.count else { throw error("the body ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        try enterNesting()
        position += 1
        var keys: [String] = []
        var values: [JSONNode] = []
        var index: [String: Int]?
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject(keys: keys, values: values, index: nil))
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let keyOffset = position
            let key = try parseString()
            let duplicate: Bool
            if index != nil {
                duplicate = index![key] != nil
            } else {
                duplicate = keys.contains(key)
                if keys.count >= 16 { index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }) }
            }
            if duplicate {
                throw JSONSyntaxError(kind: .duplicateKey(key), offset: keyOffset, message: "member `\(key)` appears twice")
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected `:` after member name `\(key)`, found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            index?[key] = keys.count
            keys.append(key)
            values.append(value)
            skipWhitespace()
            guard position < bytes.count else { throw error("the body ends inside an object; expected `,` or `}`") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(JSONObject(keys: keys, values: values, index: index))
            }
            throw error("expected `,` or `}` in an object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        try enterNesting()
        position += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("the body ends inside an array; expected `,` or `]`") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected `,` or `]` in an array, found \(describeCurrent())")
        }
    }

    private mutating func enterNesting() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw JSONSyntaxError(kind: .tooDeep, offset: position, message: "arrays and objects are nested more than \(Self.maximumDepth) deep")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(expected) else {
            throw error("unexpected \(describeCurrent()) where a value was expected")
        }
        position += count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs digits after `-`") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("numbers must not have leading zeros") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs digits after `.`") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs digits in its exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        let contentStart = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw JSONSyntaxError(kind: .invalidUTF8, offset: start, message: "the string starting here is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) must be escaped inside a string") }
            position += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw JSONSyntaxError(kind: .invalidUTF8, offset: start, message: "the string starting here is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { buffer.append($0) }
                default:
                    position -= 1
                    throw error("unknown escape `\\\(describeByte(escape))` in a string")
                }
            case 0x00..<0x20:
                throw error("control character 0x\(String(byte, radix: 16)) must be escaped inside a string")
            default:
                buffer.append(byte)
                position += 1
            }
        }
        throw JSONSyntaxError(kind: .syntax, offset: start, message: "the string starting here is never closed")
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("a high surrogate \\u\(String(first, radix: 16)) must be followed by a low surrogate")
            }
            position += 2
            let second = try parseHex4()
            guard (0xDC00..<0xE000).contains(second) else {
                throw error("a high surrogate must be followed by a low surrogate, found \\u\(String(second, radix: 16))")
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(value)!
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw error("a lone low surrogate \\u\(String(first, radix: 16)) is not a character")
        }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Helpers

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func describeCurrent() -> String {
        position < bytes.count ? "`\(describeByte(bytes[position]))`" : "the end of the body"
    }

    private func describeByte(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        var isUTF8Problem = false
        if position < bytes.count && bytes[position] >= 0x80 {
            var iterator = bytes[position...].makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            if case .error = parser.parseScalar(from: &iterator) { isUTF8Problem = true }
        }
        if isUTF8Problem {
            return JSONSyntaxError(kind: .invalidUTF8, offset: position, message: "the body is not valid UTF-8")
        }
        return JSONSyntaxError(kind: .syntax, offset: position, message: message)
    }
}
