import BelayCore
import BelayHTTP
import Foundation
import Testing

@Suite("Strict JSON request decoding")
struct JSONBodyDecoderTests {
    enum Target: String, Codable, CaseIterable { case instagramStories = "instagram_stories", shareSheet = "share_sheet" }

    struct Place: Decodable, Equatable {
        let name: String
        let capacity: Int?
    }

    struct ShareEvent: Decodable, Equatable {
        let target: Target
        let activityType: String?
        let completed: Bool
        let clientEventID: UUID
        let at: Date?
        let tags: [String]
        let place: Place?

        enum CodingKeys: String, CodingKey {
            case target, completed, at, tags, place
            case activityType = "activity_type"
            case clientEventID = "client_event_id"
        }
    }

    let valid = """
    {"target":"share_sheet","activity_type":"com.apple.UIKit.activity.SaveToCameraRoll","completed":true,
     "client_event_id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","at":"2026-11-29T19:00:00+09:00","tags":["a","b"],
     "place":{"name":"Crag \\u00e9 \\ud83e\\uddd7","capacity":12}}
    """

    func decode(_ text: String) throws -> ShareEvent {
        try JSONBodyDecoder().decode(ShareEvent.self, from: Array(text.utf8))
    }

    func problem(_ text: String) -> HTTPError? {
        problem(Array(text.utf8))
    }

    func problem(_ bytes: [UInt8]) -> HTTPError? {
        do {
            _ = try JSONBodyDecoder().decode(ShareEvent.self, from: bytes)
            return nil
        } catch let error as HTTPError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("a valid body decodes, with escapes, dates with offsets, nested objects and optionals")
    func validBody() throws {
        let event = try decode(valid)
        #expect(event.target == .shareSheet)
        #expect(event.activityType == "com.apple.UIKit.activity.SaveToCameraRoll")
        #expect(event.completed)
        #expect(event.at == Date(timeIntervalSince1970: 1_795_946_400))
        #expect(event.tags == ["a", "b"])
        #expect(event.place == Place(name: "Crag é 🧗", capacity: 12))

        let minimal = try decode(#"{"target":"instagram_stories","completed":false,"client_event_id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","tags":[],"activity_type":null}"#)
        #expect(minimal.activityType == nil)
        #expect(minimal.place == nil)
    }

    @Test("malformed JSON is 400 malformed_json saying where")
    func malformed() {
        for text in ["{", #"{"target":}"#, #"{"a":1,}"#, "[1,2", "{'a':1}", "01", "{\"a\":1} x", "// c\n{}", #"{"a":tru}"#, "\"\\x\"", "-", "1.", "1e"] {
            let error = problem(text)
            #expect(error?.status == .badRequest, "\(text)")
            #expect(error?.code == "malformed_json", "\(text)")
            #expect(error?.detail.contains("at byte") == true, "\(text)")
        }
        #expect(problem("")?.code == "empty_body")
        #expect(problem("  \n ")?.code == "empty_body")
        #expect(problem(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))?.code == "malformed_json")
    }

    @Test("invalid UTF-8 is 400 invalid_utf8, inside or outside strings; never a crash")
    func invalidUTF8() {
        let cases: [[UInt8]] = [
            Array(#"{"target":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8),
            Array(#"{"target":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            Array(#"{"target":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
            [0xFF, 0xFF, 0xFF],
            Array(#"{"ta"#.utf8) + [0x80] + Array(#"rget":1}"#.utf8),
        ]
        for bytes in cases {
            let error = problem(bytes)
            #expect(error?.status == .badRequest)
            #expect(error?.code == "invalid_utf8", "\(bytes)")
        }
        // Random bytes of every kind never crash the decoder.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let error = problem(bytes)
            #expect(error != nil)
        }
        // A lone surrogate escape is not a character.
        #expect(problem(#"{"target":"\ud800"}"#)?.code == "malformed_json")
    }

    @Test("unknown fields are 422 unknown_field with the path, also nested")
    func unknownFields() {
        let top = problem(valid.replacingOccurrences(of: #""completed":true"#, with: #""completed":true,"colour":"red""#))
        #expect(top?.status == .unprocessableContent)
        #expect(top?.code == "unknown_field")
        #expect(top?.extensions["field"] == "colour")
        #expect(top?.detail.contains("`colour`") == true)

        let nested = problem(valid.replacingOccurrences(of: #""capacity":12"#, with: #""capacity":12,"capacityy":13"#))
        #expect(nested?.code == "unknown_field")
        #expect(nested?.extensions["field"] == "place.capacityy")
    }

    @Test("missing fields and nulls for required fields are 422 missing_field naming the field")
    func missingFields() {
        let missing = problem(#"{"target":"share_sheet","client_event_id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","tags":[]}"#)
        #expect(missing?.status == .unprocessableContent)
        #expect(missing?.code == "missing_field")
        #expect(missing?.extensions["field"] == "completed")
        #expect(missing?.detail == "Field `completed` is required.")

        let null = problem(valid.replacingOccurrences(of: #""completed":true"#, with: #""completed":null"#))
        #expect(null?.code == "missing_field")
        #expect(null?.detail.contains("must not be null") == true)

        let nested = problem(valid.replacingOccurrences(of: #""name":"Crag \u00e9 \ud83e\uddd7","#, with: ""))
        #expect(nested?.extensions["field"] == "place.name")
    }

    @Test("wrong types and bad values are 422 invalid_field naming the field and the expectation")
    func wrongTypes() {
        let cases: [(String, String, String, String)] = [
            (#""completed":true"#, #""completed":"yes""#, "completed", "true or false"),
            (#""completed":true"#, #""completed":1"#, "completed", "true or false"),
            (#""tags":["a","b"]"#, #""tags":["a",2]"#, "tags[1]", "a string"),
            (#""tags":["a","b"]"#, #""tags":"a""#, "tags", "an array"),
            (#""capacity":12"#, #""capacity":12.5"#, "place.capacity", "an integer"),
            (#""capacity":12"#, #""capacity":"12""#, "place.capacity", "an integer"),
            (#""capacity":12"#, #""capacity":99999999999999999999"#, "place.capacity", "between"),
            (#""target":"share_sheet""#, #""target":"tiktok""#, "target", "one of: instagram_stories, share_sheet"),
            (#""at":"2026-11-29T19:00:00+09:00""#, #""at":"2026-11-29 19:00""#, "at", "RFC 3339"),
            (#""at":"2026-11-29T19:00:00+09:00""#, #""at":"2026-02-30T19:00:00Z""#, "at", "RFC 3339"),
            (#""client_event_id":"6F9619FF-8B86-D011-B42D-00C04FC964FF""#, #""client_event_id":"nope""#, "client_event_id", "UUID"),
            (#""tags":["a","b"]"#, #""tags":{}"#, "tags", "an array"),
            (#""place":{"name":"Crag \u00e9 \ud83e\uddd7","capacity":12}"#, #""place":7"#, "place", "an object"),
        ]
        for (original, replacement, field, expectation) in cases {
            let body = valid.replacingOccurrences(of: original, with: replacement)
            let error = problem(body)
            #expect(error?.status == .unprocessableContent, "\(replacement)")
            #expect(error?.code == "invalid_field", "\(replacement)")
            #expect(error?.extensions["field"] == .string(field), "\(replacement)")
            #expect(error?.detail.contains(expectation) == true, "\(replacement): \(error?.detail ?? "")")
        }
        let notObject = problem("[1]")
        #expect(notObject?.detail == "The request body must be an object; found an array.")
    }

    @Test("a member given twice is refused")
    func duplicateKeys() {
        let error = problem(#"{"completed":true,"completed":false}"#)
        #expect(error?.code == "duplicate_field")
        #expect(error?.extensions["field"] == "completed")
        // Also found in large objects.
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(problem("{\(many),\"k7\":1}")?.code == "duplicate_field")
    }

    @Test("integers decode exactly; integral floats are integers, fractions are not")
    func numbers() throws {
        struct Numbers: Decodable { let big: Int64; let small: Int8; let unsigned: UInt64; let real: Double; let exp: Int }
        let numbers = try JSONBodyDecoder().decode(Numbers.self, from: Array(#"{"big":9007199254740993,"small":-128,"unsigned":18446744073709551615,"real":-1.5e-3,"exp":1e3}"#.utf8))
        #expect(numbers.big == 9_007_199_254_740_993)
        #expect(numbers.small == -128)
        #expect(numbers.unsigned == .max)
        #expect(numbers.real == -0.0015)
        #expect(numbers.exp == 1000)
        #expect(throws: HTTPError.self) { try JSONBodyDecoder().decode(Numbers.self, from: Array(#"{"big":1,"small":128,"unsigned":1,"real":1,"exp":1}"#.utf8)) }
    }

    @Test("free-form JSONValue members, dictionaries and top-level arrays decode")
    func freeForm() throws {
        struct Envelope: Decodable { let meta: JSONValue; let counts: [String: Int] }
        let envelope = try JSONBodyDecoder().decode(Envelope.self, from: Array(#"{"meta":{"x":[1,"two",null,true]},"counts":{"a":1,"b":2}}"#.utf8))
        #expect(envelope.meta == ["x": [1, "two", nil, true]])
        #expect(envelope.counts == ["a": 1, "b": 2])
        #expect(try JSONBodyDecoder().decode([Int].self, from: Array("[1,2,3]".utf8)) == [1, 2, 3])
    }

    @Test("Request.decodeJSON refuses non-JSON content types with 415")
    func contentType() throws {
        let request = Request(method: .post, path: "/", headers: ["Content-Type": "text/plain"], body: Array("{}".utf8))
        let error = #expect(throws: HTTPError.self) { try request.decodeJSON(as: [String: Int].self) }
        #expect(error?.status == .unsupportedMediaType)
        let json = Request(method: .post, path: "/", headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(#"{"a":1}"#.utf8))
        #expect(try json.decodeJSON(as: [String: Int].self) == ["a": 1])
        let problemJSON = Request(method: .post, path: "/", headers: ["Content-Type": "application/merge-patch+json"], body: Array(#"{"a":1}"#.utf8))
        #expect(try problemJSON.decodeJSON(as: [String: Int].self) == ["a": 1])
    }

    @Test("JSON media types: any case, blanks around them, parameters after them; nothing else")
    func jsonMediaTypes() throws {
        for accepted in ["application/json", "Application/JSON", " application/json\t", "application/json;charset=utf-8",
                         "application/json ; charset=utf-8", "application/merge-patch+json", "APPLICATION/PROBLEM+JSON; x=y"] {
            let request = Request(method: .post, path: "/", headers: ["Content-Type": accepted], body: Array(#"{"a":1}"#.utf8))
            #expect(try request.decodeJSON(as: [String: Int].self) == ["a": 1], "\(accepted)")
        }
        for refused in ["", "text/plain", "application/jsonx", "application/+json", "text/x+json", "application/json-seq",
                        "application / json", "json", "application/xml; type=json"] {
            let request = Request(method: .post, path: "/", headers: ["Content-Type": refused], body: Array(#"{"a":1}"#.utf8))
            let error = #expect(throws: HTTPError.self, "\(refused)") { try request.decodeJSON(as: [String: Int].self) }
            #expect(error?.status == .unsupportedMediaType, "\(refused)")
        }
    }

    @Test("over HTTP: a handler's decoding mistake becomes the problem response")
    func overHTTP() throws {
        struct CheckIn: Decodable { let code: String }
        let test = try TestServer { router, logger in
            router.addStandardMiddleware(logger: logger)
            router.post("/check-in") { request, _ in
                let body = try request.decodeJSON(as: CheckIn.self)
                return .json(["code": .string(body.code)], status: .created)
            }
        }
        let client = try test.client()
        let created = try client.request("POST", "/check-in", json: #"{"code":"123456"}"#)
        #expect(created.status == 201)
        #expect(created.header("Content-Type") == "application/json")
        #expect(created.text == #"{"code":"123456"}"#)
        let unknown = try client.request("POST", "/check-in", json: #"{"code":"1","user":2}"#)
        #expect(unknown.status == 422)
        #expect(unknown.jsonObject?["field"] as? String == "user")
        let wrongType = try client.request("POST", "/check-in", json: #"{"code":123456}"#)
        #expect(wrongType.status == 422)
        #expect(wrongType.jsonObject?["detail"] as? String == "Field `code` must be a string; found a number.")
        let binary = try client.request("POST", "/check-in", headers: [("Content-Type", "application/json")], body: [0x7B, 0xFF, 0x00, 0x7D])
        #expect(binary.status == 400)
        #expect(binary.jsonObject?["code"] as? String == "invalid_utf8")
        #expect(try client.request("POST", "/check-in", json: #"{"code":"2"}"#).status == 201)
    }
}
