import BelayHTTP
import Foundation
import Testing

@Suite("StreamingJSONEncoder")
struct StreamingJSONEncoderTests {
    enum Status: String, Codable { case scheduled, cancelled }

    struct Attendee: Codable, Equatable {
        let userID: Int64
        let name: String
        let note: String?
        enum CodingKeys: String, CodingKey { case userID = "user_id", name, note }
    }

    struct Meetup: Codable, Equatable {
        let id: Int64
        let title: String
        let status: Status
        let capacity: Int
        let ratio: Double
        let open: Bool
        let tags: [String]
        let attendees: [Attendee]
        let counts: [String: Int]
        let createdAt: Date
        let startsAt: OffsetDateTime
        let nothing: String?
        let nested: [[Int]]
    }

    let meetup = Meetup(
        id: 42, title: "Night \"session\" \\ é 🧗 \n\t\u{1}", status: .scheduled, capacity: 24, ratio: 0.75, open: true,
        tags: ["a/b", ""], attendees: [Attendee(userID: 1, name: "Ji-woo", note: nil), Attendee(userID: 2, name: "Sam", note: "late")],
        counts: ["going": 18, "waitlisted": 2], createdAt: Date(timeIntervalSince1970: 1_795_946_400.5),
        startsAt: OffsetDateTime(date: Date(timeIntervalSince1970: 1_795_946_400), utcOffsetSeconds: 32_400),
        nothing: nil, nested: [[1, 2], [], [3]])

    func object(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    @Test("produces the same JSON as JSONEncoder, members in declaration order")
    func matchesFoundation() throws {
        let streamed = try StreamingJSONEncoder().encode(meetup)
        let foundation = try JSONResponseEncoding.encoder.encode(meetup)
        #expect(try object(streamed) == object([UInt8](foundation)))
        let text = String(decoding: streamed, as: UTF8.self)
        #expect(text.hasPrefix(#"{"id":42,"title":"Night \"session\" \\ é 🧗 \n\t\u0001","status":"scheduled","capacity":24,"ratio":0.75,"open":true,"tags":["a/b",""],"attendees":[{"user_id":1,"name":"Ji-woo"},{"user_id":2,"name":"Sam","note":"late"}]"#))
        #expect(text.contains(#""createdAt":"2026-11-29T10:00:00.500Z","startsAt":"2026-11-29T19:00:00+09:00","nested":[[1,2],[],[3]]}"#))
        #expect(!text.contains("nothing"))
        // And it decodes back through the strict decoder.
        #expect(try JSONBodyDecoder().decode(Meetup.self, from: streamed) == meetup)
    }

    @Test("top-level scalars, arrays, optionals and empty values")
    func scalars() throws {
        let encoder = StreamingJSONEncoder()
        #expect(try encoder.encode("x") == Array(#""x""#.utf8))
        #expect(try encoder.encode(7) == Array("7".utf8))
        #expect(try encoder.encode([1.5, 2]) == Array("[1.5,2]".utf8))
        #expect(try encoder.encode(["a", nil] as [String?]) == Array(#"["a",null]"#.utf8))
        #expect(try encoder.encode([Int]()) == Array("[]".utf8))
        #expect(try encoder.encode([String: Int]()) == Array("{}".utf8))
        #expect(throws: EncodingError.self) { try encoder.encode([Double.nan]) }
    }

    @Test("types that use their containers out of order fall back to JSONEncoder and stay correct")
    func fallback() throws {
        struct Interleaved: Encodable {
            enum Keys: String, CodingKey { case a, b, c, d }
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: Keys.self)
                var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try outer.encode(1, forKey: .b)
                var second = outer.nestedContainer(keyedBy: Keys.self, forKey: .c)
                try first.encode("late", forKey: .d)
                try second.encode("on time", forKey: .d)
            }
        }
        class Base: Encodable {
            var base = 1
        }
        final class Derived: Base {
            var derived = 2
            enum Keys: String, CodingKey { case derived }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(derived, forKey: .derived)
                try super.encode(to: container.superEncoder())
            }
        }
        struct Wrapper<T: Encodable>: Encodable { let before = 0; let value: T; let after = 9 }

        for value in [Wrapper(value: Interleaved()) as any Encodable, Wrapper(value: Derived()) as any Encodable] {
            let streamed = try StreamingJSONEncoder().encode(value)
            let foundation = try JSONResponseEncoding.encoder.encode(value)
            #expect(try object(streamed) == object([UInt8](foundation)))
        }
    }

    @Test("a type asking for its keyed container twice continues the same object")
    func reusedContainer() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
            }
        }
        #expect(try StreamingJSONEncoder().encode([Twice(), Twice()]) == Array(#"[{"a":1,"b":2},{"a":1,"b":2}]"#.utf8))
    }
}
