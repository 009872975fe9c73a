import BelayCore
import Testing

@Suite struct CodePointsTests {
    @Test func namesEachScalarAndDescribesCharactersForMessages() {
        #expect(CodePoints.names(of: "\u{13000}") == ["U+13000"])
        #expect(CodePoints.names(of: "🧗‍♀️") == ["U+1F9D7", "U+200D", "U+2640", "U+FE0F"])
        #expect(CodePoints.describe(["\u{13000}", "é"]) == "'\u{13000}' (U+13000), 'é' (U+E9)")
    }
}
