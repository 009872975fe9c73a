import BelayCore
import Testing

@Suite struct SuggestionTests {
    @Test func suggestsTheClosePlausibleWord() {
        #expect(Suggestion.closest(to: "metups", among: ["meetups", "users", "migrate"]) == "meetups")
        #expect(Suggestion.closest(to: "mirgate", among: ["meetups", "users", "migrate"]) == "migrate")
        #expect(Suggestion.closest(to: "zzz", among: ["meetups", "users"]) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }
}
