import BelayDomain
import Testing

@Suite struct PluralTests {
    @Test func countsTakeTheSingularOnlyForOne() {
        #expect(Plural.counted(1, "render") == "1 render")
        #expect(Plural.counted(0, "render") == "0 renders")
        #expect(Plural.counted(3, "render job") == "3 render jobs")
        #expect(Plural.counted(2, "match", plural: "matches") == "2 matches")
    }
}
