import BelayDomain
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct MeetupServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var meetups: MeetupService { fixture.domain.meetups }

    func draft(startsIn: TimeInterval = 3_600, place: String = "Seoul Forest Gym") -> NewMeetup {
        let start = fixture.clock.now().addingTimeInterval(startsIn)
        return NewMeetup(title: "Bouldering", description: "Bring shoes", placeName: place, address: "Seoul",
                         startsAt: start, endsAt: start.addingTimeInterval(7_200), timeZone: "Asia/Seoul",
                         capacity: 12, hostID: fixture.host.id)
    }

    @Test func createsAndReadsAMeetup() throws {
        let created = try meetups.create(draft(), by: fixture.hostActor)
        #expect(created.status == .scheduled)
        #expect(created.capacity == 12)
        #expect(created.goingCount == 0)
        #expect(created.placesLeft == 12)
        #expect(try meetups.meetup(id: created.id) == created)
        #expect(refusal { _ = try meetups.meetup(id: 999) } == .meetupNotFound)
    }

    @Test func refusesImpossibleMeetupsNamingTheField() throws {
        var badZone = draft()
        badZone.timeZone = "Mars/Olympus"
        var badCapacity = draft()
        badCapacity.capacity = 0
        var backwards = draft()
        backwards.endsAt = backwards.startsAt
        var untitled = draft()
        untitled.title = "  "
        for (input, field) in [(badZone, "time_zone"), (badCapacity, "capacity"), (backwards, "ends_at"), (untitled, "title")] {
            let error = try #require(throws: DomainError.self) { try meetups.create(input, by: fixture.hostActor) }
            #expect(error.reason == .invalidInput)
            #expect(error.field == field)
        }
    }

    @Test func controlCharactersAreRefusedNamingTheFieldAndNothingIsStored() throws {
        let cases: [(WritableKeyPath<NewMeetup, String>, String, String)] = [
            (\.title, "\u{0}abc", "title"), (\.title, "T\u{0}X", "title"), (\.title, "Tab\there", "title"),
            (\.title, "Line\nbreak", "title"), (\.placeName, "Gym\u{7}", "place_name"), (\.placeName, "Gym\u{9B}", "place_name"),
            (\.description, "Bring\u{0}shoes", "description"),
        ]
        for (keyPath, text, field) in cases {
            var input = draft()
            input[keyPath: keyPath] = text
            let error = try #require(throws: DomainError.self) { try meetups.create(input, by: fixture.hostActor) }
            #expect(error.reason == .invalidInput, "\(text.debugDescription)")
            #expect(error.field == field, "\(text.debugDescription)")
            #expect(error.message.contains("control character"), "\(error.message)")
        }
        #expect(try meetups.list(MeetupQuery(scope: .all, limit: 50)).items.isEmpty)
        // Line breaks and tabs are fine where a field allows them, and text with them is kept whole.
        var multiline = draft()
        multiline.description = "Bring shoes\n\tand chalk"
        #expect(try meetups.create(multiline, by: fixture.hostActor).description == "Bring shoes\n\tand chalk")
    }

    @Test func lengthsCountCodePointsSoTheDomainRefusesBeforeTheSchema() throws {
        // One grapheme cluster, 201 code points: the schema's length() CHECK would refuse it.
        var accented = draft()
        accented.title = "e" + String(repeating: "\u{301}", count: 200)
        let error = try #require(throws: DomainError.self) { try meetups.create(accented, by: fixture.hostActor) }
        #expect(error.reason == .invalidInput)
        #expect(error.field == "title")
        #expect(error.message.contains("got 201"))
        var longest = draft()
        longest.title = "e" + String(repeating: "\u{301}", count: 199)
        #expect(try meetups.create(longest, by: fixture.hostActor).title.unicodeScalars.count == 200)
    }

    @Test(arguments: ["UTC", "Etc/UTC", "Etc/GMT+12", "US/Eastern", "Asia/Kolkata", "Asia/Calcutta", "GMT", "Europe/Kyiv"])
    func everyZoneOfTheTzDatabaseIsAccepted(zone: String) throws {
        var input = draft()
        input.timeZone = zone
        let created = try meetups.create(input, by: fixture.hostActor)
        #expect(created.timeZone == zone)
    }

    @Test(arguments: ["GMT+0900", "GMT+9", "UTC+9", "utc", "asia/seoul", "Mars/Olympus", ""])
    func namesOutsideTheTzDatabaseAreRefused(zone: String) throws {
        var input = draft()
        input.timeZone = zone
        let error = try #require(throws: DomainError.self) { try meetups.create(input, by: fixture.hostActor) }
        #expect(error.field == "time_zone")
    }

    @Test func withCreatedByHostsOnlyHostsAndAdminsCreateAndOnlyTheirHostOrAnAdminChanges() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.meetupCreators = .hosts })
        let meetups = fixture.domain.meetups
        let member = try fixture.member()
        var own = draft()
        own.hostID = member.id
        #expect(refusal { _ = try meetups.create(own, by: .user(member.id, role: .member)) } == .notPermitted)
        var forMember = draft()
        forMember.hostID = member.id
        #expect(refusal { _ = try meetups.create(forMember, by: .commandLine) } == .notPermitted)
        let meetup = try meetups.create(draft(), by: .commandLine)
        let otherHost = try fixture.domain.users.createUser(NewUser(handle: "other", displayName: "Other", role: .host))
        #expect(refusal { _ = try meetups.update(id: meetup.id, MeetupChanges(title: "Mine"), by: .user(otherHost.id, role: .host)) } == .notPermitted)
        #expect(refusal { _ = try meetups.cancel(id: meetup.id, by: .user(member.id, role: .member)) } == .notPermitted)
        let updated = try meetups.update(id: meetup.id, MeetupChanges(title: "Lead climbing", address: .some(nil)), by: fixture.hostActor)
        #expect(updated.title == "Lead climbing")
        #expect(updated.address == nil)
        #expect(updated.description == "Bring shoes")
        let cancelled = try meetups.cancel(id: meetup.id, by: .commandLine)
        #expect(cancelled.status == .cancelled)
        #expect(try meetups.cancel(id: meetup.id, by: .commandLine).status == .cancelled)
        #expect(refusal { _ = try meetups.update(id: meetup.id, MeetupChanges(capacity: 3), by: .commandLine) } == .meetupCancelled)
    }

    @Test func listsUpcomingAndPastWithCursorsAndFilters() throws {
        // Each is created a minute before it starts (a past meetup cannot be created now).
        let now = fixture.clock.now()
        let created = try (0..<5).map { index in
            let input = draft(startsIn: Double(index) * 86_400 - 2 * 86_400, place: index % 2 == 0 ? "Crag" : "Gym")
            fixture.clock.set(min(now, input.startsAt.addingTimeInterval(-60)))
            defer { fixture.clock.set(now) }
            return try meetups.create(input, by: fixture.hostActor)
        }
        // Meetups 0 and 1 are over; 2 (running now? no: starts now) and later are upcoming.
        var upcoming: [Int64] = []
        var cursor: String?
        repeat {
            let page = try meetups.list(MeetupQuery(scope: .upcoming, limit: 2, cursor: cursor))
            upcoming += page.items.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(upcoming == [created[2].id, created[3].id, created[4].id])
        let past = try meetups.list(MeetupQuery(scope: .past, limit: 10))
        #expect(past.items.map(\.id) == [created[1].id, created[0].id])
        let crag = try meetups.list(MeetupQuery(scope: .all, placeName: "Crag"))
        #expect(crag.items.map(\.id) == [created[0].id, created[2].id, created[4].id])
        _ = try meetups.cancel(id: created[3].id, by: fixture.hostActor)
        #expect(try meetups.list(MeetupQuery(scope: .upcoming, includeCancelled: false)).items.map(\.id) == [created[2].id, created[4].id])
        let firstPage = try meetups.list(MeetupQuery(scope: .upcoming, limit: 1))
        #expect(refusal { _ = try meetups.list(MeetupQuery(scope: .past, cursor: firstPage.nextCursor)) } == .invalidCursor)
        #expect(refusal { _ = try meetups.list(MeetupQuery(limit: 0)) } == .invalidInput)
    }

    @Test func completedMeetupsTakeNoJoins() throws {
        let meetup = try meetups.create(draft(), by: fixture.hostActor)
        #expect(try meetups.complete(id: meetup.id, by: fixture.hostActor).status == .completed)
        let member = try fixture.member()
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .commandLine) } == .meetupCompleted)
        #expect(refusal { _ = try meetups.cancel(id: meetup.id, by: .commandLine) } == .meetupCompleted)
    }

    // SQLite's own checks; the PostgreSQL schema is compared with it in BelayPostgresTests.
    @Test(.enabled(if: !TestDatabase.isPostgreSQL))
    func theShippedMigrationsGiveAHealthySchema() throws {
        let pool = try #require(fixture.pool as? SQLitePool)
        let status = try pool.readSQLite { try DomainFixture.migrator().status(of: $0) }
        #expect(status.isCurrent)
        #expect(status.applied.first == "0001_initial")
        #expect(try pool.check().isHealthy)
    }

    @Test func upgradingFrom0001CountsExistingAttendances() throws {
        let directory = try TemporaryDirectory()
        let shipped = BelayProcess.packageRoot.appendingPathComponent("Migrations/sqlite").path
        let first = try Migration(identifier: "0001_initial",
                                  sql: try String(contentsOfFile: shipped + "/0001_initial.sql", encoding: .utf8))
        let database = try SQLiteDatabase(path: directory.file("old.sqlite"))
        try Migrator(migrations: [first]).migrate(database)
        try database.executeScript("""
            INSERT INTO users (id, handle, display_name, role, created_at) VALUES (1, 'h', 'H', 'host', 0), (2, 'a', 'A', 'member', 0),
                (3, 'b', 'B', 'member', 0), (4, 'c', 'C', 'member', 0);
            INSERT INTO meetups (id, title, place_name, starts_at, ends_at, time_zone, capacity, host_id, check_in_secret, created_at, updated_at)
                VALUES (1, 'T', 'P', 0, 1, 'Asia/Seoul', 2, 1, zeroblob(32), 0, 0);
            INSERT INTO attendances (meetup_id, member_id, status, queue_position, joined_at, updated_at, checked_in_at)
                VALUES (1, 2, 'checked_in', 1, 0, 0, 0), (1, 3, 'going', 2, 0, 0, NULL), (1, 4, 'waitlisted', 3, 0, 0, NULL);
            """)
        let applied = try DomainFixture.migrator().migrate(database)
        #expect(applied.map(\.identifier).contains("0003_meetup_attendance_counts"))
        let counts = try database.queryOne("SELECT going_count, waitlist_count FROM meetups WHERE id = 1") {
            [try $0.get("going_count", as: Int.self), try $0.get("waitlist_count", as: Int.self)]
        }
        #expect(counts == [2, 1])
        #expect(try database.scalar("SELECT count(*) FROM pragma_table_info('meetups') WHERE name = 'checked_in_count'", as: Int.self) == 0,
                "0009 counts check-ins when a meetup is read")
    }

    @Test func aCheckInLeavesTheMeetupRowAloneAndTheCountsStayRight() throws {
        let fixture = try DomainFixture()
        let meetup = try fixture.meetup(capacity: 2, startsIn: 600)
        let first = try fixture.member(), second = try fixture.member(), third = try fixture.member()
        for member in [first, second, third] {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        // Any write to the meetup's row now fails the transaction that makes it.
        let guardRow = TestDatabase.isPostgreSQL
            ? """
              CREATE FUNCTION refuse_meetup_writes() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN RAISE EXCEPTION 'the meetup row was written'; END; $$;
              CREATE TRIGGER refuse_meetup_writes BEFORE UPDATE ON meetups FOR EACH ROW EXECUTE FUNCTION refuse_meetup_writes();
              """
            : "CREATE TRIGGER refuse_meetup_writes BEFORE UPDATE ON meetups BEGIN SELECT RAISE(ABORT, 'the meetup row was written'); END;"
        try fixture.pool.write { try $0.executeScript(guardRow) }
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: first.id, proof: .host), by: fixture.hostActor)
        try fixture.pool.write { try $0.executeScript(TestDatabase.isPostgreSQL ? "DROP TRIGGER refuse_meetup_writes ON meetups"
                                                                                 : "DROP TRIGGER refuse_meetup_writes") }
        let read = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect([read.goingCount, read.waitlistCount, read.checkedInCount] == [2, 1, 1] as [Int])
        // Undoing it keeps the place too; only the count read from the attendances changes.
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: first.id, by: fixture.hostActor)
        let after = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect([after.goingCount, after.waitlistCount, after.checkedInCount] == [2, 1, 0] as [Int])
    }

    @Test func settingsAreValidated() {
        #expect(refusal { try BuiltInSettings.domain { $0.checkIn.codeStepSeconds = 10 }.validate() } == .invalidInput)
        #expect(refusal { try BuiltInSettings.domain { $0.rewards.rarityWeights = [.common: 0] }.validate() } == .invalidInput)
        #expect(refusal { try BuiltInSettings.domain { $0.renderJobs.maxAttempts = 0 }.validate() } == .invalidInput)
        #expect(refusal { try BuiltInSettings.domain().validate() } == nil)
    }
}
