import BelayRepresentations
import Testing
@testable import BelayAPI

/// The share-sheet text follows the club's locale.
struct ShareTextTests {
    func text(_ locale: String) -> String {
        SharePayloadBody.shareText(hold: "Crimson Jug", place: "더클라임 강남점", day: "2026-11-29", club: "Belay", locale: locale)
    }

    @Test func koreanJapaneseAndEnglishClubsGetTheirOwnLanguage() {
        #expect(text("ko_KR") == "더클라임 강남점에서 Crimson Jug 홀드를 받았어요 (2026-11-29) — Belay")
        #expect(text("ja_JP") == "더클라임 강남점でCrimson Jugホールドをゲットしました（2026-11-29） — Belay")
        #expect(text("en_US") == "I earned the Crimson Jug hold at 더클라임 강남점 (2026-11-29) — Belay")
        #expect(text("de_DE") == text("en_GB"), "other languages get English")
    }
}
