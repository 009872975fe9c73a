import Foundation
import Testing
import BelayTestSupport
import BelayCore

/// Finding meetups at the shell: `belay meetups search` with its filters, a private meetup
/// only in `list`, and `publish`/`unpublish` of a meetup's page.
@Suite struct MeetupSearchCommandTests {
    @Test func anOperatorSearchesAndPublishes() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "mina", "--name", "Mina", "--role", "host")
        let created = try workspace.run("meetups", "create", "--title", "홍대 볼더링 번개", "--place", "Hongdae Rock", "--host", "mina",
                                        "--starts", "2030-01-12T19:00:00+09:00", "--ends", "2030-01-12T21:00:00+09:00", "--capacity", "8",
                                        "--location", "37.5563,126.9220", "--discipline", "bouldering", "--level", "V1..V3", "--tags", "women,social")
        #expect(created.status == 0, "\(created.standardError)")
        try workspace.succeed("meetups", "create", "--title", "Quiet training", "--place", "Home wall", "--host", "mina",
                              "--starts", "2030-01-13T19:00:00+09:00", "--ends", "2030-01-13T21:00:00+09:00", "--capacity", "4", "--private")

        let found = try workspace.run("meetups", "search", "--q", "홍대", "--near", "37.50,127.03", "--radius", "20")
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput.contains("홍대 볼더링 번개") && found.standardOutput.contains("V1–V3"), "\(found.standardOutput)")
        #expect(found.standardOutput.contains("KM"))
        let far = try workspace.run("meetups", "search", "--near", "35.18,129.07", "--radius", "5")
        #expect(far.status == 0 && far.standardError.contains("No upcoming meetup matches"), "\(far.standardOutput)\(far.standardError)")
        let level = try workspace.run("meetups", "search", "--level", "V7", "--json")
        #expect(level.status == 0 && level.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(level.standardOutput)")
        // The private meetup is in the operator's list, never in a search.
        #expect(try workspace.run("meetups", "list").standardOutput.contains("Quiet training"))
        #expect(try workspace.run("meetups", "search", "--q", "training").standardOutput.contains("Quiet training") == false)
        #expect(try workspace.run("meetups", "search", "--near", "north").status != 0)
        #expect(try workspace.run("meetups", "search", "--tag", "cats").status == 64)

        let published = try workspace.run("meetups", "publish", "1", "--show-host")
        #expect(published.status == 0, "\(published.standardError)")
        #expect(published.standardOutput.contains("/m/"))
        let refused = try workspace.run("meetups", "publish", "2")
        #expect(refused.status != 0 && refused.standardError.contains("private"), "\(refused.standardError)")
        let down = try workspace.run("meetups", "unpublish", "1")
        #expect(down.status == 0 && down.standardOutput == "1  unpublished\n")
    }

    @Test func aMeetupAtAGymTakesItsNamePlaceAndZone() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "kenji", "--name", "Kenji", "--role", "host")
        try workspace.succeed("gyms", "add", "--name", "B-PUMP Ogikubo", "--location", "35.7047,139.6197", "--time-zone", "Asia/Tokyo")
        // Local times are read in the gym's zone, not the club's.
        let created = try workspace.run("meetups", "create", "--title", "Evening session", "--gym", "1", "--host", "kenji",
                                        "--starts", "2030-01-12 19:00", "--ends", "2030-01-12 21:00", "--capacity", "8", "--json")
        #expect(created.status == 0, "\(created.standardError)")
        let meetup = try JSONValue.parse(Array(created.standardOutput.utf8))
        #expect(meetup["place_name"]?.stringValue == "B-PUMP Ogikubo")
        #expect(meetup["time_zone"]?.stringValue == "Asia/Tokyo")
        #expect(meetup["starts_at"]?.stringValue == "2030-01-12T19:00:00+09:00")
        #expect(meetup["gym_id"]?.intValue == 1)
        let found = try workspace.run("meetups", "search", "--near", "35.70,139.62", "--radius", "2", "--gym", "1")
        #expect(found.status == 0 && found.standardOutput.contains("Evening session"), "\(found.standardOutput)\(found.standardError)")

        let neither = try workspace.run("meetups", "create", "--title", "Nowhere", "--host", "kenji",
                                        "--starts", "2030-01-12 19:00", "--ends", "2030-01-12 21:00", "--capacity", "8")
        #expect(neither.status == 64 && neither.standardError.contains("--place NAME, or --gym ID"), "\(neither.standardError)")
        let unknown = try workspace.run("meetups", "create", "--title", "Lost", "--gym", "99", "--host", "kenji",
                                        "--starts", "2030-01-12 19:00", "--ends", "2030-01-12 21:00", "--capacity", "8")
        #expect(unknown.status != 0 && unknown.standardError.contains("99"), "\(unknown.standardError)")
    }
}
