/// Belay's JSON parser, strict as RFC 8259: no comments, no trailing commas, no leading zeros,
/// no lone surrogates, no raw control characters in strings, UTF-8 only (a leading byte-order
/// mark is skipped, RFC 8259 §8.1), duplicate member names refused. Errors say where, as a byte
/// offset and as a line and column.
public struct JSONParser {
    /// The nesting allowed by default: deeper documents are refused rather than risking the stack.
    public static let defaultMaximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses a whole document.
    /// - Throws: `JSONSyntaxError` for the first problem, saying where it is.
    public static func parse(_ input: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONSyntaxError) -> JSONValue {
        try input.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> JSONValue in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { parser.position = 3 }
            parser.skipWhitespace()
            let value = try parser.parseValue()
            parser.skipWhitespace()
            if parser.position != buffer.count {
                throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
            }
            return value
        }
    }

    /// Parses a whole document given as text.
    /// - Throws: `JSONSyntaxError` for the first problem, saying where it is.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("expected a value, found the end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(describeCurrent())")
            }
            let keyOffset = position
            let key = try parseString()
            if object.position(of: key) != nil {
                throw error("the key \(JSONOutput.quoted(key)) appears twice in the same object", kind: .duplicateKey(key), at: keyOffset)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \(JSONOutput.quoted(key)), found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}', found the end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(object)
            }
            throw error("expected ',' or '}', found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterNesting()
        position += 1
        var elements: [JSONValue] = []
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
            guard position < bytes.count else { throw error("expected ',' or ']', found the end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']', found \(describeCurrent())")
        }
    }

    private mutating func enterNesting() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth {
            throw error("arrays and objects are nested more than \(maximumDepth) deep", kind: .tooDeep)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(expected) else {
            throw error("expected a value, found \(describeCurrent())")
        }
        position += count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit, found \(describeCurrent())") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("numbers must not have leading zeros") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("expected a digit after '.', found \(describeCurrent())")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("expected a digit in the exponent, found \(describeCurrent())")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard Double(text)?.isFinite == true else {
            throw error("the number \(text) is out of range", at: start)
        }
        return JSONNumber(literal: text)
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
                    throw error("the string starting here is not valid UTF-8", kind: .invalidUTF8, at: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            position += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw error("the string starting here is not valid UTF-8", kind: .invalidUTF8, at: start)
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
                    throw error("invalid escape '\\\(describeByte(escape))' in a string")
                }
            case 0x00..<0x20:
                throw controlCharacter(byte)
            default:
                buffer.append(byte)
                position += 1
            }
        }
        throw error("the string starting here is never closed", at: start)
    }

    private func controlCharacter(_ byte: UInt8) -> JSONSyntaxError {
        error("control character 0x\(String(byte, radix: 16)) in a string (write it as an escape such as \\n)")
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
            // Always a scalar: a surrogate pair encodes U+10000…U+10FFFF.
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw error("a lone low surrogate \\u\(String(first, radix: 16)) is not a character")
        }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hex digits")
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
        position < bytes.count ? "'\(describeByte(bytes[position]))'" : "the end of the text"
    }

    private func describeByte(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    /// The error at `offset` (where parsing stopped, by default); a stop at bytes that are not
    /// UTF-8 is reported as that, whatever the grammar expected there.
    private func error(_ message: String, kind: JSONSyntaxError.Kind = .syntax, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = offset ?? position
        var kind = kind
        var message = message
        if kind == .syntax, offset < bytes.count, bytes[offset] >= 0x80 {
            var iterator = bytes[offset...].makeIterator()
            var decoder = Unicode.UTF8.ForwardParser()
            if case .error = decoder.parseScalar(from: &iterator) {
                kind = .invalidUTF8
                message = "the text is not valid UTF-8"
            }
        }
        var line = 1, column = 1
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        for byte in bytes[min(start, offset)..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(kind: kind, offset: offset, line: line, column: column, message: message)
    }
}
