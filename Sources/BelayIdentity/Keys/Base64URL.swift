/// Strict base64url (RFC 4648 §5) as JWS uses it: the URL-safe alphabet only, no padding, no
/// whitespace, and unused trailing bits zero, so that one text has one meaning.
enum Base64URL {
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(character)] = Int8(index)
        }
        return table
    }()

    /// The bytes `text` encodes; nil when it has a character outside the alphabet, padding, a
    /// length no encoding has, or non-zero unused bits.
    static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        if text.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = values[Int(character)]
            if value < 0 { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return accumulator == 0 ? output : nil
    }

    static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}
