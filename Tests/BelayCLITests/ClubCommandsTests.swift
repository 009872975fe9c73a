import Foundation
import Testing
import BelayTestSupport

/// Each club command's happy path and refusals, against the real schema and catalogue.
@Suite struct ClubCommandsTests {
    /// A migrated workspace with the catalogue imported.
    private func club() throws -> ClubWorkspace {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("holds", "import")
        return workspace
    }

    @Test func commandsRefuseADatabaseThatWasNeverMigrated() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run("users", "list")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("Run `belay migrate` to create"), "\(result)")
    }

    @Test func usersAndTokens() throws {
        let workspace = try club()
        let created = try #require(try workspace.json("users", "create", "jisoo", "--name", "Jisoo Kim", "--role", "host", "--token") as? [String: Any])
        let user = try #require(created["user"] as? [String: Any])
        #expect(user["handle"] as? String == "jisoo")
        #expect(user["role"] as? String == "host")
        let firstToken = try #require(created["token"] as? [String: Any])
        #expect((firstToken["secret"] as? String)?.hasPrefix("belay_") == true)

        let table = try workspace.run("users", "create", "minji", "--name", "Minji Park", "--email", "minji@example.com")
        #expect(table.status == 0)
        #expect(table.standardOutput.hasPrefix("ID  HANDLE  NAME        ROLE    EMAIL\n"))
        #expect(table.standardOutput.contains("minji   Minji Park  member  minji@example.com"))
        #expect(table.standardError.contains("Created member minji."))

        let users = try #require(try workspace.json("users", "list") as? [[String: Any]])
        #expect(users.map { $0["handle"] as? String } == ["jisoo", "minji"])
        let hosts = try #require(try workspace.json("users", "list", "--role", "host") as? [[String: Any]])
        #expect(hosts.count == 1)

        let issued = try workspace.run("users", "token", "jisoo", "--label", "laptop")
        #expect(issued.status == 0)
        #expect(issued.standardOutput.hasPrefix("belay_"))
        #expect(issued.standardOutput.split(separator: "\n").count == 1, "only the secret goes to stdout")
        #expect(issued.standardError.contains("shown only once"))

        let tokens = try #require(try workspace.json("users", "tokens", "jisoo") as? [[String: Any]])
        #expect(tokens.count == 2)
        #expect(tokens.allSatisfy { $0["secret"] == nil && $0["revoked_at"] == nil })
        let laptop = try #require(tokens.first { $0["label"] as? String == "laptop" }?["id"] as? Int)

        #expect(try workspace.succeed("users", "revoke", "jisoo", "--token", String(laptop)) == "1\n")
        let afterOne = try #require(try workspace.json("users", "tokens", "jisoo") as? [[String: Any]])
        #expect(afterOne.filter { $0["revoked_at"] != nil }.count == 1)
        #expect(try workspace.succeed("users", "revoke", "jisoo") == "1\n")
        #expect(try workspace.succeed("users", "revoke", "jisoo") == "0\n")

        let role = try workspace.run("users", "role", "minji", "host")
        #expect(role.status == 0)
        #expect(role.standardOutput == "minji  host\n")
    }

    @Test func usersRefuseBadInput() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo")

        let taken = try workspace.run("users", "create", "JISOO", "--name", "Other")
        #expect(taken.status == 1)
        #expect(taken.standardError.hasPrefix("Error: "))
        #expect(taken.standardError.contains("[handle_taken]"))

        let invalid = try workspace.run("users", "create", "no spaces", "--name", "X")
        #expect(invalid.status == 1)
        #expect(invalid.standardError.contains("[invalid_input]"))

        let badRole = try workspace.run("users", "create", "ana", "--name", "Ana", "--role", "admn")
        #expect(badRole.status == 64)
        #expect(badRole.standardError.hasPrefix("Error: --role: 'admn' is not one of member, host, admin; did you mean 'admin'?\nUsage: belay users create"))

        let missingName = try workspace.run("users", "create", "ana")
        #expect(missingName.status == 64)
        #expect(missingName.standardError.hasPrefix("Error: missing --name <display name>"))

        let unknown = try workspace.run("users", "token", "nobody")
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "Error: There is no user 'nobody'. Run `belay users list` to see handles, or `belay users create` to add one.\n")

        let badToken = try workspace.run("users", "revoke", "jisoo", "--token", "999")
        #expect(badToken.status == 1)
        #expect(badToken.standardError.contains("jisoo has no token 999"))
    }

    @Test func refusalsNameMembersByHandle() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try workspace.succeed("users", "create", "minji", "--name", "Minji")
        try workspace.succeed("meetups", "create", "--title", "Friday bouldering", "--place", "Gym",
                              "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--capacity", "12", "--host", "jisoo")
        let leave = try workspace.run("attendees", "remove", "1", "minji")
        #expect(leave.status == 1)
        #expect(leave.standardError == "Error: minji is not attending meetup 1. [not_attending]\n")
        let undo = try workspace.run("attendees", "undo-check-in", "1", "minji")
        #expect(undo.standardError == "Error: minji has not joined meetup 1. [not_attending]\n")
    }

    @Test func localTimesTypedOnAMachineInAnotherZoneSayWhichZoneTheyWereReadIn() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        workspace.environment["TZ"] = "America/Sao_Paulo"
        let created = try workspace.run("meetups", "create", "--title", "Friday bouldering", "--place", "Gym",
                                        "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--capacity", "12", "--host", "jisoo")
        #expect(created.status == 0, "\(created)")
        #expect(created.standardError.contains("Times were read in Asia/Seoul (club.time_zone), not in this machine's zone America/Sao_Paulo: 2030-12-05 19:00 +09:00 is 2030-12-05 07:00 -03:00 here."), "\(created.standardError)")
        let moved = try workspace.run("meetups", "update", "1", "--starts", "2030-12-05 18:00")
        #expect(moved.standardError.contains("Times were read in Asia/Seoul (the meetup's zone)"), "\(moved.standardError)")
        // An RFC 3339 time says its own offset; a machine in the club's zone needs no word.
        let offset = try workspace.run("meetups", "create", "--title", "T", "--place", "P", "--starts", "2030-12-06T19:00:00+09:00",
                                       "--ends", "2030-12-06T22:00:00+09:00", "--capacity", "4", "--host", "jisoo")
        #expect(offset.status == 0 && !offset.standardError.contains("Times were read"), "\(offset.standardError)")
        workspace.environment["TZ"] = "Asia/Seoul"
        let home = try workspace.run("meetups", "create", "--title", "T", "--place", "P", "--starts", "2030-12-07 19:00",
                                     "--ends", "2030-12-07 22:00", "--capacity", "4", "--host", "jisoo")
        #expect(home.status == 0 && !home.standardError.contains("Times were read"), "\(home.standardError)")
    }

    @Test func meetupsCreateShowUpdateListCancel() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try workspace.succeed("users", "create", "seojun", "--name", "Seojun", "--role", "host")

        // Local time in the club's zone (Asia/Seoul, +09:00).
        let created = try #require(try workspace.json("meetups", "create", "--title", "Friday bouldering", "--place", "더클라임 강남",
                                                      "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00",
                                                      "--capacity", "12", "--host", "jisoo") as? [String: Any])
        #expect(created["id"] as? Int == 1)
        #expect(created["starts_at"] as? String == "2030-12-05T19:00:00+09:00", "in the meetup's own offset, as the API writes it")
        #expect(created["ends_at"] as? String == "2030-12-05T22:00:00+09:00")
        #expect(created["time_zone"] as? String == "Asia/Seoul")
        #expect(created["check_in_opens_at"] as? String == "2030-12-05T18:30:00+09:00")
        #expect(created["check_in_closes_at"] as? String == "2030-12-06T00:00:00+09:00")
        let hosts = try #require(try workspace.json("users", "list") as? [[String: Any]])
        #expect(created["host_id"] as? Int == hosts.first { $0["handle"] as? String == "jisoo" }?["id"] as? Int)

        // RFC 3339 and another zone.
        let berlin = try #require(try workspace.json("meetups", "create", "--title", "Crag day", "--place", "Frankenjura",
                                                     "--starts", "2030-06-01T08:00:00+02:00", "--ends", "2030-06-01 18:00",
                                                     "--time-zone", "Europe/Berlin", "--capacity", "6", "--host", "seojun") as? [String: Any])
        #expect(berlin["starts_at"] as? String == "2030-06-01T08:00:00+02:00")
        #expect(berlin["ends_at"] as? String == "2030-06-01T18:00:00+02:00")

        let shown = try workspace.run("meetups", "show", "1")
        #expect(shown.status == 0)
        #expect(shown.standardOutput.contains("starts      2030-12-05 19:00 +09:00 Asia/Seoul\n"))
        #expect(shown.standardOutput.contains("place       더클라임 강남\n"))
        #expect(shown.standardOutput.contains("check-in    2030-12-05 18:30 +09:00 – 2030-12-06 00:00 +09:00\n"))

        let updated = try #require(try workspace.json("meetups", "update", "1", "--capacity", "20", "--title", "Friday night bouldering", "--starts", "2030-12-05 18:30") as? [String: Any])
        #expect(updated["capacity"] as? Int == 20)
        #expect(updated["title"] as? String == "Friday night bouldering")
        #expect(updated["starts_at"] as? String == "2030-12-05T18:30:00+09:00")

        let list = try workspace.run("meetups", "list")
        #expect(list.status == 0)
        let lines = list.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID  STARTS                   TITLE") == true)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("2   2030-06-01 08:00 +02:00  Crag day"), "soonest first, in the meetup's own zone, with its offset")
        let byHost = try #require(try workspace.json("meetups", "list", "--host", "jisoo") as? [[String: Any]])
        #expect(byHost.map { $0["id"] as? Int } == [1])

        let cancelled = try workspace.run("meetups", "cancel", "1")
        #expect(cancelled.status == 0)
        #expect(cancelled.standardOutput == "1  cancelled\n")
        let again = try workspace.run("meetups", "update", "1", "--capacity", "5")
        #expect(again.status == 1)
        #expect(again.standardError.contains("[meetup_cancelled]"))
        let visible = try #require(try workspace.json("meetups", "list", "--hide-cancelled") as? [[String: Any]])
        #expect(visible.map { $0["id"] as? Int } == [2])
    }

    @Test func meetupsRefuseBadInput() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try workspace.succeed("users", "create", "minji", "--name", "Minji")
        let base = ["meetups", "create", "--title", "T", "--place", "P", "--capacity", "4"]

        let badTime = try BelayProcess.run(base + ["--starts", "next friday", "--ends", "2030-12-05 22:00", "--host", "jisoo"], in: workspace.path)
        #expect(badTime.status == 64)
        #expect(badTime.standardError.hasPrefix("Error: --starts: 'next friday' is not a time; write it as '2026-12-05 19:00' (local time in Asia/Seoul) or RFC 3339"))

        let backwards = try BelayProcess.run(base + ["--starts", "2030-12-05 22:00", "--ends", "2030-12-05 19:00", "--host", "jisoo"], in: workspace.path)
        #expect(backwards.status == 64)
        #expect(backwards.standardError.hasPrefix("Error: --ends (2030-12-05 19:00 +09:00) must be after --starts (2030-12-05 22:00 +09:00)"))

        let zone = try BelayProcess.run(base + ["--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--host", "jisoo", "--time-zone", "Seoul"], in: workspace.path)
        #expect(zone.status == 64)
        #expect(zone.standardError.hasPrefix("Error: --time-zone: 'Seoul' is not an IANA time zone"))

        let capacity = try workspace.run("meetups", "create", "--title", "T", "--place", "P", "--capacity", "-3",
                                         "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--host", "jisoo")
        #expect(capacity.status == 64)
        #expect(capacity.standardError.hasPrefix("Error: --capacity must be at least 1 (got -3)"))

        let notInteger = try workspace.run("meetups", "show", "first")
        #expect(notInteger.status == 64)
        #expect(notInteger.standardError.hasPrefix("Error: <meetup-id>: 'first' is not an integer"))

        // A member may host only while meetups.created_by is members (the default).
        let member = try BelayProcess.run(base + ["--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--host", "minji"],
                                          environment: ["BELAY_MEETUPS_CREATED_BY": "hosts"], in: workspace.path)
        #expect(member.status == 1)
        #expect(member.standardError.contains("[not_permitted]"))

        let missing = try workspace.run("meetups", "show", "42")
        #expect(missing.status == 1)
        #expect(missing.standardError == "Error: There is no meetup 42. Run `belay meetups list --all` to see meetup ids.\n")

        let nothing = try workspace.run("meetups", "update", "1")
        #expect(nothing.status == 64)
        #expect(nothing.standardError.hasPrefix("Error: nothing to change"))
    }

    @Test func usersShareNameTurnsTheNameOnSharePagesOffAndOn() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "minji", "--name", "Minji Park")
        let off = try workspace.run("users", "share-name", "minji", "off")
        #expect(off.status == 0)
        #expect(off.standardOutput == "")
        #expect(off.standardError == "minji's share pages no longer show their name.\n")
        let on = try workspace.run("users", "share-name", "minji", "on")
        #expect(on.standardError == "minji's share pages show their name, Minji Park.\n")
        let wrong = try workspace.run("users", "share-name", "minji", "maybe")
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("one of on, off"))
        let nobody = try workspace.run("users", "share-name", "nobody", "off")
        #expect(nobody.status == 1)
    }

    @Test func meetupsRefuseControlCharactersAndAcceptEveryTzZone() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        let times = ["--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--host", "jisoo", "--capacity", "4"]
        let escape = try workspace.run(["meetups", "create", "--title", "Red\u{1B}[31m", "--place", "P"] + times)
        #expect(escape.status == 1)
        #expect(escape.standardOutput == "")
        #expect(escape.standardError.contains("title"))
        #expect(escape.standardError.contains("control characters"))
        let listed = try #require(try workspace.json("meetups", "list", "--scope", "all") as? [Any])
        #expect(listed.isEmpty)

        for zone in ["UTC", "Etc/GMT+12", "US/Eastern"] {
            let created = try workspace.run(["meetups", "create", "--title", "T", "--place", "P", "--time-zone", zone] + times)
            #expect(created.status == 0, "\(zone): \(created.standardError)")
        }
        let fixedOffset = try workspace.run(["meetups", "create", "--title", "T", "--place", "P", "--time-zone", "GMT+9"] + times)
        #expect(fixedOffset.status == 64)
    }

    @Test func holdsImportIsRepeatableAndListed() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: BelayProcess.packageRoot.appendingPathComponent("Assets/holds/catalog.json"))) as? [String: Any]
        let holdCount = try #require((catalog?["holds"] as? [Any])?.count)

        let first = try #require(try workspace.json("holds", "import") as? [String: Any])
        #expect(first["holds_added"] as? Int == holdCount)
        let second = try #require(try workspace.json("holds", "import") as? [String: Any])
        #expect(second["holds_added"] as? Int == 0)
        #expect(second["holds_unchanged"] as? Int == holdCount)

        let holds = try #require(try workspace.json("holds", "list") as? [[String: Any]])
        #expect(holds.count == holdCount)
        let table = try workspace.succeed("holds", "list")
        #expect(table.contains("jug-gold"))
        #expect(table.contains("milestone only (check-in #1)"))
        let backgrounds = try #require(try workspace.json("holds", "backgrounds") as? [[String: Any]])
        #expect(!backgrounds.isEmpty)

        let missing = try workspace.run("holds", "import", "--assets", "nowhere")
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("[invalid_catalog]"))
    }

    @Test func addingReportsEachMemberThatCannotJoinAndAddsTheRest() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try workspace.succeed("users", "create", "minji", "--name", "Minji")
        try workspace.succeed("meetups", "create", "--title", "T", "--place", "P", "--capacity", "4",
                              "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--host", "jisoo")
        let result = try workspace.run("attendees", "add", "1", "ghost", "minji")
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("minji   going   added"))
        #expect(result.standardError.hasPrefix("Error: Could not add 1 of 2 members:\n  ghost: There is no user 'ghost'."))
        let again = try workspace.run("attendees", "add", "1", "minji")
        #expect(again.standardOutput.contains("minji   going   already attending"))
        let notYet = try workspace.run("attendees", "check-in", "1", "minji")
        #expect(notYet.status == 1)
        #expect(notYet.standardError.contains("[window_not_open]"))
    }

    @Test func rewardsListNeedsAMemberOrMeetup() throws {
        let result = try club().run("rewards", "list")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: give --member <handle>, --meetup <id>, or both\nUsage: belay rewards list"))
    }

    @Test func statsWithoutEventsPrintsTheHeader() throws {
        let result = try club().run("stats", "shares")
        #expect(result.status == 0)
        #expect(result.standardOutput == "MEETUP  DAY  TARGET  EVENTS  COMPLETED  FAILED  DISMISSED\n")
        #expect(result.standardError == "No share events yet.\n")
        let bad = try club().run("stats", "shares", "--from", "yesterday")
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("'2026-12-05' (midnight)"))
    }
}

/// `belay meetups add-cohost|cohosts|remove-cohost` on the real binary.
@Suite struct CohostCommandsTests {
    @Test func nameListAndRemoveCohosts() throws {
        let club = try ClubWorkspace()
        try club.succeed("migrate")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try club.succeed("users", "create", "dahye", "--name", "Dahye", "--role", "host")
        try club.succeed("users", "create", "minji", "--name", "Minji")
        let meetup = try #require(try club.json("meetups", "create", "--title", "Friday", "--place", "Gym", "--starts", "2030-01-04 19:00",
                                                "--ends", "2030-01-04 22:00", "--capacity", "10", "--host", "jisoo") as? [String: Any])
        let id = String(try #require(meetup["id"] as? Int))

        let empty = try club.run("meetups", "cohosts", id)
        #expect(empty.status == 0)
        #expect(empty.standardError.contains("Meetup \(id) has no co-hosts."))
        let added = try club.run("meetups", "add-cohost", id, "dahye")
        #expect(added.status == 0, "\(added)")
        #expect(added.standardOutput.contains("dahye   Dahye  host"))
        #expect(added.standardError == "dahye co-hosts meetup \(id).\n")
        let list = try #require(try club.json("meetups", "cohosts", id) as? [[String: Any]])
        #expect(list.map { $0["handle"] as? String } == ["dahye"])

        let member = try club.run("meetups", "add-cohost", id, "minji")
        #expect(member.status == 1)
        #expect(member.standardError.contains("[not_permitted]"))
        #expect(member.standardError.contains("minji is a member"))
        let host = try club.run("meetups", "add-cohost", id, "jisoo")
        #expect(host.status == 1)
        #expect(host.standardError.contains("[invalid_input]"))

        let removed = try club.run("meetups", "remove-cohost", id, "dahye")
        #expect(removed.status == 0)
        #expect(removed.standardError.contains("dahye no longer co-hosts meetup \(id)."))
        #expect(try #require(try club.json("meetups", "cohosts", id) as? [[String: Any]]).isEmpty)
    }
}

/// `belay meetups create --repeat weekly --until` and `update --following` on the real binary.
@Suite struct MeetupSeriesCommandsTests {
    @Test func createAWeeklySeriesAndMoveTheRestOfIt() throws {
        let club = try ClubWorkspace()
        try club.succeed("migrate")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        let arguments = ["meetups", "create", "--title", "Friday", "--place", "Gym", "--starts", "2030-03-15 19:00", "--ends", "2030-03-15 21:00",
                         "--time-zone", "Europe/Berlin", "--capacity", "10", "--host", "jisoo"]
        let created = try club.run(arguments + ["--repeat", "weekly", "--until", "2030-04-05"])
        #expect(created.status == 0, "\(created)")
        // Each time says its offset: a reader whose own clock is elsewhere sees which is meant.
        #expect(created.standardOutput.contains("2030-03-29 19:00 +01:00"))
        #expect(created.standardOutput.contains("2030-04-05 19:00 +02:00"), "summer time from 2030-03-31, still 19:00")
        #expect(created.standardError.contains("Created a weekly series of 4 meetups"))
        let list = try #require(try club.json("meetups", "list") as? [[String: Any]])
        #expect(list.count == 4)
        let ids = list.compactMap { $0["id"] as? Int }
        #expect(Set(list.compactMap { $0["series_id"] as? Int }) == [ids[0]])

        let moved = try club.run("meetups", "update", String(ids[2]), "--starts", "2030-03-29 18:30", "--ends", "2030-03-29 20:30", "--following")
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.standardOutput.contains("2030-03-29 18:30"))
        #expect(moved.standardOutput.contains("2030-04-05 18:30"))
        #expect(moved.standardError.contains("Updated 2 meetups from \(ids[2]) on."))

        let usage = try club.run(arguments + ["--repeat", "weekly"])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--repeat and --until go together"))
        let bad = try club.run(arguments + ["--repeat", "daily", "--until", "2030-04-05"])
        #expect(bad.status == 64)
    }
}

/// `belay meetups cancel --following` on the real binary: the rest of a series, in one go.
@Suite struct MeetupSeriesCancelCommandTests {
    @Test func cancelTheRestOfASeries() throws {
        let club = try ClubWorkspace()
        try club.succeed("migrate")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        let created = try club.run("meetups", "create", "--title", "Friday", "--place", "Gym", "--starts", "2030-03-15 19:00",
                                   "--ends", "2030-03-15 21:00", "--time-zone", "Asia/Seoul", "--capacity", "10", "--host", "jisoo",
                                   "--repeat", "weekly", "--until", "2030-04-05")
        #expect(created.status == 0, "\(created)")
        let ids = try #require(try club.json("meetups", "list") as? [[String: Any]]).compactMap { $0["id"] as? Int }
        #expect(ids.count == 4)

        let cancelled = try club.run("meetups", "cancel", String(ids[2]), "--following")
        #expect(cancelled.status == 0, "\(cancelled)")
        #expect(cancelled.standardOutput.contains("2030-03-29 19:00"))
        #expect(cancelled.standardOutput.contains("2030-04-05 19:00"))
        #expect(!cancelled.standardOutput.contains("2030-03-22"), "earlier meetups stay")
        #expect(cancelled.standardOutput.components(separatedBy: "cancelled").count - 1 == 2)
        #expect(cancelled.standardError.contains("Cancelled 2 meetups from \(ids[2]) on"))
        let statuses = try ids.map { id -> String in
            try #require(try club.json("meetups", "show", String(id)) as? [String: Any])["status"] as? String ?? ""
        }
        #expect(statuses == ["scheduled", "scheduled", "cancelled", "cancelled"])

        // The second meetup on, as JSON: only the one still scheduled is cancelled now.
        let json = try #require(try club.json("meetups", "cancel", String(ids[1]), "--following") as? [[String: Any]])
        #expect(json.compactMap { $0["id"] as? Int } == [ids[1]])

        // A meetup already cancelled is refused with the domain's message and exit status 1.
        let again = try club.run("meetups", "cancel", String(ids[3]), "--following")
        #expect(again.status == 1)
        #expect(again.standardOutput.isEmpty)
        #expect(again.standardError.contains("cancelled"), "\(again.standardError)")
        let unknown = try club.run("meetups", "cancel", "999", "--following")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("999"), "\(unknown.standardError)")
    }
}

/// `belay attendees claim` with waitlist offers on.
@Suite struct WaitlistOfferCommandsTests {
    @Test func aHostClaimsAnOfferedPlaceForAMember() throws {
        let club = try ClubWorkspace(settingsJSON: #""waitlist": {"claim_minutes": 45}"#)
        try club.succeed("migrate")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        for handle in ["hana", "jun", "mina"] { try club.succeed("users", "create", handle, "--name", handle.capitalized) }
        let meetup = try #require(try club.json("meetups", "create", "--title", "Friday", "--place", "Gym", "--starts", "2030-01-04 19:00",
                                                "--ends", "2030-01-04 22:00", "--capacity", "1", "--host", "jisoo") as? [String: Any])
        let id = String(try #require(meetup["id"] as? Int))
        try club.succeed("attendees", "add", id, "hana", "jun", "mina")
        try club.succeed("attendees", "remove", id, "hana")
        let listed = try club.run("attendees", "list", id)
        #expect(listed.standardOutput.contains("waitlisted #1, offered until"))
        let refused = try club.run("attendees", "claim", id, "mina")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("[no_offer]"))
        let claimed = try club.run("attendees", "claim", id, "jun")
        #expect(claimed.status == 0, "\(claimed)")
        #expect(claimed.standardOutput.contains("jun     going"))
        #expect(claimed.standardError.contains("jun claimed their place at meetup \(id)."))
    }
}
