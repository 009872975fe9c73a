import BelayHTTP
import Foundation
import Testing

@Suite("RFC 3339 dates and JSON responses")
struct JSONEncodingTests {
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

    @Test("Response.json uses the shared encoder: compact, unescaped slashes, RFC 3339 dates, offsets kept")
    func jsonResponse() throws {
        struct Meetup: Encodable {
            let id: Int64
            let url: String
            let createdAt: Date
            let startsAt: OffsetDateTime
            enum CodingKeys: String, CodingKey { case id, url, createdAt = "created_at", startsAt = "starts_at" }
        }
        let date = Date(timeIntervalSince1970: 1_795_946_400)
        let response = try Response.json(Meetup(id: 1, url: "https://x/y", createdAt: date,
                                                startsAt: OffsetDateTime(date: date, timeZone: TimeZone(identifier: "Asia/Seoul")!)),
                                         status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json")
        let text = String(decoding: response.body.bytes, as: UTF8.self)
        #expect(text.contains(#""url":"https://x/y""#))
        #expect(text.contains(#""created_at":"2026-11-29T10:00:00Z""#))
        #expect(text.contains(#""starts_at":"2026-11-29T19:00:00+09:00""#))
        #expect(!text.contains("\n"))
    }

    @Test("OffsetDateTime decodes strictly through the body decoder")
    func offsetDateTimeDecoding() throws {
        struct Body: Decodable { let at: OffsetDateTime }
        let body = try JSONBodyDecoder().decode(Body.self, from: Array(#"{"at":"2026-11-29T19:00:00+09:00"}"#.utf8))
        #expect(body.at.utcOffsetSeconds == 32_400)
        #expect(body.at.description == "2026-11-29T19:00:00+09:00")
        let error = #expect(throws: HTTPError.self) { try JSONBodyDecoder().decode(Body.self, from: Array(#"{"at":"tomorrow"}"#.utf8)) }
        #expect(error?.extensions["field"] == "at")
    }
}
