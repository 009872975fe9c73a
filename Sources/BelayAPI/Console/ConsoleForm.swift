/// A submitted HTML form (`application/x-www-form-urlencoded`): its fields in the order sent,
/// names and values percent-decoded with `+` read as a space. Bytes that are not UTF-8 become
/// U+FFFD, so whatever a browser (or anyone) sends reads as text and is shown back as typed.
struct ConsoleForm: Sendable {
    private(set) var fields: [(name: String, value: String)]

    init(fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The fields of `body`.
    init(body: [UInt8]) {
        fields = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decoded(parts[0]), parts.count > 1 ? Self.decoded(parts[1]) : "")
        }
    }

    /// The first value of `name`, nil when the form has no such field.
    subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The value of `name` without surrounding white space; "" when absent.
    func trimmed(_ name: String) -> String {
        (self[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Percent-decoding as browsers encode forms; a malformed escape is kept as typed.
    static func decoded<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                      let first = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), first != bytes.endIndex,
                      let second = bytes.index(first, offsetBy: 1, limitedBy: bytes.endIndex), second != bytes.endIndex,
                      let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                output.append(high << 4 | low)
                index = second
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `text` percent-encoded for a query string or a form (unreserved characters kept).
    static func encoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return output
    }
}

import Foundation
