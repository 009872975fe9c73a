@testable import BelayDomain
import BelayCore
import BelayStorage
import BelayTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct AttendanceServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture() }

    var attendance: AttendanceService { fixture.domain.attendance }

    func join(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)).attendance
    }

    @Test func joinsAreGoingUntilFullThenWaitlistedInOrder() throws {
        let meetup = try fixture.meetup(capacity: 2)
        let members = try (0..<5).map { _ in try fixture.member() }
        let statuses = try members.map { try join($0, meetup) }
        #expect(statuses.map(\.status) == [.going, .going, .waitlisted, .waitlisted, .waitlisted])
        #expect(statuses.map(\.waitlistPosition) == [nil, nil, 1, 2, 3])
        let waitlist = try attendance.attendees(meetupID: meetup.id, status: .waitlisted).items.map(\.attendance.memberID)
        #expect(waitlist == [members[2].id, members[3].id, members[4].id])
        let refreshed = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect(refreshed.goingCount == 2)
        #expect(refreshed.waitlistCount == 3)
    }

    @Test func joiningTwiceChangesNothing() throws {
        let meetup = try fixture.meetup(capacity: 1)
        let member = try fixture.member()
        let first = try attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        fixture.clock.advance(by: 60)
        let second = try attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        #expect(first.changed)
        #expect(!second.changed)
        #expect(second.attendance == first.attendance)
    }

    @Test func leavingPromotesTheFirstWaitlistedInTheSameTransaction() throws {
        let meetup = try fixture.meetup(capacity: 1)
        let (going, first, second) = (try fixture.member(), try fixture.member(), try fixture.member())
        _ = try join(going, meetup)
        _ = try join(first, meetup)
        _ = try join(second, meetup)
        let result = try attendance.leave(meetupID: meetup.id, memberID: going.id, by: .user(going.id, role: .member))
        #expect(result.attendance.status == .cancelled)
        #expect(result.promoted.map(\.memberID) == [first.id])
        #expect(try attendance.attendance(meetupID: meetup.id, memberID: first.id)?.status == .going)
        let stillWaiting = try attendance.attendance(meetupID: meetup.id, memberID: second.id)
        #expect(stillWaiting?.status == .waitlisted)
        #expect(stillWaiting?.waitlistPosition == 1)
    }

    @Test func leavingFromTheWaitlistPromotesNobody() throws {
        let meetup = try fixture.meetup(capacity: 1)
        let (going, waiting) = (try fixture.member(), try fixture.member())
        _ = try join(going, meetup)
        _ = try join(waiting, meetup)
        let result = try attendance.leave(meetupID: meetup.id, memberID: waiting.id, by: .user(waiting.id, role: .member))
        #expect(result.promoted.isEmpty)
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).goingCount == 1)
    }

    @Test func rejoiningGoesToTheBackOfTheLine() throws {
        let meetup = try fixture.meetup(capacity: 1)
        let (going, a, b) = (try fixture.member(), try fixture.member(), try fixture.member())
        _ = try join(going, meetup)
        _ = try join(a, meetup)
        _ = try join(b, meetup)
        _ = try attendance.leave(meetupID: meetup.id, memberID: a.id, by: .user(a.id, role: .member))
        #expect(try join(a, meetup).waitlistPosition == 2)
        let promoted = try attendance.leave(meetupID: meetup.id, memberID: going.id, by: .user(going.id, role: .member)).promoted
        #expect(promoted.map(\.memberID) == [b.id])
    }

    @Test func loweringCapacityNeverEvictsAndRaisingItPromotes() throws {
        let meetup = try fixture.meetup(capacity: 3)
        let members = try (0..<5).map { _ in try fixture.member() }
        for member in members { _ = try join(member, meetup) }
        let lowered = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: 1), by: fixture.hostActor)
        #expect(lowered.goingCount == 3)
        #expect(lowered.capacity == 1)
        // Over capacity: a leave does not promote until the meetup is under capacity again.
        let result = try attendance.leave(meetupID: meetup.id, memberID: members[0].id, by: .user(members[0].id, role: .member))
        #expect(result.promoted.isEmpty)
        let raised = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: 4), by: fixture.hostActor)
        #expect(raised.goingCount == 4)
        #expect(raised.waitlistCount == 0)
        #expect(try attendance.attendance(meetupID: meetup.id, memberID: members[3].id)?.status == .going)
    }

    @Test func aNewJoinerWaitsBehindTheWaitlistEvenWhenAPlaceLooksFree() throws {
        let meetup = try fixture.meetup(capacity: 2)
        let members = try (0..<3).map { _ in try fixture.member() }
        for member in members { _ = try join(member, meetup) }
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: 1), by: fixture.hostActor)
        _ = try attendance.leave(meetupID: meetup.id, memberID: members[0].id, by: .user(members[0].id, role: .member))
        _ = try attendance.leave(meetupID: meetup.id, memberID: members[1].id, by: .user(members[1].id, role: .member))
        // members[2] was promoted by the second leave; a newcomer now finds the meetup full.
        #expect(try attendance.attendance(meetupID: meetup.id, memberID: members[2].id)?.status == .going)
        #expect(try join(try fixture.member(), meetup).status == .waitlisted)
    }

    @Test func cancellingAMeetupCancelsItsAttendance() throws {
        let meetup = try fixture.meetup(capacity: 1)
        let (going, waiting) = (try fixture.member(), try fixture.member())
        _ = try join(going, meetup)
        _ = try join(waiting, meetup)
        let cancelled = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.goingCount == 0)
        #expect(cancelled.waitlistCount == 0)
        #expect(try attendance.attendance(meetupID: meetup.id, memberID: going.id)?.status == .cancelled)
        #expect(refusal { _ = try join(try fixture.member(), meetup) } == .meetupCancelled)
    }

    @Test func refusals() throws {
        let meetup = try fixture.meetup(capacity: 5)
        let (member, other) = (try fixture.member(), try fixture.member())
        #expect(refusal { _ = try attendance.join(meetupID: 999, memberID: member.id, by: .user(member.id, role: .member)) } == .meetupNotFound)
        #expect(refusal { _ = try attendance.join(meetupID: meetup.id, memberID: other.id, by: .user(member.id, role: .member)) } == .notPermitted)
        #expect(refusal { _ = try attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)) } == .notAttending)
        _ = try join(member, meetup)
        _ = try attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        #expect(refusal { _ = try attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)) } == .alreadyCancelled)
        _ = try join(member, meetup)
        fixture.clock.advance(by: 3_600)
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: fixture.hostActor)
        #expect(refusal { _ = try attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)) } == .alreadyCheckedIn)
        fixture.clock.advance(by: 7_200)
        #expect(refusal { _ = try join(other, meetup) } == .meetupOver)
    }

    @Test func hostsAndTheCommandLineMayAddMembers() throws {
        let meetup = try fixture.meetup(capacity: 5)
        let member = try fixture.member()
        // A host adds only members they may see (who joined one of their meetups): any other
        // id is answered as one no user has.
        #expect(refusal { _ = try attendance.join(meetupID: meetup.id, memberID: member.id, by: fixture.hostActor) } == .userNotFound)
        _ = try join(member, try fixture.meetup(capacity: 5, startsIn: 7_200))
        #expect(try attendance.join(meetupID: meetup.id, memberID: member.id, by: fixture.hostActor).attendance.status == .going)
        let another = try fixture.member()
        #expect(try attendance.join(meetupID: meetup.id, memberID: another.id, by: .commandLine).attendance.status == .going)
    }

    @Test func attendeeListsPageInJoinOrder() throws {
        let meetup = try fixture.meetup(capacity: 3)
        let members = try (0..<7).map { _ in try fixture.member() }
        for member in members { _ = try join(member, meetup) }
        var seen: [Int64] = []
        var cursor: String?
        repeat {
            let page = try attendance.attendees(meetupID: meetup.id, limit: 3, cursor: cursor)
            seen += page.items.map(\.attendance.memberID)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(seen == members.map(\.id))
        #expect(refusal { _ = try attendance.attendees(meetupID: meetup.id, cursor: "bm9wZQ") } == .invalidCursor)
        let mine = try attendance.attendances(memberID: members[0].id)
        #expect(mine.items.map(\.meetupID) == [meetup.id])
    }

    @Test func theMeetupCountersAlwaysMatchTheAttendances() throws {
        let meetup = try fixture.meetup(capacity: 3)
        let members = try (0..<6).map { _ in try fixture.member() }
        func verify() throws {
            let counted = try fixture.pool.read { db in
                try db.queryOne("""
                    SELECT count(*) FILTER (WHERE status IN ('going', 'checked_in')) AS going, count(*) FILTER (WHERE status = 'waitlisted') AS waiting,
                           count(*) FILTER (WHERE status = 'checked_in') AS checked_in
                    FROM attendances WHERE meetup_id = ?
                    """, [meetup.id]) { [try $0.get("going", as: Int.self), try $0.get("waiting", as: Int.self), try $0.get("checked_in", as: Int.self)] }
            }
            let stored = try fixture.domain.meetups.meetup(id: meetup.id)
            #expect(counted == [stored.goingCount, stored.waitlistCount, stored.checkedInCount])
        }
        for member in members { _ = try join(member, meetup); try verify() }
        _ = try attendance.leave(meetupID: meetup.id, memberID: members[0].id, by: .commandLine)
        try verify()
        fixture.clock.advance(by: 3_600)
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: members[1].id, proof: .host), by: .commandLine)
        try verify()
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: members[1].id, by: .commandLine)
        try verify()
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: 5), by: .commandLine)
        try verify()
        _ = try join(members[0], meetup)
        try verify()
        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: .commandLine)
        try verify()
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).goingCount == 0)
    }

    @Test func capacityHoldsUnderConcurrentJoinsFromManyThreads() throws {
        let meetup = try fixture.meetup(capacity: 7)
        let members = try (0..<48).map { _ in try fixture.member() }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in stride(from: thread, to: members.count, by: 8) {
                do {
                    _ = try join(members[index], meetup)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let result = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect(result.goingCount == 7)
        #expect(result.waitlistCount == 41)
    }

    /// Runs in a child process started by `capacityHoldsUnderConcurrentJoinsFromSeveralProcesses`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BELAY_TEST_JOIN_DATABASE"] != nil))
    func joinFromChildProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["BELAY_TEST_JOIN_DATABASE"])
        let meetupID = try #require(environment["BELAY_TEST_JOIN_MEETUP"].flatMap { Int64($0) })
        let memberIDs = try #require(environment["BELAY_TEST_JOIN_MEMBERS"]).split(separator: ",").compactMap { Int64($0) }
        let pool = try TestDatabase.reopen(path)
        let domain = try DomainServices(pool: pool, clock: ManualTimeSource(DomainFixture.start), settings: BuiltInSettings.domain())
        _ = readLine() // the parent's "go": every process starts joining at the same moment
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in stride(from: thread, to: memberIDs.count, by: 4) {
                _ = try? domain.attendance.join(meetupID: meetupID, memberID: memberIDs[index], by: .commandLine)
            }
        }
    }

    @Test func capacityHoldsUnderConcurrentJoinsFromSeveralProcesses() throws {
        let meetup = try fixture.meetup(capacity: 9)
        let members = try (0..<60).map { _ in try fixture.member() }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var children: [(Process, Pipe)] = []
        for child in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: testBinary)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "joinFromChildProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment["BELAY_TEST_JOIN_DATABASE"] = fixture.pool.location
            environment["BELAY_TEST_JOIN_MEETUP"] = String(meetup.id)
            environment["BELAY_TEST_JOIN_MEMBERS"] = members[(child * 20)..<(child * 20 + 20)].map { String($0.id) }.joined(separator: ",")
            process.environment = environment
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            children.append((process, input))
        }
        for (_, input) in children {
            try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
            try input.fileHandleForWriting.close()
        }
        for (process, _) in children {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let result = try fixture.domain.meetups.meetup(id: meetup.id)
        #expect(result.goingCount + result.waitlistCount == 60, "every join landed")
        #expect(result.goingCount == 9)
        #expect(result.waitlistCount == 51)
    }
}
