import BelayCore
import Foundation
import Testing

@Suite("RFC 3339")
struct RFC3339Tests {
    @Test("formats dates in UTC and with offsets, milliseconds only when present")
    func formatting() {
        let date = Date(timeIntervalSince1970: 1_795_946_400) // 2026-11-29T10:00:00Z
        #expect(RFC3339.string(from: date) == "2026-11-29T10:00:00Z")
        #expect(RFC3339.string(from: date, utcOffsetSeconds: 9 * 3600) == "2026-11-29T19:00:00+09:00")
        #expect(RFC3339.string(from: date, utcOffsetSeconds: -(3 * 3600 + 30 * 60)) == "2026-11-29T06:30:00-03:30")
        #expect(RFC3339.string(from: date.addingTimeInterval(0.25)) == "2026-11-29T10:00:00.250Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test("parses what it formats, and refuses impossible or offset-less times")
    func parsing() throws {
        let parsed = try #require(RFC3339.parse("2026-11-29T19:00:00+09:00"))
        #expect(parsed.date == Date(timeIntervalSince1970: 1_795_946_400))
        #expect(parsed.utcOffsetSeconds == 32_400)
        #expect(RFC3339.parse("2026-11-29t10:00:00.5z")?.date == Date(timeIntervalSince1970: 1_795_946_400.5))
        for bad in ["2026-11-29T19:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-29T24:00:00Z",
                    "2026-11-29T10:00:00+9:00", "2026-11-29T10:00:00.Z", "26-11-29T10:00:00Z", "2026-11-29T10:00:00Zjunk", ""] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
        // Every day over four centuries round-trips.
        for day in stride(from: -80_000, to: 80_000, by: 37) {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400 + 3723)
            #expect(RFC3339.parse(RFC3339.string(from: date))?.date == date)
        }
    }

    @Test("round-trips instants with their offsets, milliseconds included")
    func roundTripsWithOffsets() throws {
        let instant = Date(timeIntervalSince1970: 1_795_946_400.123)
        for offset in [0, 9 * 3600, -(3 * 3600 + 30 * 60), 5 * 3600 + 45 * 60, -12 * 3600, 14 * 3600] {
            let text = RFC3339.string(from: instant, utcOffsetSeconds: offset)
            let parsed = try #require(RFC3339.parse(text), "\(text)")
            #expect(parsed.utcOffsetSeconds == offset, "\(text)")
            #expect(abs(parsed.date.timeIntervalSince(instant)) < 0.000_5, "\(text)")
        }
        #expect(RFC3339.string(from: instant, utcOffsetSeconds: 5 * 3600 + 45 * 60) == "2026-11-29T15:45:00.123+05:45")
    }

    @Test("writes milliseconds always, when present, or never, as asked")
    func fractions() {
        let whole = Date(timeIntervalSince1970: 1_795_946_400)
        let fractional = whole.addingTimeInterval(0.007)
        #expect(RFC3339.string(from: whole, fraction: .milliseconds) == "2026-11-29T10:00:00.000Z")
        #expect(RFC3339.string(from: fractional, fraction: .milliseconds) == "2026-11-29T10:00:00.007Z")
        #expect(RFC3339.string(from: fractional, fraction: .none) == "2026-11-29T10:00:00Z")
        #expect(RFC3339.string(from: fractional) == "2026-11-29T10:00:00.007Z")
        // A stored millisecond instant is written as that millisecond, not the one before it.
        let stored = Date(timeIntervalSince1970: Double(1_795_946_400_123 as Int64) / 1000)
        #expect(RFC3339.string(from: stored) == "2026-11-29T10:00:00.123Z")
    }
}
