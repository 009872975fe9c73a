import BelayCore
import Testing

@Suite struct JSONOutputTests {
    @Test func escapesQuotesBackslashesControlCharactersAndDelete() {
        #expect(JSONOutput.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONOutput.quoted("\n\r\t") == #""\n\r\t""#)
        #expect(JSONOutput.quoted("\u{00}\u{01}\u{08}\u{0C}\u{1F}") == #""\u0000\u0001\u0008\u000c\u001f""#)
        #expect(JSONOutput.quoted("x\u{7F}y") == #""x\u007fy""#)
        #expect(JSONOutput.quoted("é 🧗 / <") == "\"é 🧗 / <\"")
    }

    @Test func everyEscapedStringParsesBackToItself() throws {
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é🧗"
        var json = JSONOutput()
        json.string(text)
        #expect(!json.bytes.contains { $0 < 0x20 || $0 == 0x7F })
        #expect(try JSONParser.parse(json.bytes) == .string(text))
    }

    @Test func writesFreeFormValuesCompactlyWithMembersByName() throws {
        let value: JSONValue = ["b": [1, 2.5, nil, true], "a": "x", "c": ["z": .int(-3)]]
        #expect(String(decoding: value.jsonBytes, as: UTF8.self) == #"{"a":"x","b":[1,2.5,null,true],"c":{"z":-3}}"#)
        #expect(try JSONParser.parse(value.jsonBytes) == value)
    }

    @Test func writesMembersInTheOrderGiven() {
        var json = JSONOutput()
        json.object { json in
            json.member("id", 42)
            json.member("title", "Bouldering night")
            json.member("note", nil as String?)
            json.key("tags")
            json.array(["a", "b"]) { json, tag in json.string(tag) }
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"id":42,"title":"Bouldering night","note":null,"tags":["a","b"]}"#)
    }

    @Test func prettyPrintsInDocumentOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": {"k": []}, "s": "\u007f"}"#)
        #expect(value.prettyPrinted() == "{\n  \"z\": 1,\n  \"a\": {\n    \"k\": []\n  },\n  \"s\": \"\\u007f\"\n}")
    }
}
