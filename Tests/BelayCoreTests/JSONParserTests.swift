import BelayCore
import Testing

@Suite struct JSONParserTests {
    @Test func keepsIntegersBooleansAndKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": [true, 1.5, null, "x\u00e9\n"], "c": -0}"#)
        #expect(value == .object([
            ("b", .int(1)),
            ("a", .array([.bool(true), .double(1.5), .null, .string("xé\n")])),
            ("c", .int(0)),
        ]))
        guard case let .object(members) = value else { Issue.record("not an object"); return }
        #expect(members.keys == ["b", "a", "c"])
    }

    @Test func keepsNumbersAsWritten() throws {
        let value = try JSONParser.parse(#"[18446744073709551615, 1e3, -0.5, 9007199254740993]"#)
        guard case let .array(items) = value else { Issue.record("not an array"); return }
        let numbers = items.compactMap { item -> JSONNumber? in
            if case let .number(number) = item { return number }
            return nil
        }
        #expect(numbers.map(\.text) == ["18446744073709551615", "1e3", "-0.5", "9007199254740993"])
        #expect(numbers.map(\.isInteger) == [false, false, false, true])
        #expect(UInt64(numbers[0].text) == .max)
        #expect(numbers[3].int64Value == 9_007_199_254_740_993)
    }

    @Test(arguments: ["{", "{\"a\" 1}", "[1,]", "01", "\"\\x\"", "{\"a\": 1, \"a\": 2}", "tru", "1 2", "[1e999]", "\"a\u{01}\""])
    func refusesMalformedDocuments(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func errorsSayTheLineColumnAndByte() {
        let text = "{\n  \"server\": {\n    \"port\": 8080,\n  }\n}"
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(error?.line == 4)
        #expect(error?.column == 3)
        #expect(error?.offset == Array(text.utf8).firstIndex(of: UInt8(ascii: "}")))
        #expect(error?.kind == .syntax)
        #expect(error?.description == "line 4, column 3: expected a key in double quotes, found '}'")
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"["é🧗", x]"#) }
        #expect(error?.line == 1)
        #expect(error?.column == 8)
        #expect(error?.offset == 11)
    }

    @Test func skipsAByteOrderMarkAndCountsPositionsAfterIt() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try JSONParser.parse(bom + Array(#"{"a": true}"#.utf8)) == ["a": true])
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bom + Array("[1,,2]".utf8)) }
        #expect(error?.column == 4)
        #expect(error?.offset == 6)
    }

    @Test func namesDuplicateKeysInvalidUTF8AndDepth() {
        let duplicate = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }
        #expect(duplicate?.kind == .duplicateKey("a"))
        #expect(duplicate?.offset == 9)
        let utf8 = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]) }
        #expect(utf8?.kind == .invalidUTF8)
        let deep = #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), maximumDepth: 64)
        }
        #expect(deep?.kind == .tooDeep)
        #expect(throws: Never.self) {
            try JSONParser.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64), maximumDepth: 64)
        }
    }
}
