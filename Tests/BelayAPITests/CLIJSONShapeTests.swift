import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// `belay … --json` prints each entity in the shape the API answers with, so a script and the
/// app parse one representation.
@Suite struct CLIJSONShapeTests {
    @Test func theCLIPrintsMeetupsAndAttendeesAsTheAPIDoes() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let host = try workspace.user("jisoo", role: "host")
        let member = try workspace.user("minji")
        let meetup = try workspace.cli(["meetups", "create", "--title", "Friday bouldering", "--place", "더클라임 강남",
                                        "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--capacity", "4",
                                        "--host", "jisoo"])
        let id = try #require(meetup["id"]?.intValue)
        #expect(meetup["starts_at"]?.stringValue == "2030-12-05T19:00:00+09:00")

        let answered = try server.call("GET", "/v1/meetups/\(id)", token: host.token)
        #expect(answered.status == 200)
        #expect(answered.json == meetup, "meetups create --json is GET /v1/meetups/{id}")
        #expect(try workspace.cli(["meetups", "show", String(id)]) == meetup)

        let added = try workspace.cli(["attendees", "add", String(id), "minji"])
        let listed = try server.call("GET", "/v1/meetups/\(id)/attendees", token: host.token)
        #expect(listed.status == 200)
        #expect(listed["items"] == added, "attendees add --json lists what GET /v1/meetups/{id}/attendees does")
        #expect(added.arrayValue?.first?["user_id"]?.intValue == member.id)
    }
}
