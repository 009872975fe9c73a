import BelayDomain
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

/// A member who chose a language gets the share text in it, whatever the club's.
struct MemberLanguageShareTextTests {
    @Test func theShareTextFollowsTheMembersChosenLanguage() throws {
        let fixture = try APIFixture()
        let ana = try fixture.member()
        let meetup = try fixture.meetup()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: ana.id, by: .user(ana.id, role: .member))
        let checkIn = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: ana.id, proof: .host), by: .commandLine)
        let rewardID = try #require(checkIn.reward?.id)
        let clubs = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        #expect(clubs.json?["share_sheet"]?["text"]?.stringValue?.contains("홀드를 받았어요") == true, "the club's language, Korean, by default")
        #expect(fixture.send(.patch, "/v1/me", token: ana.token, json: #"{"locale": "en"}"#).status == 200)
        let own = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        #expect(own.json?["share_sheet"]?["text"]?.stringValue?.hasPrefix("I earned the ") == true)
    }
}
