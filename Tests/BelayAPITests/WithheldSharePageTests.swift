import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A shared page the moderators hid, or whose member they suspended, answers 410 at once in
/// the club's language, its images too, and comes back when lifted.
@Suite struct WithheldSharePageTests {
    @Test func aHiddenPageAndThePageOfASuspendedMemberAnswerGone() throws {
        let fixture = try APIFixture()
        let pages = SharePageTests()
        let (_, _, link) = try pages.sharedReward(fixture)
        let slug = String(link.split(separator: "/").last ?? "")
        let reporter = try fixture.member()
        #expect(fixture.get(pages.path(link)).status == 200)  // now in the page cache
        let filed = fixture.post("/v1/reports", as: reporter, json: #"{"subject_type":"share_page","subject_id":"\#(slug)","reason":"sexual"}"#)
        #expect(filed.status == 201)

        let hidden = fixture.post("/v1/moderation/actions", as: fixture.admin,
                                  json: #"{"action":"hide","subject_type":"share_page","subject_id":"\#(slug)","reason":"Rule 4"}"#)
        #expect(hidden.status == 201)
        let gone = fixture.get(pages.path(link))
        #expect(gone.status == 410)
        #expect(pages.html(gone).contains("클럽 운영진이 내렸어요"))
        #expect(fixture.get(pages.path(link) + "/sticker.png")["code"]?.stringValue == "share_page_withheld")
        #expect(fixture.get("/v1/me/reports", as: reporter)["items"]?.arrayValue?.first?["outcome"]?.stringValue == "hide")

        let lifted = fixture.post("/v1/moderation/actions", as: fixture.admin,
                                  json: #"{"action":"lift","subject_type":"share_page","subject_id":"\#(slug)","reason":"Appeal upheld"}"#)
        #expect(lifted.status == 201)
        #expect(fixture.get(pages.path(link)).status == 200)
    }

    @Test func aSuspendedMembersPagesAreGoneUntilTheSuspensionIsLifted() throws {
        let fixture = try APIFixture()
        let pages = SharePageTests()
        let (member, _, link) = try pages.sharedReward(fixture)
        let suspended = fixture.post("/v1/moderation/actions", as: fixture.admin,
                                     json: #"{"action":"suspend","subject_type":"member","subject_id":\#(member.id),"reason":"Rule 1"}"#)
        #expect(suspended.status == 201)
        #expect(suspended["until"] == .null)
        #expect(fixture.get(pages.path(link)).status == 410)
        #expect(fixture.get("/v1/me", as: member).status == 401)
        // A moderator who is not an admin may act too; a member may not.
        let stranger = try fixture.member()
        let refused = fixture.post("/v1/moderation/actions", as: stranger,
                                   json: #"{"action":"lift","subject_type":"member","subject_id":\#(member.id),"reason":"x"}"#)
        #expect(refused.status == 403)
        #expect(refused["code"]?.stringValue == "not_permitted")
        try fixture.domain.moderation.setModerator(userID: stranger.id, true)
        #expect(fixture.post("/v1/moderation/actions", as: stranger,
                             json: #"{"action":"lift","subject_type":"member","subject_id":\#(member.id),"reason":"Appeal"}"#).status == 201)
        #expect(fixture.get(pages.path(link)).status == 200)
        let badAction = fixture.post("/v1/moderation/actions", as: stranger,
                                     json: #"{"action":"auto_hide","subject_type":"member","subject_id":\#(member.id),"reason":"x"}"#)
        #expect(badAction.status == 422)
        #expect(badAction["field"]?.stringValue == "action")
    }
}
