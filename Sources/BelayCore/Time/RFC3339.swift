import Foundation

/// RFC 3339 date-times (`2026-11-29T19:00:00+09:00`), formatted and parsed by hand: no
/// `DateFormatter`, no locale, fast enough for every response. Belay's one implementation:
/// API bodies, webhook payloads, badges, log lines, messages and the command line use it.
public enum RFC3339 {
    /// How much of a second is written.
    public enum Fraction: Sendable {
        /// Milliseconds only when the instant has a fractional second (API bodies).
        case whenPresent
        /// Always three digits of milliseconds (webhook timestamps, log lines).
        case milliseconds
        /// Whole seconds, the fraction dropped (messages, badges).
        case none
    }

    /// `date` written with the given UTC offset; `Z` when the offset is 0. The instant is
    /// taken to the nearest millisecond, as Belay stores it.
    public static func string(from date: Date, utcOffsetSeconds: Int = 0, fraction: Fraction = .whenPresent) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        append(date, utcOffsetSeconds: utcOffsetSeconds, fraction: fraction, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `date` as `string(from:utcOffsetSeconds:fraction:)` would, straight into `bytes`.
    public static func append(_ date: Date, utcOffsetSeconds: Int = 0, fraction: Fraction = .whenPresent, to bytes: inout [UInt8]) {
        append(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded()),
               utcOffsetSeconds: utcOffsetSeconds, fraction: fraction, to: &bytes)
    }

    /// The year `string(from:utcOffsetSeconds:)` writes for `date` (proleptic Gregorian; 0 is
    /// 1 BC), or nil for an instant too far from 1970 to count in milliseconds.
    public static func year(of date: Date, utcOffsetSeconds: Int = 0) -> Int? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude < 1e17 else { return nil }
        let local = Int64(milliseconds) + Int64(utcOffsetSeconds) * 1000
        return civilDate(fromDaysSinceEpoch: floorDivide(floorDivide(local, 1000), 86_400)).year
    }

    /// Writes the instant `totalMilliseconds` after 1970-01-01T00:00:00Z into `bytes`.
    public static func append(millisecondsSinceEpoch totalMilliseconds: Int64, utcOffsetSeconds: Int, fraction: Fraction,
                              to bytes: inout [UInt8]) {
        let localMilliseconds = totalMilliseconds + Int64(utcOffsetSeconds) * 1000
        let milliseconds = Int(localMilliseconds - floorDivide(localMilliseconds, 1000) * 1000)
        let seconds = floorDivide(localMilliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilDate(fromDaysSinceEpoch: days)

        appendPadded(&bytes, year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(&bytes, month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(&bytes, day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(&bytes, secondOfDay / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(&bytes, secondOfDay / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(&bytes, secondOfDay % 60, width: 2)
        let writesMilliseconds = switch fraction {
        case .whenPresent: milliseconds != 0
        case .milliseconds: true
        case .none: false
        }
        if writesMilliseconds {
            bytes.append(UInt8(ascii: "."))
            appendPadded(&bytes, milliseconds, width: 3)
        }
        if utcOffsetSeconds == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let magnitude = abs(utcOffsetSeconds)
            bytes.append(utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendPadded(&bytes, magnitude / 3600, width: 2)
            bytes.append(UInt8(ascii: ":"))
            appendPadded(&bytes, magnitude / 60 % 60, width: 2)
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` and a space for `T` are accepted.
    /// Returns nil when the text is not such a date-time or names an impossible date or time.
    public static func parse(_ text: String) -> (date: Date, utcOffsetSeconds: Int)? {
        var text = text
        return text.withUTF8 { bytes -> (Date, Int)? in
            var position = 0
            func number(_ width: Int) -> Int? {
                guard position + width <= bytes.count else { return nil }
                var value = 0
                for _ in 0..<width {
                    let byte = bytes[position]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    position += 1
                }
                return value
            }
            func expect(_ allowed: UInt8...) -> Bool {
                guard position < bytes.count, allowed.contains(bytes[position]) else { return false }
                position += 1
                return true
            }
            guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
                  let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
                  let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
                  let second = number(2)
            else { return nil }
            var fraction = 0.0
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                var scale = 0.1
                let start = position
                while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                    fraction += Double(bytes[position] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    position += 1
                }
                guard position > start else { return nil }
            }
            var offset = 0
            if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
                offset = 0
            } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
                position += 1
                guard let offsetHours = number(2), expect(UInt8(ascii: ":")), let offsetMinutes = number(2),
                      offsetHours < 24, offsetMinutes < 60 else { return nil }
                offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            } else {
                return nil
            }
            guard position == bytes.count,
                  (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            let days = daysSinceEpoch(year: year, month: month, day: day)
            let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
            return (Date(timeIntervalSince1970: seconds), offset)
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDaysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// Appends `value` in decimal, zero-padded to `width` digits, without allocating.
    private static func appendPadded(_ bytes: inout [UInt8], _ value: Int, width: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var digitCount = 1
        var power: UInt = 10
        while digitCount < 19 && magnitude >= power {
            digitCount += 1
            power *= 10
        }
        for _ in digitCount..<max(width, digitCount) { bytes.append(UInt8(ascii: "0")) }
        var divisor: UInt = 1
        for _ in 1..<digitCount { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}
