import BelayAPI
import BelayCore
import BelayDomain
import Foundation
import Testing

/// A meetup hidden by a moderator, or by enough reports of its public page, leaves the lists,
/// the search and the feed; its page, calendar entry and card answer 410; by id it answers 404
/// `meetup_not_found` to strangers while its host, its members and the moderators still read
/// it, marked `hidden`. Reports of a page name it by the slug of its link.
@Suite struct HiddenMeetupAPITests {
    /// A public meetup near Gangnam with a published page naming its host; its id and slug.
    private static func publishedMeetup(_ fixture: APIFixture) throws -> (id: Int64, slug: String) {
        let id = try MeetupDiscoveryAPITests.meetup(fixture, as: fixture.host, """
            "title": "Rooftop session", "place_name": "Gangnam Boulders", "latitude": 37.4979, "longitude": 127.0276,
            "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00"
            """)
        let published = fixture.send(.put, "/v1/meetups/\(id)/page", token: fixture.host.token, json: #"{"show_host": true}"#)
        let url = try #require(published["public_page"]?["url"]?.stringValue)
        return (id, String(try #require(url.split(separator: "/").last)))
    }

    private static func ids(_ answer: APIResponse) -> [Int64] {
        (answer["items"]?.arrayValue ?? []).compactMap { ($0["meetup"] ?? $0)["id"]?.intValue }
    }

    @Test func aHiddenMeetupLeavesDiscoveryItsPagesAreGoneAndOnlyThoseItConcernsReadIt() throws {
        let fixture = try APIFixture()
        let stranger = try fixture.member()
        let going = try fixture.member()
        let moderator = try fixture.member()
        try fixture.domain.moderation.setModerator(userID: moderator.id, true)
        let (id, slug) = try Self.publishedMeetup(fixture)
        #expect(fixture.post("/v1/meetups/\(id)/join", as: going).status == 201)
        #expect(Self.ids(fixture.get("/v1/meetups", as: stranger)).contains(id))
        #expect(Self.ids(fixture.get("/v1/me/feed?near=37.4979,127.0276", as: stranger)).contains(id))
        #expect(fixture.get("/m/\(slug)").status == 200)
        #expect(fixture.get("/m/\(slug).ics").status == 200)

        let hide = fixture.post("/v1/moderation/actions", as: moderator,
                                json: #"{"action": "hide", "subject_type": "meetup", "subject_id": \#(id), "reason": "Rule 3: spam"}"#)
        #expect(hide.status == 201 || hide.status == 200, "\(String(decoding: hide.bytes, as: UTF8.self))")

        for path in ["/m/\(slug)", "/m/\(slug).ics", "/m/\(slug)/card.png"] {
            #expect(fixture.get(path).status == 410, "GET \(path) still answers")
        }
        for query in ["", "?q=rooftop", "?near=37.4979,127.0276", "?scope=all", "?host_id=\(fixture.host.id)"] {
            #expect(!Self.ids(fixture.get("/v1/meetups\(query)", as: stranger)).contains(id), "GET /v1/meetups\(query) lists the hidden meetup")
        }
        #expect(!Self.ids(fixture.get("/v1/me/feed?near=37.4979,127.0276", as: stranger)).contains(id), "the feed lists the hidden meetup")

        let refused = fixture.get("/v1/meetups/\(id)", as: stranger)
        #expect(refused.status == 404 && refused["code"]?.stringValue == "meetup_not_found")
        for reader in [fixture.host, going, moderator, fixture.admin] {
            let seen = fixture.get("/v1/meetups/\(id)", as: reader)
            #expect(seen.status == 200 && seen["hidden"] == .bool(true), "user \(reader.id) reads \(seen.status), hidden: \(String(describing: seen["hidden"]))")
        }
        #expect(fixture.get("/v1/meetups/\(id)", as: stranger)["hidden"] == nil)

        // Lifted: everything is back, unmarked.
        let lift = fixture.post("/v1/moderation/actions", as: moderator,
                                json: #"{"action": "lift", "subject_type": "meetup", "subject_id": \#(id), "reason": "Looked again"}"#)
        #expect(lift.status < 300)
        #expect(fixture.get("/m/\(slug)").status == 200)
        let back = fixture.get("/v1/meetups/\(id)", as: stranger)
        #expect(back.status == 200 && back["hidden"] == nil)
        #expect(Self.ids(fixture.get("/v1/meetups", as: stranger)).contains(id))
    }

    @Test func reportsOfAPageNameItByItsSlugKeepItsContentAndHideItAutomatically() throws {
        let fixture = try APIFixture(settings: ["moderation": ["auto_hide_reports": 2]])
        let (first, second, stranger) = (try fixture.member(), try fixture.member(), try fixture.member())
        let (id, slug) = try Self.publishedMeetup(fixture)

        let bySlug = fixture.post("/v1/reports", as: first, json: #"{"subject_type": "meetup_page", "subject_id": "\#(slug)", "reason": "spam"}"#)
        #expect(bySlug.status == 201, "\(String(decoding: bySlug.bytes, as: UTF8.self))")
        #expect(bySlug["subject_id"]?.stringValue == String(id), "a page's report is kept under its meetup's id")
        // The same page by the meetup's id is the same subject: the first report is updated.
        let byID = fixture.post("/v1/reports", as: first, json: #"{"subject_type": "meetup_page", "subject_id": \#(id), "reason": "hate"}"#)
        #expect(byID.status == 200 && byID["id"] == bySlug["id"])
        let unknown = fixture.post("/v1/reports", as: first,
                                   json: #"{"subject_type": "meetup_page", "subject_id": "AAAAAAAAAAAAAAAAAAAAAA", "reason": "spam"}"#)
        #expect(unknown.status == 404 && unknown["field"]?.stringValue == "subject_id")

        // The snapshot is the page as it was: an edit afterwards hides nothing.
        #expect(fixture.send(.patch, "/v1/meetups/\(id)", token: fixture.host.token, json: #"{"title": "Nothing to see"}"#).status == 200)
        let queue = fixture.get("/v1/moderation/reports", as: fixture.admin)
        let subject = try #require(queue["items"]?.arrayValue?.first { $0["subject_type"]?.stringValue == "meetup_page" })
        #expect(subject["subject_id"]?.stringValue == String(id))
        #expect(subject["snapshot"]?["title"]?.stringValue == "Rooftop session")
        #expect(subject["snapshot"]?["page"]?.stringValue == "/m/\(slug)")
        #expect(subject["snapshot"]?["host_name"]?.stringValue == fixture.host.user.displayName)

        // A second member reporting the page hides it: the page and the meetup are gone for strangers.
        #expect(fixture.post("/v1/reports", as: second, json: #"{"subject_type": "meetup_page", "subject_id": "\#(slug)", "reason": "spam"}"#).status == 201)
        #expect(fixture.get("/m/\(slug)").status == 410)
        #expect(fixture.get("/v1/meetups/\(id)", as: stranger).status == 404)
        #expect(fixture.get("/v1/meetups/\(id)", as: fixture.host)["hidden"] == .bool(true))
    }
}
