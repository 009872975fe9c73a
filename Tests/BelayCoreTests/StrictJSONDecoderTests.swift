import BelayCore
import Testing

@Suite struct StrictJSONDecoderTests {
    struct Hold: Decodable, Equatable {
        let id: String
        let weight: UInt64
    }

    @Test func decodesExactlyAndRefusesUnknownMembersUnlessToldNotTo() throws {
        let tree = try JSONParser.parse(#"{"id": "jug-gold", "weight": 18446744073709551615, "note": "for people"}"#)
        let error = #expect(throws: JSONUnknownMemberError.self) { try StrictJSONDecoder().decode(Hold.self, from: tree) }
        #expect(error?.codingPath.map(\.stringValue) == ["note"])
        let hold = try StrictJSONDecoder(refusesUnknownMembers: false).decode(Hold.self, from: tree)
        #expect(hold == Hold(id: "jug-gold", weight: .max))
    }

    @Test func refusesCoercionBetweenNumbersAndStrings() throws {
        let tree = try JSONParser.parse(#"{"id": 7, "weight": "3"}"#)
        #expect(throws: DecodingError.self) { try StrictJSONDecoder().decode(Hold.self, from: tree) }
    }
}
