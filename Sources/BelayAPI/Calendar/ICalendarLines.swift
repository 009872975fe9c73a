import Foundation

/// Writes iCalendar (RFC 5545) content lines: `NAME;PARAMS:VALUE`, ended by CRLF, folded
/// so no line is longer than 75 octets (a continuation starts with a space, and a UTF-8
/// character is never split), TEXT values escaped (`\\`, `\;`, `\,`, `\n`).
struct ICalendarLines {
    private(set) var bytes: [UInt8] = []

    /// A property whose value is already in its iCalendar form (a date, a number, an enum).
    mutating func property(_ name: String, _ value: String) {
        append(Array("\(name):\(value)".utf8))
    }

    /// A TEXT property: `value` is escaped, and control characters other than line breaks dropped.
    mutating func text(_ name: String, _ value: String) {
        property(name, Self.escape(value))
    }

    /// `\`, `;` and `,` escaped with a backslash, line breaks as `\n`, other controls removed.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        var previousWasCR = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { break }
                out.unicodeScalars.append(scalar)
            }
            previousWasCR = scalar == "\r"
        }
        return out
    }

    /// Appends one content line, folded at 75 octets.
    private mutating func append(_ line: [UInt8]) {
        var start = 0
        var limit = 75
        while line.count - start > limit {
            var cut = start + limit
            // Step back to the first byte of a UTF-8 character.
            while cut > start, line[cut] & 0xC0 == 0x80 { cut -= 1 }
            bytes += line[start..<cut]
            bytes += [0x0D, 0x0A, 0x20]
            start = cut
            limit = 74
        }
        bytes += line[start...]
        bytes += [0x0D, 0x0A]
    }
}
